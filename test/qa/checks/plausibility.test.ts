import { describe, expect, it } from 'vitest';
import { Dataset } from '../../../src/data/dataset.js';
import type { InterventionRecord, OutputRecord, TimecourseRecord } from '../../../src/data/model.js';
import { impossibleDoseFinding, plausibilityCheck } from '../../../src/qa/checks/plausibility.js';
import { prepareContext } from '../../../src/qa/context.js';
import type { Finding } from '../../../src/qa/finding.js';

const STATS = { value: null, mean: null, median: null, min: null, max: null, sd: null, se: null, cv: null };
const study = { study_sid: 'T1', study_name: 'Test' };

function dosing(pk: number, time = '0'): InterventionRecord {
  return {
    ...STATS, ...study, pk, raw_pk: null, normed: true, name: `d${pk}`, route: 'oral', form: 'tablet', application: 'single dose',
    time, time_end: null, time_unit: 'hr', measurement_type: 'dosing', calculation_type: null, choice: null, substance: 'x', value: 0.1, unit: 'gram',
  };
}

let nextPk = 100;
function output(fields: Partial<OutputRecord>): OutputRecord {
  return {
    ...STATS, ...study, pk: nextPk++, raw_pk: null, normed: true, calculated: false, group_pk: 1, individual_pk: null, intervention_pks: [1],
    tissue: 'plasma', method: null, label: null, output_type: 'output', time: null, time_unit: null, measurement_type: 'cmax',
    calculation_type: null, choice: null, substance: 'x', subset_pk: null, unit: 'gram / liter', ...fields,
  };
}

/** A timecourse of substance `substance` for group 1 with intervention `intervention`, sampled at `times` hours. */
function timecourse(subsetPk: number, substance: string, intervention: number, times: number[]): { tc: TimecourseRecord; points: OutputRecord[] } {
  const points = times.map((t) => output({ output_type: 'timecourse', measurement_type: 'concentration', substance, intervention_pks: [intervention], time: t, time_unit: 'hr', value: 1, subset_pk: subsetPk }));
  const tc = {
    ...study, subset_pk: subsetPk, subset_name: 'tc', output_pk: points.map((p) => p.pk), intervention_pk: [intervention], group_pk: 1, individual_pk: null,
    normed: true, tissue: 'plasma', tissue_label: 'plasma', method: null, method_label: null, label: null, time: times, time_unit: 'hr',
    measurement_type: 'concentration', measurement_type_label: null, choice: null, choice_label: null, substance, substance_label: substance,
    value: times.map(() => 1), mean: null, median: null, min: null, max: null, sd: null, se: null, cv: null, unit: 'gram / liter',
  } as TimecourseRecord;
  return { tc, points };
}

function run(outputs: OutputRecord[], timecourses: { tc: TimecourseRecord; points: OutputRecord[] }[] = [], interventions = [dosing(1)]): Finding[] {
  const tables = {
    studies: [], groups: [], individuals: [], interventions, scatters: [], terms: [],
    outputs: [...outputs, ...timecourses.flatMap((t) => t.points)], timecourses: timecourses.map((t) => t.tc),
  };
  return plausibilityCheck.run(prepareContext(Dataset.fromTables(tables, { kind: 'export', location: 'test' })));
}
const about = (findings: Finding[], o: OutputRecord) => findings.filter((f) => f.output_pk === o.pk);

describe('plausibility: signs', () => {
  it('reports a negative half-life or range minimum and a zero volume as major, a zero Cmax as minor', () => {
    const thalf = output({ measurement_type: 'thalf', unit: 'hour', mean: -4.9, substance: 'a' });
    const clMin = output({ measurement_type: 'clearance', unit: 'liter / hour', mean: 5, min: -1, substance: 'b' });
    const vd = output({ measurement_type: 'vd', unit: 'liter', value: 0, substance: 'c' });
    const cmax = output({ measurement_type: 'cmax', value: 0, substance: 'd' });
    const renal = output({ measurement_type: 'clearance_renal', unit: 'liter / hour', value: 0, substance: 'e' });
    const fine = output({ measurement_type: 'thalf', unit: 'hour', mean: 4.9, substance: 'f' });
    const findings = run([thalf, clMin, vd, cmax, renal, fine]);
    expect(about(findings, thalf)).toMatchObject([{ kind: 'plausibility', severity: 'major', reported: -4.9, reported_unit: 'hour', details: { rule: 'negative' } }]);
    expect(about(findings, clMin)).toMatchObject([{ severity: 'major', details: { rule: 'negative' } }]);
    expect(about(findings, clMin)[0].message).toMatch(/range minimum -1 liter \/ hour is negative/);
    expect(about(findings, vd)).toMatchObject([{ severity: 'major', details: { rule: 'zero' } }]);
    expect(about(findings, cmax)).toMatchObject([{ severity: 'minor', details: { rule: 'zero' } }]);
    expect(about(findings, renal)).toEqual([]);
    expect(about(findings, fine)).toEqual([]);
  });
});

