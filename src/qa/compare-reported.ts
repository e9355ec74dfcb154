/**
 * Reported vs recomputed: each reported output against the recomputations
 * (pkdb and standard profile) of the concentration timecourse(s) of the same
 * subject, intervention set, substance and tissue, in the reported unit,
 * classified (classify.ts). The QA context computes these once (`comparisons`)
 * for the checks that read them (reported-vs-recomputed, swaps); it lives
 * below the checks so that the context does not import a check.
 */
import type { Dataset, LinkKeyFields } from '../data/dataset.js';
import type { DatasetTables, InterventionRecord, OutputRecord, TimecourseRecord } from '../data/model.js';
import { representativeSeries, representativeValue } from '../data/records.js';
import { conversionFactorOrNull, productFactorOrNull } from '../units/convert.js';
import { ADULT_BODY_WEIGHT_KG, MOLAR_SLIPPABLE, TYPICAL_BODY_WEIGHT_KG, unitFactorCause, unknownWeightPerKgCause, type SuspectedCause } from './causes.js';
import { classify, type ComparisonContext, type Verdict } from './classify.js';
import type { RecordKind } from './coverage.js';
import type { RecomputedTimecourse, RecomputedValue } from './recompute.js';
import { expectedDisagreement, reportedWindow, windowAuc } from './reported-interval.js';
import { DOSE_PROPORTIONAL, FACTOR_TOLERANCE, isReportedParameter, TOLERANCES, type ReportedParameter } from './tolerances.js';

export type { RecomputedTimecourse };

/** What the comparisons read of the QA context (a QaContext is one). */
export interface ComparisonSources {
  readonly tables: Pick<DatasetTables, 'outputs'>;
  readonly dataset: { intervention(pk: number): InterventionRecord | undefined } & Pick<Dataset, 'group' | 'individual'>;
  readonly timecoursesByKey: ReadonlyMap<string, readonly RecomputedTimecourse[]>;
  matchKey(fields: LinkKeyFields): string;
  molarMass(substance: string | null): number | null;
  bodyWeightKg(record: { group_pk: number | null; individual_pk: number | null }): number | null;
  /** The subject's body surface area (m²), for a value per m² (body-surface.ts); absent: none bridged. */
  bodySurfaceM2?(record: { group_pk: number | null; individual_pk: number | null }): number | null;
  mayBeAdultHuman(record: { group_pk: number | null; individual_pk: number | null }): boolean;
  examined(kind: RecordKind, pk: number, check: string): void;
  notExamined(kind: RecordKind, pk: number, check: string, reason: string): void;
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
  /** What was compared when not the whole curve (a partial AUC over the reported interval). */
  note?: string | null;
}

/** The reported number: mean, else median, else value (what a group or an individual reports). */
export function reportedValue(output: OutputRecord): number | null {
  return representativeValue(output);
}


/**
 * `value` in `unit`: by unit conversion (molar ↔ mass with the molar mass),
 * else across per-m² ↔ absolute with the body surface area (÷A: a clearance
 * per m² against its curve's), else across per-kg ↔ absolute with the body
 * weight (÷W or ×W), else null.
 */
export function inUnit(
  value: RecomputedValue,
  unit: string,
  molarMass: number | null,
  bodyWeightKg: number | null,
  bodySurfaceM2: number | null = null,
): Bridged | null {
  const direct = conversionFactorOrNull(value.unit, unit, { molarMass });
  if (direct !== null) return { value: value.value * direct, conversion: null, weightPower: 0 };
  if (bodySurfaceM2 !== null && bodySurfaceM2 > 0) {
    const perArea = productFactorOrNull(value.unit, 'meter ** 2', -1, unit, { molarMass });
    if (perArea !== null) return { value: (value.value / bodySurfaceM2) * perArea, conversion: `divided by body surface area ${+bodySurfaceM2.toPrecision(3)} m²`, weightPower: 0 };
  }
  if (bodyWeightKg === null || !(bodyWeightKg > 0)) return null;
  const perKg = productFactorOrNull(value.unit, 'kilogram', -1, unit, { molarMass });
  if (perKg !== null) return { value: (value.value / bodyWeightKg) * perKg, conversion: `divided by body weight ${bodyWeightKg} kg`, weightPower: -1 };
  const absolute = productFactorOrNull(value.unit, 'kilogram', 1, unit, { molarMass });
  if (absolute !== null) return { value: value.value * bodyWeightKg * absolute, conversion: `multiplied by body weight ${bodyWeightKg} kg`, weightPower: 1 };
  return null;
}

