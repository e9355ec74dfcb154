import { describe, expect, it } from 'vitest';
import { Dataset } from '../../../src/data/dataset.js';
import type { InterventionRecord, OutputRecord, TimecourseRecord } from '../../../src/data/model.js';
import { atAdultWeightNearest, REPORTED_VS_RECOMPUTED, unweighedCauses } from '../../../src/qa/compare-reported.js';
import { doseOut, reportedVsRecomputedCheck } from '../../../src/qa/checks/reported-vs-recomputed.js';
import type { Finding } from '../../../src/qa/finding.js';
import type { RangeJudgment, RangeRun } from '../../../src/qa/range-run.js';
import { prepareContext, type QaContext } from '../../../src/qa/context.js';

const STATS = { value: null, mean: null, median: null, min: null, max: null, sd: null, se: null, cv: null };
const study = { study_sid: 'T1', study_name: 'Test' };

function dosing(pk: number, route: string, application = 'single dose'): InterventionRecord {
  return {
    ...STATS, ...study, pk, raw_pk: null, normed: true, name: `d${pk}`, route, form: 'tablet', application, time: '0', time_end: null,
    time_unit: 'hr', measurement_type: 'dosing', calculation_type: null, choice: null, substance: 'x', value: 0.1, unit: 'gram',
  };
}

let nextPk = 100;
function output(fields: Partial<OutputRecord>): OutputRecord {
  return {
    ...STATS, ...study, pk: nextPk++, raw_pk: null, normed: true, calculated: false, group_pk: null, individual_pk: 1, intervention_pks: [1],
    tissue: 'plasma', method: null, label: null, output_type: 'output', time: null, time_unit: null, measurement_type: 'cmax',
    calculation_type: null, choice: null, substance: 'x', subset_pk: null, unit: 'gram / liter', ...fields,
  };
}

/** Individual 1's timecourse of x after intervention 1, in g/L over hours. */
function timecourse(times: number[], conc: number[]): { tc: TimecourseRecord; points: OutputRecord[] } {
  const points = times.map((t, i) => output({ output_type: 'timecourse', measurement_type: 'concentration', time: t, time_unit: 'hr', value: conc[i], subset_pk: 9 }));
  const tc = {
    ...study, subset_pk: 9, subset_name: 'tc', output_pk: points.map((p) => p.pk), intervention_pk: [1], group_pk: null, individual_pk: 1,
    normed: true, tissue: 'plasma', tissue_label: 'plasma', method: null, method_label: null, label: null, time: times, time_unit: 'hr',
    measurement_type: 'concentration', measurement_type_label: null, choice: null, choice_label: null, substance: 'x', substance_label: 'x',
    value: conc, mean: null, median: null, min: null, max: null, sd: null, se: null, cv: null, unit: 'gram / liter',
  } as TimecourseRecord;
  return { tc, points };
}

function context(dose: InterventionRecord, curve: { tc: TimecourseRecord; points: OutputRecord[] }, outputs: OutputRecord[]): QaContext {
  const tables = {
    studies: [], groups: [], individuals: [], interventions: [dose], scatters: [], terms: [],
    outputs: [...outputs, ...curve.points], timecourses: [curve.tc],
  };
  return prepareContext(Dataset.fromTables(tables, { kind: 'export', location: 'test' }));
}

