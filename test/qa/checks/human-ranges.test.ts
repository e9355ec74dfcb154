import { describe, expect, it } from 'vitest';
import { Dataset } from '../../../src/data/dataset.js';
import type { GroupRecord, InterventionRecord, OutputRecord, TimecourseRecord } from '../../../src/data/model.js';
import { slipFactors } from '../../../src/qa/causes.js';
import { conventionalSlip, humanRangeCheck, judgeLimit } from '../../../src/qa/checks/human-ranges.js';
import { prepareContext } from '../../../src/qa/context.js';
import type { Finding } from '../../../src/qa/finding.js';
import { ANALYTE_LIMITS, BODY_LIMITS, limitIn } from '../../../src/qa/human-limits.js';
import { molarMassLookup } from '../../../src/units/molar-mass.js';
import { NO_STATS, oralDose, reportedOutput } from '../../helpers/records.js';

const GLUCOSE = 180.16;

describe('human-range: the table', () => {
  it('gives every analyte with molar limits a built-in molar mass, and every limit low < normal < high around typical', () => {
    const lookup = molarMassLookup();
    for (const [name, limit] of ANALYTE_LIMITS) {
      if (limit.unit.includes('mole')) expect(lookup(name), name).not.toBeNull();
    }
    for (const [name, limit] of [...ANALYTE_LIMITS, ...BODY_LIMITS]) {
      expect(limit.low, name).toBeLessThanOrEqual(limit.normal[0]);
      expect(limit.normal[0], name).toBeLessThanOrEqual(limit.typical);
      expect(limit.typical, name).toBeLessThanOrEqual(limit.normal[1]);
      expect(limit.normal[1], name).toBeLessThanOrEqual(limit.high);
    }
  });
});

describe('human-range: limits and slips', () => {
  it('converts a limit to the value’s unit, molar ↔ mass with the molar mass', () => {
    const glucose = limitIn(ANALYTE_LIMITS.get('glucose')!, 'gram / liter', GLUCOSE)!;
    // 1–150 mmol/L, typical 5 mmol/L × 180.16 g/mol
    expect(glucose.low).toBeCloseTo(0.18016, 10);
    expect(glucose.high).toBeCloseTo(27.024, 10);
    expect(glucose.typical).toBeCloseTo(0.9008, 10);
    expect(limitIn(ANALYTE_LIMITS.get('glucose')!, 'gram / liter', null)).toBeNull(); // no molar mass: no limit in g/L
    expect(limitIn(BODY_LIMITS.get('heart rate')!, '1 / second', null)).toEqual({ low: 20 / 60, high: 5, typical: 70 / 60, normal: [45 / 60, 110 / 60] });
  });

  it('names mmol/L read as mg/dL (×1/18) for a fasting glucose of 0.05 g/L, nearest the typical level first', () => {
    const bounds = limitIn(ANALYTE_LIMITS.get('glucose')!, 'gram / liter', GLUCOSE)!;
    // 5 mmol/L curated as 5 mg/dL = 0.05 g/L; ×18.016 gives 0.9008 g/L, the typical level
    const verdict = judgeLimit(0.05, bounds, slipFactors('cmax', { molarMass: GLUCOSE }))!;
    expect(verdict.side).toBe('below');
    expect(verdict.causes[0].factor).toBeCloseTo(1 / 18.016, 10);
    expect(verdict.causes.map((c) => +(1 / c.factor).toPrecision(4))).toContain(10); // ×1/10 (0.5 g/L) brings it inside too
    expect(judgeLimit(0.9, bounds, [])).toBeNull();
    expect(judgeLimit(0.18016 * 0.96, bounds, [])).toBeNull(); // within 5 % of the limit: rounding
    expect(judgeLimit(0.18016 * 0.94, bounds, [])).toEqual({ side: 'below', causes: [] });
  });

  it('puts the SI unit read as the conventional one first, when ×10 lands in the normal range too', () => {
    const glucose = ANALYTE_LIMITS.get('glucose')!;
    const bounds = limitIn(glucose, 'gram / liter', GLUCOSE)!;
    // 5 mmol/L read as 5 mg/dL: 0.05 g/L for 0.9008 g/L
    expect(conventionalSlip(glucose, 'gram / liter', GLUCOSE)).toBeCloseTo(1 / 18.016, 10);
    // 0.0694 g/L: ×18.016 gives 1.25 g/L (6.9 mmol/L), ×10 gives 0.694 g/L (3.85 mmol/L, nearer the typical 5)
    const causes = slipFactors('cmax', { molarMass: GLUCOSE });
    const slip = (c: { factor: number }) => (Math.abs(c.factor * 18.016 - 1) < 1e-6 ? 0 : 1);
    expect(judgeLimit(0.0694, bounds, causes, slip)!.causes[0].factor).toBeCloseTo(1 / 18.016, 10);
    expect(judgeLimit(0.0694, bounds, causes)!.causes[0].factor).toBeCloseTo(1 / 10, 10);
    // bilirubin: 1 µmol/L = 0.0585 mg/dL, so 10 µmol/L read as 10 mg/dL is ×17.1
    expect(1 / conventionalSlip(ANALYTE_LIMITS.get('bilirubin')!, 'gram / liter', 584.67)!).toBeCloseTo(0.058467, 5);
  });

  it('names per minute read as per second (×60) for a heart rate of 70/s', () => {
    const bounds = limitIn(BODY_LIMITS.get('heart rate')!, '1 / second', null)!;
    const verdict = judgeLimit(70, bounds, slipFactors('kel'))!;
    expect(verdict.side).toBe('above');
    expect(verdict.causes[0].factor).toBe(60); // 70/s ÷ 60 = 1.17/s = 70/min
  });
});

