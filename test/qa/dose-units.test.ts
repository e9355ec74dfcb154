import { describe, expect, it } from 'vitest';
import type { InterventionRecord } from '../../src/data/model.js';
import { doseAmount, doseUnitFactor, isDose } from '../../src/qa/dose-units.js';

const STATS = { value: null, mean: null, median: null, min: null, max: null, sd: null, se: null, cv: null };

function dosing(fields: Partial<InterventionRecord>): InterventionRecord {
  return {
    ...STATS, study_sid: 'S', study_name: 'S', pk: 1, raw_pk: null, normed: true, name: 'd', route: 'oral', form: null, application: 'single dose',
    time: '0', time_end: null, time_unit: 'hr', measurement_type: 'dosing', calculation_type: null, choice: null, substance: 'x', unit: 'milligram', ...fields,
  };
}

describe('doseUnitFactor', () => {
  it('reads PK-DB doses per kg (mg/kg normed to a dimensionless count, kg/kg) as g/kg, and absolute doses as g', () => {
    expect(doseUnitFactor('count', null)).toEqual({ factor: 1000, kgPower: -1 });
    expect(doseUnitFactor('milligram / kilogram', null)).toEqual({ factor: 1e-3, kgPower: -1 });
    expect(doseUnitFactor('milligram', null)).toEqual({ factor: 1e-3, kgPower: 0 });
    expect(doseUnitFactor('IU / hour', null)).toBeNull();
  });

  it('converts a molar dose with the molar mass only: 1 mmol of caffeine (194.19 g/mol) is 0.194 g', () => {
    expect(doseUnitFactor('millimole', null)).toBeNull();
    expect(doseUnitFactor('millimole', 194.19)?.factor).toBeCloseTo(0.19419, 9);
  });
});

describe('doseAmount', () => {
  it('takes the mean, else the median, else the value, in g or g/kg', () => {
    expect(doseAmount(dosing({ value: 100, mean: 200 }), null)).toEqual({ value: 0.2, perKg: false });
    expect(doseAmount(dosing({ value: 100 }), null)).toEqual({ value: 0.1, perKg: false });
    expect(doseAmount(dosing({ value: 5, unit: 'milligram / kilogram' }), null)).toEqual({ value: 0.005, perKg: true });
  });

  it('is null for no value, a value of 0 or below, or a unit that is no amount', () => {
    expect(doseAmount(dosing({}), null)).toBeNull();
    expect(doseAmount(dosing({ value: 0 }), null)).toBeNull();
    expect(doseAmount(dosing({ value: 1, unit: 'IU' }), null)).toBeNull();
  });
});

describe('isDose', () => {
  it('takes every dosing, and a qualitative dosing (a cocktail probe, a co-medication) only with a positive amount and unit', () => {
    expect(isDose(dosing({ value: 100 }))).toBe(true);
    expect(isDose(dosing({}))).toBe(true); // a dosing without a value is still the dosing (its checks say what is missing)
    expect(isDose(dosing({ measurement_type: 'qualitative dosing', value: 15 }))).toBe(true);
    expect(isDose(dosing({ measurement_type: 'qualitative dosing', mean: 15 }))).toBe(true);
    expect(isDose(dosing({ measurement_type: 'qualitative dosing', value: 0 }))).toBe(false); // Prescott1968's 'induced'
    expect(isDose(dosing({ measurement_type: 'qualitative dosing' }))).toBe(false);
    expect(isDose(dosing({ measurement_type: 'qualitative dosing', value: 15, unit: null }))).toBe(false);
    expect(isDose(dosing({ measurement_type: 'body position', value: 1 }))).toBe(false);
  });
});
