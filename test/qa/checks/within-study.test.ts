import { describe, expect, it } from 'vitest';
import { Dataset } from '../../../src/data/dataset.js';
import type { GroupRecord, IndividualRecord, InterventionRecord, OutputRecord, TimecourseRecord } from '../../../src/data/model.js';
import { arm, curve, dosing, group, output } from '../../helpers/study-records.js';
import { curveAgrees, pairCulprit, withinStudyCheck } from '../../../src/qa/checks/within-study.js';
import type { Deviation } from '../../../src/qa/study-pools.js';
import { prepareContext } from '../../../src/qa/context.js';
import type { Finding } from '../../../src/qa/finding.js';

function run(
  outputs: OutputRecord[], interventions: InterventionRecord[], curves: { tc: TimecourseRecord; points: OutputRecord[] }[] = [], groups: GroupRecord[] = [],
  individuals: IndividualRecord[] = [],
): Finding[] {
  const tables = {
    studies: [], groups, individuals, interventions, scatters: [], terms: [],
    outputs: [...outputs, ...curves.flatMap((c) => c.points)], timecourses: curves.map((c) => c.tc),
  };
  return withinStudyCheck.run(prepareContext(Dataset.fromTables(tables, { kind: 'export', location: 'test' })));
}

describe('within-study: coverage', () => {
  it('marks every record set against other arms, and the dose of a dose-normalised one; not a lone arm', () => {
    const tables = {
      studies: [], groups: [], individuals: [], interventions: [dosing(1, 0.1), dosing(2, 0.1), dosing(3, 0.1)], scatters: [], terms: [],
      outputs: [...arm(1, 1), ...arm(2, 2)], timecourses: [],
    };
    const ctx = prepareContext(Dataset.fromTables(tables, { kind: 'export', location: 'test' }));
    withinStudyCheck.run(ctx);
    const outputs = ctx.coverage.examinedSets('output').get('within-study');
    expect([...(outputs ?? [])].sort((a, b) => a - b)).toEqual(tables.outputs.map((o) => o.pk).sort((a, b) => a - b));
    expect([...(ctx.coverage.examinedSets('dosing').get('within-study') ?? [])].sort()).toEqual([1, 2]);
    const lone = { ...tables, outputs: arm(3, 3) };
    const loneCtx = prepareContext(Dataset.fromTables(lone, { kind: 'export', location: 'test' }));
    withinStudyCheck.run(loneCtx);
    expect(loneCtx.coverage.examinedSets('output').get('within-study')).toBeUndefined();
  });
});

describe('within-study: reported parameters', () => {
  it('names an AUC ×1000 among four groups as a ×1000 output slip, and a ×10 Cmax whose arm is otherwise in line', () => {
    const groups = [arm(1, 1), arm(2, 1, { cmax: 1.3, auc: 0.8, thalf: 1.1, cl: 1.2 }), arm(3, 1, { cmax: 10 * 0.9, auc: 1.1, thalf: 0.9, cl: 0.9 }), arm(4, 1, { cmax: 1.1, auc: 1000 * 1.2, thalf: 1, cl: 0.85 })];
    const findings = run(groups.flat(), [dosing(1, 0.1)]);
    const majors = findings.filter((f) => f.severity === 'major');
    expect(majors).toHaveLength(2);
    const auc = majors.find((f) => f.measurement_type === 'auc_inf')!;
    expect(auc).toMatchObject({ kind: 'within-study', culprit: 'output', output_pk: groups[3][1].pk, subject: 'group:4', details: { factor: 1000 } });
    // centre of the other arms: median(20, 16, 22) = 20 mg·h/L → ratio 24000 / 20 = 1200
    expect(auc.ratio).toBeCloseTo(1200, 6);
    expect(auc.suspected_cause).toMatch(/^×1000/);
    const cmax = majors.find((f) => f.measurement_type === 'cmax')!;
    expect(cmax).toMatchObject({ culprit: 'output', output_pk: groups[2][0].pk, details: { factor: 10 } });
    expect(cmax.ratio).toBeCloseTo(18 / 2.2, 6); // median(2, 2.6, 2.2) = 2.2
  });

  it('keeps an arm whose AUC, CL and t½ all move together (a cirrhosis group) minor, and never flags ×3', () => {
    const groups = [arm(1, 1), arm(2, 1, { cmax: 1.2, auc: 0.9, thalf: 1, cl: 1.1 }), arm(3, 1, { cmax: 1, auc: 3, thalf: 2.5, cl: 1 / 3 }), arm(4, 1, { cmax: 1.1, auc: 10, thalf: 9, cl: 0.1 })];
    const findings = run(groups.flat(), [dosing(1, 0.1)]);
    expect(findings.filter((f) => f.severity === 'major')).toEqual([]);
    expect(findings.filter((f) => f.subject === 'group:3')).toEqual([]);
    expect(findings.filter((f) => f.subject === 'group:4' && f.measurement_type === 'auc_inf')).toMatchObject([{ severity: 'minor' }]);
  });

  it('makes a lone t½ ×31 its siblings\' major by its distance, though the factor it names (×24) is below ×30', () => {
    // Each arm reports its t½ alone: nothing of the arm tells a slip from biology, so a ×24 would stay minor.
    const halfLives = [4, 4.4, 3.6, 124].map((h, k) => output(k + 1, 1, 'thalf', 'hour', h));
    const [f] = run(halfLives, [dosing(1, 0.1)]);
    // centre: median(4, 4.4, 3.6) = 4 h; 124 / 4 = 31 — nearer ×24 (ln 1.29) than ×60 (ln 1.94)
    expect(f).toMatchObject({ severity: 'major', culprit: 'output', output_pk: halfLives[3].pk, details: { factor: 24 } });
    expect(f.ratio).toBeCloseTo(31, 6);
    expect(f.message).toMatch(/no physiology moves one arm this far/);
    // ×25 is within biology's reach by distance: major only as before, by its siblings of one population agreeing
    const nearer = [4, 4.4, 3.6, 100].map((h, k) => output(k + 1, 1, 'thalf', 'hour', h));
    const [g] = run(nearer, [dosing(1, 0.1)]);
    expect(g.details).toMatchObject({ factor: 24 });
    expect(g.message).toMatch(/sibling groups, of the same population by every curated trait, agree/);
  });

  it('makes a lone clearance ×24 its siblings\' major where it lowers exposure (no phenotype does so), minor where it raises it', () => {
    // Four groups of four populations (no 'alike' pool), each reporting its CL alone: 5, 5.5, 4.5 L/h and ×24 of 5.
    const groups = [group(1), group(2, 'cirrhosis'), group(3, 'renal impairment'), group(4, 'heart failure')];
    const clearances = (last: number) => [5, 5.5, 4.5, last].map((cl, k) => output(k + 1, 1, 'clearance', 'liter / hour', cl));
    const higher = clearances(120);
    const [up] = run(higher, [dosing(1, 0.1)], [], groups);
    // centre: median(5, 5.5, 4.5) = 5 L/h; 120 / 5 = 24: ×24 the clearance is ×1/24 the exposure
    expect(up).toMatchObject({ severity: 'major', culprit: 'output', output_pk: higher[3].pk, details: { factor: 24 } });
    expect(up.message).toMatch(/below the exposure of its 3 sibling arms at their dose and co-interventions .* farther than any phenotype takes one arm/);
    // ×1/24 the clearance: ×24 the exposure, which a failing organ or a poor metaboliser can give one arm
    const [down] = run(clearances(5 / 24), [dosing(1, 0.1)], [], groups);
    expect(down).toMatchObject({ severity: 'minor', details: { factor: 1 / 24 } });
    expect(down.message).toMatch(/no other record of the arm tells a slip from a different population/);
  });

  it('compares after dose normalisation: a 10× dose with 10× exposure is in line', () => {
    const groups = [arm(1, 1), arm(2, 1), arm(3, 2, { cmax: 10, auc: 10, thalf: 1, cl: 1 })];
    expect(run(groups.flat(), [dosing(1, 0.1), dosing(2, 1)])).toEqual([]);
  });
});

