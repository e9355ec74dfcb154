import { describe, expect, it } from 'vitest';
import type { OutputRecord } from '../../src/data/model.js';
import { canonicalUnit, parameterValues, perAreaUnit } from '../../src/qa/parameters.js';
import { STATS } from '../helpers/study-records.js';

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

describe('values per m² of body surface', () => {
  it('perAreaUnit: mL/min/m² × m² is 0.06 L/h, L/m² × m² is L; a length is no value per area', () => {
    expect(perAreaUnit('milliliter / meter ** 2 / minute')?.unit).toBe('liter / hour');
    expect(perAreaUnit('milliliter / meter ** 2 / minute')?.factor).toBeCloseTo(0.06, 12);
    expect(perAreaUnit('liter / meter ** 2')).toEqual({ unit: 'liter', factor: 1 });
    expect(perAreaUnit('meter')).toBeNull();
    expect(perAreaUnit('liter / hour')).toBeNull();
  });

  it('parameterValues makes 50 mL/min/m² of a subject of 1.8 m² absolute: 5.4 L/h; without an area it stays per m²', () => {
    const output = (pk: number, group: number) =>
      ({ ...STATS, pk, normed: true, calculated: false, output_type: 'output', measurement_type: 'clearance', unit: 'milliliter / meter ** 2 / minute', mean: 50, study_sid: 'S', study_name: 'S', group_pk: group, individual_pk: null, intervention_pks: [], substance: 'paracetamol', tissue: 'plasma', method: null, time: null, time_unit: null, label: null, choice: null, subset_pk: null, raw_pk: null }) as unknown as OutputRecord;
    const helpers = {
      matchKey: () => 'k', molarMass: () => null, bodyWeightKg: () => null, dosingOfSet: () => [],
      bodySurfaceM2: (r: { group_pk: number | null }) => (r.group_pk === 1 ? 1.8 : null),
    };
    const [withArea, without] = parameterValues([output(1, 1), output(2, 2)], helpers);
    expect(withArea).toMatchObject({ unit: 'liter / hour', bodySurfaceM2: 1.8 });
    expect(withArea.value).toBeCloseTo(5.4, 12);
    expect(withArea.factor).toBeCloseTo(0.108, 12);
    expect(without).toMatchObject({ unit: 'milliliter / meter ** 2 / minute', value: 50, factor: 1, bodySurfaceM2: null });
  });
});
