import { describe, expect, it } from 'vitest';
import { classify, samplingIntervalAround } from '../../src/qa/classify.js';
import { perKgCause, unitFactorCause } from '../../src/qa/causes.js';

const base = { subject: 'individual' as const, bodyWeightKg: null };

describe('suspected causes', () => {
  it('names ×1000 and its inverse, even with an ordinary 2× on top', () => {
    expect(unitFactorCause(1030, 'cmax')?.text).toMatch(/^×1000 /);
    expect(unitFactorCause(1 / 980, 'auc_end')?.text).toMatch(/^×1\/1000 /);
    expect(unitFactorCause(1 / 1400, 'cmax')?.factor).toBeCloseTo(1 / 1000, 12);
    expect(unitFactorCause(2500, 'cmax')).toBeNull();
  });

  it('names small factors only within 5 %', () => {
    expect(unitFactorCause(10.3, 'cmax')?.factor).toBe(10);
    expect(unitFactorCause(11, 'cmax')).toBeNull();
    expect(unitFactorCause(64, 'thalf')).toBeNull();
  });

  it('names ×60 only for time-dependent parameters', () => {
    expect(unitFactorCause(59, 'thalf')?.factor).toBe(60);
    expect(unitFactorCause(1 / 61, 'kel')?.factor).toBeCloseTo(1 / 60, 12);
    expect(unitFactorCause(60, 'cmax')).toBeNull();
  });

  it('tells mL/min vs L/h (1000/60) for clearance', () => {
    expect(unitFactorCause(16.5, 'clearance')?.text).toMatch(/mL\/min vs L\/h/);
  });

  it('names per-kg vs absolute from the body weight', () => {
    expect(perKgCause(1 / 72, 'clearance', 70)?.kind).toBe('per-kg');
    expect(perKgCause(68, 'vd', 70)?.factor).toBe(70);
    expect(perKgCause(68, 'cmax', 70)).toBeNull();
    expect(perKgCause(68, 'vd', null)).toBeNull();
  });
});