describe('reported-vs-recomputed: a reported AUC over a stated interval', () => {
  // A curve sampled from 48 h to 432 h (a multiple-dose study at steady state).
  // AUC 48–72 h: 48–54 linear up (4+8)/2 × 6 = 36; 54–60 log down 2 × 6 / ln(8/6) = 41.71; 60–72 log down 2 × 12 / ln 1.5 = 59.19.
  const expected48to72 = 36 + 12 / Math.log(8 / 6) + 24 / Math.log(1.5);
  const curve = () => timecourse([48, 54, 60, 72, 96, 432], [4, 8, 6, 4, 2, 0.1]);

  it('compares a steady-state AUC0–24 with the partial AUC over 48–72 h, not with the whole 432-h curve', () => {
    const auc = output({ measurement_type: 'auc_end', unit: 'gram * hour / liter', value: 137, time: 24, time_unit: 'hr' });
    const ctx = context(dosing(1, 'oral', 'multiple dose'), curve(), [auc]);
    const [c] = ctx.comparisons;
    expect(c.recomputed).toBeCloseTo(expected48to72, 9);
    expect(c.verdict.classification).toBe('agree');
    expect(c.note).toMatch(/partial AUC over 48–72 hr after the dose/);
    expect(ctx.coverage.checksOf('output', auc.pk)).toEqual([REPORTED_VS_RECOMPUTED]);
    expect(ctx.coverage.checksOf('timecourse', 9)).toEqual([REPORTED_VS_RECOMPUTED]);
  });

  it('names no slip for a partial AUC that disagrees without a factor (minor), but still names one that has it', () => {
    const off = output({ measurement_type: 'auc_end', unit: 'gram * hour / liter', value: 137 * 3.3, time: 24, time_unit: 'hr' });
    const slip = output({ measurement_type: 'auc_end', unit: 'gram * hour / liter', value: expected48to72 * 1000, time: 24, time_unit: 'hr' });
    const findings = reportedVsRecomputedCheck.run(context(dosing(1, 'oral', 'multiple dose'), curve(), [off, slip]));
    expect(findings.find((f) => f.output_pk === off.pk)).toMatchObject({ severity: 'minor' });
    expect(findings.find((f) => f.output_pk === off.pk)?.suspected_cause).toMatch(/partial AUC over the reported interval/);
    expect(findings.find((f) => f.output_pk === slip.pk)).toMatchObject({ severity: 'major' });
    expect(findings.find((f) => f.output_pk === slip.pk)?.suspected_cause).toMatch(/^×1000/);
  });

  it('compares AUC0–2 of a single-dose curve to 8 h with its first two hours: 5 + 5/ln 2', () => {
    const auc = output({ measurement_type: 'auc_end', unit: 'gram * hour / liter', value: 12.2, time: 2, time_unit: 'hr' });
    const ctx = context(dosing(1, 'oral'), timecourse([0, 1, 2, 4, 8], [0, 10, 5, 2.5, 1]), [auc]);
    expect(ctx.comparisons[0].recomputed).toBeCloseTo(5 + 5 / Math.log(2), 9);
    expect(ctx.comparisons[0].verdict.classification).toBe('agree');
  });
});

describe('reported-vs-recomputed: expected disagreements', () => {
  it('does not escalate an IV bolus Cmax 1.75× the curve whose first sample is 15 min after the dose', () => {
    const cmax = output({ measurement_type: 'cmax', value: 14 });
    const [c] = context(dosing(1, 'iv'), timecourse([0.25, 1, 2, 4, 8], [8, 6, 4, 2, 0.5]), [cmax]).comparisons;
    expect(c.verdict).toMatchObject({ classification: 'minor', causes: [] });
    expect(c.verdict.expected).toMatch(/IV bolus: the first sample is 15 min after the dose/);
    // The same Cmax after an oral dose is major (individual: beyond the minor band of 1.5).
    const [oral] = context(dosing(1, 'oral'), timecourse([0.25, 1, 2, 4, 8], [8, 6, 4, 2, 0.5]), [output({ measurement_type: 'cmax', value: 14 })]).comparisons;
    expect(oral.verdict.classification).toBe('major');
  });

  it('keeps a reported 0 against a curve at the floor minor', () => {
    const cmax = output({ measurement_type: 'cmax', value: 0 });
    const [c] = context(dosing(1, 'oral'), timecourse([0, 1, 2, 4], [0, 0.002, 0.001, 0.0005]), [cmax]).comparisons;
    expect(c.verdict).toMatchObject({ classification: 'minor', ratio: null });
    expect(c.verdict.expected).toMatch(/reported 0/);
  });

  it('says why an output without a timecourse of its key was not compared', () => {
    const lonely = output({ measurement_type: 'clearance', unit: 'liter / hour', value: 5, individual_pk: 2 });
    const ctx = context(dosing(1, 'oral'), timecourse([0, 1, 2], [0, 1, 0.5]), [lonely]);
    expect(ctx.comparisons).toEqual([]);
    expect(ctx.coverage.reasonsOf('output', lonely.pk).get(REPORTED_VS_RECOMPUTED)).toMatch(/no concentration timecourse/);
  });
});