describe('plausibility: fractions', () => {
  it('converts percentages, lets 1 < f ≤ 1.3 pass as minor and names ×100 beyond', () => {
    const fu = output({ measurement_type: 'fraction_unbound', unit: 'dimensionless', mean: 3.19, substance: 'a' });
    const percent = output({ measurement_type: 'bioavailability', unit: 'percent', mean: 85, substance: 'b' });
    const recovery = output({ measurement_type: 'recovery', unit: 'dimensionless', value: 1.2, substance: 'c' });
    const binding = output({ measurement_type: 'plasma_binding', unit: 'dimensionless', mean: 313, substance: 'd' });
    const negative = output({ measurement_type: 'fraction_absorbed', unit: 'dimensionless', mean: -0.2, substance: 'e' });
    const findings = run([fu, percent, recovery, binding, negative]);
    // 3.19 as a fraction is impossible; 3.19 % = 0.0319 is midazolam's fraction unbound.
    expect(about(findings, fu)).toMatchObject([{ severity: 'major', ratio: 3.19, details: { rule: 'fraction-above-1', cause_factors: [100] } }]);
    expect(about(findings, fu)[0].suspected_cause).toMatch(/×100: a percentage \(3.19 %\)/);
    expect(about(findings, percent)).toEqual([]); // 85 % = 0.85
    expect(about(findings, recovery)).toMatchObject([{ severity: 'minor' }]);
    expect(about(findings, binding)).toMatchObject([{ severity: 'major', suspected_cause: null }]); // 313 is no percentage either
    expect(about(findings, negative)).toMatchObject([{ severity: 'major', details: { rule: 'negative' } }]);
    // A reported value that cannot be is the record to fix.
    expect([fu, binding, negative].map((o) => about(findings, o)[0].culprit)).toEqual(['output', 'output', 'output']);
  });
});