describe('classify', () => {
  it('agrees within the parameter tolerance', () => {
    expect(classify({ ...base, parameter: 'cmax', reported: 1.05, recomputed: 1 }).classification).toBe('agree');
    expect(classify({ ...base, parameter: 'thalf', reported: 1.2, recomputed: 1 }).classification).toBe('agree');
  });

  it('calls a ×1000 cmax slip major with the factor', () => {
    const v = classify({ ...base, parameter: 'cmax', reported: 2.04, recomputed: 0.002 });
    expect(v.classification).toBe('major');
    expect(v.ratio).toBeCloseTo(1020, 6);
    expect(v.causes[0].factor).toBe(1000);
  });

  it('calls a ×60 half-life slip major', () => {
    const v = classify({ ...base, parameter: 'thalf', reported: 180, recomputed: 3 });
    expect(v.classification).toBe('major');
    expect(v.causes[0].text).toMatch(/minutes vs hours/);
  });

  it('calls a per-kg clearance major when the ratio is the body weight', () => {
    const v = classify({ ...base, bodyWeightKg: 75, parameter: 'clearance', reported: 0.1, recomputed: 7.4 });
    expect(v.classification).toBe('major');
    expect(v.causes.map((c) => c.kind)).toContain('per-kg');
  });

  it('keeps ordinary λz differences minor with a reason', () => {
    const v = classify({ ...base, subject: 'group', parameter: 'thalf', reported: 8, recomputed: 3 });
    expect(v.classification).toBe('minor');
    expect(v.expected).toMatch(/mean of individual parameters/);
  });

  it('treats an AUC over another interval as expected', () => {
    const v = classify({ ...base, parameter: 'auc_end', reported: 30, recomputed: 10, reportedIntervalEnd: 48, timecourseEnd: 12 });
    expect(v.classification).toBe('minor');
    expect(v.expected).toMatch(/0–48/);
  });

  it("names the curve's time axis when the reported AUC's interval and its value are both ×60 the curve's", () => {
    // AUC0–240 h of 5.58 against a curve of 0–240 h read as minutes: it ends at 4.008 h (×1/59.9) and its area is
    // 0.0878 (×63.6, within the agree band of 1.15 around 60).
    const v = classify({ ...base, subject: 'group', parameter: 'auc_end', reported: 5.58, recomputed: 0.0878, reportedIntervalEnd: 240, timecourseEnd: 4.008 });
    expect(v).toMatchObject({ classification: 'major', causes: [{ kind: 'unit-factor', factor: 60 }], expected: null });
    expect(v.causes[0].text).toMatch(/^×60 \(minutes vs hours\): the timecourse ends at 4.008, the reported AUC's interval at 240/);
    // Either witness alone is an ordinary difference of intervals: the same end with the area ×3 off, or an end ×4 off.
    expect(classify({ ...base, parameter: 'auc_end', reported: 0.26, recomputed: 0.0878, reportedIntervalEnd: 240, timecourseEnd: 4.008 }).classification).toBe('minor');
    expect(classify({ ...base, parameter: 'auc_end', reported: 5.58, recomputed: 0.0878, reportedIntervalEnd: 16, timecourseEnd: 4.008 }).causes).toEqual([]);
    // Both ways round: a curve in minutes read as hours ends ×60 after the interval, its area ×66 the reported one (10 % beyond ×60's own window).
    const up = classify({ ...base, parameter: 'auc_end', reported: 2, recomputed: 132, reportedIntervalEnd: 12, timecourseEnd: 720 });
    expect(up).toMatchObject({ classification: 'major', causes: [{ factor: 1 / 60 }] });
  });

  it('calls an unexplained large disagreement major', () => {
    expect(classify({ ...base, parameter: 'cmax', reported: 5, recomputed: 1 }).classification).toBe('major');
  });

  it('names a unit factor beyond its exact window when undoing it leaves the two agreeing, only beyond the minor band', () => {
    // t½ ×24 with a λz ×1.2 apart: 28.8, 20 % from 24 (outside 5 %), inside the agree band of 1.25 once undone.
    const v = classify({ ...base, parameter: 'thalf', reported: 28.8, recomputed: 1 });
    expect(v).toMatchObject({ classification: 'major', causes: [{ factor: 24 }] });
    // 32 is 33 % from 24 and 47 % from 60: no factor undone makes them agree.
    expect(classify({ ...base, parameter: 'thalf', reported: 32, recomputed: 1 }).causes).toEqual([]);
    // A Cmax ×10 with the mean of the individual maxima ×1.08 above the mean curve's: 10.8, inside 1.1 of ×10.
    expect(classify({ ...base, parameter: 'cmax', reported: 10.8, recomputed: 1 }).causes.map((c) => c.factor)).toEqual([10]);
    // Not from an approximate recomputation (an assumed weight, a partial area).
    expect(classify({ ...base, parameter: 'thalf', reported: 28.8, recomputed: 1, approximate: true }).causes).toEqual([]);
  });

  it("names a factor up to a group Cmax's ordinary excess above its mean curve's peak (×1.5), not below it", () => {
    const group = { ...base, subject: 'group' as const, parameter: 'cmax' as const };
    // A curve ×10 under a group mean Cmax ×1.15 above its peak: 0.115, ×1.15 of 1/10 on the group's side.
    expect(classify({ ...group, reported: 0.115, recomputed: 1 }).causes.map((c) => c.factor)).toEqual([0.1]);
    expect(classify({ ...group, reported: 14.5, recomputed: 1 }).causes.map((c) => c.factor)).toEqual([10]);
    // Below the curve's peak only the agree band: ×1/1.15 is no group's excess; ×1.6 above is none either.
    expect(classify({ ...group, reported: 8.7, recomputed: 1 }).causes).toEqual([]);
    expect(classify({ ...group, reported: 16, recomputed: 1 }).causes).toEqual([]);
    // An individual's Cmax is its own curve's peak: the agree band alone.
    expect(classify({ ...base, parameter: 'cmax', reported: 11.5, recomputed: 1 }).causes).toEqual([]);
  });

  it('names a molar ↔ mass factor of ×2–10 within the agree band only where its window is clear of the minor band', () => {
    // Paracetamol (151.2 g/mol) AUC over the curve's interval at ×1/7.04: 6 % from 1000/151.2 = 6.61, beyond 3 %.
    const auc = classify({ ...base, subject: 'group', parameter: 'auc_end', reported: 1, recomputed: 7.04, molarMass: 151.2 });
    expect(auc).toMatchObject({ classification: 'major', causes: [{ kind: 'molar-mass' }] });
    expect(auc.causes[0].factor).toBeCloseTo(151.2 / 1000, 9);
    // A group Cmax ×2.5 of a 436.6 g/mol drug (×2.29): the mean of the individual maxima lies that far above the curve's.
    expect(classify({ ...base, subject: 'group', parameter: 'cmax', reported: 2.5, recomputed: 1, molarMass: 436.6 }).causes).toEqual([]);
  });

  it('judges tmax by the sampling grid', () => {
    const times = [0, 0.5, 1, 2, 4, 8];
    expect(samplingIntervalAround(times, 1)).toBe(1);
    expect(classify({ ...base, parameter: 'tmax', reported: 1.5, recomputed: 1, samplingTimes: times }).classification).toBe('agree');
    expect(classify({ ...base, parameter: 'tmax', reported: 4, recomputed: 1, samplingTimes: times }).classification).toBe('minor');
    const slip = classify({ ...base, parameter: 'tmax', reported: 60, recomputed: 1, samplingTimes: times });
    expect(slip.classification).toBe('major');
    expect(slip.causes[0].factor).toBe(60);
  });
});

describe('classify: a tmax ×10 (a decimal point slip)', () => {
  // An oral curve sampled at 0, 0.5, 1, 2, 4, 8, 12 h peaking at 1 h (levels 0, 6, 10, 8, 4, 1.5, 0.5)
  const times = [0, 0.5, 1, 2, 4, 8, 12];
  const levels = [0, 6, 10, 8, 4, 1.5, 0.5];
  const tmax = { ...base, parameter: 'tmax' as const, recomputed: 1, samplingTimes: times, samplingLevels: levels };

  it('is major when ÷10 lands on the peak and the curve at the time as written is at most half its peak', () => {
    // 10 h: the curve there is 1 (a quarter of the way from 1.5 to 0.5), a tenth of its peak; ÷10 gives 1 h, the peak
    const slip = classify({ ...tmax, reported: 10 });
    expect(slip.classification).toBe('major');
    expect(slip.causes[0]).toMatchObject({ kind: 'unit-factor', factor: 10 });
    // ×1/10: a curve sampled every 0.5 h peaking at 3 h, its tmax written 0.3 h (the curve there 1.8, rising to 10)
    const dense = { ...tmax, recomputed: 3, samplingTimes: [0, 0.5, 1, 1.5, 2, 2.5, 3, 4, 6], samplingLevels: [0, 3, 5, 6.5, 8, 9, 10, 7, 3] };
    expect(classify({ ...dense, reported: 0.3 }).causes[0]).toMatchObject({ factor: 0.1 });
  });

  it('is not named where the curve could peak, after its last sample, or without the levels', () => {
    // A flat curve at 60 % of its peak by 10 h (a second peak, sustained release): no decimal slip named
    const flat = [0, 6, 10, 8, 7, 6.5, 6];
    expect(classify({ ...tmax, reported: 10, samplingLevels: flat }).classification).toBe('minor');
    // Sampled to 8 h only: 10 h may be a tmax read on the study's clock
    expect(classify({ ...tmax, reported: 10, samplingTimes: times.slice(0, 6), samplingLevels: levels.slice(0, 6) }).classification).toBe('minor');
    expect(classify({ ...tmax, reported: 10, samplingLevels: undefined }).classification).toBe('minor');
    // ×6: no decimal slip (the ratio beyond ×1.5 of 10)
    expect(classify({ ...tmax, reported: 6 }).classification).toBe('minor');
  });
});

describe('classify: a tmax far off the curve\'s peak', () => {
  // An oral curve sampled to 48 h peaking at 1.5 h
  const times = [0, 0.5, 1, 1.5, 2, 4, 8, 12, 24, 48];
  const levels = [0, 6, 9, 10, 9, 6, 3, 1.5, 0.4, 0.05];
  const tmax = { ...base, subject: 'group' as const, parameter: 'tmax' as const, recomputed: 1.5, samplingTimes: times, samplingLevels: levels };

  it('is major from ×10 off the peak where the curve is at most half its peak, naming the time factors that land on the peak', () => {
    // 44.5 h (×29.7): the curve there 0.04, 0.4 % of its peak. 44.5 / 24 = 1.85 h lies within the grid's 0.5 h of 1.5 h;
    // 44.5 / 60 = 0.74 h does not (0.76 h away).
    const days = classify({ ...tmax, reported: 44.5 });
    expect(days.classification).toBe('major');
    expect(days.causes.map((c) => c.factor)).toEqual([24]);
    // 0.02 h (1.2 min, ×1/75 — beyond FACTOR_TOLERANCE of ×1/60): × 60 = 1.2 h, within 0.5 h of 1.5 h; at 0.02 h the curve
    // is at 0.24, rising from the pre-dose 0
    const minutes = classify({ ...tmax, reported: 0.02 });
    expect(minutes.classification).toBe('major');
    expect(minutes.causes.map((c) => c.factor)).toEqual([1 / 60]);
    // 100 h, after the last sample: the curve cannot tell; 23 h (×15.3, beyond a decimal slip's ×1.5 of 10) where no
    // factor lands (0.96 h, 0.38 h): major, no cause
    expect(classify({ ...tmax, reported: 100 }).classification).toBe('minor');
    expect(classify({ ...tmax, reported: 23 })).toMatchObject({ classification: 'major', causes: [] });
  });

  it('reads a tmax before the first sample of a single extravascular dose on the rise from 0 at the dose', () => {
    // Sanaka2000's curve with its hours read as minutes: sampled at 15–120 "h", peaking at 60; the reported 1.43 h
    // (×1/42, no factor within 5 %) lies before its first sample. Absent at the dose, the curve there is at most
    // 1.43/15 of its first level: no peak. The reported value ×1/60 of the curve's time: 85.8 h lies within the grid's 30 h
    // of 60 h, nearest; ×1/24 (34.3 h) too.
    const late = { ...base, subject: 'group' as const, parameter: 'tmax' as const, recomputed: 60, samplingTimes: [15, 30, 45, 60, 90, 120], samplingLevels: [40, 70, 90, 95, 80, 60] };
    const absent = classify({ ...late, reported: 1.43, absentAtDose: true });
    expect(absent.classification).toBe('major');
    expect(absent.causes.map((c) => c.factor)).toEqual([1 / 60, 1 / 24]);
    // Without that knowledge (an IV dose, a baseline, several doses) the curve cannot tell what it was before 15 h.
    expect(classify({ ...late, reported: 1.43 }).classification).toBe('minor');
    // A sample at the dose time: the curve's own level there decides, as before.
    expect(classify({ ...tmax, reported: 0.02, absentAtDose: true }).causes.map((c) => c.factor)).toEqual([1 / 60]);
  });

  it('is minor within ×10 of the peak, or where the curve stays near its peak (a second peak, a plateau)', () => {
    // 8 h (×5.3): the curve at 30 % of its peak, but no ×10 off it
    expect(classify({ ...tmax, reported: 8 }).classification).toBe('minor');
    // A plateau at 60 % of the peak to 48 h: 30 h may be a subject's late peak
    const plateau = [0, 6, 9, 10, 9, 8, 7, 6.5, 6.2, 6];
    expect(classify({ ...tmax, reported: 30, samplingLevels: plateau }).classification).toBe('minor');
    expect(classify({ ...tmax, reported: 30, samplingLevels: undefined }).classification).toBe('minor');
  });
});

describe('classify: an exact molar ↔ mass ratio', () => {
  it('is major with its cause when the molar mass is known; minor without it', () => {
    // simvastatin, M = 418.6: reported AUC ×2.385 its own curve's, µmol/L read as mg/L would be ×2.389
    const named = classify({ ...base, parameter: 'auc_inf', reported: 2.385, recomputed: 1, molarMass: 418.6 });
    expect(named.classification).toBe('major');
    expect(named.causes[0]).toMatchObject({ kind: 'molar-mass' });
    expect(named.causes[0].factor).toBeCloseTo(1000 / 418.6, 9);
    expect(classify({ ...base, parameter: 'auc_inf', reported: 2.385, recomputed: 1 }).classification).toBe('minor');
    // ×2.2: 8 % from the factor, an ordinary λz difference
    expect(classify({ ...base, parameter: 'auc_inf', reported: 2.2, recomputed: 1, molarMass: 418.6 }).classification).toBe('minor');
  });
});
