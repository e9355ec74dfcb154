/** Parametric bootstrap of a mean curve: checked against what a linear AUC and a scaled curve must give. */
import { describe, expect, it } from 'vitest';
import { bootstrapMeanCurve, quantile, withinUncertainty } from '../../src/nca/bootstrap.js';
import { mulberry32 } from '../../src/nca/random.js';
import { trapezoidWeights } from '../../src/nca/sparse.js';

const time = [0, 0.5, 1, 2, 4, 6, 8, 12];
const conc = [0, 4, 6, 5, 3.5, 2.4, 1.6, 0.7];
const cv = 0.2;
const se = conc.map((c) => c * cv);

describe('bootstrapMeanCurve', () => {
  it('shared draws with one CV scale the whole curve: λz (t½) does not move; AUC·F, F log-normal with mean 1, σ² = ln(1 + CV²)', () => {
    const r = bootstrapMeanCurve({ time, conc }, { se, correlation: 'shared', replicates: 4000, seed: 42 });
    const hl = r.parameters.LAMZHL!;
    expect(hl.shared!.upper - hl.shared!.lower).toBeLessThan(1e-9);
    const auc = r.parameters.AUCLST!;
    const sigma = Math.sqrt(Math.log1p(cv * cv));
    const [lo, hi] = [-1.959964, 1.959964].map((z) => auc.estimate! * Math.exp(-sigma * sigma / 2 + z * sigma));
    expect(Math.abs(auc.shared!.lower / lo - 1)).toBeLessThan(0.03);
    expect(Math.abs(auc.shared!.upper / hi - 1)).toBeLessThan(0.03);
    expect(auc.shared!.n).toBe(4000);
  });

  it('independent draws: AUClast = Σ wᵢ·Cᵢ has SD √Σ wᵢ²·SEᵢ², so the 95 % interval is ≈ ±1.96 SD; narrower than shared', () => {
    const r = bootstrapMeanCurve({ time, conc }, { se, replicates: 4000, seed: 7 });
    const sd = Math.sqrt(trapezoidWeights(time).reduce((s, w, i) => s + w * w * se[i] * se[i], 0));
    const auc = r.parameters.AUCLST!;
    expect(Math.abs((auc.independent!.upper - auc.independent!.lower) / (2 * 1.959964 * sd) - 1)).toBeLessThan(0.06);
    expect(auc.independent!.upper - auc.independent!.lower).toBeLessThan(auc.shared!.upper - auc.shared!.lower);
    expect(auc.envelope).toEqual({ lower: Math.min(auc.independent!.lower, auc.shared!.lower), upper: Math.max(auc.independent!.upper, auc.shared!.upper) });
    expect(withinUncertainty(auc.estimate!, auc)).toBe(true);
    expect(withinUncertainty(auc.estimate! * 2, auc)).toBe(false);
  });

  it('SD with n gives SE = SD/√n; seeded: the same seed gives the same intervals; dose-based codes when dosed', () => {
    const sd = se.map((s) => s * 3);
    const a = bootstrapMeanCurve({ time, conc, dose: 100 }, { sd, n: 9, replicates: 200, seed: 3 });
    const b = bootstrapMeanCurve({ time, conc, dose: 100 }, { se, replicates: 200, seed: 3 });
    expect(a.parameters).toEqual(b.parameters);
    expect(Object.keys(a.parameters)).toEqual(['CMAX', 'TMAX', 'AUCLST', 'AUCIFO', 'LAMZHL', 'CLFO', 'VZFO']);
    const c = bootstrapMeanCurve({ time, conc }, { se, replicates: 200, seed: 4 });
    expect(c.parameters.AUCLST!.independent!.lower).not.toBe(b.parameters.AUCLST!.independent!.lower);
  });

  it('bounded: replicates in [10, 10000], SE or SD with n required, maxMs stops early with a note', () => {
    expect(() => bootstrapMeanCurve({ time, conc }, { se, replicates: 1e6 })).toThrow(/replicates/);
    expect(() => bootstrapMeanCurve({ time, conc }, { sd: se })).toThrow(/`sd` with `n`/);
    const r = bootstrapMeanCurve({ time, conc }, { se, replicates: 10_000, maxMs: 0, correlation: 'independent' });
    expect(r.replicates).toBeLessThan(10_000);
    expect(r.notes[0]).toMatch(/stopped after/);
  });

  it('helpers: mulberry32 is deterministic in [0, 1); quantile type 7', () => {
    const u = mulberry32(1);
    const xs = Array.from({ length: 1000 }, u);
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(mulberry32(1)()).toBe(xs[0]);
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(quantile([1, 2, 3, 4], 0.25)).toBe(1.75);
  });
});
