/** Invariants of the standard profile over random profiles (fast-check). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nca, type NcaResult } from '../../src/nca/nca.js';

/** Distinct post-dose times with non-negative concentrations, 4 to 20 points. */
const profile = fc
  .uniqueArray(fc.integer({ min: 0, max: 2000 }), { minLength: 4, maxLength: 20 })
  .chain((ticks) =>
    fc.record({
      time: fc.constant(ticks.map((t) => t / 10)),
      // Two-decimal values: distinct ones stay distinct (and ordered) under the scalings below.
      conc: fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 100_000 }).map((x) => x / 100)), {
        minLength: ticks.length,
        maxLength: ticks.length,
      }),
    }),
  );

const values = (r: NcaResult) => Object.fromEntries(Object.entries(r.parameters).map(([k, p]) => [k, p!.value]));
const close = (a: number | null, b: number | null, tol: number) =>
  a === null || b === null ? a === b : Math.abs(a - b) <= tol * Math.max(1, Math.abs(a), Math.abs(b));

describe('standard profile invariants', () => {
  it('row order does not matter', () => {
    fc.assert(
      fc.property(profile, fc.integer(), ({ time, conc }, seed) => {
        const order = time.map((_, i) => i).sort((a, b) => ((a * 7919 + seed) % 101) - ((b * 7919 + seed) % 101));
        const shuffled = nca({ time: order.map((i) => time[i]), conc: order.map((i) => conc[i]), dose: 10 });
        const sorted = nca({ time, conc, dose: 10 });
        expect(values(shuffled)).toEqual(values(sorted));
      }),
      { numRuns: 200 },
    );
  });

  it('scaling concentrations scales AUC and Cmax, leaves λz and times alone', () => {
    // Powers of two scale exactly, so ties and orderings (first maximum, flat windows) survive.
    fc.assert(
      fc.property(profile, fc.integer({ min: -20, max: 20 }).map((k) => 2 ** k), ({ time, conc }, a) => {
        for (const aucMethod of ['linear', 'lin-up-log-down'] as const) {
          const base = values(nca({ time, conc }, { aucMethod }));
          const scaled = values(nca({ time, conc: conc.map((c) => c * a) }, { aucMethod }));
          expect(close(scaled.AUCLST, base.AUCLST === null ? null : base.AUCLST * a, 1e-9)).toBe(true);
          expect(close(scaled.CMAX, base.CMAX! * a, 1e-12)).toBe(true);
          expect(close(scaled.LAMZ, base.LAMZ, 1e-6)).toBe(true);
          expect(scaled.TMAX).toBe(base.TMAX);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('λz results are consistent: AUCIFO ≥ AUCLST, window inside [Tmax, Tlast], 0 ≤ R² ≤ 1', () => {
    fc.assert(
      fc.property(profile, ({ time, conc }) => {
        const v = values(nca({ time, conc, dose: 5 }));
        if (v.LAMZ === null) return;
        expect(v.LAMZ).toBeGreaterThan(0);
        expect(v.AUCIFO!).toBeGreaterThanOrEqual(v.AUCLST!);
        expect(v.LAMZLL!).toBeGreaterThan(v.TMAX!);
        expect(v.LAMZUL).toBe(v.TLST);
        expect(v.LAMZNPT!).toBeGreaterThanOrEqual(3);
        expect(v.R2!).toBeGreaterThanOrEqual(0);
        expect(v.R2!).toBeLessThanOrEqual(1 + 1e-12);
        expect(v.AUCALL!).toBeGreaterThanOrEqual(v.AUCLST! - 1e-9 * v.AUCLST!);
      }),
      { numRuns: 300 },
    );
  });
});
