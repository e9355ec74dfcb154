/**
 * Classification of one reported-vs-recomputed pair: agree, minor or major,
 * with the suspected cause and, for ordinary disagreements, the reason they are
 * expected. Pure: both values must already be in the same unit.
 */
import type { Severity } from './finding.js';
import { exactMolarCause, ratioCauses, TIME_FACTORS, unitFactorCause, type SuspectedCause } from './causes.js';
import { levelAt } from './robust.js';
import { FACTOR_TOLERANCE, TOLERANCES, type ReportedParameter } from './tolerances.js';

const fmt = (x: number) => String(+x.toPrecision(3));

export type Classification = 'agree' | 'minor' | 'major';

export const SEVERITY_OF: Record<Classification, Severity> = { agree: 'info', minor: 'minor', major: 'major' };

export interface ComparisonContext {
  parameter: ReportedParameter;
  /** Both in the same unit. */
  reported: number;
  recomputed: number;
  subject: 'group' | 'individual';
  bodyWeightKg: number | null;
  /** The timecourse's sampling times, in the unit of tmax (for tmax only). */
  samplingTimes?: readonly number[];
  /** Its levels at those times, index for index (for tmax only): whether a reported time can be a peak at all. */
  samplingLevels?: readonly number[];
  /**
   * tmax: the substance is absent at the dose (a single extravascular dose): before the first sample the curve rises
   * from 0 at the dose time, so a reported tmax there lies on that rise.
   */
  absentAtDose?: boolean;
  /** auc_end: the end of the reported interval and of the timecourse, same unit (null when unknown). */
  reportedIntervalEnd?: number | null;
  timecourseEnd?: number | null;
  /** Molar mass (g/mol) of the substance: a ratio of exactly a molar ↔ mass factor names it (causes.ts exactMolarCause). */
  molarMass?: number | null;
  /**
   * The recomputed value is approximate (bridged at an assumed body weight, a partial area interpolated between
   * samples): only a factor's own exact window names it, not the parameter's agree band.
   */
  approximate?: boolean;
}

export interface Verdict {
  classification: Classification;
  /** reported / recomputed; null when it cannot be formed (zero or opposite signs). */
  ratio: number | null;
  causes: SuspectedCause[];
  /** Why the disagreement is ordinary, when it is. */
  expected: string | null;
}

/**
 * The sampling interval that bounds the uncertainty of an observed tmax: the
 * larger of the gaps to the neighbouring sampling times of the recomputed tmax.
 * With samples at …, t₋, t*, t₊, … the true peak lies in (t₋, t₊), so an
 * author's tmax (from other subjects or a finer grid) within max(t*−t₋, t₊−t*)
 * of t* is consistent with the data.
 */
export function samplingIntervalAround(times: readonly number[], at: number): number | null {
  const grid = [...new Set(times.filter(Number.isFinite))].sort((a, b) => a - b);
  if (grid.length < 2) return null;
  let index = 0;
  for (let i = 1; i < grid.length; i++) if (Math.abs(grid[i] - at) < Math.abs(grid[index] - at)) index = i;
  const before = index > 0 ? grid[index] - grid[index - 1] : 0;
  const after = index < grid.length - 1 ? grid[index + 1] - grid[index] : 0;
  return Math.max(before, after);
}

/** reported / recomputed when both are non-zero with the same sign. */
export function ratioOf(reported: number, recomputed: number): number | null {
  const r = reported / recomputed;
  return Number.isFinite(r) && r > 0 ? r : null;
}

/** A reported tmax at a sampled time where the curve is at most this share of its highest point is no peak of it. */
export const NOT_A_PEAK_SHARE = 0.5;
/** A decimal slip of a tmax: the ratio to the curve's peak within this factor of ×10 (a coarse grid rounds it). */
export const DECIMAL_RATIO_SLACK = 1.5;

/**
 * A decimal point slip of a tmax (×10 or ×1/10), which the unit slips leave out (a ×10 between a tmax and a
 * curve's peak is often another definition or a second peak): named only when undoing it lands on the curve's own
 * peak (within the sampling interval around it, or ×1.25 without a grid; the ratio within ×DECIMAL_RATIO_SLACK of
 * 10) and the curve shows the time as written is no peak: within the sampled range, at most NOT_A_PEAK_SHARE of the
 * curve's highest point there.
 */