describe('within-study: curves and doses', () => {
  it('blames the dose when a curve is ×1/10 per dose but in line without it', () => {
    const curves = [curve(1, 1, 1, 1), curve(2, 2, 2, 1.2), curve(3, 3, 3, 0.9), curve(4, 4, 4, 1)];
    const findings = run([], [dosing(1, 0.1), dosing(2, 0.1), dosing(3, 0.1), dosing(4, 1)], curves).filter((f) => f.measurement_type === 'concentration');
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ subset_pk: 4, severity: 'major', culprit: 'dose', intervention_pk: 4, details: { factor: 0.1 } });
    // A curve's level is its deviation (study-pools.ts): curve 4 ln(1/10) + median(0, ln 1/1.2, ln 1/0.9) = ln 0.1.
    expect(findings[0].ratio).toBeCloseTo(0.1, 6);
    expect(findings[0].suspected_cause).toMatch(/^dose: .*curated dose 1 gram is ×10 theirs/);
  });

  it("blames the dose when an arm's calculated V is off its siblings' by the ratio its curated dose is off theirs", () => {
    // Four arms of 0.1 g with calculated V 45–55 L; the fourth's dose curated ×1/1000 (0.1 mg), its curve in line as
    // measured: PK-DB's V = dose / (λz · AUC) is then ×1/1000 too, which a V of its own would not follow.
    const curves = [curve(1, 1, 1, 1), curve(2, 2, 2, 1.2), curve(3, 3, 3, 0.9), curve(4, 4, 4, 1 / 1000)];
    const v = (g: number, value: number) => ({ ...output(g, g, 'vd', 'liter', value), calculated: true, subset_pk: g });
    const findings = run([v(1, 50), v(2, 55), v(3, 45), v(4, 50 / 1000)], [dosing(1, 0.1), dosing(2, 0.1), dosing(3, 0.1), dosing(4, 0.1 / 1000)], curves);
    const majors = findings.filter((f) => f.severity === 'major');
    expect(majors).toMatchObject([{ kind: 'within-study', measurement_type: 'vd', culprit: 'dose', intervention_pk: 4, details: { factor: 0.001 } }]);
    expect(majors[0].suspected_cause).toMatch(/^dose: the arm's calculated vd is ×0\.001 its siblings' as its curated dose 0\.0001 gram is ×0\.001 theirs/);
    // Its dose as its siblings': the V itself (its curve's record), not the dose.
    const own = run([v(1, 50), v(2, 55), v(3, 45), v(4, 50 / 1000)], [dosing(1, 0.1), dosing(2, 0.1), dosing(3, 0.1), dosing(4, 0.1)], curves.slice(0, 3).concat(curve(4, 4, 4, 1)));
    expect(own.filter((f) => f.severity === 'major')).toMatchObject([{ measurement_type: 'vd', culprit: 'timecourse' }]);
  });

  it('leaves the culprit open when an arm dosed otherwise is off per dose only: the value or its dose', () => {
    // Arms of 10 and 30 mg (linear: curves ×1, ×3, ×1.1); arm 4 got 30 mg, curated 30 g (×1000), its curve ×3.2. Per dose
    // it is ×1/1000 theirs, yet the dose ratio (×3000 the median 10 mg) matches no slip factor: the dose or the curve.
    const curves = [curve(1, 1, 1, 1), curve(2, 2, 2, 3), curve(3, 3, 3, 1.1), curve(4, 4, 4, 3.2)];
    const findings = run([], [dosing(1, 0.01), dosing(2, 0.03), dosing(3, 0.01), dosing(4, 30)], curves).filter((f) => f.subset_pk === 4 && f.measurement_type === 'concentration');
    expect(findings).toMatchObject([{ culprit: null, check: 'within-study/per-dose' }]);
    expect(findings[0].suspected_cause).toMatch(/ — in the value or in its dose \(×3000 its siblings'\)$/);
  });

  it('blames the timecourse when a curve is ×10 with and without the dose, minor when nothing else of its arm is in line', () => {
    const curves = [curve(1, 1, 1, 1), curve(2, 2, 1, 1.2), curve(3, 3, 1, 0.9), curve(4, 4, 1, 10)];
    // Group 4 has a disease the others do not: a different population may differ.
    const groups = [group(1), group(2), group(3), group(4, 'liver cirrhosis')];
    const findings = run([], [dosing(1, 0.1)], curves, groups).filter((f) => f.measurement_type === 'concentration');
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ subset_pk: 4, culprit: 'timecourse', details: { factor: 10 }, severity: 'minor' });
    expect(findings[0].ratio).toBeCloseTo(10, 6); // its level: the median log ratio to the others, ln 10
  });

  it('makes a ×10 curve major among groups of one population by every curated trait, whose curves agree', () => {
    const curves = [curve(1, 1, 1, 1), curve(2, 2, 1, 1.2), curve(3, 3, 1, 0.9), curve(4, 4, 1, 10)];
    const findings = run([], [dosing(1, 0.1)], curves, [group(1), group(2), group(3), group(4)]).filter((f) => f.measurement_type === 'concentration');
    expect(findings).toMatchObject([{ subset_pk: 4, culprit: 'timecourse', details: { factor: 10 }, severity: 'major' }]);
    expect(findings[0].message).toMatch(/3 sibling groups, of the same population by every curated trait, agree within ×/);
  });

  it("makes one individual's curve ×10 major when its half-life is in line (the same elimination), not when its population differs", () => {
    // Five individuals of group 1, each a curve of the same dose and a reported t½; individual 15's curve ×10.
    const pks = [11, 12, 13, 14, 15];
    const scales = [1, 1.2, 0.9, 1.1, 10];
    const asIndividual = <T extends { group_pk: number | null; individual_pk: number | null }>(r: T, pk: number): T => ({ ...r, group_pk: null, individual_pk: pk });
    const curves = pks.map((pk, k) => {
      const c = curve(pk, 1, 1, scales[k]);
      return { tc: asIndividual(c.tc, pk), points: c.points.map((p) => asIndividual(p, pk)) };
    });
    const thalf = pks.map((pk, k) => asIndividual(output(1, 1, 'thalf', 'hour', [3.5, 3.4, 3.6, 3.5, 3.5][k]), pk));
    const individual = (pk: number, genotype?: string): IndividualRecord => ({
      pk, name: `i${pk}`, group_pk: 1, study_sid: 'W1', study_name: 'Within',
      characteristica: genotype ? [{ ...group(0).characteristica[0], measurement_type: 'cyp2d6 genotype', choice: genotype }] : [],
    });
    const concentration = (findings: Finding[]) => findings.filter((f) => f.measurement_type === 'concentration');
    const same = concentration(run(thalf, [dosing(1, 0.1)], curves, [group(1)], pks.map((pk) => individual(pk))));
    expect(same).toMatchObject([{ subset_pk: 15, culprit: 'timecourse', severity: 'major', details: { factor: 10 } }]);
    expect(same[0].message).toMatch(/while its reported thalf ×1 is in line: exposure that far apart with the same elimination/);
    // Without a half-life nothing of the arm tells a slip from biology; nor with one when individual 15 is a curated poor metaboliser.
    expect(concentration(run([], [dosing(1, 0.1)], curves, [group(1)], pks.map((pk) => individual(pk))))).toMatchObject([{ subset_pk: 15, severity: 'minor' }]);
    const marked = pks.map((pk) => individual(pk, pk === 15 ? '*4/*4' : undefined));
    expect(concentration(run(thalf, [dosing(1, 0.1)], curves, [group(1)], marked))).toMatchObject([{ subset_pk: 15, severity: 'minor' }]);
  });

  it('makes a ×10 curve major when the same arm reports a Cmax in line', () => {
    const curves = [curve(1, 1, 1, 1), curve(2, 2, 1, 1.2), curve(3, 3, 1, 0.9), curve(4, 4, 1, 10)];
    const cmax = [1, 2, 3, 4].map((g) => output(g, 1, 'cmax', 'milligram / liter', [2, 2.4, 1.8, 2.2][g - 1]));
    const findings = run(cmax, [dosing(1, 0.1)], curves);
    expect(findings.filter((f) => f.severity === 'major')).toMatchObject([{ subset_pk: 4, culprit: 'timecourse', measurement_type: 'concentration' }]);
  });

  it('compares a pair of arms only by big factors, as one finding naming both', () => {
    // Two groups, one dosing: group 2's Cmax is 2.2 g/L where group 1's is 2 mg/L (×1100).
    const pair = [output(1, 1, 'cmax', 'milligram / liter', 2), output(2, 1, 'cmax', 'milligram / liter', 2200)];
    const findings = run(pair, [dosing(1, 0.1)]);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ severity: 'major', culprit: null, measurement_type: 'cmax', details: { factor: expect.any(Number) } });
    const records = [findings[0].details?.record, findings[0].details?.pair_record].sort();
    expect(records).toEqual([`output:${pair[0].pk}`, `output:${pair[1].pk}`].sort());
    expect(Math.abs(Math.log(findings[0].ratio!))).toBeCloseTo(Math.log(1100), 9); // ×1100 or ×1/1100, whichever record carries it
    expect(findings[0].message).toMatch(/either may hold the slip/);
    // ×10 between two arms is within reach of a population difference: nothing; between two groups of one population
    // by every curated trait at one dose it is not, and the one finding names both (neither the culprit).
    const tenfold = [output(1, 1, 'cmax', 'milligram / liter', 2), output(2, 1, 'cmax', 'milligram / liter', 20)];
    expect(run(tenfold, [dosing(1, 0.1)], [], [group(1), group(2, 'liver cirrhosis')])).toEqual([]);
    const alike = run(tenfold, [dosing(1, 0.1)], [], [group(1), group(2)]);
    expect(alike).toMatchObject([{ severity: 'major', culprit: null, measurement_type: 'cmax' }]);
    expect(alike[0].message).toMatch(/two groups of one population by every curated trait, at one dose, are no tenfold apart; with two arms either may hold the slip/);
  });

  it("sees a pair's curve ×10 on one arm and its calculated CL ×1/10 on the other as one difference: one finding", () => {
    // Curves with PK-DB's calculated values: the curve's level and its CL are one difference seen from both sides.
    const curves = [curve(1, 1, 1, 1), curve(2, 2, 1, 10)];
    const calculated = (c: ReturnType<typeof curve>, cl: number) => ({ ...output(c.tc.group_pk as number, 1, 'clearance', 'liter / hour', cl), calculated: true, subset_pk: c.tc.subset_pk });
    const findings = run([calculated(curves[0], 5), calculated(curves[1], 0.5)], [dosing(1, 0.1)], curves, [group(1), group(2)]);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ severity: 'major' });
  });

  it('pairs arms that differ in their other interventions only from ×300 (an inducer moves an oral curve ×50)', () => {
    const inducer: InterventionRecord = { ...dosing(2, 0.6, 'inducer') };
    const withInducer = (cmax: number) => ({ ...output(2, 1, 'cmax', 'milligram / liter', cmax), intervention_pks: [1, 2] });
    expect(run([output(1, 1, 'cmax', 'milligram / liter', 2), withInducer(0.02)], [dosing(1, 0.1), inducer])).toEqual([]);
    // ×1000 (µg/L curated as mg/L on one arm): no inducer does that; one finding naming both, culprit open
    const findings = run([output(1, 1, 'cmax', 'milligram / liter', 2), withInducer(0.002)], [dosing(1, 0.1), inducer]);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ severity: 'major', culprit: null });
    expect(findings[0].details?.pair_record).toBeDefined();
  });
});