/** A value in the reported unit, and how it got there: by unit conversion alone (weightPower 0), or ÷W (−1) or ×W (1). */
export interface Bridged {
  value: number;
  conversion: string | null;
  weightPower: -1 | 0 | 1;
}

/** The words of a bridge at a body weight that was assumed, not curated. */
function assumedWeightText(weightPower: -1 | 0 | 1, kg: number, why: string): string {
  return `${weightPower < 0 ? 'divided' : 'multiplied'} by an adult body weight of ${kg} kg (assumed: none is curated; ${why})`;
}

/** The timecourse's sampling times (shifted to the dose) in `unit`. */
function samplingTimes(rt: RecomputedTimecourse, unit: string): number[] | undefined {
  const factor = rt.tc.time_unit ? conversionFactorOrNull(rt.tc.time_unit, unit) : null;
  if (factor === null) return undefined;
  const shift = rt.dose?.time ?? 0;
  return rt.tc.time.filter((t): t is number => t !== null && Number.isFinite(t)).map((t) => (t - shift) * factor);
}

/** The sampled times (in `unit`, from the dose) and the curve's levels there, pair by pair: for a tmax. */
function samplingCurve(rt: RecomputedTimecourse, unit: string): Pick<ComparisonContext, 'samplingTimes' | 'samplingLevels'> {
  const times = samplingTimes(rt, unit);
  const series = representativeSeries(rt.tc)?.values;
  if (!times) return {};
  if (!series || series.length !== rt.tc.time.length) return { samplingTimes: times };
  const levels: number[] = [];
  for (let i = 0; i < rt.tc.time.length; i++) {
    const t = rt.tc.time[i];
    if (t === null || !Number.isFinite(t)) continue;
    const v = series[i];
    levels.push(v === null || !Number.isFinite(v) ? Number.NaN : v);
  }
  return { samplingTimes: times, samplingLevels: levels };
}