function tmaxDecimalSlip(ctx: ComparisonContext, ratio: number | null, interval: number | null): SuspectedCause | null {
  if (ratio === null) return null;
  const factor = ratio > 1 ? 10 : 0.1;
  if (Math.abs(Math.log(ratio / factor)) > Math.log(DECIMAL_RATIO_SLACK)) return null;
  if (!landsOnPeak(ctx, ctx.reported / factor, interval) || !offPeakAsWritten(ctx)) return null;
  const label = factor > 1 ? '×10' : '×1/10';
  return { kind: 'unit-factor', factor, text: `${label} (a decimal point slip: the curve peaks at ${+ctx.recomputed.toPrecision(3)}, and is not near its peak at the tmax as written)` };
}

/** Whether a tmax with its slip undone lies on the curve's peak: within the sampling interval around it, or ×1.25 without a grid. */
function landsOnPeak(ctx: ComparisonContext, undone: number, interval: number | null): boolean {
  return interval !== null ? Math.abs(undone - ctx.recomputed) <= interval * (1 + 1e-9) : Math.abs(Math.log(undone / ctx.recomputed)) <= Math.log(TOLERANCES.tmax[ctx.subject].agree);
}

/**
 * Whether the curve shows the tmax as written is no peak: within the sampled range (after the last sample the curve
 * cannot tell: a tmax read on the study's clock, after a later dose, lies there), or before it on the rise from 0 of
 * a single extravascular dose (`absentAtDose`: Sanaka2000's 1.43 h against a curve in minutes read as hours, sampled
 * from 15 h), at most NOT_A_PEAK_SHARE of its highest point. Needs three or more sampled levels.
 */
function offPeakAsWritten(ctx: ComparisonContext): boolean {
  const times = ctx.samplingTimes;
  const levels = ctx.samplingLevels;
  if (!times || !levels || times.length !== levels.length || times.length < 3) return false;
  let highest = 0;
  let first = Infinity;
  for (let i = 0; i < times.length; i++) {
    if (Number.isFinite(levels[i]) && levels[i] > highest) highest = levels[i];
    if (Number.isFinite(times[i]) && Number.isFinite(levels[i]) && times[i] < first) first = times[i];
  }
  if (!(highest > 0)) return false;
  // Before the first sample of a single extravascular dose the curve rises from 0 at the dose (`absentAtDose`).
  const rising = ctx.absentAtDose === true && first > 0 && ctx.reported > 0 && ctx.reported < first;
  const level = rising ? levelAt([0, ...times], [0, ...levels], ctx.reported) : levelAt(times, levels, ctx.reported);
  return level !== null && level <= NOT_A_PEAK_SHARE * highest;
}

/** A tmax this far from the curve's peak (either way) is no sampling-grid or median-of-individuals difference when the curve is not near its peak there. */
export const OFF_PEAK_RATIO = 10;

/**
 * Whether a reported tmax lies ×OFF_PEAK_RATIO or more from the curve's own peak, at a time inside the sampled range
 * where the curve is at most NOT_A_PEAK_SHARE of its highest point (`offPeakAsWritten`): no subject's peak (an
 * individual's curve is its own; a group's mean curve lies at that level only if few of its subjects peak there, not
 * the half a median tmax needs). A slip of the tmax or of the curve's times, whatever its factor (a tmax ×24 beside a
 * ratio of 30).
 */
export function farOffPeak(ctx: ComparisonContext, ratio: number | null): boolean {
  return ratio !== null && Math.abs(Math.log(ratio)) >= Math.log(OFF_PEAK_RATIO) && offPeakAsWritten(ctx);
}

/**
 * The time factors (×60, ×24 and their inverses) whose undoing lands the reported tmax on the curve's peak
 * (`landsOnPeak`), nearest first. The grid, not FACTOR_TOLERANCE, bounds a sampling time: 0.91 "h" against a peak at
 * 1 h is 0.91 min, ×1/66.
 */
export function landingTimeFactors(ctx: ComparisonContext, interval: number | null): SuspectedCause[] {
  const landed: { cause: SuspectedCause; distance: number }[] = [];
  for (const f of TIME_FACTORS) {
    for (const factor of [f, 1 / f]) {
      const undone = ctx.reported / factor;
      const cause = landsOnPeak(ctx, undone, interval) ? unitFactorCause(factor, 'tmax') : null;
      if (cause) landed.push({ cause, distance: Math.abs(Math.log(undone / ctx.recomputed)) });
    }
  }
  return landed.sort((a, b) => a.distance - b.distance).map((l) => l.cause);
}

