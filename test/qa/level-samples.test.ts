import { describe, expect, it } from 'vitest';
import { Dataset } from '../../src/data/dataset.js';
import type { TimecourseRecord } from '../../src/data/model.js';
import { prepareContext } from '../../src/qa/context.js';
import { medianPositive, WIDE_LEVEL, wideLevelSamples, wideLevelStratum } from '../../src/qa/level-samples.js';
import { NO_STATS, oralDose, reportedOutput } from '../helpers/records.js';

const study = { study_sid: 'S1', study_name: 'Study 1' };

function curve(fields: Partial<TimecourseRecord>): TimecourseRecord {
  return {
    ...NO_STATS, ...study, subset_pk: 7, subset_name: 'c', output_pk: [1, 2, 3, 4], intervention_pk: [1], group_pk: 1, individual_pk: null, normed: true,
    tissue: 'plasma', tissue_label: null, method: null, method_label: null, label: null, time: [0, 1, 2, 4], time_unit: 'hr',
    measurement_type: 'concentration', measurement_type_label: null, choice: null, choice_label: null, substance: 'x', substance_label: null,
    unit: 'milligram / liter', ...fields,
  };
}

describe('level-samples: medianPositive', () => {
  it('takes the median of the positive finite values: 0, 2, 4, 8 → 4; 2, 4, 6, 8 → 5', () => {
    expect(medianPositive([0, 2, null, 4, 8, Number.NaN])).toBe(4);
    expect(medianPositive([8, 2, 6, 4])).toBe(5);
    expect(medianPositive([0, null, -1])).toBeNull();
  });
});

describe('level-samples: wideLevelSamples', () => {
  it('gives a curve its median positive level and a reported concentration its value, in g/L, in one stratum per substance and tissue', () => {
    const tc = curve({ mean: [0, 2, 4, 1] });
    const c = reportedOutput(study, { measurement_type: 'concentration', mean: 3 });
    const cmax = reportedOutput(study, { measurement_type: 'cmax', mean: 5 });
    const tables = {
      studies: [], groups: [], individuals: [], interventions: [oralDose(study)], scatters: [], terms: [], outputs: [c, cmax], timecourses: [tc], info_nodes: [],
    };
    const samples = wideLevelSamples(prepareContext(Dataset.fromTables(tables, { kind: 'export', location: 'test' })));
    expect(samples.map((s) => [s.record, s.pk, s.value, s.unit, s.quantity])).toEqual([
      ['timecourse', 7, 0.002, 'gram / liter', WIDE_LEVEL],
      ['output', c.pk, 0.003, 'gram / liter', WIDE_LEVEL],
    ]);
    expect(new Set(samples.map((s) => s.stratum))).toEqual(new Set([wideLevelStratum('x', 'plasma', 'gram / liter')]));
    // No dose: the pool is not divided by one, and a dose slip is never read from it.
    expect(samples.every((s) => s.dose === null && s.interventionPk === null)).toBe(true);
  });
});
