import { describe, expect, it } from 'vitest';
import { Dataset } from '../../../src/data/dataset.js';
import type { GroupRecord, IndividualRecord, InterventionRecord, OutputRecord, TimecourseRecord } from '../../../src/data/model.js';
import { slipFactors } from '../../../src/qa/causes.js';
import { arithmeticHolds, arithmeticResidual, groupMembersCheck, judge, memberSlipFactors, samuelsonExcess, type MemberSet } from '../../../src/qa/checks/group-members.js';
import { prepareContext } from '../../../src/qa/context.js';
import type { Finding } from '../../../src/qa/finding.js';

const STATS = { value: null, mean: null, median: null, min: null, max: null, sd: null, se: null, cv: null };
const study = { study_sid: 'G1', study_name: 'Members' };
const cmaxFactors = () => slipFactors('cmax', { molarMass: 194.19 });
const one = (values: number[], mean: number, n = values.length, sd: number | null = null): MemberSet => ({
  n, mean: [mean], members: values.map((v) => [v]), sd: sd === null ? null : [sd],
});

describe('group-members: the arithmetic', () => {
  it('a complete set: ln(mean of members / μ)', () => {
    // members 2, 4, 6 (mean 4) against μ = 4: holds; against μ = 2: ×2
    expect(arithmeticResidual(one([2, 4, 6], 4))).toBeCloseTo(0, 12);
    expect(Math.exp(arithmeticResidual(one([2, 4, 6], 2)))).toBeCloseTo(2, 12);
    expect(arithmeticHolds(one([2, 4, 6], 4.5), arithmeticResidual(one([2, 4, 6], 4.5)))).toBe(true); // ×0.89
    expect(arithmeticHolds(one([2, 4, 6], 2), Math.log(2))).toBe(false);
  });

  it('a partial set: ln(Σ members / (n·μ)), only a sum too high contradicts', () => {
    // 3 of 10 members summing to 12 against μ = 4 (n·μ = 40): ×0.3, holds; summing to 60: ×1.5, cannot be
    const low = one([2, 4, 6], 4, 10);
    expect(Math.exp(arithmeticResidual(low))).toBeCloseTo(0.3, 12);
    expect(arithmeticHolds(low, arithmeticResidual(low))).toBe(true);
    const high = one([20, 20, 20], 4, 10);
    expect(Math.exp(arithmeticResidual(high))).toBeCloseTo(1.5, 12);
    expect(arithmeticHolds(high, arithmeticResidual(high))).toBe(false);
  });

  it('allows for the rounding of reported values: five of one or two significant digits against their mean', () => {
    // 0.004, 0.001, 0.003, 0.0038, 0.0036 (mean 0.00308) against μ = 0.0037: ×0.832, beyond ×1.2 as written; each up
    // to half its last place higher, two digits at least (Σ 0.01565, mean 0.00313) against μ as low as 0.00365:
    // ×0.858, which holds
    const coarse = one([0.004, 0.001, 0.003, 0.0038, 0.0036], 0.0037);
    expect(Math.exp(arithmeticResidual(coarse))).toBeCloseTo(0.832, 3);
    expect(arithmeticHolds(coarse, arithmeticResidual(coarse))).toBe(true);
    expect(judge(coarse, () => slipFactors('auc_inf', { molarMass: 270.3 }), [])).toBeNull();
    // the same values written with three digits leave no such room
    const precise = one([0.00395, 0.00101, 0.00292, 0.00375, 0.00355], 0.00385); // ×0.79; ×0.80 at most after rounding
    expect(arithmeticHolds(precise, arithmeticResidual(precise))).toBe(false);
  });

  it("Samuelson: no member further than s·(n−1)/√n from μ", () => {
    // n = 4, s = 1: reach 3/2 = 1.5; a member at μ + 3 is ×2 as far as any can be
    const set = one([10, 10, 10, 13], 10.75, 4, 1);
    expect(samuelsonExcess(set)).toBeCloseTo(2.25 / 1.5, 12);
    expect(samuelsonExcess(one([10, 10, 10, 13], 10.75, 4))).toBeNull();
  });
});

