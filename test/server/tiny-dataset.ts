/**
 * A small hand-made dataset for the server tests: two studies, a parent group
 * with a subgroup, individuals, raw + normed interventions and outputs, one
 * timecourse, one calculated output and one scatter. Small enough that every
 * expected filter count below is checked by eye.
 */
import type {
  CharacteristicaRecord,
  DatasetTables,
  InterventionRecord,
  OutputRecord,
  StatsFields,
  StudyRecord,
} from '../../src/data/model.js';
import { Dataset } from '../../src/data/dataset.js';

const noStats: StatsFields = { value: null, mean: null, median: null, min: null, max: null, sd: null, se: null, cv: null, unit: null };

function study(sid: string, name: string, substances: string[]): StudyRecord {
  return {
    sid,
    name,
    licence: 'open',
    access: 'public',
    date: '2020-01-02',
    creator: 'alice',
    curators: ['alice', 'bob'],
    substances,
    reference_pmid: sid === 'SYN0001' ? '111' : null,
    reference_title: `Title of ${name}`,
    reference_date: '1999-05-06',
  };
}

function characteristica(pk: number, measurement_type: string, choice: string | null, group_count: number | null): CharacteristicaRecord {
  return { ...noStats, pk, count: group_count ?? 1, measurement_type, calculation_type: null, choice, substance: null, group_count };
}

function intervention(pk: number, normed: boolean, sid: string, substance: string, value: number, unit: string): InterventionRecord {
  return {
    ...noStats,
    value,
    unit,
    pk,
    raw_pk: normed ? pk - 1 : null,
    normed,
    study_sid: sid,
    study_name: sid === 'SYN0001' ? 'Synthetic2001' : 'Synthetic2002',
    name: `${substance}_po`,
    route: 'oral',
    form: 'tablet',
    application: 'single dose',
    time: '0',
    time_end: null,
    time_unit: 'hr',
    measurement_type: 'dosing',
    calculation_type: null,
    choice: null,
    substance,
  };
}

function output(pk: number, fields: Partial<OutputRecord>): OutputRecord {
  return {
    ...noStats,
    pk,
    raw_pk: null,
    normed: true,
    calculated: false,
    study_sid: 'SYN0001',
    study_name: 'Synthetic2001',
    group_pk: null,
    individual_pk: null,
    intervention_pks: [2],
    tissue: 'plasma',
    method: null,
    label: null,
    output_type: 'output',
    time: null,
    time_unit: null,
    measurement_type: 'concentration',
    calculation_type: null,
    choice: null,
    substance: 'caffeine',
    subset_pk: null,
    ...fields,
  };
}