/** auc_end: the reported interval end and the timecourse's last time, both in the timecourse's time unit. */
function aucInterval(output: OutputRecord, tc: TimecourseRecord): Pick<ComparisonContext, 'reportedIntervalEnd' | 'timecourseEnd'> {
  const times = tc.time.filter((t): t is number => t !== null && Number.isFinite(t));
  const timecourseEnd = times.length ? Math.max(...times) : null;
  if (output.time === null || !output.time_unit || !tc.time_unit) return { reportedIntervalEnd: null, timecourseEnd };
  const factor = conversionFactorOrNull(output.time_unit, tc.time_unit);
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
  context: { molarMass: number | null; bodyWeightKg: number | null; multipleDose?: boolean; unweighedAdult?: boolean; bodySurfaceM2?: number | null },
): Comparison | null {
  const reported = reportedValue(output);
  if (reported === null || !output.unit) return null;
  const unit = output.unit;
  // A per-kg value of an adult whose weight is not curated is bridged at a typical adult's weight (and, before a
  // disagreement is called, at the adult weight that fits best: atAdultWeightNearest).
  const weight = context.bodyWeightKg ?? (context.unweighedAdult ? TYPICAL_BODY_WEIGHT_KG : null);
  const convert = (v: RecomputedValue | undefined) => (v ? inUnit(v, unit, context.molarMass, weight, context.bodySurfaceM2 ?? null) : null);
  let pkdb = convert(rt.pkdb[parameter]);
  let standard = convert(rt.standard.values[parameter]);
  let intervalEnds = parameter === 'auc_end' ? aucInterval(output, rt.tc) : {};
  let note: string | null = null;
  const partial = parameter === 'auc_end' ? partialAuc(output, rt, context.multipleDose ?? false) : null;
  const partialValue = partial ? convert(partial.value) : null;
  if (partial && partialValue) {
    // Over the reported interval both profiles give this one area; the whole-curve values no longer apply.
    pkdb = null;
    standard = partialValue;
    note = partial.note;
    intervalEnds = {};
  }
  if (!pkdb && !standard) return null;
  let useStandard =
    !pkdb || (standard !== null && disagreement(reported, standard.value, parameter) < disagreement(reported, pkdb.value, parameter));
  let chosen = (useStandard ? standard : pkdb) as NonNullable<typeof pkdb>;
  const subjectKind = output.individual_pk !== null ? 'individual' : 'group';
  // Bridged at an assumed weight, the ratio is not exact: no molar ↔ mass factor of ×2–10 is named from it.
  const weightAssumed = context.bodyWeightKg === null && chosen.weightPower !== 0;
  const judge = (recomputed: number) =>
    classify({
      parameter,
      reported,
      recomputed,
      subject: subjectKind,
      bodyWeightKg: context.bodyWeightKg,
      // A partial area interpolates between samples: not exact enough to name a molar ↔ mass factor of ×2–10.
      molarMass: note === null && !weightAssumed ? context.molarMass : null,
      approximate: note !== null || weightAssumed,
      ...(parameter === 'tmax' ? { ...samplingCurve(rt, unit), absentAtDose: rt.dose?.route === 'extravascular' && !(context.multipleDose ?? false) } : {}),
      ...intervalEnds,
    });
  let verdict = judge(chosen.value);
  // A molar ↔ mass factor of ×2–10 is named only within a narrow window of its exact value (classify.ts). When the
  // closer profile misses it but the other, as legitimate and agreeing with it, hits it (a ×2.39 slip on an AUC is
  // ×2.34 the pkdb profile's, ×2.23 the standard one's), that profile explains it. Only for the amounts per volume a
  // molar unit can slip in (MOLAR_SLIPPABLE: a group's CL/F of simvastatin ×2.36 its mean curve's is the mean of
  // ratios, no molar slip), and not when the profiles part (a failed fit): a factor matched by an outlier is chance.
  const other = useStandard ? pkdb : standard;
  if (
    verdict.classification !== 'agree' && verdict.causes.length === 0 && MOLAR_SLIPPABLE.has(parameter) && !weightAssumed &&
    pkdb !== null && standard !== null && other !== null &&
    disagreement(pkdb.value, standard.value, parameter) <= Math.log(TOLERANCES[parameter][subjectKind].agree)
  ) {
    const named = judge(other.value);
    if (named.classification === 'major' && named.causes.some((c) => c.kind === 'molar-mass')) {
      chosen = other;
      verdict = named;
      useStandard = !useStandard;
    }
  }
  if (weightAssumed && verdict.classification !== 'agree') ({ chosen, verdict } = atUnknownWeight(chosen, verdict, reported, parameter, judge));
  if (verdict.classification === 'major' && note !== null && verdict.causes.length === 0) {
    // A partial area interpolates between samples (sparse early points): only a named slip makes it major.
    verdict = { ...verdict, classification: 'minor', expected: 'partial AUC over the reported interval, interpolated between samples' };
  }
  if (verdict.classification === 'major' && !(verdict.ratio !== null && verdict.ratio > MAX_EXPECTED_RATIO)) {
    const expected = expectedDisagreement({ parameter, reported, recomputed: chosen.value, route: rt.dose?.route ?? null, firstSampleHours: firstSampleHours(rt) });
    if (expected) verdict = { ...verdict, classification: 'minor', causes: [], expected };
  }
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
    note,
  };
}

