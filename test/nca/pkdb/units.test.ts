/** The pkdb profile's units (pkdb-calculation.md §4), with numbers worked by hand. */
import { describe, expect, it } from 'vitest';
import { aucUnit, hoursPer, isRestrictedDosingUnit, volumeUnits } from '../../../src/nca/pkdb/units.js';

describe('§4 units', () => {
  it('time factors and AUC spellings', () => {
    expect([hoursPer('hr'), hoursPer('min'), hoursPer('minutes'), hoursPer('days'), hoursPer('weeks')]).toEqual([1, 1 / 60, 1 / 60, 24, 168]);
    expect(aucUnit('gram / liter')).toBe('gram * hour / liter');
    expect(aucUnit('mole / liter')).toBe('hour * mole / liter');
    expect(aucUnit('IU / liter')).toBe('IU * hour / liter');
  });
  it('volumes and clearances by dose and concentration unit', () => {
    const cases: [string, string, string, number, string, number][] = [
      ['gram', 'gram / liter', 'liter', 1, 'liter / hour', 1],
      ['count', 'gram / liter', 'liter / kilogram', 1000, 'liter / hour / kilogram', 1000],
      ['g/kg', 'gram / liter', 'liter / kilogram', 1, 'liter / hour / kilogram', 1],
      ['mole / kilogram', 'mole / liter', 'liter / kilogram', 1, 'liter / hour / kilogram', 1],
      ['gram', 'mole / liter', 'liter * milligram / millimole', 1, 'microgram * milliliter / hour / micromole', 1000],
    ];
    for (const [d, c, vUnit, vFactor, clUnit, clFactor] of cases) {
      const { volume, clearance } = volumeUnits(d, c, 'hr');
      expect([volume.unit, clearance.unit]).toEqual([vUnit, clUnit]);
      expect(volume.factor / vFactor).toBeCloseTo(1, 14);
      expect(clearance.factor / clFactor).toBeCloseTo(1, 14);
    }
    expect(volumeUnits('gram', 'gram / liter', 'min').clearance.factor).toBeCloseTo(60, 12);
  });
});

describe('§4 units on the one parser (pint semantics)', () => {
  it('reads the dimensionless spellings and time units pint reads, which the restricted-dosing check and time shift use', () => {
    for (const unit of ['none', 'dimensionless', 'count', 'g/kg']) expect(isRestrictedDosingUnit(unit), unit).toBe(true);
    expect(isRestrictedDosingUnit('not a unit')).toBe(false);
    expect(hoursPer('year')).toBe(8766); // pint's year: 365.25 days
    expect(() => hoursPer('gram')).toThrow("unit 'gram': [mass] is not a time");
  });
  it('spells AUC units as pint does, whatever the spelling of the concentration', () => {
    expect(aucUnit('g/l')).toBe('gram * hour / liter');
    expect(aucUnit('mole / liter / kilogram')).toBe('hour * mole / kilogram / liter');
    expect(aucUnit('liter * milligram / millimole / liter')).toBe('hour * milligram / millimole'); // pint cancels equal units
  });
});
