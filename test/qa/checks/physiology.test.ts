import { describe, expect, it } from 'vitest';
import { Dataset } from '../../../src/data/dataset.js';
import type { CharacteristicaRecord, GroupRecord, InterventionRecord, OutputRecord, TimecourseRecord } from '../../../src/data/model.js';
import { physiologyCheck } from '../../../src/qa/checks/physiology.js';
import { prepareContext } from '../../../src/qa/context.js';
import type { Finding } from '../../../src/qa/finding.js';

const STATS = { value: null, mean: null, median: null, min: null, max: null, sd: null, se: null, cv: null };
const study = { study_sid: 'T1', study_name: 'Test' };

function dosing(pk: number, value: number, unit = 'gram', fields: Partial<InterventionRecord> = {}): InterventionRecord {
  return {
    ...STATS, ...study, pk, raw_pk: null, normed: true, name: `d${pk}`, route: 'oral', form: 'tablet', application: 'single dose',
    time: '0', time_end: null, time_unit: 'hr', measurement_type: 'dosing', calculation_type: null, choice: null, substance: 'x', value, unit, ...fields,
  };
}

function characteristic(measurement_type: string, value: number | null, unit: string | null, choice: string | null = null): CharacteristicaRecord {
  return { ...STATS, pk: 900, count: 10, measurement_type, calculation_type: null, choice, substance: null, group_count: 10, mean: value, unit } as CharacteristicaRecord;
}

function group(pk: number, characteristica: CharacteristicaRecord[]): GroupRecord {
  return { ...study, pk, name: `g${pk}`, count: 10, parent_pk: null, characteristica };
}

let nextPk = 100;
function output(fields: Partial<OutputRecord>): OutputRecord {
  return {
    ...STATS, ...study, pk: nextPk++, raw_pk: null, normed: true, calculated: false, group_pk: 1, individual_pk: null, intervention_pks: [1],
    tissue: 'plasma', method: null, label: null, output_type: 'output', time: null, time_unit: null, measurement_type: 'cmax',
    calculation_type: null, choice: null, substance: 'x', subset_pk: null, unit: 'gram / liter', ...fields,
  };
}

/** A concentration timecourse of group `groupPk`, substance x, intervention 1, in g/L at hours `times`. */
function timecourse(subsetPk: number, times: number[], values: number[], groupPk = 1): { tc: TimecourseRecord; points: OutputRecord[] } {
  const points = times.map((t, i) => output({ output_type: 'timecourse', measurement_type: 'concentration', group_pk: groupPk, time: t, time_unit: 'hr', value: values[i], subset_pk: subsetPk }));
  const tc = {
    ...study, subset_pk: subsetPk, subset_name: 'tc', output_pk: points.map((p) => p.pk), intervention_pk: [1], group_pk: groupPk, individual_pk: null,
    normed: true, tissue: 'plasma', tissue_label: 'plasma', method: null, method_label: null, label: null, time: times, time_unit: 'hr',
    measurement_type: 'concentration', measurement_type_label: null, choice: null, choice_label: null, substance: 'x', substance_label: 'x',
    value: values, mean: null, median: null, min: null, max: null, sd: null, se: null, cv: null, unit: 'gram / liter',
  } as TimecourseRecord;
  return { tc, points };
}

function run(
  outputs: OutputRecord[], options: { timecourses?: { tc: TimecourseRecord; points: OutputRecord[] }[]; interventions?: InterventionRecord[]; groups?: GroupRecord[] } = {},
): Finding[] {
  const timecourses = options.timecourses ?? [];
  const tables = {
    studies: [], groups: options.groups ?? [group(1, [])], individuals: [], interventions: options.interventions ?? [dosing(1, 0.1)], scatters: [], terms: [],
    outputs: [...outputs, ...timecourses.flatMap((t) => t.points)], timecourses: timecourses.map((t) => t.tc),
  };
  return physiologyCheck.run(prepareContext(Dataset.fromTables(tables, { kind: 'export', location: 'test' })));
}
const about = (findings: Finding[], o: OutputRecord) => findings.filter((f) => f.output_pk === o.pk);

