/**
 * Partial AUCs: worked numbers (several from PKNCA's test-aucint.R, whose
 * conventions these are) and analytic one-compartment truth.
 */
import { describe, expect, it } from 'vitest';
import { aucInterval, concentrationAt, partialAreas } from '../../src/nca/partial-auc.js';
import { nca } from '../../src/nca/nca.js';

const time = [0, 1, 2, 3];
const conc = [8, 4, 2, 1];

describe('aucInterval: worked numbers', () => {
  it('equals the plain trapezoid sum when no interpolation is needed (PKNCA)', () => {
    expect(aucInterval(time, conc, 0, 3)).toBe(6 + 3 + 1.5);
    expect(aucInterval(time, conc, 0, 2)).toBe(9);
  });

  it('interpolates linearly, or log-linearly on falling segments with lin-up-log-down', () => {
    // linear: C(0.5) = 6, C(2.5) = 1.5; area 0.5·(6+4)/2 + 3 + 0.5·(2+1.5)/2 = 2.5 + 3 + 0.875
    expect(aucInterval(time, conc, 0.5, 2.5)).toBeCloseTo(6.375, 14);
    // log: each segment halves, so C = 8·2^(−t) exactly and the area is ∫ 8·2^(−t) dt
    const exact = (8 / Math.LN2) * (2 ** -0.5 - 2 ** -2.5);
    expect(aucInterval(time, conc, 0.5, 2.5, { method: 'lin-up-log-down' })).toBeCloseTo(exact, 13);
    expect(concentrationAt(time, conc, 0.5, { method: 'lin-up-log-down' })).toBeCloseTo(8 * 2 ** -0.5, 14);
  });

  it('extrapolates past Tlast with λz by the exact exponential integral, whatever the method (PKNCA #203)', () => {
    const t = [0, 1, 2, 3, 4, 5];
    const c = [0, 1, 2, 0.75, 0.5, 0.2];
    const lambdaZ = 0.661;
    const c6 = 0.2 * Math.exp(-lambdaZ);
    for (const method of ['linear', 'lin-up-log-down'] as const) {
      const to5 = aucInterval(t, c, 0, 5, { method, lambdaZ })!;
      const to6 = aucInterval(t, c, 0, 6, { method, lambdaZ })!;
      expect(to6 - to5).toBeCloseTo((0.2 - c6) / Math.log(0.2 / c6), 14);
    }
  });

  it('AUC to infinity is AUClast + Clast/λz (obs) or + Clast,pred/λz (pred)', () => {
    expect(aucInterval(time, conc, 0, Infinity, { lambdaZ: Math.LN2 })).toBeCloseTo(10.5 + 1 / Math.LN2, 14);
    expect(aucInterval(time, conc, 0, Infinity, { lambdaZ: Math.LN2, clast: 2 })).toBeCloseTo(10.5 + 2 / Math.LN2, 14);
    // from inside the extrapolated part: C(4) = 0.5, area 0.5/ln 2
    expect(aucInterval(time, conc, 4, Infinity, { lambdaZ: Math.LN2 })).toBeCloseTo(0.5 / Math.LN2, 14);
    expect(aucInterval(time, conc, 0, Infinity)).toBeNull();
    expect(partialAreas(time, conc, 0, 5, { type: 'inf' })).toBe('λz is needed to extrapolate past Tlast');
  });

  it('AUMC to infinity agrees with AUMClast + Clast·Tlast/λz + Clast/λz²', () => {
    const areas = partialAreas(time, conc, 0, Infinity, { lambdaZ: Math.LN2 });
    const aumclast = (1 * (0 * 8 + 1 * 4)) / 2 + (1 * (4 + 4)) / 2 + (1 * (4 + 3)) / 2;
    expect(typeof areas === 'string' ? areas : areas.aumc).toBeCloseTo(aumclast + 3 / Math.LN2 + 1 / Math.LN2 ** 2, 13);
  });

  it('after Tlast: 0 for AUClast, the triangle to the trailing zero for AUCall (PKNCA)', () => {
    const t = [0, 1, 2, 3, 4];
    const c = [8, 4, 2, 1, 0];
    expect(aucInterval(t, c, 0, 3.5)).toBe(10.5);
    // C(3.5) = 0.5 on the line from 1 to 0: 10.5 + 0.5·(1 + 0.5)/2
    expect(aucInterval(t, c, 0, 3.5, { type: 'all' })).toBe(10.875);
    expect(aucInterval(t, c, 0, 10, { type: 'all' })).toBe(11);
  });

  it('before the first sample: the origin (0), then a linear ramp to the first sample', () => {
    expect(aucInterval([1, 2, 3], [4, 2, 1], 0, 3)).toBe(2 + 3 + 1.5);
    expect(aucInterval([1, 2, 3], [4, 2, 1], 0, 0.5)).toBe(0);
    expect(aucInterval([1, 2, 3], [4, 2, 1], 0, 0.5, { origin: 3 })).toBe(1.5);
  });

  it('all-zero profiles have area 0; bad input is a clear error', () => {
    expect(aucInterval([0, 1, 2], [0, 0, 0], 0, 5)).toBe(0);
    expect(() => aucInterval(time, conc, 2, 2)).toThrow('end must be after start');
    expect(() => aucInterval([0, 2, 1], [1, 1, 1], 0, 1)).toThrow('sample 3: times must increase strictly');
    expect(() => aucInterval([0, 1], [1, NaN], 0, 1)).toThrow('sample 2');
  });
});

describe('aucInterval: analytic one-compartment truth', () => {
  const [dv, k] = [10, 0.2]; // C = D/V·e^(−kt)
  const c = (t: number) => dv * Math.exp(-k * t);
  const exact = (a: number, b: number) => (dv / k) * (Math.exp(-k * a) - (Number.isFinite(b) ? Math.exp(-k * b) : 0));
  const t = [0, 1, 2, 4, 8, 12];
  const y = t.map(c);

  it('log-down interpolation and λz extrapolation are exact on an exponential', () => {
    for (const [a, b] of [[1.5, 10], [0.3, 0.7], [5, 20], [13, 30], [2, Infinity]] as const) {
      const auc = aucInterval(t, y, a, b, { method: 'lin-up-log-down', lambdaZ: k })!;
      expect(Math.abs(auc - exact(a, b)) / exact(a, b), `[${a}, ${b}]`).toBeLessThan(1e-12);
    }
  });

  it('agrees with nca(): AUC(0, Tlast) = AUCLST and AUC(0, ∞) = AUCIFO', () => {
    const r = nca({ time: t, conc: y, route: 'iv-bolus', dose: 100 }, { aucMethod: 'lin-up-log-down' });
    const lambdaZ = r.parameters.LAMZ!.value!;
    expect(aucInterval(t, y, 0, 12, { method: 'lin-up-log-down' })).toBeCloseTo(r.parameters.AUCLST!.value!, 12);
    expect(aucInterval(t, y, 0, Infinity, { method: 'lin-up-log-down', lambdaZ })).toBeCloseTo(r.parameters.AUCIFO!.value!, 12);
    const areas = partialAreas(t, y, 0, Infinity, { method: 'lin-up-log-down', lambdaZ });
    expect(typeof areas === 'string' ? NaN : areas.aumc).toBeCloseTo(r.parameters.AUMCIFO!.value!, 10);
  });
});