describe('within-study: the other studies refute the record it would blame', () => {
  it('does not blame an arm in range of the other studies when the arms it is set against are off by the factor', () => {
    // Six other studies: Cmax 2 mg/L for 100 mg. In W1 three arms report 0.002 mg/L (µg/L curated as mg/L) and one 2 mg/L:
    // the 2 mg/L arm is ×1000 the centre of the others, but it is the one the other studies agree with.
    const others = ['A', 'B', 'C', 'D', 'E', 'F'].flatMap((sid, k) => {
      const d = { ...dosing(100 + k, 0.1), study_sid: sid, study_name: sid };
      return { d, o: { ...output(100 + k, d.pk, 'cmax', 'milligram / liter', 2 * [1, 1.1, 0.9, 1.05, 0.95, 1][k]), study_sid: sid, study_name: sid } };
    });
    const groups = [1, 2, 3, 4].map((g) => output(g, 1, 'cmax', 'milligram / liter', [0.002, 0.0024, 0.0018, 2][g - 1]));
    const alone = run(groups, [dosing(1, 0.1)]);
    expect(alone).toMatchObject([{ severity: 'major', output_pk: groups[3].pk, details: { factor: 1000 } }]);
    const withOthers = run([...groups, ...others.map((x) => x.o)], [dosing(1, 0.1), ...others.map((x) => x.d)]).filter((f) => f.kind === 'within-study' && f.study_sid === 'W1');
    expect(withOthers).toMatchObject([{ severity: 'minor', output_pk: groups[3].pk }]);
    expect(withOthers[0].message).toMatch(/but the other studies put this value in range \(6 other studies' x cmax per dose .* robust z 0, -\d+(\.\d+)? with the factor undone\): the other arms are the likelier holders of a slip/);
  });
});

describe("within-study: the other studies' level of a curve", () => {
  it('speaks to a slip of its level, not to one of its time axis', () => {
    // W1: four groups' curves of one dose with PK-DB's calculated t½ and AUC∞; group 4's times ÷60 (its hours read as
    // minutes): its t½ and AUC ×1/60 the others', its Cmax where it was. Six other studies' curves of the dose put that
    // Cmax per dose in range and ×60 undone far out — which says nothing of its time axis.
    const stretch = (c: ReturnType<typeof curve>) => ({ tc: { ...c.tc, time: c.tc.time.map((t) => (t as number) / 60) }, points: c.points.map((p) => ({ ...p, time: (p.time as number) / 60 })) });
    const curves = [1, 2, 3, 4].map((g) => curve(g, g, 1, [1, 1.1, 0.9, 1][g - 1]));
    curves[3] = stretch(curves[3]);
    const calculated = (c: ReturnType<typeof curve>, type: string, unit: string, value: number) => ({ ...output(c.tc.group_pk as number, 1, type, unit, value), calculated: true, subset_pk: c.tc.subset_pk });
    const scale = [1, 1.1, 0.9, 1 / 60];
    const stored = curves.flatMap((c, k) => [calculated(c, 'thalf', 'hour', 3.5 * scale[k]), calculated(c, 'auc_inf', 'milligram * hour / liter', 40 * scale[k])]);
    const others = ['A', 'B', 'C', 'D', 'E', 'F'].map((sid, k) => {
      const c = curve(100 + k, 100 + k, 100 + k, [1, 1.1, 0.9, 1.05, 0.95, 1][k]);
      const named = { study_sid: sid, study_name: sid };
      return { d: { ...dosing(100 + k, 0.1), ...named }, c: { tc: { ...c.tc, ...named }, points: c.points.map((p) => ({ ...p, ...named })) } };
    });
    const groups = [group(1), group(2), group(3), group(4), ...others.map((_, k) => ({ ...group(100 + k), study_sid: others[k].c.tc.study_sid }))];
    const findings = run(stored, [dosing(1, 0.1), ...others.map((x) => x.d)], [...curves, ...others.map((x) => x.c)], groups).filter((f) => f.kind === 'within-study' && f.study_sid === curves[0].tc.study_sid);
    const slipped = findings.filter((f) => f.subject === 'group:4');
    expect(slipped).toMatchObject([{ severity: 'major', culprit: 'timecourse', subset_pk: 4, details: { factor: 1 / 60 } }]);
    expect(slipped[0].message).not.toMatch(/the other studies put this value in range/);
  });

  it("keeps a half-life alone ×1/60 minor as a tail's λz only where an AUC of the curve stays in line", () => {
    // Four groups' curves with PK-DB's calculated t½; group 4's ×1/60 its siblings'.
    const curves = [1, 2, 3, 4].map((g) => curve(g, g, 1, [1, 1.1, 0.9, 1][g - 1]));
    const calculated = (c: ReturnType<typeof curve>, type: string, unit: string, value: number) => ({ ...output(c.tc.group_pk as number, 1, type, unit, value), calculated: true, subset_pk: c.tc.subset_pk });
    const thalf = curves.map((c, k) => calculated(c, 'thalf', 'hour', 3.5 * [1, 1.1, 0.9, 1 / 60][k]));
    const groups = [group(1), group(2), group(3), group(4)];
    // Without an AUC nothing says the AUC did not move: ×60 is beyond what one arm's biology does.
    const alone = run(thalf, [dosing(1, 0.1)], curves, groups).filter((f) => f.subject === 'group:4');
    expect(alone).toMatchObject([{ severity: 'major', details: { factor: 1 / 60 } }]);
    expect(alone[0].message).not.toMatch(/only its half-life moves/);
    // With its AUC∞ in line, only the half-life moves: a flat or rising tail's λz rather than the time axis.
    const auc = curves.map((c, k) => calculated(c, 'auc_inf', 'milligram * hour / liter', 40 * [1, 1.1, 0.9, 1][k]));
    const inLine = run([...thalf, ...auc], [dosing(1, 0.1)], curves, groups).filter((f) => f.subject === 'group:4');
    expect(inLine).toMatchObject([{ severity: 'minor' }]);
    expect(inLine[0].message).toMatch(/only its half-life moves, not its AUC/);
  });
});

describe('within-study: the arm’s own PK identities', () => {
  it('leaves a record its identities explain minor, but not one off by a factor beyond biology', () => {
    // Five groups of V 50 L, CL 5 L/h, kel 0.1/h (spread ~×1.1); the sixth V 5 L (×0.1) beside CL 2.5 and kel 0.5: CL/kel 5 L
    const spread = [1, 1.1, 0.9, 1.05, 0.95];
    const groups = (v: number, cl: number, kel: number) => [
      ...spread.flatMap((f, g) => [output(g + 1, 1, 'vd', 'liter', 50 * f), output(g + 1, 1, 'clearance', 'liter / hour', 5 / f), output(g + 1, 1, 'kel', '1 / hour', 0.1 / f / f)]),
      output(6, 1, 'vd', 'liter', v), output(6, 1, 'clearance', 'liter / hour', cl), output(6, 1, 'kel', '1 / hour', kel),
    ];
    const explained = run(groups(5, 2.5, 0.5), [dosing(1, 0.1)]).filter((f) => f.measurement_type === 'vd');
    expect(explained).toMatchObject([{ severity: 'minor', details: { factor: 0.1 } }]);
    expect(explained[0].message).toMatch(/reported clearance ×0\.5 and reported kel ×5 of the same arm give ×0\.1: its own PK identities hold/);
    // the same V alone (CL and kel in line): a slip of V
    expect(run(groups(5, 5, 0.1), [dosing(1, 0.1)]).filter((f) => f.measurement_type === 'vd')).toMatchObject([{ severity: 'major', details: { factor: 0.1 } }]);
    // V ×1/1000 with CL ×1/1000 (a row curated in mL as L): beyond biology, major whatever the identities say
    const inMl = run(groups(50 / 1000, 5 / 1000, 0.1), [dosing(1, 0.1)]).filter((f) => f.measurement_type === 'vd');
    expect(inMl).toMatchObject([{ severity: 'major', details: { factor: 0.001 } }]);
  });
});


describe('within-study: measurement types that are no PK parameter', () => {
  // A urine flow: no PK parameter, known by its unit (volume per time) only.
  const renal = (group: number, intervention: number, value: number) => ({ ...output(group, intervention, 'urinary volume rate', 'liter / hour', value), tissue: 'urine' });

  it('names a urine flow ×1000 among four groups of one dose, by its unit (volume per time)', () => {
    const values = [renal(1, 1, 1.5), renal(2, 1, 1.8), renal(3, 1, 1.2), renal(4, 1, 1600)];
    const findings = run(values, [dosing(1, 0.1)]);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ severity: 'major', culprit: 'output', output_pk: values[3].pk, measurement_type: 'urinary volume rate', details: { factor: 1000 } });
    expect(findings[0].ratio).toBeCloseTo(1600 / 1.5, 6); // median(1.5, 1.8, 1.2) = 1.5
  });

  it('names the other factors about as near the deviation after the nearest: a flow ×20.7 is ×24 or ×1000/60', () => {
    const values = [renal(1, 1, 1.5), renal(2, 1, 1.8), renal(3, 1, 1.2), renal(4, 1, 31)];
    const [f] = run(values, [dosing(1, 0.1)]);
    // 31/1.5 = 20.7: ln(24/20.7) = 0.15 and ln(20.7/16.7) = 0.21, both within ALTERNATIVE_DISTANCE (ln 1.25 = 0.22).
    expect(f.details?.cause_factors).toEqual([24, 1000 / 60]);
    expect(f.suspected_cause).toMatch(/^×24 \(hours vs days\), or ×1000\/60 \(mL\/min vs L\/h\)$/);
  });

  it('pools them across other interventions that are no drug, from ×30, but not across co-dosed drugs', () => {
    const position = (pk: number, choice: string): InterventionRecord => ({ ...dosing(pk, 0), measurement_type: 'body position', substance: null, value: null, unit: null, choice });
    const inArm = (g: number, set: number[], v: number) => ({ ...renal(g, 1, v), intervention_pks: set });
    // three arms, each in another body position: no strict pool of three; without the positions, ×1000 stands out
    const values = [inArm(1, [1, 11], 1.5), inArm(2, [1, 12], 1.8), inArm(3, [1, 13], 1500)];
    const findings = run(values, [dosing(1, 0.1), position(11, 'supine'), position(12, 'upright'), position(13, 'sitting')]);
    expect(findings).toMatchObject([{ severity: 'major', output_pk: values[2].pk, details: { factor: 1000 } }]);
    // the third arm with an inducer co-dosed instead: never pooled with the others
    const inducer = { ...dosing(14, 0.6), substance: 'inducer', measurement_type: 'qualitative dosing' };
    const induced = [inArm(1, [1, 11], 1.5), inArm(2, [1, 12], 1.8), inArm(3, [1, 14], 1500)];
    expect(run(induced, [dosing(1, 0.1), position(11, 'supine'), position(12, 'upright'), inducer])).toEqual([]);
  });

  it('pools them only within one dose and one population, never as a pair, and names ×10 minor', () => {
    // the ×1000 arm has another dose: no pool of three
    expect(run([renal(1, 1, 1.5), renal(2, 1, 1.8), renal(3, 2, 1600)], [dosing(1, 0.1), dosing(2, 0.2)])).toEqual([]);
    // Not a PK parameter: a ×10 stays minor even among groups of one population (only BIG_FACTOR is major).
    const tenfold = run([renal(1, 1, 1.5), renal(2, 1, 1.8), renal(3, 1, 1.2), renal(4, 1, 15)], [dosing(1, 0.1)], [], [group(1), group(2), group(3), group(4)]);
    expect(tenfold).toMatchObject([{ severity: 'minor', details: { factor: 10 } }]);
    // Nor is its distance: a value ×31 its fellows' names ×24, and a concentration curated without its time may be any point of a curve.
    const far = run([renal(1, 1, 1.5), renal(2, 1, 1.8), renal(3, 1, 1.2), renal(4, 1, 46.5)], [dosing(1, 0.1)], [], [group(1), group(2), group(3), group(4)]);
    expect(far).toMatchObject([{ severity: 'minor', details: { factor: 24 } }]);
  });

  it('makes a ×10 major when the other studies of the substance agree, and only for an arm otherwise in line', () => {
    // Six other studies report a Cmax of 2 mg/L for 100 mg (20 mg/L per g); this study's group 3 reports 20 mg/L.
    const others = ['A', 'B', 'C', 'D', 'E', 'F'].flatMap((sid, k) => {
      const d = { ...dosing(100 + k, 0.1), study_sid: sid, study_name: sid };
      return { d, o: { ...output(100 + k, d.pk, 'cmax', 'milligram / liter', 2 * [1, 1.1, 0.9, 1.05, 0.95, 1][k]), study_sid: sid, study_name: sid } };
    });
    const groups = [1, 2, 3].map((g) => output(g, 1, 'cmax', 'milligram / liter', [2, 2.4, 20][g - 1]));
    // Alone, and group 3 of another population than its siblings: nothing convicts it.
    const alone = run(groups, [dosing(1, 0.1)], [], [group(1), group(2), group(3, 'renal impairment')]);
    expect(alone).toMatchObject([{ severity: 'minor', output_pk: groups[2].pk, details: { factor: 10 } }]);
    const findings = run([...groups, ...others.map((x) => x.o)], [dosing(1, 0.1), ...others.map((x) => x.d)]).filter((f) => f.study_sid === 'W1');
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ severity: 'major', culprit: 'output', output_pk: groups[2].pk, details: { factor: 10 } });
    expect(findings[0].message).toMatch(/the other studies agree: 6 other studies' x cmax per dose .* robust z 10\.3/);
    // The same arm's t½ ×2.5 off its siblings': the arm is unusual, the reference does not decide
    const thalf = [1, 2, 3].map((g) => output(g, 1, 'thalf', 'hour', [4, 4.4, 10][g - 1]));
    const unusual = run([...groups, ...thalf, ...others.map((x) => x.o)], [dosing(1, 0.1), ...others.map((x) => x.d)]).filter((f) => f.measurement_type === 'cmax');
    expect(unusual).toMatchObject([{ severity: 'minor', output_pk: groups[2].pk }]);
  });
});

