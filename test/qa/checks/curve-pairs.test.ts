import { describe, expect, it } from 'vitest';
import { Dataset } from '../../../src/data/dataset.js';
import type { OutputRecord, TimecourseRecord } from '../../../src/data/model.js';
import { slipFactors } from '../../../src/qa/causes.js';
import { culpritOf, curvePairsCheck, majorityCulprits, pairRatio, pairSlip } from '../../../src/qa/checks/curve-pairs.js';
import { prepareContext } from '../../../src/qa/context.js';
import { oralDose, reportedOutput } from '../../helpers/records.js';

const study = { study_sid: 'P1', study_name: 'Pairs' };
const times = [0.5, 1, 2, 4, 8];
const shape = times.map((t) => 10 * (Math.exp(-0.2 * t) - Math.exp(-2 * t)));

describe('curve-pair: the pair arithmetic', () => {
  it('the median ratio at shared times and its scatter', () => {
    // b at 1, 2, 4 h only; a = 3 × b there
    const a = { time: times, conc: shape.map((c) => 3 * c) };
    const b = { time: [1, 2, 4], conc: [shape[1], shape[2], shape[3]] };
    const r = pairRatio(a, b)!;
    expect(Math.exp(r.log)).toBeCloseTo(3, 12);
    expect(r.scatter).toBeCloseTo(0, 12);
    expect(r.shared).toBe(3);
    expect(pairRatio(a, { time: [1, 2], conc: [1, 1] })).toBeNull();
  });

  it('names ×2.87 for torasemide (M = 348.4: µmol/L ↔ mg/L) and nothing for ×1.3', () => {
    const causes = slipFactors('cmax', { molarMass: 348.4 });
    expect(pairSlip(Math.log(2.9), causes)!.factor).toBeCloseTo(1000 / 348.4, 9);
    expect(pairSlip(Math.log(1.3), causes)).toBeNull();
    expect(pairSlip(Math.log(10.5), causes)!.factor).toBe(10);
  });

  it('the reported Cmax convicts the curve it does not agree with', () => {
    const right = { time: times, conc: shape };
    const slipped = { time: times, conc: shape.map((c) => 10 * c) };
    const cmax = Math.max(...shape);
    expect(culpritOf(cmax, right, slipped)).toBe('b');
    expect(culpritOf(cmax, slipped, right)).toBe('a');
    expect(culpritOf(null, right, slipped)).toBeNull();
    expect(culpritOf(cmax * 3, right, slipped)).toBeNull(); // agrees with neither
  });
});

const output = (fields: Partial<OutputRecord>): OutputRecord => reportedOutput(study, fields);
function curve(subsetPk: number, scale: number): { tc: TimecourseRecord; points: OutputRecord[] } {
  const conc = shape.map((c) => scale * c);
  const points = times.map((t, k) => output({ measurement_type: 'concentration', output_type: 'timecourse', time: t, time_unit: 'hr', mean: conc[k], subset_pk: subsetPk }));
  const tc = {
    ...study, subset_pk: subsetPk, subset_name: 'tc', output_pk: points.map((p) => p.pk), intervention_pk: [1], group_pk: 1, individual_pk: null,
    normed: true, tissue: 'plasma', tissue_label: 'plasma', method: null, method_label: null, label: null, time: times, time_unit: 'hr',
    measurement_type: 'concentration', measurement_type_label: null, choice: null, choice_label: null, substance: 'x', substance_label: 'x',
    value: null, mean: conc, median: null, min: null, max: null, sd: null, se: null, cv: null, unit: 'milligram / liter',
  } as TimecourseRecord;
  return { tc, points };
}
function run(outputs: OutputRecord[], curves: { tc: TimecourseRecord; points: OutputRecord[] }[]) {
  const dose = oralDose(study);
  const tables = { studies: [], groups: [], individuals: [], interventions: [dose], scatters: [], terms: [], outputs: [...outputs, ...curves.flatMap((c) => c.points)], timecourses: curves.map((c) => c.tc) };
  return curvePairsCheck.run(prepareContext(Dataset.fromTables(tables, { kind: 'export', location: 'test' })));
}

describe('curve-pair: the check', () => {
  it('names the curve ×10 its twin that the reported Cmax does not back, else both, blaming neither (major either way)', () => {
    const cmax = output({ mean: Math.max(...shape) });
    const decided = run([cmax], [curve(1, 1), curve(2, 10)]);
    expect(decided).toMatchObject([{ kind: 'curve-pair', severity: 'major', culprit: 'timecourse', subset_pk: 2, details: { pair_subset_pk: 1, cause_factors: [10] } }]);
    expect(decided[0].ratio).toBeCloseTo(10, 9);
    const undecided = run([], [curve(3, 1), curve(4, 10)]);
    expect(undecided).toMatchObject([{ severity: 'major', culprit: null, details: { record: 'timecourse:3', pair_record: 'timecourse:4' } }]);
    expect(undecided[0].message).toMatch(/either may hold the slip$/);
    expect(run([cmax], [curve(5, 1), curve(6, 1.2)])).toEqual([]);
  });
});

describe('curve-pair: the majority of a key', () => {
  it('convicts the curve ×10 of two others that agree with each other (ln ratios of a to b)', () => {
    const causes = slipFactors('cmax', { molarMass: null });
    const l10 = Math.log(10);
    const l12 = Math.log(1.2);
    // curve 0 is ×10 curve 1 and ×10/1.2 = ×8.3 curve 2 (within ×1.25 of 10); 1 and 2 agree (×1/1.2)
    const pairs = [
      [null, l10, l10 - l12],
      [-l10, null, -l12],
      [-(l10 - l12), l12, null],
    ];
    expect([...majorityCulprits(pairs, causes)]).toEqual([0]);
    // the two others disagree (×1.6 apart): no majority
    const l16 = Math.log(1.6);
    expect(majorityCulprits([[null, l10, l10 - l16], [-l10, null, -l16], [-(l10 - l16), l16, null]], causes).size).toBe(0);
    // two curves only: no majority
    expect(majorityCulprits([[null, l10], [-l10, null]], causes).size).toBe(0);
  });

  it('names the odd curve of three major without a reported Cmax', () => {
    const found = run([], [curve(7, 1), curve(8, 1.1), curve(9, 10)]);
    const majors = found.filter((f) => f.severity === 'major');
    expect(majors.length).toBe(2);
    expect(majors.every((f) => f.subset_pk === 9 && f.culprit === 'timecourse')).toBe(true);
    expect(found.filter((f) => f.severity !== 'major')).toEqual([]);
  });
});