/**
 * The verdict of a comparison bridged per-kg ↔ absolute at TYPICAL_BODY_WEIGHT_KG, the subject's weight unknown:
 * at the adult weight that fits best (atAdultWeightNearest) it can only be milder — agree there, agree; and a ratio
 * that is an adult weight itself, or a unit factor of ×24 and more at some adult weight, is named (unweighedCauses).
 */
function atUnknownWeight(
  chosen: Bridged,
  verdict: Verdict,
  reported: number,
  parameter: ReportedParameter,
  judge: (recomputed: number) => Verdict,
): { chosen: Bridged; verdict: Verdict } {
  const fitted = atAdultWeightNearest(chosen, reported);
  const refit = judge(fitted.value);
  if (refit.classification === 'agree') return { chosen: fitted, verdict: refit };
  const [lo, hi] = ADULT_BODY_WEIGHT_KG;
  const conversion = assumedWeightText(chosen.weightPower, TYPICAL_BODY_WEIGHT_KG, `no weight of ${lo}–${hi} kg agrees`);
  const causes = verdict.causes.length === 0 && verdict.ratio !== null ? unweighedCauses(verdict.ratio, parameter, chosen.weightPower < 0) : [];
  if (causes.length > 0) return { chosen: { ...chosen, conversion }, verdict: { ...verdict, classification: 'major', causes } };
  if (refit.classification === 'minor' && verdict.classification === 'major' && verdict.causes.length === 0) return { chosen: fitted, verdict: refit };
  return { chosen: { ...chosen, conversion }, verdict };
}

/**
 * A recomputed value bridged per-kg ↔ absolute at TYPICAL_BODY_WEIGHT_KG, taken instead at the adult weight
 * (ADULT_BODY_WEIGHT_KG) that brings it nearest the reported value: ÷W, W = clamp(absolute / reported); ×W,
 * W = clamp(reported / per-kg). The subject's weight is unknown, so any adult's is as good as 70 kg.
 */
export function atAdultWeightNearest(value: Bridged, reported: number): Bridged {
  const [lo, hi] = ADULT_BODY_WEIGHT_KG;
  const divided = value.weightPower < 0;
  const base = divided ? value.value * TYPICAL_BODY_WEIGHT_KG : value.value / TYPICAL_BODY_WEIGHT_KG;
  const w = Math.min(hi, Math.max(lo, divided ? base / reported : reported / base));
  return {
    value: divided ? base / w : base * w,
    conversion: assumedWeightText(value.weightPower, +w.toPrecision(3), `the weight of ${lo}–${hi} kg nearest the reported value`),
    weightPower: value.weightPower,
  };
}

/** The smallest unit factor named through the adult weight band (unweighedCauses). */
export const UNWEIGHED_MIN_FACTOR = 24;

/**
 * The slips that explain a ratio formed at TYPICAL_BODY_WEIGHT_KG when the weight is unknown: per-kg vs absolute (the
 * ratio itself an adult weight), and a unit factor (×60, ×1000, …) at some adult weight W — the ratio at W is the
 * ratio at 70 kg × W/70 (÷W bridge) or × 70/W (×W bridge). Nearest 70 kg first; each names its weight.
 */
