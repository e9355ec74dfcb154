/** The pkdb profile rule by rule (pkdb-calculation.md §3–§4), with numbers worked by hand. */
import { describe, expect, it } from 'vitest';
import {
  doseAndShift,
  dropVerySmall,
  firstMaxNonNaN,
  outputPkOrder,
  pkdbAuc,
  pkdbNca,
  pkdbRegression,
  type PkdbDosing,
  type PkdbInput,
} from '../../../src/nca/pkdb/profile.js';
import { isRestrictedDosingUnit } from '../../../src/nca/pkdb/units.js';

const dose = (over: Partial<PkdbDosing> = {}): PkdbDosing => ({
  value: 0.1, unit: 'gram', time: 0, timeUnit: 'hr', application: 'single dose', substance: 'caffeine', ...over,
});

describe('§3.1–3.4 order, dose and shift', () => {
  it('orders points by output pk', () => {
    expect(outputPkOrder([13, 11, 12])).toEqual([1, 2, 0]);
  });
  it('PK mode: the dose value, the dosing time converted into the timecourse unit', () => {
    expect(doseAndShift(dose({ time: -0.5 }), 'caffeine', 'min')).toEqual({ dose: 0.1, tOff: -30 });
  });
  it('no-dose mode for an infusion or another substance', () => {
    expect(doseAndShift(dose({ application: 'constant infusion', time: 1 }), 'caffeine', 'hr')).toEqual({ dose: NaN, tOff: 0 });
    expect(doseAndShift(dose({ time: 1 }), 'paraxanthine', 'hr')).toEqual({ dose: NaN, tOff: 0 });
  });
  it('a unit failing the restricted-dosing check drops the dose and the shift', () => {
    expect(doseAndShift(dose({ unit: 'gram / hour', time: 2 }), 'caffeine', 'hr')).toEqual({ dose: NaN, tOff: 0 });
  });
  it('restricted dosing units (the examples of §3.4)', () => {
    for (const unit of ['gram', 'mole', 'g/kg', 'count', 'mole / kilogram']) expect(isRestrictedDosingUnit(unit), unit).toBe(true);
    for (const unit of ['gram / hour', 'gram / meter ** 2', 'milliliter', 'mole / hour / kilogram', 'IU / hour / kilogram', 'becquerel']) {
      expect(isRestrictedDosingUnit(unit), unit).toBe(false);
    }
  });
});

describe('§3.5–3.10 values', () => {
  it('1e6 rule: fires when the smallest non-zero value is below cmax/1e6, zeros included', () => {
    const fired = [0, 5e-7, 2, 1];
    dropVerySmall(fired);
    expect(fired).toEqual([NaN, NaN, 2, 1]);
    const kept = [0, 1e-6, 2, 1]; // 1e6·1e-6 = 1 < cmax 2: fires as well
    dropVerySmall(kept);
    expect(kept).toEqual([NaN, NaN, 2, 1]);
    const quiet = [0, 3e-6, 2, 1];
    dropVerySmall(quiet);
    expect(quiet).toEqual([0, 3e-6, 2, 1]);
    expect(() => dropVerySmall([0, NaN])).toThrow('every concentration is 0 or missing');
  });
  it('AUC: trapezoids in array order, NaN propagates, negative steps count', () => {
    expect(pkdbAuc([0, 1, 3], [0, 2, 2])).toBe(1 + 4);
    expect(pkdbAuc([0, 1, 3], [0, NaN, 2])).toBeNaN();
    expect(pkdbAuc([0, 2, 1], [2, 2, 2])).toBe(4 - 2);
  });
  it('first maximum among non-NaN values', () => {
    expect(firstMaxNonNaN([NaN, 3, 5, 5])).toBe(2);
  });
  it('regression needs 3 elements after the maximum (NaN included) and drops a positive slope', () => {
    expect(pkdbRegression([0, 1, 2, 3], [1, 4, 2, 1], 1).slope).toBeNaN();
    expect(pkdbRegression([0, 1, 2, 3, 4], [1, 4, 1, 2, 4], 1).slope).toBeNaN();
    expect(pkdbRegression([0, 1, 2, 3, 4], [1, 4, 2, 0, 1], 1).slope).toBeNaN(); // ln 0 = −∞ poisons the fit
    const { slope, intercept } = pkdbRegression([0, 1, 2, 3, 4], [1, 8, 4, NaN, 1], 1);
    expect(slope).toBeCloseTo(-Math.LN2, 14); // t = 2, 4 after dropping the NaN: halving per h
    expect(intercept).toBeCloseTo(4 * Math.LN2, 14);
  });
});