describe('within-study: a renal or unbound clearance, a PK parameter of one route', () => {
  const renal = (group: number, intervention: number, value: number) => output(group, intervention, 'clearance_renal', 'liter / hour', value);

  it('is pooled across doses, as a CL is (it does not scale with the dose): a CLr ×60 of another dose is major', () => {
    const values = [renal(1, 1, 1.5), renal(2, 1, 1.8), renal(3, 2, 1.2), renal(4, 2, 90)];
    const findings = run(values, [dosing(1, 0.1), dosing(2, 0.2)]);
    expect(findings).toMatchObject([{ severity: 'major', culprit: 'output', output_pk: values[3].pk, measurement_type: 'clearance_renal', details: { factor: 60 } }]);
    // 90 / median(1.5, 1.8, 1.2) = 60
    expect(findings[0].ratio).toBeCloseTo(60, 6);
  });

  it('only within its population: an end-stage renal disease group at ×1/100 of the healthy groups is no slip', () => {
    const values = [renal(1, 1, 1.5), renal(2, 1, 1.8), renal(3, 1, 1.2), renal(4, 1, 0.015)];
    const groups = [group(1), group(2), group(3), group(4, 'renal disease (end-stage)')];
    expect(run(values, [dosing(1, 0.1)], [], groups)).toEqual([]);
  });
});

