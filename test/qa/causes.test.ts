import { describe, expect, it } from 'vitest';
import {
  exactMolarCause,
  isTimeFactor,
  MIN_MOLAR_FACTOR,
  molarMassCause,
  molarMassSlips,
  molarMassSlipsOf,
  nearestCause,
  nearFactor,
  perKgCause,
  slipFactors,
  TYPICAL_BODY_WEIGHT_KG,
  unitFactorCause,
  unknownWeightPerKgCause,
} from '../../src/qa/causes.js';

describe('nearFactor and unitFactorCause', () => {
  it('matches within 5 % on the fold scale, and a prefix slip within ×2', () => {
    expect(nearFactor(62, 60)).toBe(true); // |ln(62/60)| = 0.033 ≤ ln 1.05 = 0.049
    expect(nearFactor(64, 60)).toBe(false); // 0.065
    expect(unitFactorCause(0.0014, 'cmax')?.text).toMatch(/^×1\/1000 /); // 0.0014 × 1000 = 1.4: within ×2
    expect(unitFactorCause(58.5, 'thalf')?.factor).toBe(60);
    expect(unitFactorCause(60, 'cmax')).toBeNull(); // ×60 touches time-dependent quantities only
    expect(unitFactorCause(16.5, 'clearance')?.factor).toBeCloseTo(1000 / 60, 12); // mL/min vs L/h
  });

  it('per-kg with the body weight, both ways', () => {
    expect(perKgCause(70.5, 'vd', 70)?.factor).toBe(70);
    expect(perKgCause(1 / 69, 'clearance', 70)?.factor).toBeCloseTo(1 / 70, 12);
    expect(perKgCause(70, 'cmax', 70)).toBeNull();
    expect(perKgCause(70, 'vd', null)).toBeNull();
  });
});

describe('molarMassSlips', () => {
  it('caffeine (194.19 g/mol): ×194.2 (µmol ↔ µg), ×5.15 (µmol/L ↔ mg/L: 1000/194.19), ×19.4 (mmol/L ↔ mg/dL)', () => {
    const slips = molarMassSlips(194.19);
    expect(slips.map((s) => s.label)).toEqual(['×194.2', '×5.15', '×19.4']);
    expect(slips[0].factor).toBe(194.19);
    expect(slips[1].factor).toBeCloseTo(1000 / 194.19, 12);
    expect(slips[2].factor).toBeCloseTo(19.419, 12);
    expect(slips[2].explanation).toBe('molar ↔ mass: mmol/L read as mg/dL (molar mass 194.2 g/mol)');
  });

  it('leaves out factors within ×2 of 1 (M ≈ 1000 for µmol/L ↔ mg/L; M ≈ 10 for mmol/L ↔ mg/dL), and nonsense masses', () => {
    expect(molarMassSlips(1200).map((s) => s.label)).toEqual(['×1200', '×120']); // 1.2 is no slip
    expect(molarMassSlips(18.02).map((s) => s.label)).toEqual(['×18', '×55.5']); // 18.02/10 = 1.8 is no slip
    for (const s of molarMassSlips(500)) expect(s.factor).toBeGreaterThanOrEqual(MIN_MOLAR_FACTOR);
    expect(molarMassSlips(0)).toEqual([]);
    expect(molarMassSlips(Number.NaN)).toEqual([]);
  });

  it('slipFactors: one list per parameter, molar mass and body weight (the same on every ask, distinct otherwise)', () => {
    expect(slipFactors('cmax', { molarMass: 151.16 })).toBe(slipFactors('cmax', { molarMass: 151.16, bodyWeightKg: null }));
    expect(slipFactors('cmax', { molarMass: 151.16 })).not.toBe(slipFactors('cmax', { molarMass: 194.19 }));
    expect(slipFactors('clearance', { bodyWeightKg: 70 })).not.toBe(slipFactors('clearance', { bodyWeightKg: 80 }));
    // The per-kg factor follows the weight: ×70 and ×1/70, ×80 and ×1/80.
    expect(slipFactors('clearance', { bodyWeightKg: 80 }).filter((c) => c.kind === 'per-kg').map((c) => c.factor)).toEqual([80, 1 / 80]);
  });

  it('builds the list once per molar mass (the same list on every ask)', () => {
    expect(molarMassSlips(151.16)).toBe(molarMassSlips(151.16));
    expect(molarMassSlips(151.16).map((s) => s.label)).toEqual(['×151.2', '×6.62', '×15.1']);
  });
});

