import { describe, expect, it } from 'vitest';
import { canonicalUnit } from '../../src/qa/parameters.js';

describe('canonicalUnit', () => {
  it('converts to one unit per dimension, with exact factors', () => {
    expect(canonicalUnit('milligram / liter', null)).toEqual({ unit: 'gram / liter', factor: 1e-3 });
    expect(canonicalUnit('minute', null)?.unit).toBe('hour');
    expect(canonicalUnit('minute', null)?.factor).toBeCloseTo(1 / 60, 15);
    expect(canonicalUnit('milliliter / minute / kilogram', null)?.unit).toBe('liter / hour / kilogram');
    expect(canonicalUnit('milliliter / minute / kilogram', null)?.factor).toBeCloseTo(0.06, 15);
    expect(canonicalUnit('percent', null)).toEqual({ unit: 'dimensionless', factor: 0.01 });
  });

  it('takes molar units to mass units with the molar mass only (caffeine 194.19 g/mol: 1 µmol/L = 194.19 µg/L)', () => {
    expect(canonicalUnit('micromole / liter', null)?.unit).toBe('mole / liter');
    const withMass = canonicalUnit('micromole / liter', 194.19);
    expect(withMass?.unit).toBe('gram / liter');
    expect(withMass?.factor).toBeCloseTo(194.19e-6, 12);
    expect(canonicalUnit('hour * mole / liter', 180.16)?.unit).toBe('gram * hour / liter');
  });

  it('keeps units of other dimensions and rejects what does not parse', () => {
    expect(canonicalUnit('IU / liter', null)).toEqual({ unit: 'IU / liter', factor: 1 });
    expect(canonicalUnit('fortnights per parsec', null)).toBeNull();
  });
});
