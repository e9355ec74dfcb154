/** The urine check on a small IV-bolus study with known fe = 0.4 and CLR = ke·V = 1.6 L/h. */
import { describe, expect, it } from 'vitest';
import { Dataset } from '../../../src/data/dataset.js';
import type { InterventionRecord, OutputRecord, TimecourseRecord } from '../../../src/data/model.js';
import { excretedBy, slipCause, urineFindings, urineSeries } from '../../../src/qa/checks/urine.js';
import { prepareContext } from '../../../src/qa/context.js';

const STATS = { value: null, mean: null, median: null, min: null, max: null, sd: null, se: null, cv: null };
const study = { study_sid: 'T1', study_name: 'Test' };
// D = 0.1 g IV bolus, V = 20 L, k = 0.2/h, ke = 0.08/h: Ae(t) = D·0.4·(1 − e^(−kt)), C = 0.005·e^(−kt) g/L.
const [dose, k] = [0.1, 0.2];
const ae = (t: number) => dose * 0.4 * -Math.expm1(-k * t);

const dosing: InterventionRecord = {
  ...STATS, ...study, pk: 1, raw_pk: null, normed: true, name: 'd1', route: 'iv', form: 'solution', application: 'single dose',
  time: '0', time_end: null, time_unit: 'hr', measurement_type: 'dosing', calculation_type: null, choice: null, substance: 'x', value: dose, unit: 'gram',
};

let nextPk = 100;
function output(fields: Partial<OutputRecord>): OutputRecord {
  return {
    ...STATS, ...study, pk: nextPk++, raw_pk: null, normed: true, calculated: false, group_pk: 1, individual_pk: null, intervention_pks: [1],
    tissue: 'urine', method: null, label: null, output_type: 'output', time: null, time_unit: null, measurement_type: 'recovery',
    calculation_type: null, choice: null, substance: 'x', subset_pk: null, unit: 'dimensionless', ...fields,
  };
}

function timecourse(subsetPk: number, type: string, tissue: string, unit: string, times: number[], values: number[]) {
  const points = times.map((t, i) => output({ output_type: 'timecourse', measurement_type: type, tissue, time: t, time_unit: 'hr', mean: values[i], unit, subset_pk: subsetPk }));
  const tc = {
    ...study, subset_pk: subsetPk, subset_name: 'tc', output_pk: points.map((p) => p.pk), intervention_pk: [1], group_pk: 1, individual_pk: null,
    normed: true, tissue, tissue_label: tissue, method: null, method_label: null, label: null, time: times, time_unit: 'hr',
    measurement_type: type, measurement_type_label: null, choice: null, choice_label: null, substance: 'x', substance_label: 'x',
    value: null, mean: values, median: null, min: null, max: null, sd: null, se: null, cv: null, unit,
  } as TimecourseRecord;
  return { tc, points };
}

const utimes = [2, 4, 8, 12, 24];
const ptimes = [0.5, 1, 2, 4, 6, 8, 12, 24];
const cumulative = timecourse(1, 'cumulative-amount', 'urine', 'gram', utimes, utimes.map(ae));
const plasma = timecourse(2, 'concentration', 'plasma', 'gram / liter', ptimes, ptimes.map((t) => 0.005 * Math.exp(-k * t)));

function run(outputs: OutputRecord[], tcs = [cumulative, plasma]) {
  const tables = {
    studies: [], groups: [], individuals: [], interventions: [dosing], scatters: [], terms: [],
    outputs: [...outputs, ...tcs.flatMap((t) => t.points)], timecourses: tcs.map((t) => t.tc),
  };
  return urineFindings(prepareContext(Dataset.fromTables(tables, { kind: 'export', location: 'test' })));
}