describe('physiology: volumes below the plasma volume', () => {
  it('flags a volume below half the plasma volume of the curated weight, naming the slip that brings it back', () => {
    // 80 kg: plasma 3.2 L, bound 1.6 L. 0.5 L is ×0.156 the plasma; ×1/10 gives 5 L, per-kg ×1/80 gives 40 L (0.5 L/kg),
    // ×1/1000 500 L: per-kg lands nearest the typical 1 L/kg (80 L).
    const groups = [group(1, [characteristic('weight', 80, 'kilogram')])];
    const low = output({ measurement_type: 'vd', unit: 'liter', mean: 0.5 });
    const fine = output({ measurement_type: 'vd_ss', unit: 'liter', mean: 2, substance: 'x' });
    const findings = run([low, fine], { groups });
    expect(about(findings, low)).toMatchObject([{ kind: 'physiology', severity: 'major', culprit: 'output', recomputed: 3.2, details: { rule: 'volume-below-plasma', cause_kinds: ['per-kg'], cause_factors: [1 / 80] } }]);
    expect(about(findings, low)[0].ratio).toBeCloseTo(0.5 / 3.2, 6);
    expect(about(findings, low)[0].suspected_cause).toMatch(/^volume ×1\/80 \(per-kg/);
    expect(about(findings, fine)).toEqual([]);
  });

  it('bounds a per-kg volume at 0.02 L/kg without a weight; an absolute one of an unweighed adult at 0.8 L (40 kg)', () => {
    const perKg = output({ measurement_type: 'vd', unit: 'liter / kilogram', mean: 0.0015 });
    const perKgFine = output({ measurement_type: 'vd', unit: 'liter / kilogram', mean: 0.03, group_pk: 2 });
    const absolute = output({ measurement_type: 'vd', unit: 'liter', mean: 0.7, group_pk: 3 });
    const absoluteFine = output({ measurement_type: 'vd', unit: 'liter', mean: 0.9, group_pk: 4 });
    const groups = [1, 2, 3, 4].map((pk) => group(pk, []));
    const findings = run([perKg, perKgFine, absolute, absoluteFine], { groups });
    // 0.0015 / 0.04 = 0.0375: ×1/1000 brings it to 1.5 L/kg, nearest 1 L/kg (×1/60, ×1/24 do not touch a volume; ×1/10 gives 0.015 < 0.04).
    expect(about(findings, perKg)).toMatchObject([{ severity: 'major', recomputed: 0.04, details: { cause_factors: [0.001] } }]);
    expect(about(findings, absolute)).toMatchObject([{ severity: 'major', recomputed: 1.6 }]);
    expect(about(findings, absolute)[0].message).toMatch(/lowest adult weight 40 kg/);
    expect(about(findings, perKgFine)).toEqual([]);
    expect(about(findings, absoluteFine)).toEqual([]);
  });

  it('skips children without a weight, metabolites, saliva and urine', () => {
    const groups = [group(1, [characteristic('age', 0.1, 'year')]), group(2, [])];
    const child = output({ measurement_type: 'vd', unit: 'liter', mean: 0.3 });
    const metabolite = output({ measurement_type: 'vd', unit: 'liter', mean: 0.3, group_pk: 2, substance: 'm' });
    const saliva = output({ measurement_type: 'vd', unit: 'liter', mean: 0.3, group_pk: 2, tissue: 'saliva' });
    expect(run([child, metabolite, saliva], { groups })).toEqual([]);
  });
});

describe('physiology: concentrations above dose / plasma volume', () => {
  it('flags a Cmax above the whole dose in the plasma and names Cmax ×1000 or a dose ×1/1000', () => {
    // 100 mg, 70 kg: plasma 2.8 L, ceiling 0.0357 g/L; a Cmax of 1.2 g/L (1.2 mg/mL) is ×33.6.
    const groups = [group(1, [characteristic('weight', 70, 'kilogram')])];
    const cmax = output({ mean: 1.2 });
    const findings = run([cmax], { groups });
    // Alone, the Cmax or its dose: nothing else of the subject tells them apart.
    expect(about(findings, cmax)).toMatchObject([{ kind: 'physiology', severity: 'major', culprit: null, intervention_pk: 1, details: { rule: 'concentration-above-dose-per-plasma' } }]);
    expect(about(findings, cmax)[0].recomputed).toBeCloseTo(0.1 / 2.8, 8);
    expect(about(findings, cmax)[0].ratio).toBeCloseTo(1.2 / (0.1 / 2.8), 6);
    // ×60 does not touch a Cmax; ×1000 (Cmax) or a dose ×1/1000 put it at 1/28 of the ceiling, nearest the typical 1/25.
    expect(about(findings, cmax)[0].suspected_cause).toMatch(/^reported cmax ×1000 .* or dose ×1\/1000/);
    expect(about(findings, cmax)[0].details).toMatchObject({ cause_factors: [1000, 1 / 1000] });
  });

  it('leaves a Cmax within ×2 of the ceiling, an endogenous substance (baseline above 0), a metabolite and several doses', () => {
    const groups = [group(1, [characteristic('weight', 70, 'kilogram')])];
    const near = output({ mean: 0.06 }); // ×1.68 the ceiling 0.0357 g/L
    expect(run([near], { groups })).toEqual([]);
    const high = output({ mean: 1.2 });
    const baseline = timecourse(50, [0, 1, 2], [0.001, 0.02, 0.01]);
    expect(about(run([high], { groups, timecourses: [baseline] }), high)).toEqual([]);
    const metabolite = output({ mean: 1.2, substance: 'm' });
    expect(run([metabolite], { groups })).toEqual([]);
    const twice = output({ mean: 1.2, intervention_pks: [1, 2] });
    expect(run([twice], { groups, interventions: [dosing(1, 0.1), dosing(2, 0.1)] })).toEqual([]);
    const multiple = output({ mean: 1.2 });
    expect(run([multiple], { groups, interventions: [dosing(1, 0.1, 'gram', { application: 'multiple dose' })] })).toEqual([]);
  });

  it('uses a per-kg dose without a weight: 1 mg/kg over 0.04 L/kg is 0.025 g/L', () => {
    const cmax = output({ mean: 0.3 });
    const findings = run([cmax], { interventions: [dosing(1, 0.001, 'gram / kilogram')] });
    expect(findings).toHaveLength(1);
    expect(findings[0].recomputed).toBeCloseTo(0.025, 8);
    expect(findings[0].severity).toBe('major');
    // A dimensionless dose (a count) is no amount per kg, though mathjs converts it to gram / kilogram.
    expect(run([output({ mean: 0.3 })], { interventions: [dosing(1, 2e-8, 'count')] })).toEqual([]);
  });

  it('names the dose when a reported Cmax and the timecourse of the same key both exceed the ceiling alike', () => {
    // Dose 0.1 mg curated (100 mg true: ×1/1000); 70 kg: ceiling 0.1e-3 / 2.8 = 3.57e-5 g/L; Cmax 1 mg/L = 0.001 g/L.
    const groups = [group(1, [characteristic('weight', 70, 'kilogram')])];
    const cmax = output({ mean: 0.001 });
    const tc = timecourse(60, [0, 1, 2, 4], [0, 0.0011, 0.0008, 0.0004]);
    const findings = run([cmax], { groups, timecourses: [tc], interventions: [dosing(1, 0.0001)] });
    expect(findings).toHaveLength(2);
    for (const f of findings) {
      expect(f).toMatchObject({ severity: 'major', culprit: 'dose', intervention_pk: 1 });
      expect(f.suspected_cause).toMatch(/^dose ×1\/1000/);
    }
    expect(findings.find((f) => f.subset_pk === 60 && f.output_pk === null)?.reported).toBeCloseTo(0.0011, 10);
  });

  it('names the value when the other witness of the subject is within the dose\'s reach, and never a calculated Cmax\'s own curve as a witness', () => {
    // 100 mg, 70 kg: ceiling 0.0357 g/L. The curve peaks at 0.0011 g/L: the dose is right, the Cmax of 1.2 g/L is not.
    const groups = [group(1, [characteristic('weight', 70, 'kilogram')])];
    const cmax = output({ mean: 1.2 });
    const tc = timecourse(60, [0, 1, 2, 4], [0, 0.0011, 0.0008, 0.0004]);
    expect(about(run([cmax], { groups, timecourses: [tc] }), cmax)).toMatchObject([{ culprit: 'output' }]);
    // The curve ×1000 (1.1 g/L) with its calculated Cmax: the calculated value is the curve's, so the curve alone is
    // off, and nothing independent tells it from a dose ×1/1000.
    const high = timecourse(60, [0, 1, 2, 4], [0, 1.1, 0.8, 0.4]);
    const calculated = output({ mean: 1.1, calculated: true, subset_pk: 60 });
    const findings = run([calculated], { groups, timecourses: [high] });
    expect(findings.map((f) => f.culprit)).toEqual([null, null]);
  });
});

describe('physiology: every subject of one dosing above what it can give', () => {
  // Seven other studies dose x at 80–200 mg: the dose reference (reference-samples.ts) for study T1's dosing.
  const others = [0.08, 0.1, 0.1, 0.12, 0.15, 0.2, 0.1].map((value, k) => dosing(50 + k, value, 'gram', { study_sid: `O${k}`, study_name: `O${k}` }));
  const groups = [group(1, [characteristic('weight', 70, 'kilogram')]), group(2, [characteristic('weight', 70, 'kilogram')])];
  // Two groups' curves peaking at 0.0015 and 0.0018 g/L: within what 100 mg can give (0.0357 g/L), far above 1.4 mg's (0.0005 g/L).
  const curves = () => [timecourse(60, [0, 1, 2, 4], [0, 0.0015, 0.001, 0.0005], 1), timecourse(61, [0, 1, 2, 4], [0, 0.0018, 0.0012, 0.0006], 2)];
  const curveFindings = (findings: Finding[]) => findings.filter((f) => f.subset_pk !== null && f.output_pk === null);

  it('names the dose when the other studies put it low: a 20 mg/kg dose curated as 1.4 mg', () => {
    const findings = run([], { groups, timecourses: curves(), interventions: [dosing(1, 0.0014), ...others] });
    const excess = curveFindings(findings);
    expect(excess).toHaveLength(2);
    for (const f of excess) {
      expect(f).toMatchObject({ severity: 'major', culprit: 'dose', intervention_pk: 1 });
      expect(f.suspected_cause).toMatch(/the dose is the record to fix: every record of its 2 subjects lies above what it can give, and the other studies' doses put it low \(robust z -/);
    }
  });

  it('leaves it open for a typical dose (every curve in one wrong unit exceeds it alike) and for one subject alone', () => {
    const high = [timecourse(60, [0, 1, 2, 4], [0, 1.5, 1, 0.5], 1), timecourse(61, [0, 1, 2, 4], [0, 1.8, 1.2, 0.6], 2)];
    const typical = curveFindings(run([], { groups, timecourses: high, interventions: [dosing(1, 0.1), ...others] }));
    expect(typical.map((f) => f.culprit ?? null)).toEqual([null, null]);
    const alone = curveFindings(run([], { groups, timecourses: curves().slice(0, 1), interventions: [dosing(1, 0.0014), ...others] }));
    expect(alone.map((f) => f.culprit ?? null)).toEqual([null]);
  });
});

describe('physiology: saliva', () => {
  it('bounds a saliva concentration by the same dose / plasma volume, but not a saliva AUC or urine', () => {
    // 100 mg, 70 kg: ceiling 0.0357 g/L; saliva Cmax 5 g/L (caffeine 5 mg/L curated ×1000) is ×140
    const groups = [group(1, [characteristic('weight', 70, 'kilogram')])];
    const saliva = output({ mean: 5, tissue: 'saliva' });
    const findings = run([saliva], { groups });
    expect(about(findings, saliva)).toMatchObject([{ kind: 'physiology', severity: 'major', culprit: null }]);
    expect(about(findings, saliva)[0].ratio).toBeCloseTo(5 / (0.1 / 2.8), 6);
    const urine = output({ mean: 5, tissue: 'urine' });
    const auc = output({ measurement_type: 'auc_inf', unit: 'gram * hour / liter', mean: 500, tissue: 'saliva' });
    const thalf = output({ measurement_type: 'thalf', unit: 'hour', mean: 4, tissue: 'saliva' });
    expect(run([urine, auc, thalf], { groups })).toEqual([]);
  });
});

describe('physiology: salts and single concentrations', () => {
  it('takes a salt of the measured substance as the substance itself, not a metabolite', () => {
    // 30 mg codeine phosphate, 70 kg: ceiling 0.03 / 2.8 = 0.0107 g/L; a volume of 0.9 L is below 1.4 L.
    const groups = [group(1, [characteristic('weight', 70, 'kilogram')])];
    const interventions = [dosing(1, 0.03, 'gram', { substance: 'codeine phosphate' })];
    const conc = output({ measurement_type: 'concentration', mean: 0.1, substance: 'codeine', time: 1, time_unit: 'hr' });
    const vd = output({ measurement_type: 'vd', unit: 'liter', mean: 0.9, substance: 'codeine' });
    const metabolite = output({ mean: 0.1, substance: 'codeine glucuronide' });
    const findings = run([conc, vd, metabolite], { groups, interventions });
    expect(about(findings, conc)).toMatchObject([{ measurement_type: 'concentration', severity: 'major' }]);
    expect(about(findings, conc)[0].ratio).toBeCloseTo(0.1 / (0.03 / 2.8), 6);
    expect(about(findings, vd)).toMatchObject([{ details: { rule: 'volume-below-plasma' } }]);
    expect(about(findings, metabolite)).toEqual([]);
  });

  it("names a calculated volume's dose in details.dose_pk (a record its slip may sit in), not as its intervention", () => {
    // 30 mg, 70 kg: plasma 2.8 L. A calculated V of 0.04 L (a 30 mg/kg dose curated as 30 mg gives V ×1/70) is ×0.0143.
    const groups = [group(1, [characteristic('weight', 70, 'kilogram')])];
    const interventions = [dosing(1, 0.03, 'gram', { substance: 'codeine' })];
    const vd = output({ measurement_type: 'vd', unit: 'liter', mean: 0.04, substance: 'codeine', calculated: true });
    const [f] = about(run([vd], { groups, interventions }), vd);
    expect(f).toMatchObject({ severity: 'major', culprit: null, details: { rule: 'volume-below-plasma', source: 'calculated', dose_pk: 1 } });
    expect(f.intervention_pk ?? null).toBeNull();
    // A reported volume is its own record: no dose named.
    const reported = output({ measurement_type: 'vd', unit: 'liter', mean: 0.04, substance: 'codeine' });
    expect(about(run([reported], { groups, interventions }), reported)[0].details?.dose_pk).toBeUndefined();
  });
});

describe('physiology: AUC above dose · t½ / (ln 2 · plasma volume)', () => {
  it('flags an AUC beyond ×2 of the bound and names the AUC, dose and t½ slips that bring it back', () => {
    // 100 mg, 70 kg: D/Vp = 0.0357 g/L; t½ 4 h: bound 0.0357 · 4 / ln 2 = 0.206 g·h/L. An AUC of 50 g·h/L is ×243.
    const groups = [group(1, [characteristic('weight', 70, 'kilogram')])];
    const auc = output({ measurement_type: 'auc_inf', unit: 'gram * hour / liter', mean: 50 });
    const thalf = output({ measurement_type: 'thalf', unit: 'hour', mean: 4 });
    const fine = output({ measurement_type: 'auc_end', unit: 'gram * hour / liter', mean: 0.3, time: 24, time_unit: 'hr' });
    const findings = run([auc, thalf, fine], { groups });
    const bound = ((0.1 / 2.8) * 4) / Math.LN2;
    expect(about(findings, auc)).toMatchObject([{ severity: 'major', details: { rule: 'auc-above-dose-per-plasma-clearance', thalf_output_pk: thalf.pk } }]);
    expect(about(findings, auc)[0].recomputed).toBeCloseTo(bound, 8);
    expect(about(findings, auc)[0].ratio).toBeCloseTo(50 / bound, 6);
    // Nearest the typical 1/25 of the bound: AUC ×1440 (minutes vs days, ×0.169) rather than ×1000 (×0.243); the dose
    // ×1/1000 (a dose slip is no time factor); t½ ×1/1440 (×0.169; ×1/60 leaves ×4, not within).
    expect(about(findings, auc)[0].details).toMatchObject({ cause_factors: [1440, 1 / 1000, 1 / 1440] });
    expect(about(findings, fine)).toEqual([]);
  });

  it('needs a t½ or kel of the same key', () => {
    const groups = [group(1, [characteristic('weight', 70, 'kilogram')])];
    const auc = output({ measurement_type: 'auc_inf', unit: 'gram * hour / liter', mean: 50 });
    expect(run([auc], { groups })).toEqual([]);
    const kel = output({ measurement_type: 'kel', unit: '1 / hour', mean: Math.LN2 / 4 });
    expect(about(run([auc, kel], { groups }), auc)[0].recomputed).toBeCloseTo(((0.1 / 2.8) * 4) / Math.LN2, 8);
  });
});
