import { describe, expect, it } from 'vitest';
import { Dataset, linkKey, subjectFields, subjectLabel, subjectOf } from '../../src/data/dataset.js';
import type { DatasetTables, InterventionRecord, OutputRecord, TimecourseRecord } from '../../src/data/model.js';

const stats = { value: null, mean: null, median: null, min: null, max: null, sd: null, se: null, cv: null, unit: null };

function intervention(pk: number, fields: Partial<InterventionRecord>): InterventionRecord {
  return {
    ...stats,
    pk, raw_pk: null, normed: true, study_sid: 'SYN0001', study_name: 'Syn', name: `i${pk}`, route: 'oral', form: 'tablet',
    application: 'single dose', time: '0', time_end: null, time_unit: 'hr', measurement_type: 'dosing', calculation_type: null,
    choice: null, substance: 'caffeine', ...fields,
  };
}

function output(pk: number, fields: Partial<OutputRecord>): OutputRecord {
  return {
    ...stats,
    pk, raw_pk: null, normed: true, calculated: false, study_sid: 'SYN0001', study_name: 'Syn', group_pk: 1, individual_pk: null,
    intervention_pks: [10], tissue: 'plasma', method: null, label: null, output_type: 'output', time: null, time_unit: null,
    measurement_type: 'cmax', calculation_type: null, choice: null, substance: 'caffeine', subset_pk: null, ...fields,
  };
}

const timecourse: TimecourseRecord = {
  subset_pk: 7, subset_name: 'caf_plasma', study_sid: 'SYN0001', study_name: 'Syn', output_pk: [21, 20], intervention_pk: [11, 10],
  group_pk: 1, individual_pk: null, normed: true, tissue: 'plasma', tissue_label: 'plasma', method: null, method_label: null,
  label: 'caf_plasma', time: [1, 0], time_unit: 'hr', measurement_type: 'concentration', measurement_type_label: 'concentration',
  choice: null, choice_label: null, substance: 'caf', substance_label: 'caffeine', value: null, mean: [2, 1], median: null,
  min: null, max: null, sd: null, se: null, cv: null, unit: 'gram / liter',
};

const tables: DatasetTables = {
  studies: [{ sid: 'SYN0001', name: 'Syn', licence: 'open', access: 'public', date: null, creator: null, curators: [], substances: ['caffeine'], reference_pmid: null, reference_title: null, reference_date: null }],
  groups: [{ pk: 1, name: 'all', count: 12, parent_pk: null, study_sid: 'SYN0001', study_name: 'Syn', characteristica: [
    { ...stats, pk: 100, count: 12, measurement_type: 'weight', calculation_type: null, choice: null, substance: null, group_count: 12, mean: 72.5, unit: 'kilogram' },
  ] }],
  individuals: [],
  interventions: [
    intervention(10, { value: 0.1, unit: 'gram' }),
    intervention(11, { measurement_type: 'qualitative dosing', substance: 'alcohol' }),
    intervention(12, { normed: false, raw_pk: null, value: 100, unit: 'mg' }),
  ],
  outputs: [
    output(20, { output_type: 'timecourse', measurement_type: 'concentration', intervention_pks: [10, 11], subset_pk: 7, time: 0 }),
    output(21, { output_type: 'timecourse', measurement_type: 'concentration', intervention_pks: [10, 11], subset_pk: 7, time: 1 }),
    output(30, { measurement_type: 'cmax', intervention_pks: [11, 10], mean: 2 }),
    output(31, { measurement_type: 'cmax', calculated: true, output_type: null, intervention_pks: [10, 11], mean: 2 }),
    output(32, { measurement_type: 'cmax', normed: false, intervention_pks: [10, 11], mean: 2000 }),
    output(33, { measurement_type: 'cmax', tissue: 'urine', intervention_pks: [10, 11] }),
  ],
  timecourses: [timecourse],
  scatters: [],
  terms: [{ sid: 'caf', name: 'caffeine', label: 'caffeine', ntype: 'substance' }],
};

