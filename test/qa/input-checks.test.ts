import { describe, expect, it } from 'vitest';
import type { InterventionRecord, TimecourseRecord } from '../../src/data/model.js';
import { inUnit } from '../../src/qa/compare-reported.js';
import { checkTimecourseInput, timesInPkOrder } from '../../src/qa/input-checks.js';

function timecourse(fields: Partial<TimecourseRecord>): TimecourseRecord {
  return {
    subset_pk: 1, subset_name: 'tc', study_sid: 'T1', study_name: 'Test', output_pk: [10, 11, 12, 13], intervention_pk: [5],
    group_pk: 2, individual_pk: null, normed: true, tissue: 'plasma', tissue_label: 'plasma', method: null, method_label: null,
    label: null, time: [0, 1, 2, 4], time_unit: 'hr', measurement_type: 'concentration', measurement_type_label: null,
    choice: null, choice_label: null, substance: 'caf', substance_label: 'caffeine', value: null, mean: [0, 4, 3, 1],
    median: null, min: null, max: null, sd: null, se: null, cv: null, unit: 'gram / liter',
    ...fields,
  };
}

const dosing = { pk: 5, name: 'oral 100 mg', measurement_type: 'dosing' } as InterventionRecord;
const messages = (tc: TimecourseRecord, dosings: InterventionRecord[] = [dosing]) => checkTimecourseInput(tc, dosings).map((f) => `${f.severity}: ${f.message}`);

describe('timecourse input checks', () => {
  it('passes a clean timecourse', () => {
    expect(messages(timecourse({}))).toEqual([]);
  });

  it('reports misaligned lists as major and stops there', () => {
    const found = messages(timecourse({ mean: [1, 2, 3] }));
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^major: misaligned lists: 4 output pks but mean has 3/);
  });

  it('reads times in output-pk order, where PK-DB integrates', () => {
    const tc = timecourse({ output_pk: [13, 10, 12, 11], time: [4, 0, 2, 1] });
    expect(timesInPkOrder(tc)).toEqual([0, 1, 2, 4]);
    expect(messages(tc)).toEqual([]);
    expect(messages(timecourse({ output_pk: [10, 11, 12, 13], time: [0, 2, 1, 4] }))[0]).toMatch(/^minor: times are not ascending .*1 backward step/);
  });

  it('reports duplicate times as major, missing times and all-missing values as minor', () => {
    expect(messages(timecourse({ time: [0, 1, 1, 4] }))[0]).toMatch(/^major: duplicate time point 1 hr/);
    expect(messages(timecourse({ time: [0, null, 2, 4] }))[0]).toMatch(/^minor: 1 of 4 time points are missing/);
    expect(messages(timecourse({ mean: [null, null, null, null] }))[0]).toMatch(/^minor: all concentrations are missing/);
  });

  it('reports missing and multiple dosing', () => {
    expect(messages(timecourse({}), [])[0]).toMatch(/^minor: no dosing intervention/);
    expect(messages(timecourse({}), [dosing, { ...dosing, pk: 6, name: 'second' }])[0]).toMatch(/^info: 2 dosing interventions/);
  });
});

describe('inUnit', () => {
  it('converts units, molar with the molar mass', () => {
    expect(inUnit({ value: 2, unit: 'gram / liter' }, 'milligram / liter', null, null)?.value).toBeCloseTo(2000, 9);
    expect(inUnit({ value: 50e-6, unit: 'mole / liter' }, 'milligram / liter', 194.19, null)?.value).toBeCloseTo(9.7095, 9);
    expect(inUnit({ value: 50e-6, unit: 'mole / liter' }, 'milligram / liter', null, null)).toBeNull();
  });

  it('bridges per-kg and absolute with the body weight', () => {
    const perKg = inUnit({ value: 7, unit: 'liter / hour' }, 'liter / hour / kilogram', null, 70);
    expect(perKg?.value).toBeCloseTo(0.1, 12);
    expect(perKg?.conversion).toMatch(/divided by body weight 70 kg/);
    expect(inUnit({ value: 0.1, unit: 'liter / hour / kilogram' }, 'liter / hour', null, 70)?.value).toBeCloseTo(7, 12);
    expect(inUnit({ value: 7, unit: 'liter / hour' }, 'liter / hour / kilogram', null, null)).toBeNull();
    // Per m² of body surface with the subject's area: 10.8 L/h at 1.8 m² is 100 mL/min/m² (10.8 / 1.8 / 0.06).
    const perArea = inUnit({ value: 10.8, unit: 'liter / hour' }, 'milliliter / meter ** 2 / minute', null, 70, 1.8);
    expect(perArea?.value).toBeCloseTo(100, 9);
    expect(perArea?.conversion).toBe('divided by body surface area 1.8 m²');
    expect(inUnit({ value: 10.8, unit: 'liter / hour' }, 'milliliter / meter ** 2 / minute', null, 70)).toBeNull();
  });
});