describe('group-members: judge', () => {
  it('names one individual ×10 of a complete set (a decimal slip)', () => {
    // six members of ~2 mg/L, one curated as 20: mean 5 against the group's 2.05
    const set = one([2, 1.8, 2.2, 1.9, 2.4, 20], 2.05);
    const v = judge(set, cmaxFactors, cmaxFactors());
    expect(v).toMatchObject({ culprit: 'member', index: 5 });
    expect(v!.cause!.factor).toBe(10);
    // with 2 instead of 20 the mean is 2.05: the arithmetic holds after the fix
    expect(Math.exp(v!.fixed)).toBeCloseTo(1, 9);
  });

  it('names a molar ↔ mass slip of ×5.15 (µmol/L as mg/L, M = 194.19) that the complete arithmetic pins', () => {
    // 10, 11, 9, 10, 10, 51.5 (= 10 × 5.15) against μ = 10: mean 16.9, ×1.69
    const v = judge(one([10, 11, 9, 10, 10, 51.5], 10), cmaxFactors, cmaxFactors());
    expect(v).toMatchObject({ culprit: 'member', index: 5 });
    expect(v!.cause!.factor).toBeCloseTo(1000 / 194.19, 6);
  });

  it('names a ×3.07 member nearer its fellows than ×3 when its factor alone makes the complete mean exact', () => {
    // Allonen1981's six midazolam Cmax (µg/L) 204, 195, 152, 185, 101, 84 (mean 153.5) and the group's 154; the third
    // curated ×1000/325.8 = ×3.07 (µmol/L as mg/L): 466.6, ×2.52 the median of the others (185), and the mean 206 ×1.34
    const factors = () => slipFactors('cmax', { molarMass: 325.8 });
    const slipped = one([204, 195, 152 * (1000 / 325.8), 185, 101, 84], 154);
    const v = judge(slipped, factors, factors());
    expect(v).toMatchObject({ culprit: 'member', index: 2 });
    expect(v!.cause!.factor).toBeCloseTo(1000 / 325.8, 6);
    expect(Math.exp(v!.fixed)).toBeCloseTo(153.5 / 154, 6);
    // Partial (n = 8): the bound says less, a near member is not named
    expect(judge({ ...slipped, n: 8 }, factors, factors())).toBeNull();
    // 355 instead (mean ×1.22): ÷3.07 leaves the mean ×0.956, not exact (×1.04): a spread, not a slip, nothing named
    expect(judge(one([204, 195, 355, 185, 101, 84], 154), factors, factors())).toBeNull();
  });

  it('names one individual ×1/10 of ten whose mean moved only −9 %, where its factor undone makes the mean exact', () => {
    // ten Cmax of ~2 (mean 2.0), the group's 2.0; the last curated 0.2 instead of 2.0: their mean 1.82, ×0.91 — inside
    // the slack of ×1.2, beyond rounding (×1.04); the last is ×0.1 the others' median, and ×10 on it makes the mean exact
    const values = [2.1, 1.9, 2.0, 2.2, 1.8, 2.05, 1.95, 2.0, 2.0, 2.0];
    const slipped = one([...values.slice(0, 9), 0.2], 2.0);
    const v = judge(slipped, cmaxFactors, cmaxFactors());
    expect(v).toMatchObject({ culprit: 'member', index: 9 });
    expect(v!.cause!.factor).toBeCloseTo(0.1, 12);
    expect(Math.exp(v!.residual)).toBeCloseTo(1.82 / 2, 9);
    expect(Math.exp(v!.fixed)).toBeCloseTo(1, 9);
    // A subject really that far off (a poor metaboliser at 0.2) is in the group's mean: 1.82 as curated, nothing named
    expect(judge(one([...values.slice(0, 9), 0.2], 1.82), cmaxFactors, cmaxFactors())).toBeNull();
    // Undoing ×10 that leaves the mean ×1.03 (the subject's true value 2.6, not ~2) is no exact fix: nothing named
    expect(judge(one([...values.slice(0, 9), 0.26], 2.0), cmaxFactors, cmaxFactors())).toBeNull();
    // Partial (n = 12): a sum below n·μ is no contradiction
    expect(judge({ ...slipped, n: 12 }, cmaxFactors, cmaxFactors())).toBeNull();
  });

  it("names the group's mean when its members agree and the mean × a slip factor is theirs", () => {
    // members around 2, the group's mean curated as 20.5 (×10)
    const v = judge(one([2, 1.8, 2.2, 1.9, 2.4, 2], 20.5), cmaxFactors, cmaxFactors());
    expect(v).toMatchObject({ culprit: 'group' });
    expect(v!.cause!.factor).toBe(10);
  });

  it("names a group's mean ×10 against a partial set only with its SD (Samuelson), the SD curated ×10 too", () => {
    // 4 of 10 members around 2; the mean 2 and SD 0.5 curated as 20 and 5: reach 5·9/√10 = 14.2, members 18 below
    const set = one([2, 1.8, 2.2, 2], 20, 10, 5);
    const v = judge(set, cmaxFactors, cmaxFactors());
    expect(v).toMatchObject({ culprit: 'group' });
    expect(v!.cause!.factor).toBe(10);
    // without an SD the sum (8 of n·μ = 200) says nothing
    expect(judge(one([2, 1.8, 2.2, 2], 20, 10), cmaxFactors, cmaxFactors())).toBeNull();
  });

  it("names the group's mean off a complete set of agreeing members ×5 or more by no slip factor, without a factor", () => {
    // five members of 17–49 (mean 33.1) against a group's mean of 2.14: ×15.5, which no Cmax factor (×10, ×1000, ×60,
    // molar ×5.15 or ×0.194 at 194.19 g/mol) brings within the slack of ×1.2
    const v = judge(one([38.1, 49.1, 34.5, 27, 16.7], 2.14), cmaxFactors, cmaxFactors());
    expect(v).toMatchObject({ culprit: 'group', cause: null });
    expect(Math.exp(v!.residual)).toBeCloseTo(33.08 / 2.14, 9);
    // ×4 off (below UNEXPLAINED_GROUP), or two members only: nothing
    expect(judge(one([38.1, 49.1, 34.5, 27, 16.7], 33.08 / 4), cmaxFactors, cmaxFactors())).toBeNull();
    expect(judge(one([38.1, 27], 2.14), cmaxFactors, cmaxFactors())).toBeNull();
    // Five of eight: a subset's mean is no whole group's, and the factors of a partial set (from ×10) decide as before.
    expect(judge(one([38.1, 49.1, 34.5, 27, 16.7], 2.14, 8), cmaxFactors, cmaxFactors())).toMatchObject({ culprit: 'group', cause: { kind: 'molar-mass' } });
  });

  it('names nothing when the arithmetic holds, or when no single record with a slip factor explains it', () => {
    expect(judge(one([2, 1.8, 2.2], 2), cmaxFactors, cmaxFactors())).toBeNull();
    // the members' mean is ×1.5 the group's, no member an outlier, no slip factor of ×1.5: a geometric mean?
    expect(judge(one([2, 3, 4, 3], 2), cmaxFactors, cmaxFactors())).toBeNull();
  });

  it('names an individual of a partial set only when the sum exceeds n·μ, or Samuelson is broken', () => {
    // 4 of 12 members; one ×10: Σ = 2 + 2 + 2 + 20 = 26 against n·μ = 24 (×1.08): the sum alone holds
    expect(judge(one([2, 2.1, 1.9, 20], 2, 12), cmaxFactors, cmaxFactors())).toBeNull();
    // with the group's SD 0.5: reach 0.5·11/√12 = 1.59, and 20 lies 18 from 2: ×11 beyond; 2 lies at 0
    const v = judge(one([2, 2.1, 1.9, 20], 2, 12, 0.5), cmaxFactors, cmaxFactors());
    expect(v).toMatchObject({ culprit: 'member', index: 3 });
    expect(v!.cause!.factor).toBe(10);
  });
});

