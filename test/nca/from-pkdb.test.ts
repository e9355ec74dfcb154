/** ncaInput: series, dose of the measured substance (or the parent's, with a note), route, time shift. */
import { describe, expect, it } from 'vitest';
import { Dataset } from '../../src/data/dataset.js';
import type { InterventionRecord, OutputRecord, TimecourseRecord } from '../../src/data/model.js';
import { ncaInput, ncaRoute } from '../../src/nca/from-pkdb.js';
import { nca } from '../../src/nca/nca.js';

const STATS = { value: null, mean: null, median: null, min: null, max: null, sd: null, se: null, cv: null };
const study = { study_sid: 'T1', study_name: 'Test' };

function dosing(pk: number, substance: string, fields: Partial<InterventionRecord> = {}): InterventionRecord {
  return {
    ...STATS, ...study, pk, raw_pk: null, normed: true, name: `d${pk}`, route: 'oral', form: 'tablet', application: 'single dose',
    time: '0', time_end: null, time_unit: 'hr', measurement_type: 'dosing', calculation_type: null, choice: null, substance, value: 100, unit: 'milligram', ...fields,
  };
}

let nextPk = 100;
function tcOf(subsetPk: number, substance: string, interventions: number[], times: number[], series: Partial<TimecourseRecord>) {
  const points = times.map((t) => ({
    ...STATS, ...study, pk: nextPk++, raw_pk: null, normed: true, calculated: false, group_pk: 1, individual_pk: null, intervention_pks: interventions,
    tissue: 'plasma', method: null, label: null, output_type: 'timecourse', time: t, time_unit: 'hr', measurement_type: 'concentration',
    calculation_type: null, choice: null, substance, subset_pk: subsetPk, unit: 'milligram / liter',
  }) as OutputRecord);
  const tc = {
    ...study, subset_pk: subsetPk, subset_name: 'tc', output_pk: points.map((p) => p.pk), intervention_pk: interventions, group_pk: 1, individual_pk: null,
    normed: true, tissue: 'plasma', tissue_label: 'plasma', method: null, method_label: null, label: null, time: times, time_unit: 'hr',
    measurement_type: 'concentration', measurement_type_label: null, choice: null, choice_label: null, substance, substance_label: substance,
    value: null, mean: null, median: null, min: null, max: null, sd: null, se: null, cv: null, unit: 'milligram / liter', ...series,
  } as TimecourseRecord;
  return { tc, points };
}

function dataset(interventions: InterventionRecord[], tcs: { tc: TimecourseRecord; points: OutputRecord[] }[]) {
  return Dataset.fromTables({
    studies: [], groups: [], individuals: [], interventions, scatters: [], terms: [],
    outputs: tcs.flatMap((t) => t.points), timecourses: tcs.map((t) => t.tc),
  }, { kind: 'export', location: 'test' });
}

describe('ncaInput', () => {
  const times = [1, 1.5, 2, 3, 5, 9];
  const conc = [0, 4, 6, 5, 3, 1];

  it('a group mean curve of the dosed substance: mean series, dose, extravascular, times shifted by the dose time (1 h)', () => {
    const { tc, points } = tcOf(1, 'caffeine', [1], times, { mean: conc, median: conc.map((c) => c + 1) });
    const r = ncaInput(dataset([dosing(1, 'caffeine', { time: '1' })], [{ tc, points }]), tc);
    expect(r.series).toBe('mean');
    expect(r.input).toMatchObject({ time: [0, 0.5, 1, 2, 4, 8], conc, dose: 100, doseUnit: 'milligram', route: 'extravascular', timeUnit: 'hr' });
    expect(r.parentDose).toBe(false);
    expect(r.notes).toEqual(['the mean curve is analysed (parameters of the mean curve, not the mean of individual parameters)']);
    expect(nca(r.input).parameters.TMAX?.value).toBe(1);
  });

  it("a metabolite's profile gets the parent's dose with a note, never silently", () => {
    const { tc, points } = tcOf(2, 'paraxanthine', [1], times, { value: conc });
    const r = ncaInput(dataset([dosing(1, 'caffeine')], [{ tc, points }]), tc);
    expect(r.parentDose).toBe(true);
    expect(r.input.dose).toBe(100);
    expect(r.notes.join(' ')).toMatch(/no dosing of the measured paraxanthine: the dose of caffeine is used/);
  });

  it('routes: iv + constant infusion with an end → iv-infusion with its duration; iv → bolus; others extravascular', () => {
    const { tc, points } = tcOf(3, 'x', [1], times, { value: conc });
    const r = ncaInput(dataset([dosing(1, 'x', { route: 'iv', application: 'constant infusion', time: '0', time_end: '30', time_unit: 'min' })], [{ tc, points }]), tc);
    expect(r.input).toMatchObject({ route: 'iv-infusion', duration: 0.5 });
    expect(ncaRoute('iv', 'single dose', false)).toBe('iv-bolus');
    expect(ncaRoute('rectal', 'single dose', false)).toBe('extravascular');
  });

  it('two dosings of the substance: no single dose, a note', () => {
    const { tc, points } = tcOf(4, 'x', [1, 2], times, { value: conc });
    const r = ncaInput(dataset([dosing(1, 'x'), dosing(2, 'x', { time: '12' })], [{ tc, points }]), tc);
    expect(r.input.dose).toBeUndefined();
    expect(r.notes[0]).toMatch(/2 dosings of x: no single dose/);
  });
});