describe('reported-vs-recomputed: a per-kg value of a subject whose weight is not curated', () => {
  // IV-like decline after 100 mg: C = 0.002·e^(−0.2t) g/L sampled 0.5–24 h; the recomputed CL (L/h) is read off the context.
  const times = [0.5, 1, 2, 4, 8, 12, 24];
  const curve = () => timecourse(times, times.map((t) => 0.002 * Math.exp(-0.2 * t)));
  const absoluteCl = () => {
    const ctx = context(dosing(1, 'iv'), curve(), [output({ measurement_type: 'clearance', unit: 'liter / hour', value: 1 })]);
    return ctx.comparisons[0].recomputed;
  };

  it('finds the adult weight (40–120 kg) nearest the reported value: ÷W from an absolute value, ×W from a per-kg one', () => {
    // 7 L/h reported as 0.1 L/h/kg: W = 70; 7 L/h against 0.2 L/h/kg: W = 35, held at 40 → 0.175
    expect(atAdultWeightNearest({ value: 0.1, conversion: 'divided by body weight 70 kg', weightPower: -1 }, 0.1)).toMatchObject({ value: 0.1 });
    expect(atAdultWeightNearest({ value: 0.1, conversion: 'divided by body weight 70 kg', weightPower: -1 }, 0.2).value).toBeCloseTo(7 / 40, 12);
    expect(atAdultWeightNearest({ value: 0.1, conversion: 'divided by body weight 70 kg', weightPower: -1 }, 0.05).value).toBeCloseTo(7 / 120, 12);
    // a per-kg recomputed value 0.1 L/h/kg against 9 L/h: W = 90
    expect(atAdultWeightNearest({ value: 7, conversion: 'multiplied by body weight 70 kg', weightPower: 1 }, 9)).toMatchObject({ value: 9 });
    expect(atAdultWeightNearest({ value: 7, conversion: 'multiplied by body weight 70 kg', weightPower: 1 }, 9).conversion).toMatch(/adult body weight of 90 kg \(assumed/);
  });

  it('names the slips a ratio at 70 kg allows for some adult weight, nearest 70 kg first', () => {
    // ratio 82 through a ÷W bridge: per-kg at 82 kg; ×60 at 70 × 60 / 82 = 51 kg
    expect(unweighedCauses(82, 'clearance', true).map((c) => c.text)).toEqual([
      '×82 (per-kg vs absolute: one adult body weight between the reported and the recomputed value)',
      expect.stringMatching(/^×60 .* at an adult body weight of 51 kg$/),
    ]);
    // ratio 1/100 through ÷W: per-kg needs 100 kg; ×1/60 needs W = 70 / (60 × 0.01) = 117 kg
    expect(unweighedCauses(0.01, 'clearance', true).map((c) => c.factor)).toEqual([0.01, 1 / 60]);
    // ratio 3: nothing; ratio 7: not ×10 at 100 kg (below UNWEIGHED_MIN_FACTOR, ordinary differences reach it)
    expect(unweighedCauses(3, 'clearance', true)).toEqual([]);
    expect(unweighedCauses(7, 'clearance', true)).toEqual([]);
  });

  it('agrees within an adult weight, names ×1/60 beyond it, and names an absolute value curated per kg', () => {
    const cl = absoluteCl();
    const perKg = (value: number) => output({ measurement_type: 'clearance', unit: 'liter / hour / kilogram', value });
    const fits = perKg(cl / 45); // a 45 kg subject: ×1.56 at 70 kg
    const slip = perKg(cl / 70 / 60); // minutes read as hours in the reported unit
    const absolute = perKg(cl); // the absolute value curated per kg
    const ctx = context(dosing(1, 'iv'), curve(), [fits, slip, absolute]);
    const of = (o: OutputRecord) => ctx.comparisons.find((c) => c.output.pk === o.pk)!;
    expect(of(fits).verdict.classification).toBe('agree');
    expect(of(fits).recomputed).toBeCloseTo(fits.value as number, 12); // at W = recomputed absolute ÷ reported (45–46 kg by profile)
    expect(of(fits).conversion).toMatch(/adult body weight of 4[56](\.\d)? kg \(assumed/);
    expect(of(slip).verdict).toMatchObject({ classification: 'major' });
    expect(of(slip).verdict.causes[0].text).toMatch(/^×1\/60/);
    expect(of(slip).conversion).toMatch(/adult body weight of 70 kg \(assumed: none is curated; no weight of 40–120 kg agrees\)/);
    // per-kg first (the ratio itself an adult weight, ~67 kg), then ×60 at ~63 kg: either fits an unweighed adult
    expect(of(absolute).verdict.classification).toBe('major');
    expect(of(absolute).verdict.causes.map((c) => c.kind)).toEqual(['per-kg', 'unit-factor']);
    // 70 × the ratio of the two profiles' CL (the one nearer the reported value is compared)
    const { pkdb, standard } = of(absolute);
    expect([70 * (cl / 70) / pkdb!, 70 * (cl / 70) / standard!].some((r) => Math.abs(r - of(absolute).verdict.ratio!) < 1e-9)).toBe(true);
  });
});

describe('reported-vs-recomputed: a dose left open between itself and the curve, settled by the other studies\' doses', () => {
  /** A run holding one dosing's judgment: robust z and spread among the other studies' doses. */
  const runWith = (judged: { z: number; spread: number } | null) => () => {
    const dosing = new Map<number, RangeJudgment>();
    if (judged) dosing.set(7, { sample: {}, ref: { spread: judged.spread }, verdict: { z: judged.z } } as unknown as RangeJudgment);
    return { judgments: [], unplaced: [], byRecord: { output: new Map(), timecourse: new Map(), dosing } } as unknown as RangeRun;
  };
  // CL ×12.4 its curve: the dose curated ×1/12.4 of what the values imply, or the curve's level ×12.4.
  const open = {
    kind: 'reported-vs-recomputed', severity: 'major', culprit: null, intervention_pk: 7, ratio: 12.4, suspected_cause: 'dose: …',
    details: { cause_kinds: ['dose'], cause_factors: [12.4] },
  } as unknown as Finding;

  it('blames the dose where its own reference puts it out and the implied dose in line', () => {
    // z −5.2 at spread 0.5: ×12.4 undone gives −5.2 + ln 12.4 / 0.5 = −0.165.
    const settled = doseOut(open, runWith({ z: -5.2, spread: 0.5 }));
    expect(settled).toMatchObject({ culprit: 'dose', details: { culprit_by: ['reference-range'] } });
    expect(settled.suspected_cause).toMatch(/the dose is the record to fix: the other studies' doses put it out \(robust z -5\.2\) and the dose the values imply in line \(z -0\.165\)/);
  });

  it('leaves it open where the dose is typical, its reference missing, or the implied dose out too', () => {
    expect(doseOut(open, runWith({ z: 0.4, spread: 0.5 }))).toBe(open);
    expect(doseOut(open, runWith(null))).toBe(open);
    expect(doseOut(open, runWith({ z: -9, spread: 0.5 }))).toBe(open); // −9 + 5.04 = −3.96: out either way
    // A finding with a record already named, or no dose among its causes, is not this rule's.
    expect(doseOut({ ...open, culprit: 'output' }, runWith({ z: -5.2, spread: 0.5 }))).toMatchObject({ culprit: 'output' });
    expect(doseOut({ ...open, details: { cause_kinds: ['unit-factor'] } } as Finding, runWith({ z: -5.2, spread: 0.5 })).culprit).toBeNull();
  });
});
