import { describe, expect, it } from 'vitest';
import { Dataset } from '../../../src/data/dataset.js';
import type { InterventionRecord, OutputRecord, TimecourseRecord } from '../../../src/data/model.js';
import { swapsCheck } from '../../../src/qa/checks/swaps.js';
import { prepareContext } from '../../../src/qa/context.js';

const STATS = { value: null, mean: null, median: null, min: null, max: null, sd: null, se: null, cv: null };
const study = { study_sid: 'S1', study_name: 'Swaps' };
const dose: InterventionRecord = {
  ...STATS, ...study, pk: 1, raw_pk: null, normed: true, name: 'd', route: 'oral', form: null, application: 'single dose', time: '0', time_end: null,
  time_unit: 'hr', measurement_type: 'dosing', calculation_type: null, choice: null, substance: 'parent', value: 0.1, unit: 'gram',
};
let pk = 100;
function output(group: number, substance: string, fields: Partial<OutputRecord>): OutputRecord {
  return {
    ...STATS, ...study, pk: pk++, raw_pk: null, normed: true, calculated: false, group_pk: group, individual_pk: null, intervention_pks: [1],
    tissue: 'plasma', method: null, label: null, output_type: 'output', time: null, time_unit: null, measurement_type: 'cmax',
    calculation_type: null, choice: null, substance, subset_pk: null, unit: 'mg/l', ...fields,
  };
}
/** Peak `peak` mg/L at 1 h. */
function curve(subset: number, group: number, substance: string, peak: number) {
  const times = [0.5, 1, 2, 4, 8, 12];
  const conc = [0.6, 1, 0.8, 0.5, 0.25, 0.1].map((f) => f * peak);
  const points = times.map((t, k) => output(group, substance, { output_type: 'timecourse', measurement_type: 'concentration', time: t, time_unit: 'hr', value: conc[k], subset_pk: subset }));
  const tc = {
    ...study, subset_pk: subset, subset_name: 'tc', output_pk: points.map((p) => p.pk), intervention_pk: [1], group_pk: group, individual_pk: null,
    normed: true, tissue: 'plasma', tissue_label: null, method: null, method_label: null, label: null, time: times, time_unit: 'hr',
    measurement_type: 'concentration', measurement_type_label: null, choice: null, choice_label: null, substance, substance_label: substance,
    value: conc, mean: null, median: null, min: null, max: null, sd: null, se: null, cv: null, unit: 'mg/l',
  } as TimecourseRecord;
  return { tc, points };
}
function run(outputs: OutputRecord[], curves: ReturnType<typeof curve>[]) {
  const tables = { studies: [], groups: [], individuals: [], interventions: [dose], scatters: [], terms: [], outputs: [...outputs, ...curves.flatMap((c) => c.points)], timecourses: curves.map((c) => c.tc) };
  return swapsCheck.run(prepareContext(Dataset.fromTables(tables, { kind: 'export', location: 'test' })));
}

describe('swaps', () => {
  it('names parent and metabolite Cmax exchanged: each agrees with the other curve', () => {
    const curves = [curve(1, 1, 'parent', 2), curve(2, 1, 'metabolite', 0.5)];
    const parent = output(1, 'parent', { value: 0.51 }); // the metabolite's peak (0.5 mg/L, within 10 %)
    const metabolite = output(1, 'metabolite', { value: 1.95 }); // the parent's peak
    const findings = run([parent, metabolite], curves);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({
      kind: 'swap', check: 'swap/exchange', severity: 'major', output_pk: parent.pk, subset_pk: 1, culprit: null,
      details: { swapWith: { subset_pk: 2, output_pk: metabolite.pk, substance: 'metabolite' }, output_pks: [parent.pk, metabolite.pk], subset_pks: [1, 2] },
    });
    expect(findings[0].ratio).toBeCloseTo(0.51 / 2, 9);
  });

  it('names a one-way match as minor, and nothing when the sibling curve is too close to its own', () => {
    const curves = [curve(1, 1, 'parent', 2), curve(2, 2, 'parent', 0.2)];
    const armA = output(1, 'parent', { value: 0.2 }); // agrees with arm B's curve, ×1/10 its own
    expect(run([armA], curves)).toMatchObject([{ check: 'swap/one-way', severity: 'minor', culprit: 'output', details: { swapWith: { subset_pk: 2, output_pk: null } } }]);
    const near = [curve(1, 1, 'parent', 2), curve(2, 2, 'parent', 2.6)];
    expect(run([output(1, 'parent', { value: 2.6 })], near)).toEqual([]); // 1.3×: a minor disagreement, no swap to tell
  });
});