describe('within-study: a subject at its own level in its other periods', () => {
  // Four groups in three periods (the drug alone, and with co-medications A and B); AUC∞ 20 mg·h/L × each group's own level:
  // group 4 lies at ×1.1 the median of the others (1, 1.3, 0.8) in every period, ×11 in the first with the slip
  const level = [1, 1.3, 0.8, 1.1];
  const coMedication = (pk: number, substance: string): InterventionRecord => ({ ...dosing(pk, 0.2, substance), measurement_type: 'qualitative dosing' });
  const sets = [[1], [1, 11], [1, 12]];
  const auc = (g: number, set: number[], slip = 1) => ({ ...output(g, 1, 'auc_inf', 'milligram * hour / liter', 20 * level[g - 1] * slip), intervention_pks: set });
  const interventions = [dosing(1, 0.1), coMedication(11, 'a'), coMedication(12, 'b')];

  it('names a ×10 AUC major when the same group lies at its own level in two other periods, minor without them', () => {
    // Group 4 of another population than its siblings: they alone do not convict it.
    const groups = [group(1), group(2), group(3), group(4, 'obesity')];
    const firstPeriod = [1, 2, 3, 4].map((g) => auc(g, sets[0], g === 4 ? 10 : 1));
    expect(run(firstPeriod, interventions, [], groups)).toMatchObject([{ severity: 'minor', output_pk: firstPeriod[3].pk, details: { factor: 10 } }]);
    const later = sets.slice(1).flatMap((set) => [1, 2, 3, 4].map((g) => auc(g, set)));
    const findings = run([...firstPeriod, ...later], interventions, [], groups);
    expect(findings).toMatchObject([{ severity: 'major', culprit: 'output', output_pk: firstPeriod[3].pk, details: { factor: 10 } }]);
    expect(findings[0].message).toMatch(/while the same group:4 lies at ×1\.1 the centre in its 2 other periods of this measure, and this record ×10 that level$/);
    // the same group high in every period: its own biology, not a slip — even among groups of one population
    const high = sets.flatMap((set) => [1, 2, 3, 4].map((g) => auc(g, set, g === 4 ? 10 : 1)));
    expect(run(high, interventions).filter((f) => f.severity === 'major')).toEqual([]);
  });
});