describe('Dataset', () => {
  const dataset = Dataset.fromTables(tables, { kind: 'fixtures', location: 'in-test' });

  it('looks records up by identifier', () => {
    expect(dataset.study('SYN0001')?.name).toBe('Syn');
    expect(dataset.output(31)?.calculated).toBe(true);
    expect(dataset.intervention(12)?.normed).toBe(false);
    expect(dataset.timecourse(7)?.subset_name).toBe('caf_plasma');
    expect(dataset.term('caf')?.name).toBe('caffeine');
    expect(dataset.term('caffeine')?.sid).toBe('caf');
    expect(dataset.output(999)).toBeUndefined();
  });

  it('keeps member outputs in the timecourse list order', () => {
    expect(dataset.memberOutputs(timecourse).map((o) => o.pk)).toEqual([21, 20]);
  });

  it('gives the first member output that exists without the list, as memberOutputs(tc)[0]', () => {
    expect(dataset.firstMemberOutput(timecourse)?.pk).toBe(21);
    // A pk missing from the outputs is skipped; none left: undefined.
    expect(dataset.firstMemberOutput({ ...timecourse, output_pk: [999, 20] })?.pk).toBe(20);
    expect(dataset.firstMemberOutput({ ...timecourse, output_pk: [999] })).toBeUndefined();
  });

  it('names a timecourse as its outputs do, else by its labels', () => {
    const member = dataset.firstMemberOutput(timecourse)!;
    expect(dataset.curveNames(timecourse)).toEqual({ substance: member.substance, tissue: member.tissue });
    const orphan = { ...timecourse, output_pk: [999], substance: 'caf', substance_label: 'caffeine', tissue: 'pl', tissue_label: 'plasma' };
    expect(dataset.curveNames(orphan)).toEqual({ substance: 'caffeine', tissue: 'plasma' });
  });

  it('selects only normed `dosing` interventions as dosing', () => {
    expect(dataset.dosingOf(timecourse).map((i) => i.pk)).toEqual([10]);
  });

  it('links reported and calculated outputs by subject, intervention set, substance and tissue', () => {
    const linked = dataset.outputsLinkedTo(timecourse);
    // The intervention set is compared as a set: [11, 10] equals [10, 11].
    expect(linked.reported.map((o) => o.pk)).toEqual([30]);
    expect(linked.calculated.map((o) => o.pk)).toEqual([31]);
  });

  it('reads the body weight of a subject', () => {
    expect(dataset.bodyWeightKg({ kind: 'group', pk: 1 })).toBe(72.5);
    expect(dataset.subjectCount({ kind: 'group', pk: 1 })).toBe(12);
    expect(dataset.bodyWeightKg({ kind: 'individual', pk: 5 })).toBeNull();
  });

  it('counts distinct entities, normed records only where raw copies exist', () => {
    expect(dataset.counts()).toEqual({
      studies: 1, groups: 1, individuals: 0, interventions: 2, outputs: 5, calculated_outputs: 1, timecourses: 1, scatters: 0,
    });
  });

  it('groups records per study', () => {
    expect(dataset.outputsOfStudy('SYN0001')).toHaveLength(6);
    expect(dataset.timecoursesOfStudy('SYN0001')).toHaveLength(1);
    expect(dataset.outputsOfStudy('nope')).toEqual([]);
  });
});

describe('link keys', () => {
  it('ignore intervention order and distinguish groups from individuals', () => {
    const base = { study_sid: 'S', substance: 'a', tissue: 'plasma', method: null };
    expect(linkKey({ ...base, group_pk: 1, individual_pk: null, intervention_pks: [2, 1] })).toBe(
      linkKey({ ...base, group_pk: 1, individual_pk: null, intervention_pks: [1, 2] }),
    );
    expect(linkKey({ ...base, group_pk: 1, individual_pk: null, intervention_pks: [1] })).not.toBe(
      linkKey({ ...base, group_pk: null, individual_pk: 1, intervention_pks: [1] }),
    );
    expect(subjectLabel(subjectOf({ group_pk: null, individual_pk: 4 }))).toBe('individual:4');
    // and back
    expect(subjectFields('individual:4')).toEqual({ group_pk: null, individual_pk: 4 });
    expect(subjectFields('group:12')).toEqual({ group_pk: 12, individual_pk: null });
    expect(subjectFields(null)).toEqual({ group_pk: null, individual_pk: null });
  });
});