const study = { study_sid: 'H1', study_name: 'Human' };

const output = (measurement_type: string, substance: string | null, tissue: string, unit: string, mean: number, group = 1): OutputRecord =>
  reportedOutput(study, { measurement_type, substance, tissue, unit, mean, group_pk: group });

function glucoseCurve(subsetPk: number, mmolPerL: number[], unit: string): { tc: TimecourseRecord; points: OutputRecord[] } {
  const times = mmolPerL.map((_, k) => k * 30);
  const points = mmolPerL.map((v, k) => ({ ...output('concentration', 'glucose', 'plasma', unit, v), output_type: 'timecourse', time: times[k], time_unit: 'min', subset_pk: subsetPk }));
  const tc = {
    ...study, subset_pk: subsetPk, subset_name: 'glc', output_pk: points.map((p) => p.pk), intervention_pk: [1], group_pk: 1, individual_pk: null,
    normed: true, tissue: 'plasma', tissue_label: 'plasma', method: null, method_label: null, label: null, time: times, time_unit: 'min',
    measurement_type: 'concentration', measurement_type_label: null, choice: null, choice_label: null, substance: 'glucose', substance_label: 'glucose',
    value: null, mean: mmolPerL, median: null, min: null, max: null, sd: null, se: null, cv: null, unit,
  } as TimecourseRecord;
  return { tc, points };
}

const dosing: InterventionRecord = { ...oralDose(study), name: 'ogtt', form: 'solution', substance: 'glucose', value: 75 };

function run(outputs: OutputRecord[], curves: { tc: TimecourseRecord; points: OutputRecord[] }[] = [], groups: GroupRecord[] = []): Finding[] {
  const tables = {
    studies: [], groups, individuals: [], interventions: [dosing], scatters: [], terms: [],
    outputs: [...outputs, ...curves.flatMap((c) => c.points)], timecourses: curves.map((c) => c.tc),
  };
  return humanRangeCheck.run(prepareContext(Dataset.fromTables(tables, { kind: 'export', location: 'test' })));
}

describe('human-range: the check', () => {
  it('names a plasma albumin of 0.04 g/L (×1/1000), not one in urine nor a healthy level', () => {
    const low = output('concentration', 'albumin', 'plasma', 'gram / liter', 0.04);
    const findings = run([low, output('concentration', 'albumin', 'urine', 'gram / liter', 0.04), output('concentration', 'albumin', 'serum', 'gram / liter', 42)]);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ kind: 'human-range', severity: 'major', culprit: 'output', output_pk: low.pk, details: { cause_factors: [0.001] } });
    expect(findings[0].message).toMatch(/^reported albumin concentration \(plasma\): 0\.04 gram \/ liter is below what any living human has \(1–70 gram \/ liter: .*\); undoing ×1\/1000 gives 40 gram \/ liter$/);
  });

  it('names a glucose curve in mmol/L labelled mg/dL by its median, and leaves the same curve in mmol/L alone', () => {
    const mislabelled = glucoseCurve(7, [5, 8, 9, 7, 5.5], 'milligram / deciliter'); // median 7 mg/dL = 0.07 g/L
    const findings = run([], [mislabelled, glucoseCurve(8, [5, 8, 9, 7, 5.5], 'millimole / liter')]);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ severity: 'major', culprit: 'timecourse', subset_pk: 7, reported: 7, reported_unit: 'milligram / deciliter' });
    expect(findings[0].details?.cause_factors).toContain(1 / 18.016);
  });

  it('names a bilirubin in µmol/L curated as mg/dL (×17.1) first, a cause no unit slip lists', () => {
    // a jaundiced 100 µmol/L curated as 100 mg/dL: 1 g/L, 1710 µmol/L, beyond 1500
    const high = output('concentration', 'bilirubin', 'serum', 'milligram / deciliter', 100);
    const [f] = run([high]);
    expect(f).toMatchObject({ severity: 'major', output_pk: high.pk });
    expect(f.suspected_cause).toMatch(/^×17\.1 \(molar ↔ mass: µmol\/L read as mg\/dL \(molar mass 584\.7 g\/mol\)\)/);
    expect(f.recomputed).toBeCloseTo(0.058467, 6); // g/L: 100 µmol/L
  });

  it('names a heart rate of 70/s and a cardiac output in mL/min curated as L/min; not another species', () => {
    const heart = output('heart rate', null, 'plasma', '1 / second', 70);
    const cardiac = output('cardiac output', null, 'plasma', 'liter / minute', 5500);
    const findings = run([heart, cardiac, output('heart rate', null, 'plasma', '1 / second', 1.2)]);
    expect(findings.map((f) => [f.output_pk, f.details?.cause_factors?.[0 as never]])).toEqual([[heart.pk, 60], [cardiac.pk, 1000]]);
    const rat = { pk: 2, characteristica: [{ ...NO_STATS, pk: 9, count: 6, measurement_type: 'species', calculation_type: null, choice: 'rattus norvegicus', substance: null, group_count: 6, unit: null }] } as unknown as GroupRecord;
    expect(run([output('heart rate', null, 'plasma', '1 / second', 6, 2)], [], [rat])).toEqual([]); // 360/min: a rat's
    // a change from baseline curated as the rate (−0.1/s): no level is ≤ 0, and the sign is plausibility's
    expect(run([output('heart rate', null, 'plasma', '1 / second', -0.1)])).toEqual([]);
  });
});