describe('within-study: a curve off its own level in other periods by a small molar factor', () => {
  // Four groups in three periods (midazolam alone, and with co-medications A and B), one-compartment curves × each group's
  // own level; group 4 at ×1.1 the others' centre in every period. Its first curve curated in µmol/L as mg/L:
  // ×1000/325.77 = ×3.07 (midazolam), ×3.38 the centre — within between-arm spread (no outlier: ln 5), but ×3.07 its own level.
  const level = [1, 1.3, 0.8, 1.1];
  const molar = 1000 / 325.77;
  const coMedication = (pk: number, substance: string): InterventionRecord => ({ ...dosing(pk, 0.2, substance), measurement_type: 'qualitative dosing' });
  const sets = [[1], [1, 11], [1, 12]];
  const interventions = [dosing(1, 0.0075, 'midazolam'), coMedication(11, 'a'), coMedication(12, 'b')];
  let subset = 900;
  const midazolam = (g: number, set: number[], slip = 1, substance = 'midazolam') => {
    const c = curve(subset++, g, 1, level[g - 1] * slip);
    const on = { substance, intervention_pks: set };
    return { tc: { ...c.tc, substance, substance_label: substance, intervention_pk: set }, points: c.points.map((p) => ({ ...p, ...on })) };
  };
  const groups = [group(1), group(2), group(3), group(4)];

  it('names the ×3.07 µmol/L ↔ mg/L slip major when the group lies at its own level in two other periods', () => {
    const slipped = midazolam(4, sets[0], molar);
    const curves = [slipped, ...[1, 2, 3].map((g) => midazolam(g, sets[0])), ...sets.slice(1).flatMap((set) => [1, 2, 3, 4].map((g) => midazolam(g, set)))];
    const majors = run([], interventions, curves, groups).filter((f) => f.severity === 'major');
    expect(majors).toMatchObject([{ kind: 'within-study', culprit: 'timecourse', subset_pk: slipped.tc.subset_pk, subject: 'group:4' }]);
    expect(majors[0].details?.factor).toBeCloseTo(molar, 6);
    expect(majors[0].suspected_cause).toMatch(/^×3\.07 \(molar ↔ mass: µmol\/L ↔ mg\/L \(molar mass 325\.8 g\/mol\)\)/);
    expect(majors[0].message).toMatch(/while the same group:4 lies at ×1\.1 the centre in its 2 other periods of this measure, and this record ×3\.07 that level$/);
  });

  it('stays silent without two other periods, for a group at that level in every period, and for a factor that is no molar one', () => {
    const alone = [midazolam(4, sets[0], molar), ...[1, 2, 3].map((g) => midazolam(g, sets[0]))];
    expect(run([], interventions, alone, groups).filter((f) => f.severity === 'major')).toEqual([]);
    const high = sets.flatMap((set) => [1, 2, 3, 4].map((g) => midazolam(g, set, g === 4 ? molar : 1)));
    expect(run([], interventions, high, groups).filter((f) => f.severity === 'major')).toEqual([]);
    // ×2.3 its own level: ×1.33 from the molar factor, beyond the ×1.25 band
    const off = [midazolam(4, sets[0], 2.3), ...[1, 2, 3].map((g) => midazolam(g, sets[0])), ...sets.slice(1).flatMap((set) => [1, 2, 3, 4].map((g) => midazolam(g, set)))];
    expect(run([], interventions, off, groups).filter((f) => f.severity === 'major')).toEqual([]);
    // A metabolite (1-hydroxymidazolam, 341.77 g/mol: ×2.93) moves with its formation and elimination: not named so.
    const metabolite = (g: number, set: number[], slip = 1) => midazolam(g, set, slip, '1-hydroxymidazolam');
    const formed = [metabolite(4, sets[0], 1000 / 341.77), ...[1, 2, 3].map((g) => metabolite(g, sets[0])), ...sets.slice(1).flatMap((set) => [1, 2, 3, 4].map((g) => metabolite(g, set)))];
    expect(run([], interventions, formed, groups).filter((f) => f.severity === 'major')).toEqual([]);
  });

  it('names a reported AUC∞ the same way, the output to fix', () => {
    const auc = (g: number, set: number[], slip = 1) => ({ ...output(g, 1, 'auc_inf', 'milligram * hour / liter', 20 * level[g - 1] * slip), substance: 'midazolam', intervention_pks: set });
    const slipped = auc(4, sets[0], molar);
    const outputs = [slipped, ...[1, 2, 3].map((g) => auc(g, sets[0])), ...sets.slice(1).flatMap((set) => [1, 2, 3, 4].map((g) => auc(g, set)))];
    const majors = run(outputs, interventions, [], groups).filter((f) => f.severity === 'major');
    expect(majors).toMatchObject([{ culprit: 'output', output_pk: slipped.pk, measurement_type: 'auc_inf' }]);
    expect(majors[0].details?.factor).toBeCloseTo(molar, 6);
  });
});