function classifyTmax(ctx: ComparisonContext, ratio: number | null): Verdict {
  const interval = ctx.samplingTimes ? samplingIntervalAround(ctx.samplingTimes, ctx.recomputed) : null;
  const difference = Math.abs(ctx.reported - ctx.recomputed);
  if (interval !== null && difference <= interval * (1 + 1e-9)) {
    return { classification: 'agree', ratio, causes: [], expected: null };
  }
  if (interval === null && ratio !== null && Math.abs(Math.log(ratio)) <= Math.log(TOLERANCES.tmax[ctx.subject].agree)) {
    return { classification: 'agree', ratio, causes: [], expected: null };
  }
  const causes = ratio === null ? [] : ratioCauses(ratio, 'tmax', ctx.bodyWeightKg);
  if (causes.length > 0) return { classification: 'major', ratio, causes, expected: null };
  const decimal = tmaxDecimalSlip(ctx, ratio, interval);
  if (decimal) return { classification: 'major', ratio, causes: [decimal], expected: null };
  if (farOffPeak(ctx, ratio)) return { classification: 'major', ratio, causes: landingTimeFactors(ctx, interval), expected: null };
  const expected =
    ctx.subject === 'group'
      ? 'reported tmax of a group is usually the median of individual tmax, which need not be a sampling time of the mean curve'
      : `tmax is a sampling time; the grid around it is ${interval === null ? 'unknown' : `${+interval.toPrecision(3)} wide`}`;
  return { classification: 'minor', ratio, causes, expected };
}

/** Why a disagreement of this parameter within the minor band is ordinary. */
function ordinaryReason(ctx: ComparisonContext): string {
  const group =
    ctx.subject === 'group' ? 'group data: mean of individual parameters vs parameter of the mean curve; ' : '';
  switch (ctx.parameter) {
    case 'cmax':
      return `${group}digitised or rounded peak`;
    case 'auc_end':
      return `${group}trapezoid rule and sampling grid`;
    case 'auc_inf':
    case 'thalf':
    case 'kel':
      return `${group}λz window (PK-DB regresses on every point after Cmax, authors on the terminal phase)`;
    default:
      return `${group}λz window, bioavailability (CL/F, V/F) or the dose basis`;
  }
}

/**
 * How close the reported AUC's interval end must come to the timecourse's last time × a time factor: the last sample
 * is taken at the nominal end or a little before it (AUC0–24 with its last sample at 23.5 h is 2 % short).
 */
export const INTERVAL_END_TOLERANCE = 0.1;

/**
 * A reported AUC over 0–t whose t is a time unit's factor f (×60, ×24, ×1440 either way; INTERVAL_END_TOLERANCE) off
 * the curve's last time, and whose value is ×f the curve's area alike (within the parameter's agree band): one time
 * axis scaled by f explains both — the curve's times read in the wrong unit (hours curated as minutes: a curve of
 * 0–240 h ends at 4 h, its area ×1/60). Two independent witnesses, the output's interval and its value, name the one
 * factor; either alone is an ordinary difference of intervals (differentInterval). Null otherwise.
 */
export function stretchedTimeAxis(ctx: ComparisonContext, ratio: number): SuspectedCause | null {
  const { reportedIntervalEnd: end, timecourseEnd } = ctx;
  if (ctx.parameter !== 'auc_end' || end == null || timecourseEnd == null || !(end > 0) || !(timecourseEnd > 0) || !(ratio > 0)) return null;
  const endRatio = end / timecourseEnd;
  let factor: number | null = null;
  for (const t of TIME_FACTORS) for (const f of [t, 1 / t]) if (Math.abs(Math.log(endRatio / f)) <= Math.log1p(INTERVAL_END_TOLERANCE)) factor = f;
  if (factor === null || Math.abs(Math.log(ratio / factor)) > Math.log(TOLERANCES.auc_end[ctx.subject].agree)) return null;
  const cause = unitFactorCause(factor, 'auc_end');
  if (cause === null) return null;
  const at = (x: number) => +x.toPrecision(4);
  return {
    ...cause,
    text: `${cause.text}: the timecourse ends at ${at(timecourseEnd)}, the reported AUC's interval at ${at(end)} (×${fmt(endRatio)}), and its value is ×${fmt(ratio)} the curve's area alike — the curve's time axis`,
  };
}

