import { describe, expect, it } from 'vitest';
import {
  UnitError,
  conversionFactor,
  convert,
  dimensionOf,
  formatPint,
  isConvertible,
  parseUnit,
  toMathjsExpression,
} from '../../src/units/index.js';

/** spelling, its dimension, a unit to convert to, the factor worked out by hand. */
const SPELLINGS: [string, string, string, number][] = [
  ['gram / liter', '[mass] / [length] ** 3', 'mg/l', 1000],
  ['gram * hour / liter', '[mass] * [time] / [length] ** 3', 'gram * minute / liter', 60],
  ['1 / minute', '1 / [time]', '1 / hour', 60],
  ['liter / hour / kilogram', '[length] ** 3 / [mass] / [time]', 'ml/min/kg', 1000 / 60],
  ['meter ** 2', '[length] ** 2', 'cm^2', 1e4],
  ['microgram * milliliter / hour / micromole', '[length] ** 3 * [mass] / [substance] / [time]', 'liter * milligram / hour / millimole', 1e-3],
  ['liter * milligram / millimole', '[length] ** 3 * [mass] / [substance]', 'liter * gram / mole', 1],
  ['mg/dl', '[mass] / [length] ** 3', 'gram / liter', 0.01],
  ['\u00B5mol/l', '[substance] / [length] ** 3', 'mole / liter', 1e-6],
  ['\u03BCmol/l', '[substance] / [length] ** 3', 'mmol/l', 1e-3],
  ['\u03BCg/ml', '[mass] / [length] ** 3', 'gram / liter', 1e-3],
  ['\u00B5g/ml', '[mass] / [length] ** 3', 'mg/l', 1],
  ['ng/mL', '[mass] / [length] ** 3', 'gram / liter', 1e-6],
  ['mcg', '[mass]', 'mg', 1e-3],
  ['hr', '[time]', 'minute', 60],
  ['h', '[time]', 'hour', 1],
  ['min', '[time]', 'hour', 1 / 60],
  ['minutes', '[time]', 'second', 60],
  ['d', '[time]', 'hour', 24],
  ['day', '[time]', 'hour', 24],
  ['days', '[time]', 'week', 1 / 7],
  ['weeks', '[time]', 'day', 7],
  ['year', '[time]', 'day', 365.25],
  ['na', '[time]', 'year', 1e-9],
  ['g/kg', 'dimensionless', 'count', 1e-3],
  ['percent', 'dimensionless', 'dimensionless', 0.01],
  ['%', 'dimensionless', 'dimensionless', 0.01],
  ['count', 'dimensionless', 'dimensionless', 1],
  ['none', 'dimensionless', 'dimensionless', 1],
  ['dimensionless', 'dimensionless', 'percent', 100],
  ['IU/l', '[activity_amount] / [length] ** 3', 'mIU/ml', 1],
  ['mU/l', '[activity_amount] / [length] ** 3', 'IU / liter', 1e-3],
  ['\u00B5IU/ml', '[activity_amount] / [length] ** 3', 'IU / liter', 1e-3],
  ['microIU / minute', '[activity_amount] / [time]', 'IU / hour', 6e-5],
  ['becquerel', '1 / [time]', '1 / second', 1],
  ['kBq', '1 / [time]', 'becquerel', 1000],
  ['mmHg', '[mass] / [length] / [time] ** 2', 'millimeter_Hg', 1],
  ['millimeter_Hg', '[mass] / [length] / [time] ** 2', 'Pa', 133.322387415],
  ['kilogram / meter ** 2', '[mass] / [length] ** 2', 'g/cm^2', 0.1],
  ['mg*h/l', '[mass] * [time] / [length] ** 3', 'gram * hour / liter', 1e-3],
  ['\u00B5g*h/ml', '[mass] * [time] / [length] ** 3', 'gram * hour / liter', 1e-3],
  ['mmol*h/l', '[substance] * [time] / [length] ** 3', 'hour * mole / liter', 1e-3],
  ['hour * mole / liter', '[substance] * [time] / [length] ** 3', 'minute * \u00B5mol / ml', 6e4],
  ['gram * hour ** 2 / liter', '[mass] * [time] ** 2 / [length] ** 3', 'gram * minute ** 2 / liter', 3600],
  ['l/h', '[length] ** 3 / [time]', 'milliliter / minute', 1000 / 60],
  ['ml/min/kg', '[length] ** 3 / [mass] / [time]', 'liter / hour / kilogram', 0.06],
  ['milliliter / meter ** 2 / minute', '[length] / [time]', 'liter / hour / meter ** 2', 0.06],
  ['liter / gram', '[length] ** 3 / [mass]', 'liter / kilogram', 1000],
  ['1 / hour', '1 / [time]', '1 / minute', 1 / 60],
  ['beverages / day', '1 / [time]', '1 / week', 7],
  ['gram / meter ** 2', '[mass] / [length] ** 2', 'mg/m^2', 1000],
  ['mole / hour / kilogram', '[substance] / [mass] / [time]', '\u00B5mol/min/kg', 1e6 / 60],
  ['IU / hour / kilogram', '[activity_amount] / [mass] / [time]', 'mIU/min/kg', 1000 / 60],
];