describe("within-study: a subject's own other record of the measure", () => {
  it('names an AUC ×24 major when the same group reports the AUC twice and the other lies in line, minor without it', () => {
    // Four groups of different populations (their agreement alone convicts nobody), AUC∞ 20 mg·h/L × level; group 4's
    // AUC∞ reported twice (a table and a figure), one ×24.
    const level = [1, 1.3, 0.8, 1.1];
    const groups = [group(1), group(2, 'cirrhosis'), group(3, 'obesity'), group(4, 'renal impairment')];
    const auc = (g: number, slip = 1) => output(g, 1, 'auc_inf', 'milligram * hour / liter', 20 * level[g - 1] * slip);
    const slipped = auc(4, 24);
    expect(run([auc(1), auc(2), auc(3), slipped], [dosing(1, 0.1)], [], groups)).toMatchObject([{ severity: 'minor', output_pk: slipped.pk }]);
    const findings = run([auc(1), auc(2), auc(3), slipped, auc(4)], [dosing(1, 0.1)], [], groups);
    expect(findings).toMatchObject([{ severity: 'major', culprit: 'output', output_pk: slipped.pk, details: { factor: 24 } }]);
    expect(findings[0].message).toMatch(/while the same group:4's other auc_inf of this arm \(output:\d+\) lies in line, at ×1\.1 the centre, and this record ×24 that value$/);
  });
});

describe('within-study: which arm of a pair holds the slip', () => {
  const pairFinding = (record: string, factor: number, check: string) =>
    ({ kind: 'within-study', check, culprit: null, message: 'm', details: { record, factor } }) as unknown as Finding;
  const a = pairFinding('output:1', 1000, 'within-study/output');
  const b = pairFinding('timecourse:2', 1 / 1000, 'within-study/timecourse');

  it('names the arm whose value the other studies put off by the factor, and only when they name one', () => {
    const backsB = (record: string, factor: number) => (record === 'timecourse:2' && factor === 1 / 1000 ? 'refs' : null);
    expect(pairCulprit(a, b, backsB)).toMatchObject({ culprit: 'timecourse', message: 'm; the other studies name this one: refs', details: { record: 'timecourse:2' } });
    expect(pairCulprit(a, b, () => null)).toBe(a);
    expect(pairCulprit(a, b, () => 'both')).toBe(a);
    expect(pairCulprit(a, null, (record) => (record === 'output:1' ? 'refs' : null))).toMatchObject({ culprit: 'output' });
  });
});

describe('within-study: a poor metaboliser', () => {
  /** Eight individuals given x: their AUC of x and of its metabolite m (mg·h/L), one of them at `factor` of its fellows'. */
  function individuals(factor: number): { outputs: OutputRecord[]; odd: OutputRecord } {
    const ofIndividual = (pk: number, substance: string, auc: number): OutputRecord => ({ ...output(1, 1, 'auc_inf', 'milligram * hour / liter', 0), group_pk: null, individual_pk: pk, substance, mean: null, value: auc });
    const spread = [1, 1.2, 0.9, 1.1, 0.8, 1.3, 1, 0.95];
    const parent = spread.map((f, k) => ofIndividual(100 + k, 'x', 20 * f));
    const metabolite = spread.map((f, k) => ofIndividual(100 + k, 'm', 2 * f * (k === 7 ? factor : 1)));
    return { outputs: [...parent, ...metabolite], odd: metabolite[7] };
  }

  it("keeps one individual's metabolite ×1/60 its fellows' (codeine's morphine in a CYP2D6 poor metaboliser) minor, and names its reason", () => {
    const { outputs, odd } = individuals(1 / 60);
    const findings = run(outputs, [dosing(1, 0.1)]).filter((f) => f.output_pk === odd.pk);
    expect(findings).toMatchObject([{ severity: 'minor' }]);
    expect(findings[0].message).toMatch(/poor metaboliser/);
  });

  it('still names a metabolite ×1/10⁶ (beyond any phenotype), and the parent drug ×1/60, major', () => {
    const far = individuals(1e-6);
    expect(run(far.outputs, [dosing(1, 0.1)]).filter((f) => f.output_pk === far.odd.pk)).toMatchObject([{ severity: 'major' }]);
    // The same ×1/60 on the drug given (the salt form named after it: 'x hydrochloride') is no phenotype.
    const { outputs } = individuals(1);
    const slipped = outputs.map((o, k) => (k === 7 ? { ...o, value: (o.value as number) / 60 } : o));
    const salt = { ...dosing(1, 0.1), substance: 'x hydrochloride' };
    expect(run(slipped, [salt]).filter((f) => f.output_pk === slipped[7].pk)).toMatchObject([{ severity: 'major' }]);
  });

  it('names the metabolite ×1/60 major when the same individual’s Cmax of it is in line (a phenotype would lower both)', () => {
    const { outputs, odd } = individuals(1 / 60);
    const cmax = [1, 1.2, 0.9, 1.1, 0.8, 1.3, 1, 0.95].map((f, k) => ({ ...outputs[8 + k], pk: 5000 + k, measurement_type: 'cmax', unit: 'milligram / liter', value: 0.2 * f }));
    const found = run([...outputs, ...cmax], [dosing(1, 0.1)]).filter((f) => f.output_pk === odd.pk);
    expect(found).toMatchObject([{ severity: 'major' }]);
  });
});

describe('within-study: a late absorber', () => {
  /** Eight individuals' concentration `hours` after the dosing (mg/L), the last ×1/1000. */
  function levels(hours: number): { outputs: OutputRecord[]; odd: OutputRecord } {
    const spread = [1, 1.2, 0.9, 1.1, 0.8, 1.3, 1, 0.95];
    const outputs = spread.map((f, k): OutputRecord => ({
      ...output(1, 1, 'concentration', 'milligram / liter', 0), group_pk: null, individual_pk: 200 + k, mean: null,
      value: 2 * f * (k === 7 ? 1 / 1000 : 1), time: hours, time_unit: 'hr',
    }));
    return { outputs, odd: outputs[7] };
  }

  it('keeps one level ×1/1000 its fellows’ 1 h after an oral dose minor (still rising), names it major at 6 h or after an IV dose', () => {
    const early = levels(1);
    const atOne = run(early.outputs, [dosing(1, 0.1)]).filter((f) => f.output_pk === early.odd.pk);
    expect(atOne).toMatchObject([{ severity: 'minor' }]);
    expect(atOne[0].message).toMatch(/late absorber/);
    const late = levels(6);
    expect(run(late.outputs, [dosing(1, 0.1)]).filter((f) => f.output_pk === late.odd.pk)).toMatchObject([{ severity: 'major' }]);
    expect(run(early.outputs, [{ ...dosing(1, 0.1), route: 'iv' }]).filter((f) => f.output_pk === early.odd.pk)).toMatchObject([{ severity: 'major' }]);
  });
});

describe('within-study: a calculated value leads a slip of its curve only as far as the curve moves', () => {
  const dev = (measure: string, source: string, ratio: number) => ({ item: { measure, source }, d: Math.log(ratio), s: 0.3 }) as unknown as Deviation;
  const tenfold = { factor: 10, kind: 'unit-factor' as const, text: '×10', distance: 0 };
  it('a calculated AUC ×5.8 beside its curve ×4.7 is the curve\'s shape, not ×10; beside a curve ×9 it is', () => {
    const auc = dev('auc_inf', 'calculated', 5.8);
    expect(curveAgrees(auc, tenfold, [auc, dev('curve', 'curve', 4.7)])).toBe(false); // |ln 0.47| = 0.75 > 2 × 0.3
    expect(curveAgrees(auc, tenfold, [auc, dev('curve', 'curve', 9)])).toBe(true);
    expect(curveAgrees(auc, tenfold, [auc])).toBe(true); // no curve deviation: nothing to contradict it
    // A curve further off than the factor (its shape: a high baseline) does not contradict it; the other way does.
    expect(curveAgrees(auc, tenfold, [auc, dev('curve', 'curve', 28.9)])).toBe(true);
    expect(curveAgrees(auc, tenfold, [auc, dev('curve', 'curve', 0.5)])).toBe(false);
  });
  it('a time factor moves the AUC without the levels; a reported value is not its curve\'s', () => {
    const auc = dev('auc_inf', 'calculated', 60);
    expect(curveAgrees(auc, { ...tenfold, factor: 60 }, [auc, dev('curve', 'curve', 1)])).toBe(true);
    const cmax = dev('cmax', 'calculated', 60);
    expect(curveAgrees(cmax, { ...tenfold, factor: 60 }, [cmax, dev('curve', 'curve', 1)])).toBe(false);
    const reported = dev('cmax', 'reported', 10);
    expect(curveAgrees(reported, tenfold, [reported, dev('curve', 'curve', 1)])).toBe(true);
  });
});