/** auc_end over a different interval than the timecourse: beyond the tolerance on the end time. */
function differentInterval(ctx: ComparisonContext): string | null {
  if (ctx.parameter !== 'auc_end') return null;
  const { reportedIntervalEnd: reportedEnd, timecourseEnd } = ctx;
  if (reportedEnd == null || timecourseEnd == null || !(reportedEnd > 0) || !(timecourseEnd > 0)) return null;
  if (Math.abs(Math.log(reportedEnd / timecourseEnd)) <= Math.log1p(FACTOR_TOLERANCE)) return null;
  return `reported AUC over 0–${+reportedEnd.toPrecision(4)}, the timecourse ends at ${+timecourseEnd.toPrecision(4)}`;
}

/**
 * Agree within the parameter's agree band; a named scale factor or per-kg
 * ratio is major whatever its size; within the minor band, or outside it but
 * with an expected reason (AUC interval, tmax grid), minor; otherwise major,
 * naming a unit factor, body weight or molar ↔ mass factor that undone leaves
 * the two within the agree band (beyond the minor band no ordinary difference
 * is left to mistake for it; inside it only the factor's exact window names
 * one; a molar factor of ×2–10 only clear of the minor band).
 */
export function classify(ctx: ComparisonContext): Verdict {
  const ratio = ratioOf(ctx.reported, ctx.recomputed);
  if (ctx.parameter === 'tmax') return classifyTmax(ctx, ratio);
  if (ratio === null) {
    return { classification: 'major', ratio, causes: [], expected: null };
  }
  const tolerance = TOLERANCES[ctx.parameter][ctx.subject];
  const fold = Math.abs(Math.log(ratio));
  if (fold <= Math.log(tolerance.agree)) return { classification: 'agree', ratio, causes: [], expected: null };
  const causes = ratioCauses(ratio, ctx.parameter, ctx.bodyWeightKg);
  // Both values are of one subject and curve, so a molar ↔ mass slip shows as its exact factor (×2–10 included).
  if (causes.length === 0) {
    const molar = exactMolarCause(ratio, ctx.parameter, ctx.molarMass ?? null);
    if (molar) causes.push(molar);
  }
  if (causes.length > 0) return { classification: 'major', ratio, causes, expected: null };
  const interval = differentInterval(ctx);
  const stretched = interval ? stretchedTimeAxis(ctx, ratio) : null;
  if (stretched) return { classification: 'major', ratio, causes: [stretched], expected: null };
  // Beyond every ordinary disagreement, a unit factor that undone leaves the two agreeing is the likeliest cause (a
  // t½ ×24 whose λz differed ×1.2 from the curve's lies at ×20–29, beyond the factor's exact window): named.
  if (!interval && !ctx.approximate && fold > Math.log(tolerance.minor)) {
    // The window, as ratio ÷ factor, a factor is named in: [1/agree, agree], up to the ordinary excess where one is known
    // (a group's Cmax ×11.5 its mean curve's is ×10 above by ×1.15, as a group's Cmax ordinarily is): its centre and half-width.
    const above = Math.max(tolerance.agree, tolerance.ordinaryExcess ?? 0);
    const centre = Math.sqrt(above / tolerance.agree);
    const halfWidth = Math.sqrt(above * tolerance.agree);
    const agreeing = ratioCauses(ratio / centre, ctx.parameter, ctx.bodyWeightKg, { tolerance: halfWidth - 1 });
    // A molar ↔ mass factor of ×2–10 only within the agree band (a factor of any size between 2 and 10 is some drug's:
    // the excess would name Kharasch2004's group Cmax ×3.86 a ×3.07), and only where its whole window lies beyond the
    // minor band by an agree margin: a group Cmax ×2.3 is no µmol/L ↔ mg/L of a 440 g/mol drug.
    const molar = agreeing.length === 0 ? exactMolarCause(ratio, ctx.parameter, ctx.molarMass ?? null, tolerance.agree - 1) : null;
    if (molar && Math.max(molar.factor, 1 / molar.factor) >= tolerance.minor * tolerance.agree ** 2) agreeing.push(molar);
    if (agreeing.length > 0) return { classification: 'major', ratio, causes: agreeing, expected: null };
  }
  if (interval) return { classification: 'minor', ratio, causes, expected: interval };
  if (fold <= Math.log(tolerance.minor)) return { classification: 'minor', ratio, causes, expected: ordinaryReason(ctx) };
  return { classification: 'major', ratio, causes, expected: null };
}
