import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { convert } from '../../src/units/index.js';

/** Groups of mutually convertible spellings (same dimension). */
const COMPATIBLE: string[][] = [
  ['gram / liter', 'mg/dl', '\u00B5g/ml', '\u03BCg/ml', 'ng/mL', 'mg/l', 'pg/ml', 'mcg/l'],
  ['gram * hour / liter', 'mg*h/l', '\u00B5g*h/ml', 'ng*min/ml', 'gram * minute / liter'],
  ['hour', 'hr', 'h', 'min', 'minutes', 'd', 'day', 'days', 'weeks', 'year', 'second'],
  ['1 / minute', '1/h', '1 / hour', '1/d', 'becquerel'],
  ['liter / hour', 'ml/min', 'l/h', 'milliliter / minute'],
  ['liter / hour / kilogram', 'ml/min/kg', 'l/h/kg'],
  ['IU / liter', 'mU/l', '\u00B5IU/ml', 'mIU/ml'],
  ['dimensionless', 'percent', 'count', 'none', 'g/kg', 'mg/kg'],
  ['mole / liter', '\u00B5mol/l', 'nmol/ml', 'mmol/l'],
  ['kilogram / meter ** 2', 'g/cm^2'],
];

const pairs = fc.constantFrom(...COMPATIBLE).chain((group) => fc.tuple(fc.constantFrom(...group), fc.constantFrom(...group)));
const values = fc.double({ min: 1e-9, max: 1e9, noNaN: true, noDefaultInfinity: true });

describe('conversion round trip', () => {
  it('to a compatible unit and back returns the value within 1e-12 relative', () => {
    fc.assert(
      fc.property(pairs, values, fc.boolean(), ([from, to], value, negative) => {
        const v = negative ? -value : value;
        const back = convert(convert(v, from, to), to, from);
        expect(Math.abs(back - v) / Math.abs(v)).toBeLessThanOrEqual(1e-12);
      }),
      { numRuns: 2000 },
    );
  });

  it('molar ↔ mass and back with any molar mass returns the value within 1e-12 relative', () => {
    const mass = fc.double({ min: 1, max: 1e5, noNaN: true });
    fc.assert(
      fc.property(values, mass, (value, molarMass) => {
        const mgPerL = convert(value, '\u00B5mol/l', 'mg/l', { molarMass });
        const back = convert(mgPerL, 'mg/l', '\u00B5mol/l', { molarMass });
        expect(Math.abs(back - value) / value).toBeLessThanOrEqual(1e-12);
      }),
      { numRuns: 500 },
    );
  });
});