export function unweighedCauses(ratio: number, parameter: ReportedParameter, divided: boolean): SuspectedCause[] {
  const [lo, hi] = ADULT_BODY_WEIGHT_KG;
  const band = Math.sqrt(hi / lo); // ±: the weight band on the log scale
  const centre = ratio * (divided ? Math.sqrt(lo * hi) / TYPICAL_BODY_WEIGHT_KG : TYPICAL_BODY_WEIGHT_KG / Math.sqrt(lo * hi));
  const found: { cause: SuspectedCause; kg: number }[] = [];
  const perKg = unknownWeightPerKgCause(ratio);
  if (perKg) found.push({ cause: { ...perKg, text: `${perKg.text.split(' (')[0]} (per-kg vs absolute: one adult body weight between the reported and the recomputed value)` }, kg: Math.max(ratio, 1 / ratio) });
  // Only factors of ×24 and beyond: a ×10 or ×16.7 through a twofold weight band would name ordinary differences.
  const unit = unitFactorCause(centre, parameter, { tolerance: band - 1 });
  if (unit && Math.abs(Math.log(unit.factor)) >= Math.log(UNWEIGHED_MIN_FACTOR)) {
    const kg = divided ? (TYPICAL_BODY_WEIGHT_KG * unit.factor) / ratio : (TYPICAL_BODY_WEIGHT_KG * ratio) / unit.factor;
    if (kg >= lo && kg <= hi) found.push({ cause: { ...unit, text: `${unit.text} at an adult body weight of ${+kg.toPrecision(2)} kg` }, kg });
  }
  return found.sort((a, b) => Math.abs(Math.log(a.kg / TYPICAL_BODY_WEIGHT_KG)) - Math.abs(Math.log(b.kg / TYPICAL_BODY_WEIGHT_KG))).map((f) => f.cause);
}

/** Beyond this ratio no expected reason (IV bolus sampling) is accepted: a ×1000 slip stays major. */
export const MAX_EXPECTED_RATIO = 20;

/** The first sampling time after the dose, in hours; null when unknown. */
function firstSampleHours(rt: RecomputedTimecourse): number | null {
  const unit = rt.tc.time_unit;
  const factor = unit ? conversionFactorOrNull(unit, 'hour') : null;
  if (factor === null) return null;
  const after = rt.standard.points.find((p) => p.time > 0);
  return after ? after.time * factor : null;
}

/**
 * The partial AUC of the curve over the reported interval (reported-interval.ts), when the reported end
 * differs from the curve's last time and the curve covers the interval; null otherwise.
 */