describe('pkdbNca end to end', () => {
  // Sorted by pk: t = 0, 0.5, 1, 2, 4, 8 h; c = 0, 4, 8, 4, 2, 1 g/L. Lists given shuffled.
  const order = [3, 0, 5, 1, 4, 2];
  const t = [0, 0.5, 1, 2, 4, 8];
  const c = [0, 4, 8, 4, 2, 1];
  const input: PkdbInput = {
    outputPk: order.map((k) => 100 + k),
    time: order.map((k) => t[k]),
    conc: order.map((k) => c[k]),
    timeUnit: 'hr',
    concUnit: 'gram / liter',
    dosing: dose(),
    substance: 'caffeine',
    seriesField: 'mean',
  };
  // AUC 1 + 3 + 6 + 6 + 6 = 22. Regression on t = 2, 4, 8: x̄ = 14/3, Sxx = 168/9, Sxy = −6 ln2,
  // slope = −9 ln2/28, intercept = ln2 + (9 ln2/28)(14/3) = 2.5 ln2.
  const kel = (9 * Math.LN2) / 28;
  const aucInf = 22 + 1 / kel;
  const vd = 0.1 / (aucInf * kel);
  const expected: [string, number, string][] = [
    ['auc_end', 22, 'gram * hour / liter'],
    ['auc_inf', aucInf, 'gram * hour / liter'],
    ['clearance', kel * vd, 'liter / hour'],
    ['cmax', 8, 'gram / liter'],
    ['kel', kel / 60, '1 / minute'],
    ['thalf', 28 / 9, 'hour'],
    ['tmax', 1, 'hour'],
    ['vd', vd, 'liter'],
    ['vd_ss', 0.1 / 2 ** 2.5, 'liter'],
  ];

  it('emits the nine parameters in creation order with stored units', () => {
    const out = pkdbNca(input);
    expect(out.map((o) => [o.measurement_type, o.unit])).toEqual(expected.map(([m, , u]) => [m, u]));
    out.forEach((o, k) => expect(Math.abs(o.value - expected[k][1]) / expected[k][1], o.measurement_type).toBeLessThan(1e-14));
    expect(out[0]).toMatchObject({ field: 'mean', time: 8, time_unit: 'hr' });
  });
  it('no-dose mode: no vd, vd_ss or clearance', () => {
    const out = pkdbNca({ ...input, dosing: null });
    expect(out.map((o) => o.measurement_type)).toEqual(['auc_end', 'auc_inf', 'cmax', 'kel', 'thalf', 'tmax']);
  });
  it('drops a tmax of exactly 0 and keeps a negative one after the shift', () => {
    const atZero = pkdbNca({ ...input, conc: input.time.map((x) => 8 * Math.exp(-(x as number))) });
    expect(atZero.some((o) => o.measurement_type === 'tmax')).toBe(false);
    const shifted = pkdbNca({ ...input, dosing: dose({ time: 1.5 }) });
    expect(shifted.find((o) => o.measurement_type === 'tmax')!.value).toBe(-0.5);
    // auc_end's time stays the unshifted maximum.
    expect(shifted[0].time).toBe(8);
  });
});