describe('urine check', () => {
  it('agreeing recovery, cumulative amount and renal clearance: checked, no finding', () => {
    const outs = [
      output({ measurement_type: 'recovery', time: 24, time_unit: 'hr', value: 0.397 }),
      output({ measurement_type: 'cumulative amount', time: 12, time_unit: 'hr', value: 36.3, unit: 'milligram' }),
      output({ measurement_type: 'clearance_renal', value: 1.6, unit: 'liter / hour' }),
    ];
    const { findings, coverage } = run(outs);
    expect(coverage).toEqual({ candidates: 3, checked: 3 });
    expect(findings).toEqual([]);
  });

  it('a percentage curated as a fraction is major ×100; a mL/min clearance curated as L/h is major ×1000/60', () => {
    const rec = output({ measurement_type: 'recovery', time: 24, time_unit: 'hr', value: 39.7 });
    const clr = output({ measurement_type: 'clearance_renal', value: 26.7, unit: 'liter / hour' });
    const { findings } = run([rec, clr]);
    expect(findings).toHaveLength(2);
    const [fr, fc] = [findings.find((f) => f.output_pk === rec.pk)!, findings.find((f) => f.output_pk === clr.pk)!];
    expect(fr).toMatchObject({ kind: 'urine', check: 'urine/recovery', severity: 'major', culprit: 'output', subset_pk: 1, intervention_pk: 1 });
    expect(fr.suspected_cause).toMatch(/×100: a percentage/);
    expect(fr.recomputed).toBeCloseTo(0.396708, 5);
    expect(fc).toMatchObject({ severity: 'major', check: 'urine/clearance_renal' });
    expect(fc.recomputed).toBeCloseTo(1.6, 9);
    expect(fc.suspected_cause).toMatch(/×1000\/60/);
  });

  it('an unexplained 3-fold disagreement is minor; 1.6-fold info; no factor, no major', () => {
    const far = output({ measurement_type: 'cumulative amount', time: 24, time_unit: 'hr', value: 0.12, unit: 'gram' });
    const near = output({ measurement_type: 'recovery', time: 24, time_unit: 'hr', value: 0.25 });
    const { findings } = run([far, near]);
    expect(findings.map((f) => [f.output_pk, f.severity, f.suspected_cause])).toEqual([[far.pk, 'minor', null], [near.pk, 'info', null]]);
  });

  it('outputs later than the last collection, in another tissue, or without a urine timecourse are not checked', () => {
    const late = output({ measurement_type: 'recovery', time: 48, time_unit: 'hr', value: 39.7 });
    const feces = output({ measurement_type: 'recovery', tissue: 'feces', time: 24, time_unit: 'hr', value: 39.7 });
    const other = output({ measurement_type: 'recovery', substance: 'y', time: 24, time_unit: 'hr', value: 39.7 });
    const { findings, coverage } = run([late, feces, other]);
    expect(findings).toEqual([]);
    expect(coverage).toEqual({ candidates: 1, checked: 0 });
  });
});

describe('urine series', () => {
  it('cumulative amounts interpolate linearly from (0, 0); rates integrate and extend by λz', () => {
    const s = urineSeries(cumulative.tc, 0, null)!;
    expect(excretedBy(s, 8)).toBeCloseTo(ae(8), 12);
    expect(excretedBy(s, 1)).toBeCloseTo(ae(2) / 2, 12);
    expect(excretedBy(s, 30)).toBeNull();
    // Rates (g/h) at midpoints of 1-h collections to 10 h: AURC + R_last·(1 − e^(−λz·14))/λz ≈ Ae(24).
    const mids = Array.from({ length: 10 }, (_, i) => i + 0.5);
    const rates = timecourse(3, 'excretion-rate', 'urine', 'gram / hour', mids, mids.map((t) => ae(t + 0.5) - ae(t - 0.5)));
    const r = urineSeries(rates.tc, 0, null)!;
    expect(Math.abs((excretedBy(r, 24) as number) / ae(24) - 1)).toBeLessThan(0.05);
  });

  it('slipCause names only factors that bring the ratio within the band', () => {
    expect(slipCause(100, 'recovery', 1.25, null)?.factor).toBe(100);
    expect(slipCause(70, 'recovery', 1.25, null)).toBeNull();
    expect(slipCause(1 / 70, 'clearance_renal', 1.25, 70)?.text).toMatch(/per-kg/);
    expect(slipCause(1 / 70, 'clearance_renal', 1.25, 70)?.kind).toBe('per-kg');
    expect(slipCause(100, 'recovery', 1.25, null)?.kind).toBe('unit-factor');
    expect(slipCause(1000, 'cumulative amount', 1.25, null)).toMatchObject({ kind: 'unit-factor', factor: 1000 });
    expect(slipCause(1.1, 'clearance_renal', 1.25, null)).toBeNull();
  });
});
