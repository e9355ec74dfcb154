/** Conversions where failure is expected, and unit products computed on parsed units (src/units/convert.ts). */
import { describe, expect, it } from 'vitest';
import { conversionFactor, conversionFactorOrNull, isConvertible, productFactorOrNull } from '../../src/units/convert.js';
import { UnitError } from '../../src/units/errors.js';
import { divideUnits, multiplyUnits, parseUnit, parseUnitOrNull, parseUnitResult } from '../../src/units/parse.js';

describe('conversionFactorOrNull', () => {
  it('is conversionFactor where it converts, null where it throws', () => {
    expect(conversionFactorOrNull('mg/dl', 'gram / liter')).toBe(conversionFactor('mg/dl', 'gram / liter'));
    expect(conversionFactorOrNull('µmol/l', 'mg/l', { molarMass: 194.19 })).toBeCloseTo(0.19419, 12);
    expect(conversionFactorOrNull('µmol/l', 'mg/l')).toBeNull(); // needs the molar mass
    expect(conversionFactorOrNull('IU/l', 'mg/l')).toBeNull();
    expect(conversionFactorOrNull('no such unit', 'hour')).toBeNull();
    expect(() => conversionFactor('IU/l', 'mg/l')).toThrow(UnitError);
    expect([isConvertible('min', 'hour'), isConvertible('gram', 'hour')]).toEqual([true, false]);
  });
});

describe('parseUnitOrNull / parseUnitResult', () => {
  it('return the parsed unit, or null / the UnitError, without throwing', () => {
    expect(parseUnitOrNull('ng/mL')?.dimension.key).toBe('[mass] / [length] ** 3');
    expect(parseUnitOrNull('10 / minute')).toBeNull();
    const error = parseUnitResult('10 / minute');
    expect(error).toBeInstanceOf(UnitError);
    expect((error as UnitError).message).toBe("unit '10 / minute': contains a numeric factor other than 1");
  });
});

describe('unit products on parsed units', () => {
  it('multiplyUnits and divideUnits give what parsing the composed spelling gives, exactly', () => {
    const pairs: [string, string][] = [
      ['liter / hour', 'kilogram'], ['mg', 'ng/mL'], ['count', 'gram / liter'], ['gram / meter ** 2', 'mole / liter'], ['hr', 'gram / liter'],
    ];
    for (const [a, b] of pairs) {
      for (const [power, op] of [[1, '*'], [-1, '/']] as const) {
        const product = multiplyUnits(parseUnit(a), parseUnit(b), power);
        const parsed = parseUnit(`(${a}) ${op} (${b})`);
        expect(product, `${a} ${op} ${b}`).toEqual({ dimension: parsed.dimension, scale: parsed.scale });
      }
    }
    expect(divideUnits(parseUnit('ug'), parseUnit('ng/mL')).dimension.key).toBe('[length] ** 3');
  });

  it('productFactorOrNull converts a product without parsing its spelling, null where it does not convert', () => {
    // 0.7 L/kg for a 70 kg subject is 49 L: (L/kg)·kg → L.
    expect(productFactorOrNull('liter / kilogram', 'kilogram', 1, 'liter')).toBe(1);
    expect(productFactorOrNull('milliliter / minute', 'kilogram', -1, 'liter / hour / kilogram')).toBeCloseTo(0.06, 15);
    expect(productFactorOrNull('ug', 'ng/mL', -1, 'L')).toBe(1);
    expect(productFactorOrNull('mg', 'mg/L', -1, 'L')).toBe(1);
    expect(productFactorOrNull('gram', 'mole / liter', -1, 'L')).toBeNull();
    expect(productFactorOrNull('gram', 'mole / liter', -1, 'L', { molarMass: 194.19 })).toBeCloseTo(1 / 194.19, 15);
    expect(productFactorOrNull('not a unit', 'kilogram', 1, 'liter')).toBeNull();
  });
});