describe('slipFactors', () => {
  it('glucose (180.16 g/mol) Cmax: mmol/L read as mg/dL is ×1/18.0, both directions listed', () => {
    const causes = slipFactors('cmax', { molarMass: 180.16 });
    const glucose = causes.filter((c) => c.kind === 'molar-mass').map((c) => +c.factor.toPrecision(4));
    expect(glucose).toEqual(expect.arrayContaining([180.2, 0.005551, 5.551, 0.1802, 18.02, 0.05551]));
    expect(causes.find((c) => Math.abs(c.factor - 1 / 18.016) < 1e-9)?.text).toBe('×1/18 (molar ↔ mass: mmol/L read as mg/dL (molar mass 180.2 g/mol))');
  });

  it('mmol/L read as mg/dL (×M/10) only per volume: a codeine Cmax, not its dose, volume or clearance', () => {
    const codeine = 299.4;
    expect(molarMassSlipsOf('cmax', codeine).map((s) => s.label)).toEqual(['×299.4', '×3.34', '×29.9']);
    expect(molarMassSlipsOf('dose', codeine).map((s) => s.label)).toEqual(['×299.4', '×3.34']);
    expect(slipFactors('dose', { molarMass: codeine }).some((c) => Math.abs(c.factor - 29.94) < 1e-6)).toBe(false);
    expect(slipFactors('auc_inf', { molarMass: codeine }).some((c) => Math.abs(c.factor - 29.94) < 1e-6)).toBe(true);
    expect(molarMassCause(29.94, 'vd', codeine)).toBeNull();
    expect(molarMassCause(29.94, 'cmax', codeine)?.factor).toBeCloseTo(29.94, 6);
    expect(molarMassCause(1 / 0.2994, 'dose', codeine, { tolerance: 0 })).toBeNull(); // ×3.34 is below ×10: exactMolarCause's
  });

  it('no molar factors for a half-life; per-kg with a typical adult when the weight is not curated', () => {
    expect(slipFactors('thalf', { molarMass: 180 }).some((c) => c.kind === 'molar-mass')).toBe(false);
    const perKg = slipFactors('vd').filter((c) => c.kind === 'per-kg');
    expect(perKg.map((c) => c.factor)).toEqual([TYPICAL_BODY_WEIGHT_KG, 1 / TYPICAL_BODY_WEIGHT_KG]);
    expect(perKg[0].text).toContain('body weight not curated');
  });
});

describe('molarMassCause', () => {
  it('names a ratio of M·10³ᵏ or 10³ᵏ/M beyond ×10, for amount-bearing quantities only', () => {
    // paracetamol 151.16 g/mol: a value in µmol/L read as µg/L is ×1/151 of the truth.
    expect(molarMassCause(1 / 151.16, 'cmax', 151.16)?.factor).toBeCloseTo(1 / 151.16, 12);
    expect(molarMassCause(151.16, 'auc_inf', 151.16)?.kind).toBe('molar-mass');
    expect(molarMassCause(151.16, 'thalf', 151.16)).toBeNull();
    expect(molarMassCause(5, 'cmax', 151.16)).toBeNull(); // |log10 5| < 1
    expect(molarMassCause(151.16, 'cmax', null)).toBeNull();
  });
});

describe('unknownWeightPerKgCause', () => {
  it('names a ratio of an adult body weight (40–120 kg) either way as per-kg vs absolute', () => {
    expect(unknownWeightPerKgCause(1 / 70)).toMatchObject({ kind: 'per-kg', factor: 1 / 70 });
    expect(unknownWeightPerKgCause(1 / 70)!.text).toMatch(/^×1\/70 /);
    expect(unknownWeightPerKgCause(45)).toMatchObject({ kind: 'per-kg', factor: 45 });
    expect(unknownWeightPerKgCause(1 / 30)).toBeNull(); // a child, or something else: not named
    expect(unknownWeightPerKgCause(1 / 150)).toBeNull();
    expect(unknownWeightPerKgCause(0)).toBeNull();
  });
});

describe('exactMolarCause', () => {
  it('names a molar ↔ mass factor of ×2–10 within 3 % only, both directions', () => {
    // nordazepam, M = 270.7: µmol/L ↔ mg/L is ×1000/270.7 = ×3.694
    expect(exactMolarCause(3.689, 'clearance', 270.7)).toMatchObject({ kind: 'molar-mass' });
    expect(exactMolarCause(3.689, 'clearance', 270.7)!.factor).toBeCloseTo(1000 / 270.7, 9);
    expect(exactMolarCause(1 / 3.72, 'cmax', 270.7)!.factor).toBeCloseTo(270.7 / 1000, 9);
    // 5 % off: an ordinary difference, not named
    expect(exactMolarCause(3.694 * 1.05, 'cmax', 270.7)).toBeNull();
    // ×18 (glucose mmol/L as mg/dL) and beyond are molarMassCause's, with its own window
    expect(exactMolarCause(18, 'cmax', 180.16)).toBeNull();
    // a time does not carry an amount; no molar mass, nothing
    expect(exactMolarCause(3.694, 'thalf', 270.7)).toBeNull();
    expect(exactMolarCause(3.694, 'cmax', null)).toBeNull();
  });
});

describe('nearestCause', () => {
  const causes = [10, 0.1, 1000, 0.001, 60, 1 / 60].map((factor) => ({ kind: 'unit-factor' as const, factor, text: `×${factor}` }));

  it('takes the factor nearest the ratio on the log scale, within the distance, of at least the smallest factor', () => {
    // ratio 900: ×1000 is ln(1000/900) = 0.105 away, ×60 2.71; within ln 1.25 only ×1000
    expect(nearestCause(Math.log(900), causes, 2, Math.log(1.25))?.factor).toBe(1000);
    expect(nearestCause(Math.log(1 / 55), causes, 2, Math.log(1.25))?.factor).toBe(1 / 60);
    expect(nearestCause(Math.log(9), causes, 30, Math.log(3))).toBeNull(); // ×10 is below the smallest factor named
    expect(nearestCause(Math.log(250), causes, 2, Math.log(3))).toBeNull(); // ×1000 is ×4 away
  });
});

describe('isTimeFactor', () => {
  it('tells a time unit\'s factor either way round, within 5 %, and nothing else', () => {
    expect([60, 1 / 60, 24, 1 / 24, 1440, 58.5].map(isTimeFactor)).toEqual([true, true, true, true, true, true]);
    expect([10, 1000, 1 / 1000, 70, 50, 16.7].map(isTimeFactor)).toEqual([false, false, false, false, false, false]);
  });
});