function partialAuc(output: OutputRecord, rt: RecomputedTimecourse, multipleDose: boolean): { value: RecomputedValue; note: string } | null {
  const tc = rt.tc;
  if (output.time === null || !(output.time > 0) || !output.time_unit || !tc.time_unit || !tc.unit) return null;
  const factor = conversionFactorOrNull(output.time_unit, tc.time_unit);
  if (factor === null) return null;
  const length = output.time * factor;
  const points = rt.standard.points;
  if (points.length < 2) return null;
  const last = points[points.length - 1].time;
  const window = reportedWindow(points, length, multipleDose);
  if (window === null) return null;
  // The whole curve from the dose: the AUClast both profiles computed is the one to compare with.
  if (window.start === 0 && Math.abs(Math.log(window.end / last)) <= Math.log1p(FACTOR_TOLERANCE)) return null;
  const auc = windowAuc(points, window);
  if (auc === null || !(auc > 0)) return null;
  const at = (t: number) => +t.toPrecision(4);
  return {
    value: { value: auc, unit: `(${tc.unit}) * ${tc.time_unit}` },
    note: `partial AUC over ${at(window.start)}–${at(window.end)} ${tc.time_unit} after the dose (the reported interval; the curve ends at ${at(last)})`,
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

/** The check code its coverage marks carry. */
export const REPORTED_VS_RECOMPUTED = 'reported-vs-recomputed';

/** Reported outputs (normed, not calculated, single values of a comparable type) by match key; the others get their coverage reason. */
function reportedByKey(ctx: ComparisonSources): Map<string, OutputRecord[]> {
  const map = new Map<string, OutputRecord[]>();
  const outputs = ctx.tables.outputs;
  for (let i = 0; i < outputs.length; i++) {
    const o = outputs[i];
    if (!o.normed || o.calculated || o.output_type === 'timecourse' || o.output_type === 'array') continue;
    if (!isReportedParameter(o.measurement_type)) {
      ctx.notExamined('output', o.pk, REPORTED_VS_RECOMPUTED, 'not a parameter recomputed from a timecourse');
      continue;
    }
    const key = ctx.matchKey(o);
    const list = map.get(key);
    if (list) list.push(o);
    else map.set(key, [o]);
  }
  return map;
}

/** Whether the timecourse's intervention set holds a `multiple dose` (dosing or qualitative dosing). */
export function multipleDose(ctx: Pick<ComparisonSources, 'dataset'>, rt: Pick<RecomputedTimecourse, 'tc'>): boolean {
  return rt.tc.intervention_pk.some((pk) => ctx.dataset.intervention(pk)?.application === 'multiple dose');
}

/** Coverage marks of one comparison: the output, its timecourse, and the dose when the parameter depends on it. */
function markExamined(ctx: ComparisonSources, c: Comparison): void {
  ctx.examined('output', c.output.pk, REPORTED_VS_RECOMPUTED);
  ctx.examined('timecourse', c.timecourse.tc.subset_pk, REPORTED_VS_RECOMPUTED);
  if (c.timecourse.dose && DOSE_PROPORTIONAL.has(c.parameter)) {
    for (const pk of c.timecourse.dosingPks) ctx.examined('dosing', pk, REPORTED_VS_RECOMPUTED);
  }
}

/**
 * Serum and plasma carry the same concentration of a drug (serum is plasma without its clotting proteins; a
 * drug's binding to fibrinogen is negligible), and papers name either for one assay: a reported plasma Cmax is
 * the serum curve's. Blood is not (its concentration differs by the blood-to-plasma ratio).
 */
export const TISSUE_TWINS: ReadonlyMap<string, string> = new Map([
  ['plasma', 'serum'],
  ['serum', 'plasma'],
]);

/** The timecourses of the output's key with serum for plasma (or the reverse), when the key itself has none. */
export function twinTissueTimecourses(ctx: ComparisonSources, o: OutputRecord): readonly RecomputedTimecourse[] | undefined {
  const twin = o.tissue === null ? undefined : TISSUE_TWINS.get(o.tissue);
  if (twin === undefined) return undefined;
  const { study_sid, group_pk, individual_pk, intervention_pks, substance } = o;
  return ctx.timecoursesByKey.get(ctx.matchKey({ study_sid, group_pk, individual_pk, intervention_pks, substance, tissue: twin, method: null }));
}

/** The best comparison of every reported output that has a timecourse of its match key (or of its serum/plasma twin). */
export function compareAll(ctx: ComparisonSources): Comparison[] {
  const comparisons: Comparison[] = [];
  for (const [key, outputs] of reportedByKey(ctx)) {
    const candidates = ctx.timecoursesByKey.get(key) ?? twinTissueTimecourses(ctx, outputs[0]);
    if (!candidates) {
      for (const o of outputs) ctx.notExamined('output', o.pk, REPORTED_VS_RECOMPUTED, 'no concentration timecourse of the same subject, interventions, substance and tissue');
      continue;
    }
    for (const output of outputs) {
      if (!isReportedParameter(output.measurement_type)) continue;
      const bodyWeightKg = ctx.bodyWeightKg(output);
      const context = {
        molarMass: ctx.molarMass(output.substance), bodyWeightKg, unweighedAdult: bodyWeightKg === null && ctx.mayBeAdultHuman(output),
        bodySurfaceM2: ctx.bodySurfaceM2?.(output) ?? null,
      };
      const parameter = output.measurement_type;
      const best = bestComparison(
        candidates
          .map((rt) => compareReported(output, parameter, rt, { ...context, multipleDose: multipleDose(ctx, rt) }))
          .filter((c): c is Comparison => c !== null),
      );
      if (best) {
        comparisons.push(best);
        markExamined(ctx, best);
      } else {
        ctx.notExamined('output', output.pk, REPORTED_VS_RECOMPUTED, 'no value, unit not convertible, or not recomputable from its timecourse');
      }
    }
  }
  return comparisons;
}
