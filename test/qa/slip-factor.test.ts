import { describe, expect, it } from 'vitest';
import { nearestSlipFactor, slipFamilyOfUnit } from '../../src/qa/slip-factor.js';

describe('nearestSlipFactor', () => {
  it('names the factor nearest to the ratio within the distance, per kg with the body weight for volumes', () => {
    expect(nearestSlipFactor(Math.log(1050), 'cmax', null, 0.2)).toMatchObject({ factor: 1000, kind: 'unit-factor' });
    expect(nearestSlipFactor(Math.log(1 / 70), 'vd', 70, 0.2)).toMatchObject({ factor: 1 / 70, kind: 'per-kg' });
    expect(nearestSlipFactor(Math.log(60), 'cmax', null, 0.2)).toBeNull(); // ×60 never touches a concentration
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
