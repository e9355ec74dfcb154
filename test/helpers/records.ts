/**
 * Minimal normed records for QA tests: every field a check may read, with the values a test does not care about
 * set once here. Each builder takes the study and the fields that matter.
 */
import type { InterventionRecord, OutputRecord } from '../../src/data/model.js';

export const NO_STATS = { value: null, mean: null, median: null, min: null, max: null, sd: null, se: null, cv: null };

type Study = { study_sid: string; study_name: string };

/** Output pks count up from 100 in each test file (vitest isolates modules per file). */
let nextPk = 100;

/** A reported Cmax of group 1 in plasma (mg/L) of substance `x` after intervention 1, unless `fields` say otherwise. */
export function reportedOutput(study: Study, fields: Partial<OutputRecord>): OutputRecord {
  return {
    ...NO_STATS, ...study, pk: nextPk++, raw_pk: null, normed: true, calculated: false, group_pk: 1, individual_pk: null, intervention_pks: [1],
    tissue: 'plasma', method: null, label: null, output_type: 'output', time: null, time_unit: null, measurement_type: 'cmax',
    calculation_type: null, choice: null, substance: 'x', subset_pk: null, unit: 'milligram / liter', ...fields,
  };
}

/** Intervention 1: a single oral dose of 100 mg of substance `x` at time 0. */
export function oralDose(study: Study): InterventionRecord {
  return {
    ...NO_STATS, ...study, pk: 1, raw_pk: null, normed: true, name: 'd', route: 'oral', form: null, application: 'single dose', time: '0', time_end: null,
    time_unit: 'hr', measurement_type: 'dosing', calculation_type: null, choice: null, substance: 'x', value: 0.1, unit: 'gram',
  };
}