let nextPk = 100;
function output(subject: { group?: number; individual?: number }, value: number, extra: Partial<OutputRecord> = {}): OutputRecord {
  return {
    ...STATS, ...study, pk: nextPk++, raw_pk: null, normed: true, calculated: false, group_pk: subject.group ?? null, individual_pk: subject.individual ?? null,
    intervention_pks: [1], tissue: 'plasma', method: null, label: null, output_type: 'output', time: null, time_unit: null, measurement_type: 'cmax',
    calculation_type: null, choice: null, substance: 'x', subset_pk: null, unit: 'milligram / liter', ...(subject.group ? { mean: value } : { value }), ...extra,
  };
}

function curve(subsetPk: number, subject: { group?: number; individual?: number }, scale: number): { tc: TimecourseRecord; points: OutputRecord[] } {
  const times = [0.5, 1, 2, 4, 8];
  const conc = times.map((t) => scale * 10 * (Math.exp(-0.2 * t) - Math.exp(-2 * t)));
  const points = times.map((t, k) => output(subject, conc[k], { measurement_type: 'concentration', output_type: 'timecourse', time: t, time_unit: 'hr', subset_pk: subsetPk }));
  const tc = {
    ...study, subset_pk: subsetPk, subset_name: 'tc', output_pk: points.map((p) => p.pk), intervention_pk: [1], group_pk: subject.group ?? null, individual_pk: subject.individual ?? null,
    normed: true, tissue: 'plasma', tissue_label: 'plasma', method: null, method_label: null, label: null, time: times, time_unit: 'hr',
    measurement_type: 'concentration', measurement_type_label: null, choice: null, choice_label: null, substance: 'x', substance_label: 'x',
    value: subject.group ? null : conc, mean: subject.group ? conc : null, median: null, min: null, max: null, sd: null, se: null, cv: null, unit: 'milligram / liter',
  } as TimecourseRecord;
  return { tc, points };
}

