import { describe, expect, it } from 'vitest';
import type { InterventionRecord, TimecourseRecord } from '../../src/data/model.js';
import { inUnit } from '../../src/qa/compare-reported.js';
import { doseInfo, standardRecomputation, type DoseInfo } from '../../src/qa/recompute.js';

/**
 * A one-compartment iv bolus: 100 mg, C(t) = 1000 ng/mL · e^(−kt), t½ = 2 h.
 * Then V = D / C0 = 100 mg / (1 mg/L) = 100 L and CL = k·V = ln 2 / 2 h · 100 L = 34.657 L/h;
 * AUC∞ = C0 / k = 1000 / 0.34657 = 2885.4 ng·h/mL. Log-down trapezoids and the
 * log-linear back-extrapolation to C0 are exact for a single exponential.
 */
const k = Math.LN2 / 2;
const times = [0.25, 0.5, 1, 2, 4, 6, 8, 12];
const tc = {
  subset_pk: 1, subset_name: 'tc', study_sid: 'T1', study_name: 'Test', output_pk: times.map((_, i) => 10 + i), intervention_pk: [5],
  group_pk: null, individual_pk: 3, normed: true, tissue: 'plasma', tissue_label: 'plasma', method: null, method_label: null, label: null,
  time: times, time_unit: 'hr', measurement_type: 'concentration', measurement_type_label: null, choice: null, choice_label: null,
  substance: 'x', substance_label: 'x', value: times.map((t) => 1000 * Math.exp(-k * t)), mean: null, median: null, min: null, max: null,
  sd: null, se: null, cv: null, unit: 'nanogram / milliliter',
} as TimecourseRecord;
const dose: DoseInfo = { value: 100, unit: 'mg', route: 'iv-bolus', duration: 0, time: 0 };

describe('standardRecomputation units', () => {
  const { values, error } = standardRecomputation(tc, dose);
  const as = (parameter: keyof typeof values, unit: string) => inUnit(values[parameter]!, unit, null, null)?.value;

  it('labels volume and clearance with the unit the NCA scaled them to (100 mg, ng/mL: V = 100 L, not 100,000 L)', () => {
    expect(error).toBeNull();
    expect(as('vd', 'liter')).toBeCloseTo(100, 6);
    expect(as('vd_ss', 'liter')).toBeCloseTo(100, 6);
    expect(as('clearance', 'liter / hour')).toBeCloseTo(100 * k, 6);
    expect(as('clearance', 'milliliter / minute')).toBeCloseTo((100 * k * 1000) / 60, 4);
  });

  it('keeps concentrations, AUC, times and rates in the timecourse units', () => {
    expect(as('cmax', 'gram / liter')).toBeCloseTo(1000 * Math.exp(-k * 0.25) * 1e-6, 12);
    expect(as('auc_inf', 'gram * hour / liter')).toBeCloseTo((1000 / k) * 1e-6, 9);
    expect(as('thalf', 'minute')).toBeCloseTo(120, 6);
    expect(as('kel', '1 / hour')).toBeCloseTo(k, 9);
  });
});

describe('doseInfo', () => {
  const dosing = (over: Partial<InterventionRecord>): InterventionRecord =>
    ({
      pk: 5, raw_pk: null, normed: true, study_sid: 'T1', study_name: 'Test', name: 'd', route: 'iv', form: null,
      application: 'constant infusion', time: '30', time_end: '90', time_unit: 'min', measurement_type: 'dosing',
      calculation_type: null, choice: null, substance: 'x', value: 100, mean: null, median: null, min: null, max: null,
      sd: null, se: null, cv: null, unit: 'mg', ...over,
    }) as InterventionRecord;

  it('converts the dose time and the infusion end into the timecourse time unit', () => {
    const info = doseInfo([dosing({})], 'x', 'hr');
    expect(info).toEqual({ value: 100, unit: 'mg', route: 'iv-infusion', duration: 1, time: 0.5 });
  });

  it("takes a salt's dose as its base's share (30 mg codeine phosphate: 0.7534 of it, 22.60 mg codeine), only with that share known", () => {
    const share = (dosed: string) => (dosed === 'codeine phosphate' ? 299.36 / (299.36 + 97.99) : null);
    const salt = dosing({ substance: 'codeine phosphate', value: 30, route: 'oral', application: 'single dose', time: '0', time_end: null });
    expect(doseInfo([salt], 'codeine', 'hr', share)?.value).toBeCloseTo(22.6017, 3);
    expect(doseInfo([salt], 'codeine', 'hr')).toBeNull();
    expect(doseInfo([salt], 'morphine', 'hr', share)).toBeNull();
  });

  it('names a dose time unit that does not convert instead of silently using time 0', () => {
    const info = doseInfo([dosing({ time_unit: 'gram' })], 'x', 'hr');
    expect(info).toMatchObject({ time: 0, duration: 0 });
    expect(info?.timeProblem).toBe("dose time 30 'gram' does not convert to the timecourse's time unit 'hr'; the dose is taken at time 0");
  });
});
