/** recomputeCalculated on small hand-built tables: linking by key and consecutive-pk runs, and every status. */
import { describe, expect, it } from 'vitest';
import type { DatasetTables, InterventionRecord, OutputRecord, TimecourseRecord } from '../../src/data/model.js';
import { pkdbNca } from '../../src/nca/pkdb/profile.js';
import { recomputeCalculated } from '../../src/qa/calculated.js';

const STATS = { value: null, mean: null, median: null, min: null, max: null, sd: null, se: null, cv: null };
const STUDY = { study_sid: 'S1', study_name: 'Study1' };

function dosing(pk: number): InterventionRecord {
  return {
    ...STATS, ...STUDY, pk, raw_pk: null, normed: true, name: `dose${pk}`, route: 'oral', form: 'tablet',
    application: 'single dose', time: '0', time_end: null, time_unit: 'hr', measurement_type: 'dosing',
    calculation_type: null, choice: null, substance: 'caffeine', value: 0.1, unit: 'gram',
  };
}

function output(pk: number, fields: Partial<OutputRecord>): OutputRecord {
  return {
    ...STATS, ...STUDY, pk, raw_pk: null, normed: true, calculated: false, group_pk: 1, individual_pk: null,
    intervention_pks: [7], tissue: 'plasma', method: null, label: null, output_type: 'timecourse', time: null,
    time_unit: 'hr', measurement_type: 'concentration', calculation_type: null, choice: null, substance: 'caffeine',
    subset_pk: null, unit: 'gram / liter', ...fields,
  };
}

const TIME = [0, 0.5, 1, 2, 4, 8];
const CONC = [0, 4, 8, 4, 2, 1];

/** A timecourse and its member outputs; `scale` makes two timecourses of one key differ. */
function timecourse(subset: number, firstPk: number, scale: number, interventions = [7]) {
  const pks = TIME.map((_, k) => firstPk + k);
  const members = pks.map((pk, k) => output(pk, { mean: CONC[k] * scale, time: TIME[k], subset_pk: subset, intervention_pks: interventions }));
  const tc: TimecourseRecord = {
    ...STUDY, subset_pk: subset, subset_name: `tc${subset}`, output_pk: pks, intervention_pk: interventions,
    group_pk: 1, individual_pk: null, normed: true, tissue: 'plasma-sid', tissue_label: 'plasma', method: null,
    method_label: null, label: `label${subset}`, time: TIME, time_unit: 'hr', measurement_type: 'concentration',
    measurement_type_label: null, choice: null, choice_label: null, substance: 'caf', substance_label: 'caffeine',
    value: null, mean: CONC.map((c) => c * scale), median: null, min: null, max: null, sd: null, se: null, cv: null,
    unit: 'gram / liter',
  };
  return { tc, members };
}

/** The outputs PK-DB would have stored for a timecourse, as a run of consecutive pks. */
function storedRun(tc: TimecourseRecord, firstPk: number): OutputRecord[] {
  const computed = pkdbNca({
    outputPk: tc.output_pk, time: tc.time, conc: tc.mean!, timeUnit: 'hr', concUnit: 'gram / liter',
    dosing: { value: 0.1, unit: 'gram', time: 0, timeUnit: 'hr', application: 'single dose', substance: 'caffeine' },
    substance: 'caffeine', seriesField: 'mean',
  });
  return computed.map((o, k) =>
    output(firstPk + k, {
      calculated: true, output_type: null, measurement_type: o.measurement_type, mean: o.value, unit: o.unit,
      time: o.time ?? null, time_unit: o.time_unit ?? null, intervention_pks: tc.intervention_pk,
    }),
  );
}

function tables(timecourses: ReturnType<typeof timecourse>[], stored: OutputRecord[]): DatasetTables {
  return {
    studies: [], groups: [], individuals: [], interventions: [dosing(7), dosing(8)], scatters: [], terms: [],
    timecourses: timecourses.map((t) => t.tc),
    outputs: [...timecourses.flatMap((t) => t.members), ...stored],
  };
}

describe('recomputeCalculated', () => {
  const first = timecourse(10, 100, 1);
  const second = timecourse(11, 110, 2);

  it('pairs the k-th run of a key with the k-th producing timecourse (same key, different labels)', () => {
    const rows = recomputeCalculated(tables([first, second], [...storedRun(first.tc, 200), ...storedRun(second.tc, 220)]));
    expect(rows.every((r) => r.status === 'match')).toBe(true);
    expect(rows).toHaveLength(18);
    expect(new Set(rows.filter((r) => r.output_pk! >= 220).map((r) => r.subset_pk))).toEqual(new Set([11]));
    expect(new Set(rows.filter((r) => r.output_pk! < 220).map((r) => r.subset_pk))).toEqual(new Set([10]));
  });

  it('reports mismatched, missing and extra outputs', () => {
    const run = storedRun(first.tc, 200);
    const vd = run.find((o) => o.measurement_type === 'vd')!;
    vd.mean = vd.mean! * (1 + 1e-6);
    // Dropping the last output keeps the run consecutive (a gap would split it into two runs, §5).
    const withoutVdss = run.filter((o) => o.measurement_type !== 'vd_ss');
    const rows = recomputeCalculated(tables([first], withoutVdss));
    const status = (type: string) => rows.find((r) => r.measurement_type === type)!.status;
    expect(status('vd')).toBe('mismatch');
    expect(status('vd_ss')).toBe('extra');
    expect(status('kel')).toBe('match');
    // A timecourse with two dosing interventions computes nothing: its stored outputs are missing.
    const doubly = timecourse(12, 130, 1, [7, 8]);
    const orphan = storedRun(doubly.tc, 300);
    const missing = recomputeCalculated(tables([doubly], orphan));
    expect(missing.map((r) => r.status)).toEqual(orphan.map(() => 'missing'));
  });
});