describe('plausibility: tmax', () => {
  it('reports a reported tmax after the last sample (8 h), naming ×60 when tmax/60 falls inside the sampled window', () => {
    const tc = timecourse(1, 'x', 1, [0, 0.5, 1, 2, 4, 8]);
    const slip = output({ measurement_type: 'tmax', unit: 'hour', mean: 60 });
    const rounding = output({ measurement_type: 'tmax', unit: 'hour', median: 8.3, group_pk: 1 });
    const late = output({ measurement_type: 'tmax', unit: 'minute', value: 510 }); // 8.5 h: 6 % after the end; 8.5/60 h is before the first sample
    const findings = run([slip, rounding, late], [tc]);
    // 60/60 = 1 h, 60/24 = 2.5 h and 60/10 = 6 h all lie in the sampled window; the flat curve peaks at its first
    // sample (0.5 h), and only 1 h lands within ×2.5 of it.
    expect(about(findings, slip)).toMatchObject([{ severity: 'major', recomputed: 8, ratio: 7.5, details: { rule: 'tmax-after-last-sample', cause_factors: [60] } }]);
    expect(about(findings, slip)[0].suspected_cause).toMatch(/^×60 \(minutes vs hours\)\?$/);
    expect(about(findings, rounding)).toEqual([]);
    expect(about(findings, late)).toMatchObject([{ severity: 'major', reported: 8.5, suspected_cause: null }]);
  });

  it('names first the time factor that lands nearest the curve\'s own peak: a curve peaking at 4 h, tmax 96 h is ×24', () => {
    const tc = timecourse(1, 'x', 1, [0, 0.5, 1, 2, 4, 8]);
    tc.tc.value = [0, 1, 2, 3, 5, 2];
    const slip = output({ measurement_type: 'tmax', unit: 'hour', mean: 96 });
    expect(about(run([slip], [tc]), slip)).toMatchObject([{ severity: 'major', details: { cause_factors: [24, 60] } }]);
  });

  it('names a decimal slip (×10) too, after the last sample: a curve peaking at 4 h, tmax 45 h is ×10 or ×24, not ×60', () => {
    const tc = timecourse(1, 'x', 1, [0, 0.5, 1, 2, 4, 8]);
    tc.tc.value = [0, 1, 2, 3, 5, 2];
    const slip = output({ measurement_type: 'tmax', unit: 'hour', mean: 45 });
    const [f] = about(run([slip], [tc]), slip);
    expect(f).toMatchObject({ severity: 'major', details: { cause_factors: [10, 24] } });
    expect(f.suspected_cause).toMatch(/^×10 \(a decimal point slip\), or ×24 /);
  });

  it('measures the last sample from the dose: samples to 8 h after a dose at 2 h end 6 h after it', () => {
    const tc = timecourse(1, 'x', 2, [2, 3, 4, 6, 8]);
    const tmax = output({ measurement_type: 'tmax', unit: 'hour', mean: 9, intervention_pks: [2] });
    const findings = run([tmax], [tc], [dosing(2, '2')]);
    expect(about(findings, tmax)).toMatchObject([{ severity: 'major', recomputed: 6 }]);
    // 7 h is after the last sample from the dose, but inside the samples on the study's clock (2–8 h): minor
    const onClock = output({ measurement_type: 'tmax', unit: 'hour', mean: 7, intervention_pks: [2] });
    const clock = run([onClock], [tc], [dosing(2, '2')]);
    expect(about(clock, onClock)).toMatchObject([{ severity: 'minor', recomputed: 6 }]);
    expect(about(clock, onClock)[0].message).toMatch(/observed only if read on the study's clock \(samples to 8 h\), not from its dose/);
  });

  it('reports a stored calculated tmax before the dose: negative, or earlier than a dose at 1 h', () => {
    const negative = timecourse(1, 'x', 1, [-0.5, 0.5, 1, 2]);
    const early = timecourse(2, 'y', 3, [0, 0.5, 1, 2]);
    const calcNegative = output({ calculated: true, output_type: null, measurement_type: 'tmax', unit: 'hour', value: -0.5, subset_pk: 1 });
    const calcEarly = output({ calculated: true, output_type: null, measurement_type: 'tmax', unit: 'hour', value: 0.5, subset_pk: 2, substance: 'y', intervention_pks: [3] });
    const findings = run([calcNegative, calcEarly], [negative, early], [dosing(1), { ...dosing(3, '1'), substance: 'y' }]);
    // A stored calculated tmax before the dose is its curve's: a pre-dose sample was its highest.
    expect(about(findings, calcNegative)).toMatchObject([{ severity: 'major', culprit: 'timecourse', details: { rule: 'negative', source: 'calculated' } }]);
    expect(about(findings, calcEarly)).toMatchObject([{ severity: 'major', recomputed: 1, details: { rule: 'tmax-before-dose' } }]);
  });
});

describe('plausibility: an oral tmax within minutes', () => {
  it('names a reported oral tmax of 0.5 min ×1/60 (30 min: hours read as minutes), leaves 10 min and an IV tmax alone', () => {
    // 0.5 curated in minutes: 0.00833 h, below 5 min; ×60 brings it to 0.5 h, inside 0.1–24 h
    const slip = output({ measurement_type: 'tmax', unit: 'minute', value: 0.5 });
    const fast = output({ measurement_type: 'tmax', unit: 'minute', value: 10 });
    const iv = output({ measurement_type: 'tmax', unit: 'minute', value: 1, intervention_pks: [2] });
    const findings = run([slip, fast, iv], [], [dosing(1), { ...dosing(2), route: 'iv' }]);
    expect(about(findings, slip)).toMatchObject([{ severity: 'major', ratio: 1 / 60, details: { rule: 'tmax-too-early-oral', cause_factors: [1 / 60] } }]);
    expect(about(findings, slip)[0].recomputed).toBeCloseTo(0.5, 12);
    expect(about(findings, fast)).toEqual([]);
    expect(about(findings, iv)).toEqual([]);
  });

  it('is minor when neither ×1/60 nor ×1/24 brings it into 0.1–24 h (a few seconds)', () => {
    // 0.05 min = 3 s: ×60 gives 0.05 h (below 0.1 h), ×24 gives 0.02 h
    const seconds = output({ measurement_type: 'tmax', unit: 'minute', value: 0.05 });
    expect(about(run([seconds]), seconds)).toMatchObject([{ severity: 'minor', suspected_cause: null }]);
  });
});

describe('plausibility: a dose beyond any human', () => {
  it('flags 400 g (5.7 g/kg for 70 kg) and 4 g/kg, naming the dose slips that bring it under 0.5 g/kg', () => {
    // ketoconazole 400 mg curated as 400 g: ×10 gives 40 g (0.57 g/kg, above 0.5), ×1000 gives 0.4 g
    const keto = impossibleDoseFinding({ ...dosing(7), substance: 'ketoconazole', value: 400 }, null)!;
    expect(keto).toMatchObject({ kind: 'plausibility', severity: 'major', culprit: 'dose', intervention_pk: 7, details: { rule: 'dose-beyond-human', cause_factors: [1000, 1e6] } });
    expect(keto.ratio).toBeCloseTo(400 / 70 / 5, 12);
    // 6 mg/kg curated as 6 g/kg (PK-DB's per-kg count, kg/kg: 0.006): ×1000 → 6 mg/kg fits, ×10 → 0.6 g/kg does not
    const perKg = impossibleDoseFinding({ ...dosing(8), value: 0.006, unit: 'count' }, null)!;
    expect(perKg.details).toMatchObject({ cause_factors: [1000, 1e6] });
    // 4 g/kg is below the bound
    expect(impossibleDoseFinding({ ...dosing(8), value: 0.004, unit: 'count' }, null)).toBeNull();
  });

  it('leaves a 100 g overdose, a 75 g glucose load, 1 g/kg and a rate alone', () => {
    expect(impossibleDoseFinding({ ...dosing(1), value: 100 }, null)).toBeNull();
    expect(impossibleDoseFinding({ ...dosing(1), value: 0.001, unit: 'count' }, null)).toBeNull();
    expect(impossibleDoseFinding({ ...dosing(1), value: 500, unit: 'gram / hour' }, null)).toBeNull();
  });
});

describe('plausibility: AUC∞ ≥ AUClast', () => {
  it('flags AUC∞ below AUClast of the same key: minor within 10 %, major beyond, ×1/1000 named', () => {
    const end = (substance: string) => output({ measurement_type: 'auc_end', unit: 'gram * hour / liter', mean: 0.01, substance });
    const inf = (substance: string, mean: number, unit = 'gram * hour / liter') => output({ measurement_type: 'auc_inf', unit, mean, substance });
    const [endA, infA] = [end('a'), inf('a', 0.0095)]; // AUClast / AUC∞ = 1.053: minor
    const [endB, infB] = [end('b'), inf('b', 0.005)]; // 2: major
    const [endC, infC] = [end('c'), inf('c', 0.01, 'milligram * hour / liter')]; // 0.01 mg·h/L = 1e-5 g·h/L: ×1/1000
    const [endD, infD] = [end('d'), inf('d', 0.0101)]; // 1 % above: rounding, fine
    const findings = run([endA, infA, endB, infB, endC, infC, endD, infD]);
    expect(about(findings, infA)).toMatchObject([{ severity: 'minor', details: { rule: 'auc-inf-below-auc-end' } }]);
    expect(about(findings, infB)).toMatchObject([{ severity: 'major', ratio: 0.5, recomputed: 0.01 }]);
    expect(about(findings, infC)).toMatchObject([{ severity: 'major', reported: 1e-5, details: { cause_factors: [0.001] } }]);
    expect(about(findings, infC)[0].suspected_cause).toMatch(/×1\/1000/);
    expect(about(findings, infD)).toEqual([]);
    expect(findings.filter((f) => f.measurement_type === 'auc_end')).toEqual([]);
  });

  it('names the factor that leaves AUClast 40–101 % of AUC∞: ×21.7 is ×24 of 0.90 (hours vs days), ×9.32 ×10 of 0.93 (Wu2014)', () => {
    const end = (substance: string) => output({ measurement_type: 'auc_end', unit: 'gram * hour / liter', mean: 0.01, substance });
    const inf = (substance: string, mean: number) => output({ measurement_type: 'auc_inf', unit: 'gram * hour / liter', mean, substance });
    const [endE, infE, endF, infF, endG, infG] = [end('e'), inf('e', 0.01 / 21.7), end('f'), inf('f', 0.01 / 9.32), end('g'), inf('g', 0.01 / 3)];
    const findings = run([endE, infE, endF, infF, endG, infG]);
    expect(about(findings, infE)[0].details).toMatchObject({ cause_factors: [1 / 24] });
    expect(about(findings, infE)[0].suspected_cause).toBe('AUC∞ ×1/24 or AUClast ×24 (hours vs days)');
    expect(about(findings, infF)[0].details).toMatchObject({ cause_factors: [0.1] });
    // ×3: no unit factor leaves AUClast within 40–101 % of AUC∞
    expect(about(findings, infG)[0]).toMatchObject({ severity: 'major', suspected_cause: null, details: { cause_factors: [] } });
  });
});

describe('plausibility: AUC(0–t) ≤ Cmax · t', () => {
  it('flags an AUC over 0–t above Cmax × t: major beyond the Cmax tolerance (×2 for a group, ×1.5 for an individual)', () => {
    const cmax = (substance: string, mean: number, individual = false) =>
      output({ measurement_type: 'cmax', mean, substance, ...(individual ? { group_pk: null, individual_pk: 7 } : {}) });
    const auc = (substance: string, mean: number, hours: number, individual = false) =>
      output({ measurement_type: 'auc_end', unit: 'gram * hour / liter', mean, substance, time: hours, time_unit: 'hr', ...(individual ? { group_pk: null, individual_pk: 7 } : {}) });
    // Cmax 10 mg/L over 0–12 h bounds the AUC at 0.12 g·h/L.
    const a = [cmax('a', 0.01), auc('a', 0.06, 12)]; // ratio 0.5: fine
    const b = [cmax('b', 0.01), auc('b', 0.6, 12)]; // ×5 (AUC ×10 of 0.06): major
    const c = [cmax('c', 0.01), auc('c', 0.18, 12)]; // ×1.5 for a group: minor (a mean curve's Cmax)
    const d = [cmax('d', 0.01, true), auc('d', 0.24, 12, true)]; // ×2 for an individual: major
    const e = [cmax('e', 0.01), { ...auc('e', 0.06, 720), time_unit: 'min' }]; // AUC over 720 min: 12 h, ratio 0.5
    const findings = run([...a, ...b, ...c, ...d, ...e]);
    expect(about(findings, a[1])).toEqual([]);
    const major = about(findings, b[1]);
    expect(major).toMatchObject([{ severity: 'major', recomputed: 0.12, details: { rule: 'auc-above-cmax-times-interval', cmax_output_pk: b[0].pk, interval_hours: 12 } }]);
    expect(major[0].ratio).toBeCloseTo(5, 12);
    // the factors that bring 5 down into (0.05, 1]: ×10, ×24, ×60 (×1000 would leave 0.005)
    expect(major[0].suspected_cause).toMatch(/^AUC ×60 or Cmax ×1\/60 .*AUC ×24 .*AUC ×10 /);
    expect(about(findings, c[1])).toMatchObject([{ severity: 'minor' }]);
    expect(about(findings, d[1])).toMatchObject([{ severity: 'major' }]);
    expect(about(findings, e[1])).toEqual([]);
    // An individual's AUC 0.017 over 10 h beside Cmax 0.0011: ×1.55 as written, ×1.43 at most within their last
    // digits (0.0165 / (0.00115 × 10)): minor
    const f = [cmax('f', 0.0011, true), auc('f', 0.017, 10, true)];
    const rounded = about(run(f), f[1]);
    expect(rounded).toMatchObject([{ severity: 'minor' }]);
    expect(rounded[0].ratio).toBeCloseTo(0.017 / 0.011, 12);
  });
});
