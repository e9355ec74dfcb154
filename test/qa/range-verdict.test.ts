import { describe, expect, it } from 'vitest';
import { doseOutBy, dosesDoubt, doseVouched, FAR_Z, INSIDE_Z, judge, mostOffAlike, OUTSIDE_Z } from '../../src/qa/range-verdict.js';
import { SPREAD_FLOOR } from '../../src/qa/reference-stats.js';
import { arm } from '../helpers/reference-studies.js';

describe('range-verdict: the verdict on one value', () => {
  // Reference: median ln 10, spread ln 1.25 = 0.223 (the MAD of 10, 12, 8, 11, 9 is ln(10/9) = 0.105, ×1.4826 = 0.156: floored).
  const ref = { median: Math.log(10), spread: SPREAD_FLOOR, studies: 5, arms: 5, min: Math.log(8), max: Math.log(12), secondMin: Math.log(9), secondMax: Math.log(11) };

  it('names ×1/60 for 10/60 L/h: z = ln(1/60)/0.223 = −18.3, and 10/60 × 60 = 10 is the median', () => {
    const v = judge({ value: 10 / 60, family: 'clearance', molarMass: null, bodyWeightKg: null, dose: null }, ref);
    expect(v.classification).toBe('slip');
    expect(v.z).toBeCloseTo(Math.log(1 / 60) / Math.log(1.25), 6);
    expect(v.cause?.factor).toBeCloseTo(1 / 60, 12);
    // Per-kg with a typical 70 kg also brings it inside (10/60 × 70 = 11.7, 0.15 from the median < 2.5 × 0.223): named as the alternative.
    expect(v.alternatives.map((c) => c.kind)).toEqual(['unit-factor', 'per-kg']);
    expect(v.alternatives[1].text).toMatch(/typical adult/);
  });

  it('keeps a value within OUTSIDE_Z robust SDs inside, and one beyond every factor as outside', () => {
    expect(judge({ value: 10 * Math.exp((OUTSIDE_Z - 0.1) * SPREAD_FLOOR), family: 'clearance', molarMass: null, bodyWeightKg: null, dose: null }, ref).classification).toBe('inside');
    // 2 L/h: z = ln 0.2 / 0.223 = −7.2; ×1/10 would put it at 20 L/h, ln 2 = 0.69 from the median > 2.5 × 0.223 = 0.56: no factor.
    const v = judge({ value: 2, family: 'clearance', molarMass: null, bodyWeightKg: null, dose: null }, ref);
    expect(v).toMatchObject({ classification: 'outside', cause: null });
    expect(Math.log(20 / 10)).toBeGreaterThan(INSIDE_Z * SPREAD_FLOOR);
  });

  it('far out (|z| ≥ 8), names a factor that lands among the values two other studies reach, short of the median', () => {
    // Doses of 16–98 mg, median 40 mg, spread 0.223 (19 studies); 80 g: z = ln(2000)/0.223 = 34.1. ×1000 gives 80 mg,
    // ln 2 = 0.69 from the median (> 2.5 × 0.223 = 0.56) but below the second-highest study's 98 mg: named.
    const doses = { median: Math.log(0.04), spread: SPREAD_FLOOR, studies: 19, arms: 25, min: Math.log(0.0164), max: Math.log(0.0977), secondMin: Math.log(0.02), secondMax: Math.log(0.0977) };
    const v = judge({ value: 80, family: 'dose' as never, molarMass: null, bodyWeightKg: null, dose: null }, doses);
    expect(v.z).toBeCloseTo(Math.log(2000) / SPREAD_FLOOR, 6);
    expect(v).toMatchObject({ classification: 'slip', cause: { factor: 1000 } });
    // nearer in (z 7 < 8): 190 mg, ×10 gives 19 mg, among the others (from 18 mg) but 0.74 from the median: no factor
    const nearer = 0.04 * Math.exp(7 * SPREAD_FLOOR);
    expect(judge({ value: nearer, family: 'dose' as never, molarMass: null, bodyWeightKg: null, dose: null }, { ...doses, secondMin: Math.log(0.018) })).toMatchObject({ classification: 'outside', cause: null });
  });

  it('farther out (|z| ≥ FAR_Z = 12), names a factor that undone leaves the value within OUTSIDE_Z, when nothing fits closer', () => {
    // tmax of 12 studies: median 1.22 h, spread ln 1.35 = 0.3, second extremes 0.5–2.5 h. A tmax of 190 h:
    // z = ln(190/1.22)/0.3 = 16.8. ×60 undone gives 3.17 h: ln(3.17/1.22)/0.3 = z 3.18, more than INSIDE_Z from the
    // median and above the second-highest study's 2.5 h, but no longer outside (≤ OUTSIDE_Z): named, as FAR_Z allows.
    const tmax = { median: Math.log(1.22), spread: Math.log(1.35), studies: 12, arms: 14, min: Math.log(0.38), max: Math.log(3.92), secondMin: Math.log(0.5), secondMax: Math.log(2.5) };
    const v = judge({ value: 190, family: 'tmax', molarMass: null, bodyWeightKg: null, dose: null }, tmax);
    expect(v.z).toBeCloseTo(Math.log(190 / 1.22) / Math.log(1.35), 6);
    expect(FAR_Z).toBe(12);
    expect(v).toMatchObject({ classification: 'slip', cause: { factor: 60 } });
    expect(v.alternatives).toHaveLength(1);
    // Two factors landing inside tell none: a metabolite's Cmax per dose of 8.34e-6 against a median of 1.43e-3 at spread
    // 0.38 (z −13.5); its molar mass 461.5 g/mol makes ×1/461.5 land at z 2.6 and ×1/46.1 at z −3.45, both no longer
    // outside, neither within INSIDE_Z: a poor metaboliser's level with a dose slip on top, no unit slip named.
    const metabolite = { median: Math.log(1.43e-3), spread: 0.38, studies: 8, arms: 8, min: Math.log(3e-4), max: Math.log(7e-3), secondMin: Math.log(1.1e-3), secondMax: Math.log(1.9e-3) };
    const poor = judge({ value: 8.34e-6, family: 'cmax', molarMass: 461.5, bodyWeightKg: null, dose: null }, metabolite);
    expect(poor.z).toBeLessThan(-FAR_Z);
    expect(poor).toMatchObject({ classification: 'outside', cause: null });
    // 250 h: z 17.7, and ×60 undone 4.17 h is z 4.1, still outside (×24: z 7.1; ×1440: z −6.5): no factor.
    expect(judge({ value: 250, family: 'tmax', molarMass: null, bodyWeightKg: null, dose: null }, tmax)).toMatchObject({ classification: 'outside', cause: null });
  });

  it('does not name a factor the spread could imitate: ×10 needs ln 10 ≥ OUTSIDE_Z × spread', () => {
    const wide = { ...ref, studies: 8, spread: 0.7, min: Math.log(0.5), max: Math.log(200), secondMin: Math.log(1), secondMax: Math.log(100) };
    // A Cmax per dose of 10 × e^(4.2 × 0.7) × 1.1 = 209 is outside; ÷10 gives 21 (inside), but ln 10 = 2.30 < 4 × 0.7 = 2.8: not named
    // For a clearance, ×24 would be (ln 24 = 3.18; 209/24 = 8.7 is 0.14 from the median, within 1.5 × 0.7).
    const v = judge({ value: 10 * Math.exp(4.2 * 0.7) * 1.1, family: 'cmax', molarMass: null, bodyWeightKg: null, dose: null }, { ...wide, secondMax: Math.log(150) });
    expect(v.classification).toBe('outside');
    expect(judge({ value: 10 * Math.exp(4.2 * 0.7) * 1.1, family: 'clearance', molarMass: null, bodyWeightKg: null, dose: null }, { ...wide, secondMax: Math.log(150) }).cause?.factor).toBe(24);
  });

  it('names ×10 only from ten studies and |z| ≥ 6, and no factor below ×100 for an IV bolus Cmax', () => {
    // 10/10 = 1 L/h: z = ln 0.1 / 0.223 = −10.3, ×1/10 lands on the median; with 5 studies not named, with 10 it is.
    expect(judge({ value: 1, family: 'clearance', molarMass: null, bodyWeightKg: null, dose: null }, ref).classification).toBe('outside');
    expect(judge({ value: 1, family: 'clearance', molarMass: null, bodyWeightKg: null, dose: null }, { ...ref, studies: 10 }).cause?.factor).toBe(0.1);
    const bolus = { ...arm('Z').dosing, route: 'iv' };
    const cmaxRef = { ...ref, studies: 12 };
    expect(judge({ value: 600, family: 'cmax', molarMass: null, bodyWeightKg: null, dose: bolus }, cmaxRef).classification).toBe('outside');
    expect(judge({ value: 10000, family: 'cmax', molarMass: null, bodyWeightKg: null, dose: bolus }, cmaxRef).cause?.factor).toBe(1000);
  });

  it('names a ×10 that may not name a slip alone after a molar factor of ×10–20 that does (not for a dose)', () => {
    // Paracetamol (151.2 g/mol), 5 studies: 151.2 is ×15.12 the median (z 12.2), mmol/L read as mg/dL; ×10 fits too
    // (15.12 lands ln 1.51 = 0.41 from the median, within 2.5 × 0.223) but is small, from fewer than ten studies.
    const value = { value: 151.2, family: 'cmax' as const, molarMass: 151.2, bodyWeightKg: null, dose: null };
    const v = judge(value, ref);
    expect(v.alternatives.map((c) => [c.kind, +c.factor.toPrecision(4)])).toEqual([['molar-mass', 15.12], ['unit-factor', 10]]);
    expect(judge({ ...value, record: 'dosing' }, ref).alternatives.map((c) => c.kind)).toEqual(['molar-mass']);
  });

  it('names no ×10 for one individual (the reference spreads as arms do), but a ×24 or ×1000', () => {
    const tenStudies = { ...ref, studies: 10 };
    const one = { value: 1, family: 'clearance' as const, molarMass: null, bodyWeightKg: null, dose: null };
    expect(judge({ ...one, subject: 'group:3' }, tenStudies).cause?.factor).toBe(0.1);
    expect(judge({ ...one, subject: 'individual:3' }, tenStudies)).toMatchObject({ classification: 'outside', cause: null });
    expect(judge({ ...one, value: 10 / 24, subject: 'individual:3' }, tenStudies).cause?.factor).toBeCloseTo(1 / 24, 12);
    expect(judge({ ...one, value: 0.01, subject: 'individual:3' }, tenStudies).cause?.factor).toBeCloseTo(1 / 1000, 12);
  });

  it('asks |z| ≥ 8 of a reference of fewer than 8 studies', () => {
    // Spread 0.6: 10/24 L/h is z = ln(1/24)/0.6 = −5.3, and ×1/24 lands on the median; from 5 studies not named, from 8 it is.
    const wider = { ...ref, spread: 0.6, secondMin: Math.log(3) };
    const v = { value: 10 / 24, family: 'clearance' as const, molarMass: null, bodyWeightKg: null, dose: null };
    expect(judge(v, wider)).toMatchObject({ classification: 'outside', cause: null });
    expect(judge(v, { ...wider, studies: 8 }).cause?.factor).toBeCloseTo(1 / 24, 12);
  });

  it('needs the value beyond every other study but one: two studies vouch for each other', () => {
    const v = judge({ value: 10 / 60, family: 'clearance', molarMass: null, bodyWeightKg: null, dose: null }, { ...ref, secondMin: Math.log(0.15) });
    expect(v.classification).toBe('inside');
  });

  it('names glucose in mmol/L read as mg/dL: 5 mg/dL = 0.05 g/L against 0.9 g/L is ×1/18 (molar mass 180)', () => {
    const glucose = { median: Math.log(0.9), spread: SPREAD_FLOOR, studies: 6, arms: 6, min: Math.log(0.8), max: Math.log(1.1), secondMin: Math.log(0.82), secondMax: Math.log(1.05) };
    const v = judge({ value: 0.05, family: 'cmax', molarMass: 180, bodyWeightKg: null, dose: null }, glucose);
    expect(v.cause?.kind).toBe('molar-mass');
    expect(v.cause?.factor).toBeCloseTo(1 / 18, 12);
    expect(v.cause?.text).toMatch(/×1\/18 \(molar ↔ mass: mmol\/L read as mg\/dL/);
  });
});

describe('range-verdict: what vouches for a dose', () => {
  it('doseVouched: a typical dose, or another value per dose in line, that the slip put on the dose would throw out', () => {
    // A value per dose ×1/10. Dose z 1.9 at spread 0.6: were it the dose's slip, the true dose is ×1/10, z −1.9: out? no.
    expect(doseVouched({ z: 1.9, spread: 0.6 }, [], 0.1)).toBe(false);
    // Dose z 0 at spread 0.3: the dose ×1/10 would be at z −7.7: the dose vouches.
    expect(doseVouched({ z: 0, spread: 0.3 }, [], 0.1)).toBe(true);
    expect(doseVouched({ z: 3.8, spread: 0.6 }, [], 0.1)).toBe(false);
    expect(doseVouched(undefined, [], 0.1)).toBe(false);
    // Another value per dose at z 0.5 (spread 0.5): ×10 without the dose's slip it would be at 5.1: it vouches.
    expect(doseVouched(undefined, [{ z: 0.5, spread: 0.5 }], 0.1)).toBe(true);
    // At z −2 under a dose ×10 it is at +1.8 without it: in line either way, no witness.
    expect(doseVouched(undefined, [{ z: -2, spread: 0.6 }], 0.1)).toBe(false);
    expect(doseVouched(undefined, [{ z: -9, spread: 0.5 }, { z: 3, spread: 0.5 }], 0.1)).toBe(false);
  });
});

describe('range-verdict: a dose out of the other studies\' doses by the slip its values name', () => {
  it('names the dose when it is out (|z| > 2.5) and in line with the slip undone', () => {
    // Paracetamol 10 g among doses of spread 0.6 (z ln 10 / 0.6 = 3.84); its AUC per dose ×1/10: undone z 0.
    const out = doseOutBy({ z: Math.log(10) / 0.6, spread: 0.6 }, 0.1);
    expect(out?.z).toBeCloseTo(3.84, 2);
    expect(out?.undone).toBeCloseTo(0, 10);
    // A per-kg dose curated as absolute (×1/70, z −7.1 at spread 0.6) with values per dose ×70: in line undone.
    expect(doseOutBy({ z: -Math.log(70) / 0.6, spread: 0.6 }, 70)?.undone).toBeCloseTo(0, 10);
  });
  it('names nothing for a typical dose, an undoing that overshoots, or no dose reference', () => {
    expect(doseOutBy({ z: 1.5, spread: 0.6 }, 0.1)).toBeNull();
    expect(doseOutBy({ z: 3, spread: 0.6 }, 1 / 1000)).toBeNull(); // undone: 3 − 11.5
    expect(doseOutBy(undefined, 0.1)).toBeNull();
  });
});

describe('range-verdict: the other studies\' doses doubt a dose slip its values imply', () => {
  it('doubts a typical dose whose implied dose lies out', () => {
    // Midazolam 7.5 mg at z 0.2 (spread 0.28); CL and V imply ×1/3.07: z 0.2 + ln(1/3.07)/0.28 = −3.8.
    const doubt = dosesDoubt({ z: 0.2, spread: 0.28 }, 1 / 3.07);
    expect(doubt?.implied).toBeCloseTo(0.2 + Math.log(1 / 3.07) / 0.28, 10);
    // An atypical dose (z 3.8) that the values bring back, or an implied dose still in line: no doubt.
    expect(dosesDoubt({ z: 3.8, spread: 0.6 }, 0.1)).toBeNull();
    expect(dosesDoubt({ z: 0.2, spread: 0.6 }, 1 / 2)).toBeNull();
    expect(dosesDoubt(undefined, 0.1)).toBeNull();
  });
});

describe('mostOffAlike', () => {
  it("holds when most of a dose's values per dose are off the same way by factors not all the value's own", () => {
    // A codeine dose ×10: the value at z −8 names ×1/24; two others beyond −4 (one naming nothing), one in line.
    expect(mostOffAlike([{ z: -6, factor: null }, { z: -7, factor: 1 / 29.9 }, { z: -1, factor: null }], -8, 1 / 24)).toBe(true);
  });

  it('fails with fewer than two others, with most in line or off the other way, or with every one naming the same factor', () => {
    expect(mostOffAlike([{ z: -6, factor: null }], -8, 1 / 24)).toBe(false);
    expect(mostOffAlike([{ z: -6, factor: null }, { z: -1, factor: null }, { z: 0.5, factor: null }, { z: 6, factor: 10 }], -8, 1 / 24)).toBe(false);
    // A table's AUCs in µmol·h/L read as mg·h/L: ×194 each, the values' one unit.
    expect(mostOffAlike([{ z: 12, factor: 194.2 }, { z: 13, factor: 194.2 }, { z: 1, factor: null }], 14, 194.2)).toBe(false);
  });
});
