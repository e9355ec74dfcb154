/** λz controls (minimum points, tolerance, exclusions, Tmax, user λz) and the quality flags, worked on exponentials. */
import { describe, expect, it } from 'vitest';
import { qualityFlags } from '../../src/nca/flags.js';
import { nca } from '../../src/nca/nca.js';

const k = 0.2;
const time = [0, 1, 2, 4, 6, 8, 12, 24];
const expo = (t: number) => 10 * Math.exp(-k * t);

describe('λz controls', () => {
  it('exclude: an outlier at 8 h is left out, then best fit on the rest recovers λz = k exactly', () => {
    const conc = time.map((t) => (t === 0 ? 0 : t === 8 ? expo(8) * 1.6 : expo(t)));
    const plain = nca({ time, conc });
    expect(Math.abs(plain.parameters.LAMZ!.value! - k)).toBeGreaterThan(1e-3);
    const r = nca({ time, conc }, { lambdaZControls: { exclude: [5] } });
    expect(r.parameters.LAMZ?.value).toBeCloseTo(k, 12);
    expect(r.lambdaZ?.indices).not.toContain(5);
    expect(nca({ time, conc }, { lambdaZControls: { exclude: [99] } }).notes.LAMZ).toBe('λz row 99 is not a usable post-dose sample');
  });

  it('minPoints: windows shorter than it are not considered; fewer candidates than it leave λz missing', () => {
    // Perfect exponential only over the last 3 points; the earlier ones bend (distribution phase).
    const conc = [0, 30, 20, 9, expo(6) * 1.3, expo(8), expo(12), expo(24)];
    expect(nca({ time, conc }).parameters.LAMZNPT?.value).toBe(3);
    expect(nca({ time, conc }, { lambdaZControls: { minPoints: 5 } }).parameters.LAMZNPT?.value).toBe(5);
    const none = nca({ time, conc }, { lambdaZControls: { minPoints: 7 } });
    expect(none.parameters.LAMZ?.value).toBeNull();
    expect(none.notes.LAMZ).toMatch(/≥ 7 positive points/);
    expect(() => nca({ time, conc }, { lambdaZControls: { minPoints: 2 } })).toThrow(/integer ≥ 3/);
  });

  it('adjR2Tolerance: a wide tolerance prefers the window with more points', () => {
    const conc = [0, 30, 20, 9, expo(6) * 1.05, expo(8), expo(12), expo(24)];
    const tight = nca({ time, conc }, { lambdaZControls: { adjR2Tolerance: 0 } }).parameters.LAMZNPT?.value as number;
    const wide = nca({ time, conc }, { lambdaZControls: { adjR2Tolerance: 0.05 } }).parameters.LAMZNPT?.value as number;
    expect(tight).toBe(3);
    expect(wide).toBeGreaterThan(tight);
  });

  it('allowTmax: a profile falling from its first sample may use Cmax in the fit (LAMZLL = Tmax)', () => {
    const t = [1, 2, 4, 8, 12];
    const conc = t.map(expo);
    expect(nca({ time: t, conc }).parameters.LAMZLL?.value).toBe(2);
    const r = nca({ time: t, conc }, { lambdaZControls: { allowTmax: true } });
    expect(r.parameters.LAMZLL?.value).toBe(1);
    expect(r.parameters.LAMZNPT?.value).toBe(5);
  });

  it('lambdaZValue: no regression; AUCIFO = AUClast + Clast/λz with the given λz, R² and CLSTP missing with a note', () => {
    const conc = time.map((t) => (t === 0 ? 0 : expo(t)));
    const r = nca({ time, conc, dose: 100 }, { lambdaZValue: 0.25 });
    expect(r.parameters.LAMZ?.value).toBe(0.25);
    expect(r.parameters.AUCIFO?.value).toBeCloseTo(r.parameters.AUCLST!.value! + expo(24) / 0.25, 12);
    expect(r.parameters.R2?.value).toBeNull();
    expect(r.notes.R2).toBe('λz given by the user (no regression)');
    expect(() => nca({ time, conc }, { lambdaZValue: -1 })).toThrow(/positive/);
  });
});

describe('quality flags', () => {
  it('LAMZSPN = (LAMZUL − LAMZLL)/t½: the whole tail 2–24 h at t½ = 3.466 h spans 6.35; no flag', () => {
    const conc = time.map((t) => (t === 0 ? 0 : expo(t)));
    const r = nca({ time, conc });
    expect(r.parameters.LAMZSPN?.value).toBeCloseTo((24 - 2) / (Math.LN2 / k), 10);
    expect(r.flags).toEqual([]);
  });

  it('a short tail (1.15 half-lives) with 32 % extrapolated raises LAMZSPN and AUCPEO; thresholds can be set', () => {
    const t = [0, 1, 2, 4, 6, 8];
    const conc = [0, 2, 10, expo(4), expo(6), expo(8)];
    const r = nca({ time: t, conc });
    expect(r.parameters.LAMZSPN?.value).toBeCloseTo(4 / (Math.LN2 / k), 10);
    expect(r.flags.map((f) => f.code)).toEqual(['LAMZSPN', 'AUCPEO']);
    expect(r.flags[1].message).toMatch(/% extrapolated \(> 20 %\)/);
    expect(nca({ time: t, conc }, { flags: { minSpan: 1, maxExtrapolated: 50 } }).flags).toEqual([]);
  });

  it('adjusted R² below 0.9 is flagged', () => {
    const flags = qualityFlags({ R2ADJ: { value: 0.85, unit: '' } });
    expect(flags).toEqual([{ code: 'R2ADJ', value: 0.85, threshold: 0.9, message: 'λz regression adjusted R² 0.85 (< 0.9)' }]);
  });
});
