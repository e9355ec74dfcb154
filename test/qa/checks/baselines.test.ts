import { describe, expect, it } from 'vitest';
import { Dataset } from '../../../src/data/dataset.js';
import type { OutputRecord, TimecourseRecord } from '../../../src/data/model.js';
import { slipFactors } from '../../../src/qa/causes.js';
import { baselinesCheck, judgeBaseline, preDoseLevel, scalesWithDose } from '../../../src/qa/checks/baselines.js';
import { prepareContext } from '../../../src/qa/context.js';

const STATS = { value: null, mean: null, median: null, min: null, max: null, sd: null, se: null, cv: null };
const study = { study_sid: 'B1', study_name: 'Baselines' };
const GLUCOSE = 180.16;

describe('baseline: the pre-dose level', () => {
  it('is the median of the samples before the dose, at the dose time too unless it is an IV C0', () => {
    // an OGTT: 0.90, 0.92, 0.91 g/L at −30, −15, 0 min, then a rise to 1.6
    const time = [-30, -15, 0, 30, 60];
    const glucose = [0.9, 0.92, 0.91, 1.6, 1.3];
    expect(preDoseLevel(time, glucose, 0, false)).toEqual({ level: 0.91, samples: 3 });
    expect(preDoseLevel(time, glucose, null, false)).toEqual({ level: 0.91, samples: 3 });
    // an IV bolus whose sample at the dose time is the curve's highest: C0, left out
    expect(preDoseLevel([0, 1, 2], [10, 5, 2.5], 0, true)).toBeNull();
    // a drug's pre-dose noise (0.01 of a peak of 1) is no baseline (below MIN_SHARE = 5 %)
    expect(preDoseLevel([0, 1, 2], [0.01, 1, 0.5], 0, false)).toBeNull();
    expect(preDoseLevel([1, 2], [1, 0.5], 0, false)).toBeNull();
  });

  it('names glucose in mmol/L curated as g/L (×180.16/1000 = ×1/5.55 the other way) against arms agreeing within ×1.5', () => {
    const causes = slipFactors('cmax', { molarMass: GLUCOSE });
    // 5.08 g/L against 0.90, 0.92, 0.89: ratio 5.08 / 0.90 = 5.64, ×5.55 within ×1.25
    const v = judgeBaseline(5.08, [0.9, 0.92, 0.89], causes)!;
    expect(Math.exp(v.log)).toBeCloseTo(5.644, 3);
    expect(v.cause!.factor).toBeCloseTo(1000 / GLUCOSE, 9);
    expect(judgeBaseline(9.1, [0.9, 0.92, 0.89], causes)!.cause!.factor).toBe(10);
    // in line (×1.3), or others that disagree (0.6 and 0.92: ×1.53), or one other only: nothing
    expect(judgeBaseline(1.2, [0.9, 0.92, 0.89], causes)).toBeNull();
    expect(judgeBaseline(5.08, [0.6, 0.92], causes)).toBeNull();
    expect(judgeBaseline(5.08, [0.9], causes)).toBeNull();
    // ×4 (a diabetic arm?) fits no factor: minor (cause null); ×2.5 neither off enough nor a factor: nothing
    expect(judgeBaseline(3.6, [0.9, 0.92, 0.89], causes)).toMatchObject({ cause: null });
    expect(judgeBaseline(2.25, [0.9, 0.92, 0.89], causes)).toBeNull();
  });
});

let nextPk = 100;
function output(fields: Partial<OutputRecord>): OutputRecord {
  return {
    ...STATS, ...study, pk: nextPk++, raw_pk: null, normed: true, calculated: false, group_pk: 1, individual_pk: null, intervention_pks: [],
    tissue: 'plasma', method: null, label: null, output_type: 'timecourse', time: null, time_unit: 'min', measurement_type: 'concentration',
    calculation_type: null, choice: null, substance: 'glucose', subset_pk: null, unit: 'gram / liter', ...fields,
  };
}
function curve(subsetPk: number, groupPk: number, conc: number[]): { tc: TimecourseRecord; points: OutputRecord[] } {
  const times = [-30, -15, 0, 30, 60, 120];
  const points = times.map((t, k) => output({ time: t, mean: conc[k], subset_pk: subsetPk, group_pk: groupPk }));
  const tc = {
    ...study, subset_pk: subsetPk, subset_name: 'tc', output_pk: points.map((p) => p.pk), intervention_pk: [], group_pk: groupPk, individual_pk: null,
    normed: true, tissue: 'plasma', tissue_label: 'plasma', method: null, method_label: null, label: null, time: times, time_unit: 'min',
    measurement_type: 'concentration', measurement_type_label: null, choice: null, choice_label: null, substance: 'glucose', substance_label: 'glucose',
    value: null, mean: conc, median: null, min: null, max: null, sd: null, se: null, cv: null, unit: 'gram / liter',
  } as TimecourseRecord;
  return { tc, points };
}

describe('baseline: the check', () => {
  it('names the curve whose pre-dose glucose is ×5.55 its three sibling arms (major, culprit timecourse)', () => {
    const shape = [0.9, 0.91, 0.9, 1.6, 1.4, 1.0];
    const curves = [curve(1, 1, shape), curve(2, 2, shape.map((c) => c * 1.02)), curve(3, 3, shape.map((c) => c * 0.98)), curve(4, 4, shape.map((c) => (c * 1000) / GLUCOSE))];
    const tables = { studies: [], groups: [], individuals: [], interventions: [], scatters: [], terms: [], outputs: curves.flatMap((c) => c.points), timecourses: curves.map((c) => c.tc) };
    const findings = baselinesCheck.run(prepareContext(Dataset.fromTables(tables, { kind: 'export', location: 'test' })));
    expect(findings).toMatchObject([{ kind: 'baseline', severity: 'major', culprit: 'timecourse', subset_pk: 4 }]);
    expect(findings[0].ratio).toBeCloseTo(1000 / GLUCOSE, 6);
  });
});

describe('baseline: a trough that scales with the dose', () => {
  it('is no slip: ×10 the others with a dose ×10 theirs (within ×1.5), but a slip with the same dose', () => {
    const rt = (value: number | null) => ({ rt: { dose: value === null ? null : { value, unit: 'gram' } } }) as never;
    expect(scalesWithDose(Math.log(10), rt(1), [rt(0.1), rt(0.1)])).toBe(true);
    expect(scalesWithDose(Math.log(10), rt(0.1), [rt(0.1), rt(0.1)])).toBe(false);
    expect(scalesWithDose(Math.log(10), rt(null), [rt(0.1)])).toBe(false);
    // ×10 at a dose ×3 theirs: the dose explains ×3, not ×10
    expect(scalesWithDose(Math.log(10), rt(0.3), [rt(0.1), rt(0.1)])).toBe(false);
  });
});