function run(outputs: OutputRecord[], curves: { tc: TimecourseRecord; points: OutputRecord[] }[] = [], count = 4): Finding[] {
  const group: GroupRecord = { pk: 1, name: 'all', count, parent_pk: null, ...study, characteristica: [] };
  const individuals: IndividualRecord[] = [11, 12, 13, 14].map((pk) => ({ pk, name: `i${pk}`, group_pk: 1, ...study, characteristica: [] }));
  const dose: InterventionRecord = {
    ...STATS, ...study, pk: 1, raw_pk: null, normed: true, name: 'd', route: 'oral', form: null, application: 'single dose', time: '0', time_end: null,
    time_unit: 'hr', measurement_type: 'dosing', calculation_type: null, choice: null, substance: 'x', value: 0.1, unit: 'gram',
  };
  const tables = {
    studies: [], groups: [group], individuals, interventions: [dose], scatters: [], terms: [],
    outputs: [...outputs, ...curves.flatMap((c) => c.points)], timecourses: curves.map((c) => c.tc),
  };
  return groupMembersCheck.run(prepareContext(Dataset.fromTables(tables, { kind: 'export', location: 'test' })));
}

describe('group-members: memberSlipFactors', () => {
  it('adds a decimal slip where the family leaves it out (tmax), once', () => {
    const tmax = memberSlipFactors('tmax', null, null).map((c) => c.factor);
    expect(tmax).toEqual(expect.arrayContaining([60, 1 / 60, 24, 10, 0.1]));
    expect(memberSlipFactors('cmax', null, null).filter((c) => c.factor === 10)).toHaveLength(1);
    // a group tmax curated as 15 h against six individuals of 1–2 h (mean 1.5 h): ×10
    const v = judge(one([1, 1.5, 2, 1.5, 1, 2], 15), () => memberSlipFactors('tmax', null, null), memberSlipFactors('tmax', null, null));
    expect(v).toMatchObject({ culprit: 'group' });
    expect(v!.cause!.factor).toBe(10);
  });
});

describe('group-members: the check', () => {
  it("reports a group's mean ×1/15 of its four members by no slip factor as major, the record left open without a reference", () => {
    const group = output({ group: 1 }, 0.14);
    const findings = run([group, output({ individual: 11 }, 2), output({ individual: 12 }, 1.9), output({ individual: 13 }, 2.2), output({ individual: 14 }, 2.5)]);
    expect(findings).toMatchObject([{ kind: 'group-members', check: 'group-members/group', severity: 'major', culprit: null, output_pk: group.pk, details: { cause_factors: [] } }]);
    // the members' mean 2.15 mg/L: reported 0.14 / 2.15
    expect(findings[0].ratio).toBeCloseTo(0.14 / 2.15, 9);
    expect(findings[0].suspected_cause).toMatch(/^the group's mean or its individuals' values: ×0\.0651 the mean of its 4 individuals/);
  });


  it("names an individual's Cmax ×10 of the group's mean of four, pointing at its output", () => {
    const slipped = output({ individual: 14 }, 21);
    const findings = run([output({ group: 1 }, 2.05), output({ individual: 11 }, 2), output({ individual: 12 }, 1.9), output({ individual: 13 }, 2.2), slipped]);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ kind: 'group-members', severity: 'major', culprit: 'output', output_pk: slipped.pk, subject: 'individual:14', ratio: 10, reported_unit: 'gram / liter' });
    // in the canonical unit: 21 mg/L = 0.021 g/L, ÷10
    expect(findings[0].recomputed).toBeCloseTo(0.0021, 12);
  });

  it("names an individual's curve ×10 against the group's mean curve, point by point", () => {
    const slipped = curve(24, { individual: 14 }, 10);
    const findings = run([], [curve(20, { group: 1 }, 1), curve(21, { individual: 11 }, 1.1), curve(22, { individual: 12 }, 0.9), curve(23, { individual: 13 }, 1), slipped]);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ kind: 'group-members', severity: 'major', culprit: 'timecourse', subset_pk: 24, ratio: 10 });
  });

  it('says nothing when the group and its individuals agree, or when the group reports a median', () => {
    expect(run([output({ group: 1 }, 2), output({ individual: 11 }, 2), output({ individual: 12 }, 1.9), output({ individual: 13 }, 2.1)])).toEqual([]);
    const median = { ...output({ group: 1 }, 2), mean: null, median: 2 };
    expect(run([median, output({ individual: 11 }, 2), output({ individual: 12 }, 1.9), output({ individual: 13 }, 2.2), output({ individual: 14 }, 21)])).toEqual([]);
  });
});
