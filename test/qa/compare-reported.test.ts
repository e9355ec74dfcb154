import { describe, expect, it } from 'vitest';
import { Dataset } from '../../src/data/dataset.js';
import type { OutputRecord, TimecourseRecord } from '../../src/data/model.js';
import { compareReported, TISSUE_TWINS } from '../../src/qa/compare-reported.js';
import { prepareContext } from '../../src/qa/context.js';
import { oralDose, reportedOutput } from '../helpers/records.js';

const study = { study_sid: 'T1', study_name: 'Twins' };
const times = [0.5, 1, 2, 4, 8];
// peak 2 mg/L at 1 h
const conc = [1.5, 2, 1.6, 0.9, 0.3];
const output = (fields: Partial<OutputRecord>): OutputRecord => reportedOutput(study, fields);
function run(cmaxTissue: string, curveTissue: string, cmax: number) {
  const points = times.map((t, k) => output({ measurement_type: 'concentration', output_type: 'timecourse', time: t, time_unit: 'hr', mean: conc[k], subset_pk: 1, tissue: curveTissue }));
  const tc = {
    ...study, subset_pk: 1, subset_name: 'tc', output_pk: points.map((p) => p.pk), intervention_pk: [1], group_pk: 1, individual_pk: null,
    normed: true, tissue: curveTissue, tissue_label: curveTissue, method: null, method_label: null, label: null, time: times, time_unit: 'hr',
    measurement_type: 'concentration', measurement_type_label: null, choice: null, choice_label: null, substance: 'x', substance_label: 'x',
    value: null, mean: conc, median: null, min: null, max: null, sd: null, se: null, cv: null, unit: 'milligram / liter',
  } as TimecourseRecord;
  const dose = oralDose(study);
  const tables = { studies: [], groups: [], individuals: [], interventions: [dose], scatters: [], terms: [], outputs: [output({ tissue: cmaxTissue, mean: cmax }), ...points], timecourses: [tc] };
  return prepareContext(Dataset.fromTables(tables, { kind: 'export', location: 'test' })).comparisons;
}

describe('compareAll: serum and plasma are one concentration', () => {
  it('compares a reported plasma Cmax with the serum curve of its key (and the reverse), not with blood', () => {
    expect(TISSUE_TWINS.get('plasma')).toBe('serum');
    // reported 6.14 mg/L against the serum curve's peak 2: ratio 3.07, midazolam's µmol/L ↔ mg/L if it were one
    const plasmaCmax = run('plasma', 'serum', 6.14);
    expect(plasmaCmax).toHaveLength(1);
    expect(plasmaCmax[0].recomputed).toBeCloseTo(2, 9);
    expect(plasmaCmax[0].verdict.ratio).toBeCloseTo(3.07, 9);
    expect(run('serum', 'plasma', 2)[0].verdict.classification).toBe('agree');
    expect(run('blood', 'plasma', 2)).toHaveLength(0);
  });
});

describe('compareReported: a molar slip either profile names', () => {
  // A group's AUC∞ of a 418.6 g/mol drug curated in µmol·h/L as mg·h/L: ×1000/418.6 = ×2.389 the true value.
  const molarMass = 418.6;
  const slipped = 17.3 * (1000 / molarMass); // 41.33
  const curve = (pkdb: number, standard: number) => {
    // The comparison reads the curve's times and levels; the profiles' values are given.
    const tc = {
      ...study, subset_pk: 1, time: times, time_unit: 'hr', output_pk: [], intervention_pk: [1], group_pk: 1, individual_pk: null,
      mean: conc, unit: 'milligram / liter', measurement_type: 'concentration', substance: 'x',
    } as unknown as TimecourseRecord;
    return {
      tc, key: null, substance: 'x', dose: null, dosingPks: [],
      pkdb: { auc_inf: { value: pkdb, unit: 'milligram * hour / liter' } },
      standard: { values: { auc_inf: { value: standard, unit: 'milligram * hour / liter' } }, points: times.map((time, k) => ({ time, value: conc[k] })) },
    } as never;
  };
  const compare = (pkdb: number, standard: number) =>
    compareReported(output({ measurement_type: 'auc_inf', mean: slipped, unit: 'milligram * hour / liter' }), 'auc_inf', curve(pkdb, standard), { molarMass, bodyWeightKg: null });

  it('takes the other profile when it lies in the molar factor window and the closer one does not', () => {
    // standard 18.53: ratio 2.230, 7 % off ×2.389 (no cause, minor); pkdb 17.69: ratio 2.337, 2 % off: named
    const c = compare(17.69, 18.53);
    expect(c?.profile).toBe('pkdb');
    expect(c?.verdict.classification).toBe('major');
    expect(c?.verdict.causes[0]).toMatchObject({ kind: 'molar-mass' });
    expect(c?.verdict.causes[0].factor).toBeCloseTo(1000 / molarMass, 3);
  });

  it('not when the profiles part: a factor matched by the outlying one is chance', () => {
    // pkdb 17.69 in the window as before, standard 27 (ratio 1.53, the closer): the profiles part by ×1.53
    const c = compare(17.69, 27);
    expect(c?.profile).toBe('standard');
    expect(c?.verdict.causes).toEqual([]);
  });
});