describe('parseUnit: PK-DB spellings', () => {
  it('has at least 40 rows', () => expect(SPELLINGS.length).toBeGreaterThanOrEqual(40));

  it.each(SPELLINGS)('%s is %s and converts to %s by %d', (spelling, dimension, to, factor) => {
    expect(dimensionOf(spelling).key).toBe(dimension);
    expect(dimensionOf(to).key).toBe(dimension);
    const got = conversionFactor(spelling, to);
    expect(Math.abs(got / factor - 1)).toBeLessThan(1e-12);
  });

  it('keeps pure prefix conversions exact (no 1.0000000000000002)', () => {
    expect(conversionFactor('ng/mL', 'gram / liter')).toBe(1e-6);
    expect(convert(150, 'mg/dl', 'gram / liter')).toBe(1.5);
    expect(conversionFactor('hr', 'minute')).toBe(60);
  });

  it('respells only what mathjs rejects, in one place', () => {
    expect(toMathjsExpression('\u00B5g/ml')).toBe('ug/ml');
    expect(toMathjsExpression('\u03BCg/ml')).toBe('ug/ml');
    expect(toMathjsExpression('meter ** 2')).toBe('meter ^ 2');
    expect(toMathjsExpression('d')).toBe('day');
    expect(toMathjsExpression('mg/dl')).toBe('mg/dl'); // deci-litre is not a day
    expect(toMathjsExpression('millimeter_Hg')).toBe('mmHg');
    expect(toMathjsExpression('microIU / minute')).toBe('uIU / minute');
    expect(toMathjsExpression('mU/l')).toBe('mIU/l');
  });

  it('prints units the way pint does (sorted names, ` * `, ` / `, ` ** `)', () => {
    expect(parseUnit('mg*h/l').pint).toBe('hour * milligram / liter');
    expect(parseUnit('1/h').pint).toBe('1 / hour');
    expect(parseUnit('l/h/kg').pint).toBe('liter / hour / kilogram');
    expect(parseUnit('kg/m^2').pint).toBe('kilogram / meter ** 2');
    expect(parseUnit('\u00B5IU/ml').pint).toBe('microIU / milliliter');
    expect(formatPint([['mole', 1], ['liter', -1], ['gram', 1], ['mole', -1]])).toBe('gram / liter');
    expect(formatPint([['gram', 1], ['gram', -1]])).toBe('dimensionless');
  });
});

describe('molar ↔ mass', () => {
  it('50 µmol/l caffeine is 9.7095 mg/l at 194.19 g/mol', () => {
    const mgPerL = convert(50, '\u00B5mol/l', 'mg/l', { molarMass: 194.19 });
    expect(Math.abs(mgPerL / 9.7095 - 1)).toBeLessThan(1e-12);
    expect(Math.abs(convert(9.7095, 'mg/l', '\u03BCmol/l', { molarMass: 194.19 }) / 50 - 1)).toBeLessThan(1e-12);
  });

  it('converts molar amounts and per-kg doses', () => {
    expect(Math.abs(convert(1, 'mmol', 'mg', { molarMass: 180.16 }) / 180.16 - 1)).toBeLessThan(1e-12);
    expect(Math.abs(convert(2, 'umol/kg', 'mg/kg', { molarMass: 151.16 }) / 0.30232 - 1)).toBeLessThan(1e-12);
  });

  it('needs a molar mass to cross between mole and gram', () => {
    expect(() => conversionFactor('mol/l', 'g/l')).toThrow(/molar mass/);
    expect(isConvertible('mol/l', 'g/l')).toBe(false);
    expect(isConvertible('mol/l', 'g/l', { molarMass: 100 })).toBe(true);
  });

  it('caches one factor per molar mass', () => {
    expect(conversionFactor('mmol/l', 'mg/l', { molarMass: 100 })).toBeCloseTo(100, 12);
    expect(conversionFactor('mmol/l', 'mg/l', { molarMass: 200 })).toBeCloseTo(200, 12);
  });
});

describe('international units', () => {
  it('IU is its own dimension and never converts to grams', () => {
    expect(dimensionOf('IU').key).toBe('[activity_amount]');
    expect(() => convert(1, 'IU/l', 'g/l', { molarMass: 5808 })).toThrow(UnitError);
    try {
      conversionFactor('IU', 'mg', { molarMass: 5808 });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(UnitError);
      expect((e as UnitError).code).toBe('incompatible');
      expect((e as UnitError).message).toContain("'IU'");
    }
  });
});

describe('errors', () => {
  it('names the unit', () => {
    expect(() => parseUnit('furlongs per fortnight')).toThrow(/'furlongs per fortnight'/);
    try {
      parseUnit('');
      expect.unreachable();
    } catch (e) {
      expect((e as UnitError).code).toBe('empty');
    }
  });

  it('rejects a numeric factor inside a unit', () => {
    expect(() => parseUnit('10 / minute')).toThrow(/numeric factor/);
  });

  it('caches failures too (same error object, no re-parse)', () => {
    let first: unknown;
    let second: unknown;
    try { parseUnit('zorkmid/l'); } catch (e) { first = e; }
    try { parseUnit('zorkmid/l'); } catch (e) { second = e; }
    expect(first).toBeInstanceOf(UnitError);
    expect(second).toBe(first);
  });
});
