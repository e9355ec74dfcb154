/**
 * Reported vs recomputed: one reported output against the recomputations of
 * the timecourse(s) it belongs to, in the reported unit, classified.
 */
import type { OutputRecord, TimecourseRecord } from '../data/model.js';
import { conversionFactor } from '../units/convert.js';
import { classify, type ComparisonContext, type Verdict } from './classify.js';
import type { DoseInfo, ParameterValues, RecomputedValue, StandardRecomputation } from './recompute.js';
import type { ReportedParameter } from './tolerances.js';

/** A concentration timecourse with everything recomputed from it. */
export interface RecomputedTimecourse {
  tc: TimecourseRecord;
  pkdb: ParameterValues;
  standard: StandardRecomputation;
  dose: DoseInfo | null;
  dosingPks: number[];
}

export interface Comparison {
  output: OutputRecord;
  timecourse: RecomputedTimecourse;
  parameter: ReportedParameter;
  subjectKind: 'group' | 'individual';
  reported: number;
  reported_unit: string;
  /** The recomputed value the verdict uses, in the reported unit. */
  recomputed: number;
  profile: 'pkdb' | 'standard';
  /** Both profiles in the reported unit, when they produced the parameter. */
  pkdb: number | null;
  standard: number | null;
  /** How the unit was bridged when the dimensions differed (per-kg with the body weight). */
  conversion: string | null;
  verdict: Verdict;
  bodyWeightKg: number | null;
}

/** The reported number: mean, else median, else value (what a group or an individual reports). */
export function reportedValue(output: OutputRecord): number | null {
  return output.mean ?? output.median ?? output.value ?? null;
}

function tryFactor(from: string, to: string, molarMass: number | null): number | null {
  try {
    return conversionFactor(from, to, { molarMass });
  } catch {
    return null;
  }
}

/**
 * `value` in `unit`: by unit conversion (molar ↔ mass with the molar mass),
 * else across per-kg ↔ absolute with the body weight (÷W or ×W), else null.
 */
export function inUnit(
  value: RecomputedValue,
  unit: string,
  molarMass: number | null,
  bodyWeightKg: number | null,
): { value: number; conversion: string | null } | null {
  const direct = tryFactor(value.unit, unit, molarMass);
  if (direct !== null) return { value: value.value * direct, conversion: null };
  if (bodyWeightKg === null || !(bodyWeightKg > 0)) return null;
  const perKg = tryFactor(`(${value.unit}) / kilogram`, unit, molarMass);
  if (perKg !== null) return { value: (value.value / bodyWeightKg) * perKg, conversion: `divided by body weight ${bodyWeightKg} kg` };
  const absolute = tryFactor(`(${value.unit}) * kilogram`, unit, molarMass);
  if (absolute !== null) return { value: value.value * bodyWeightKg * absolute, conversion: `multiplied by body weight ${bodyWeightKg} kg` };
  return null;
}

/** The timecourse's sampling times (shifted to the dose) in `unit`. */
function samplingTimes(rt: RecomputedTimecourse, unit: string): number[] | undefined {
  const factor = rt.tc.time_unit ? tryFactor(rt.tc.time_unit, unit, null) : null;
  if (factor === null) return undefined;
  const shift = rt.dose?.time ?? 0;
  return rt.tc.time.filter((t): t is number => t !== null && Number.isFinite(t)).map((t) => (t - shift) * factor);
}

/** auc_end: the reported interval end and the timecourse's last time, both in the timecourse's time unit. */
function aucInterval(output: OutputRecord, tc: TimecourseRecord): Pick<ComparisonContext, 'reportedIntervalEnd' | 'timecourseEnd'> {
  const times = tc.time.filter((t): t is number => t !== null && Number.isFinite(t));
  const timecourseEnd = times.length ? Math.max(...times) : null;
  if (output.time === null || !output.time_unit || !tc.time_unit) return { reportedIntervalEnd: null, timecourseEnd };
  const factor = tryFactor(output.time_unit, tc.time_unit, null);
  return { reportedIntervalEnd: factor === null ? null : output.time * factor, timecourseEnd };
}

/** How far a verdict is from agreement: fold distance, or the tmax difference in sampling terms. */
function disagreement(reported: number, recomputed: number, parameter: ReportedParameter): number {
  if (parameter === 'tmax') return Math.abs(reported - recomputed);
  const r = reported / recomputed;
  return r > 0 && Number.isFinite(r) ? Math.abs(Math.log(r)) : Infinity;
}

/**
 * Compares one reported output with one recomputed timecourse. Both profiles
 * are tried; the verdict uses the one closer to the reported value, because
 * either is a legitimate way to compute the parameter and a curator should
 * only be sent to values that neither explains. Null when neither profile
 * produced the parameter or the units cannot be bridged.
 */
export function compareReported(
  output: OutputRecord,
  parameter: ReportedParameter,
  rt: RecomputedTimecourse,
  context: { molarMass: number | null; bodyWeightKg: number | null },
): Comparison | null {
  const reported = reportedValue(output);
  if (reported === null || !output.unit) return null;
  const unit = output.unit;
  const convert = (v: RecomputedValue | undefined) => (v ? inUnit(v, unit, context.molarMass, context.bodyWeightKg) : null);
  const pkdb = convert(rt.pkdb[parameter]);
  const standard = convert(rt.standard.values[parameter]);
  if (!pkdb && !standard) return null;
  const useStandard =
    !pkdb || (standard !== null && disagreement(reported, standard.value, parameter) < disagreement(reported, pkdb.value, parameter));
  const chosen = (useStandard ? standard : pkdb) as NonNullable<typeof pkdb>;
  const subjectKind = output.individual_pk !== null ? 'individual' : 'group';
  const verdict = classify({
    parameter,
    reported,
    recomputed: chosen.value,
    subject: subjectKind,
    bodyWeightKg: context.bodyWeightKg,
    ...(parameter === 'tmax' ? { samplingTimes: samplingTimes(rt, unit) } : {}),
    ...(parameter === 'auc_end' ? aucInterval(output, rt.tc) : {}),
  });
  return {
    output,
    timecourse: rt,
    parameter,
    subjectKind,
    reported,
    reported_unit: unit,
    recomputed: chosen.value,
    profile: useStandard ? 'standard' : 'pkdb',
    pkdb: pkdb?.value ?? null,
    standard: standard?.value ?? null,
    conversion: chosen.conversion,
    verdict,
    bodyWeightKg: context.bodyWeightKg,
  };
}

/** The better of several comparisons of one output (ambiguous keys: timecourses differing only by label). */
export function bestComparison(comparisons: readonly Comparison[]): Comparison | null {
  let best: Comparison | null = null;
  for (const c of comparisons) {
    if (!best || disagreement(c.reported, c.recomputed, c.parameter) < disagreement(best.reported, best.recomputed, best.parameter)) best = c;
  }
  return best;
}
