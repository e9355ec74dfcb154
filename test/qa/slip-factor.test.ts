import { describe, expect, it } from 'vitest';
import { nearestSlipFactor, slipFamilyOf, slipFamilyOfUnit } from '../../src/qa/slip-factor.js';

describe('nearestSlipFactor', () => {
  it('names the nearest factor and keeps the others within reach as its alternatives, nearest first', () => {
    // A clearance ×20: ×1000/60 (16.7, 0.18 away) and ×24 (0.18 away) both within 0.3; ×10 and ×60 are not.
    const m = nearestSlipFactor(Math.log(20), 'clearance', null, 0.3);
    expect([m?.factor, ...(m?.alternatives ?? []).map((a) => a.factor)].map((f) => +f!.toPrecision(3))).toEqual([16.7, 24]);
    expect(nearestSlipFactor(Math.log(55), 'thalf', null, 0.2)?.alternatives).toBeUndefined(); // ×60 alone
  });

  it('the nearest factor of the vocabulary within the given distance, or null', () => {
    expect(nearestSlipFactor(Math.log(55), 'thalf', null, 0.2)?.factor).toBe(60); // |ln(55/60)| = 0.087
    expect(nearestSlipFactor(Math.log(40), 'thalf', null, 0.2)).toBeNull(); // 24 and 60 both > 0.4 away
    expect(nearestSlipFactor(Math.log(1 / 900), 'cmax', null, 0.2)?.text).toMatch(/^×1\/1000 /);
  });

  it('per-kg by the body weight for volumes and clearances only', () => {
    expect(nearestSlipFactor(Math.log(1 / 68), 'vd', 70, 0.1)).toMatchObject({ kind: 'per-kg', factor: 1 / 70 });
    expect(nearestSlipFactor(Math.log(1 / 68), 'cmax', 70, 0.1)).toBeNull();
    expect(nearestSlipFactor(Math.log(1 / 68), 'vd', null, 0.1)).toBeNull();
  });

  it('molar ↔ mass from ×10 up when the molar mass is given: glucose ×1/18, caffeine ×194; not caffeine ×5.15', () => {
    expect(nearestSlipFactor(Math.log(1 / 18), 'cmax', null, 0.1, undefined, 180.16)).toMatchObject({ kind: 'molar-mass' });
    expect(nearestSlipFactor(Math.log(1 / 18), 'cmax', null, 0.1)).toBeNull();
    expect(nearestSlipFactor(Math.log(190), 'auc_inf', null, 0.1, undefined, 194.19)?.factor).toBe(194.19);
    // ×5.15 (µmol/L ↔ mg/L) lies within the reach of ordinary differences between arms (SMALL_MOLAR_FACTOR).
    expect(nearestSlipFactor(Math.log(5.15), 'cmax', null, 0.1, undefined, 194.19)).toBeNull();
    expect(nearestSlipFactor(Math.log(1 / 18), 'thalf', null, 0.1, undefined, 180.16)).toBeNull();
  });
});

describe('slipFamilyOfUnit', () => {
  it('gives a quantity known by its unit the slips its dimension can suffer', () => {
    expect(slipFamilyOfUnit('liter / hour')).toBe('clearance'); // a renal clearance, a hepatic blood flow
    expect(slipFamilyOfUnit('milliliter / minute')).toBe('clearance');
    expect(slipFamilyOfUnit('liter / hour / kilogram')).toBe('clearance'); // per kg slips like the absolute value
    expect(slipFamilyOfUnit('gram / hour')).toBe('clearance'); // an excretion rate: ×1000 and ×60 alike
    expect(slipFamilyOfUnit('1 / minute')).toBe('kel'); // a rate constant, a heart rate
    expect(slipFamilyOfUnit('percent / hour')).toBe('kel');
    expect(slipFamilyOfUnit('hour')).toBe('thalf');
    expect(slipFamilyOfUnit('liter / kilogram')).toBe('vd');
    expect(slipFamilyOfUnit('gram * hour / liter')).toBe('auc_inf');
    expect(slipFamilyOfUnit('gram')).toBe('cmax'); // an amount excreted
    expect(slipFamilyOfUnit('mole / liter')).toBe('cmax');
    expect(slipFamilyOfUnit('IU / liter')).toBe('cmax');
  });

  it('names nothing for dimensionless, per-kg doses, other dimensions and unparsable units', () => {
    expect(slipFamilyOfUnit('dimensionless')).toBeNull();
    expect(slipFamilyOfUnit('gram / kilogram')).toBeNull();
    expect(slipFamilyOfUnit('mmHg')).toBeNull();
    expect(slipFamilyOfUnit('not a unit %%')).toBeNull();
  });
});

describe('slipFamilyOf', () => {
  it('a PK parameter its own, MRT as t½, a fraction of a whole the fraction family (×100: a percentage as a fraction), else by unit', () => {
    expect(slipFamilyOf('clearance', 'liter / hour')).toBe('clearance');
    expect(slipFamilyOf('mrt', 'hour')).toBe('thalf');
    expect(slipFamilyOf('recovery', 'dimensionless')).toBe('fraction');
    expect(slipFamilyOf('fraction_unbound', 'dimensionless')).toBe('fraction');
    expect(slipFamilyOf('recovery', 'gram')).toBeNull(); // not normed to a fraction: no family named
    expect(slipFamilyOf('metabolic ratio', 'dimensionless')).toBeNull();
    expect(slipFamilyOf('clearance_renal', 'liter / hour')).toBe('clearance');
  });

  it('a fraction slips by ×100 and ×10 (and prefixes), not by time or body weight', () => {
    expect(nearestSlipFactor(Math.log(1 / 95), 'fraction', 70, 0.1)?.text).toMatch(/^×1\/100 \(a percentage as a fraction/);
    expect(nearestSlipFactor(Math.log(1 / 9.5), 'fraction', 70, 0.1)?.factor).toBe(1 / 10);
    expect(nearestSlipFactor(Math.log(60), 'fraction', 70, 0.1)).toBeNull();
    expect(nearestSlipFactor(Math.log(1 / 70), 'fraction', 70, 0.05)).toBeNull();
  });
});

describe('nearestSlipFactor: small molar factors beside the one named', () => {
  it('says ×6.62 (paracetamol, 151.16 g/mol: µmol/L ↔ mg/L) beside the ×10 a ratio of 6.14 is named after, only when asked and nearer', () => {
    const asked = nearestSlipFactor(Math.log(6.14), 'cmax', null, Math.log(1.7), undefined, 151.16, true);
    expect(asked).toMatchObject({ factor: 10, kind: 'unit-factor' });
    expect(asked?.alternatives?.map((a) => +a.factor.toFixed(3))).toEqual([6.616]);
    expect(asked?.alternatives?.[0].distance).toBeCloseTo(Math.log(6.616 / 6.14), 3);
    expect(nearestSlipFactor(Math.log(6.14), 'cmax', null, Math.log(1.7), undefined, 151.16)?.alternatives).toBeUndefined();
    // a ratio of 9.5: ×10 is nearer than ×6.62, which is not said (×15.1, mmol/L as mg/dL, is a factor of its own)
    expect(nearestSlipFactor(Math.log(9.5), 'cmax', null, Math.log(1.7), undefined, 151.16, true)?.alternatives?.map((a) => +a.factor.toFixed(2))).toEqual([15.12]);
    // alone, a small molar factor names nothing
    expect(nearestSlipFactor(Math.log(6.6), 'cmax', null, 0.1, undefined, 151.16, true)).toBeNull();
  });
});