export function tinyTables(): DatasetTables {
  const studies = [study('SYN0001', 'Synthetic2001', ['caffeine']), study('SYN0002', 'Synthetic2002', ['midazolam'])];
  const groups = [
    { pk: 1, name: 'all', count: 10, parent_pk: null, study_sid: 'SYN0001', study_name: 'Synthetic2001', characteristica: [characteristica(1, 'species', 'homo sapiens', 10)] },
    { pk: 2, name: 'smokers', count: 4, parent_pk: 1, study_sid: 'SYN0001', study_name: 'Synthetic2001', characteristica: [characteristica(2, 'smoking', 'Y', 4)] },
    { pk: 3, name: 'all', count: 6, parent_pk: null, study_sid: 'SYN0002', study_name: 'Synthetic2002', characteristica: [characteristica(3, 'species', 'homo sapiens', 6)] },
  ];
  const individuals = [
    { pk: 1, name: 'S1', group_pk: 1, study_sid: 'SYN0001', study_name: 'Synthetic2001', characteristica: [characteristica(4, 'sex', 'M', null)] },
    { pk: 2, name: 'S2', group_pk: 1, study_sid: 'SYN0001', study_name: 'Synthetic2001', characteristica: [characteristica(5, 'sex', 'F', null)] },
    { pk: 3, name: 'T1', group_pk: 3, study_sid: 'SYN0002', study_name: 'Synthetic2002', characteristica: [] },
  ];
  const interventions = [
    intervention(1, false, 'SYN0001', 'caffeine', 100, 'mg'),
    intervention(2, true, 'SYN0001', 'caffeine', 0.1, 'gram'),
    intervention(3, false, 'SYN0002', 'midazolam', 5, 'mg'),
    intervention(4, true, 'SYN0002', 'midazolam', 0.005, 'gram'),
  ];
  const tc = (pk: number, time: number, value: number) =>
    output(pk, { individual_pk: 1, output_type: 'timecourse', label: 'caf_S1', time, time_unit: 'hr', value, unit: 'gram / liter', subset_pk: 10 });
  const outputs = [
    tc(1, 0, 0.001),
    tc(2, 1, 0.004),
    tc(3, 2, 0.002),
    output(4, { group_pk: 2, measurement_type: 'thalf', mean: 5.5, sd: 1.1, unit: 'hour' }),
    output(5, { group_pk: 2, measurement_type: 'thalf', mean: 5.5, sd: 1.1, unit: 'hour', normed: false, raw_pk: null }),
    output(6, { individual_pk: 1, calculated: true, output_type: null, measurement_type: 'cmax', value: 0.004, unit: 'gram / liter', subset_pk: 10 }),
    output(7, { study_sid: 'SYN0002', study_name: 'Synthetic2002', group_pk: 3, intervention_pks: [4], substance: 'midazolam', output_type: 'array', measurement_type: 'auc_inf', value: 2, unit: 'gram * hour / liter' }),
    output(8, { study_sid: 'SYN0002', study_name: 'Synthetic2002', group_pk: 3, intervention_pks: [4], substance: 'midazolam', output_type: 'array', measurement_type: 'clearance', value: 3, unit: 'liter / hour' }),
  ];
  const timecourses = [
    {
      subset_pk: 10,
      subset_name: 'caf_S1',
      study_sid: 'SYN0001',
      study_name: 'Synthetic2001',
      output_pk: [1, 2, 3],
      intervention_pk: [2],
      group_pk: null,
      individual_pk: 1,
      normed: true,
      tissue: 'plasma',
      tissue_label: 'plasma',
      method: null,
      method_label: null,
      label: 'caf_S1',
      time: [0, 1, 2],
      time_unit: 'hr',
      measurement_type: 'concentration',
      measurement_type_label: 'concentration',
      choice: null,
      choice_label: null,
      substance: 'caf',
      substance_label: 'caffeine',
      value: [0.001, 0.004, 0.002],
      mean: null,
      median: null,
      min: null,
      max: null,
      sd: null,
      se: null,
      cv: null,
      unit: 'gram / liter',
    },
  ];
  const side = (pk: number, measurement_type: string, value: number, unit: string, dimension: number) => ({
    outputs_pk: [pk],
    interventions: [4],
    group_pk: 3,
    individual_pk: null,
    normed: true,
    calculated: false,
    tissue: 'plasma',
    tissue_label: 'plasma',
    measurement_type,
    measurement_type__label: measurement_type,
    substance: 'mdz',
    substance_label: 'midazolam',
    value: [value],
    unit,
    dimension,
    data_point: [500],
  });
  const scatters = [
    {
      subset_pk: 20,
      subset_name: 'auc_vs_cl',
      study_sid: 'SYN0002',
      study_name: 'Synthetic2002',
      x: side(7, 'auc_inf', 2, 'gram * hour / liter', 0),
      y: side(8, 'clearance', 3, 'liter / hour', 1),
    },
  ];
  const terms = [
    { sid: 'caf', name: 'caffeine', label: 'caffeine', ntype: 'substance' },
    { sid: 'mdz', name: 'midazolam', label: 'midazolam', ntype: 'substance' },
    { sid: 'plasma', name: 'plasma', label: 'plasma', ntype: 'tissue' },
  ];
  return { studies, groups, individuals, interventions, outputs, timecourses, scatters, terms };
}

export function tinyDataset(): Dataset {
  return Dataset.fromTables(tinyTables(), { kind: 'fixtures', location: 'test/server/tiny-dataset.ts' });
}
