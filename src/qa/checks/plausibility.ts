/**
 * The `plausibility` check: values that no recomputation is needed to reject,
 * because their definition forbids them (issue 13, item 5). It sees every
 * reported single value and every stored calculated output, with or without
 * a timecourse, in canonical units (parameters.ts).
 *
 * Rules (severity; tolerance and why):
 * - negative: a time, rate, volume, clearance, AUC or Cmax below 0 is
 *   impossible (major); the central value and the range minimum are checked.
 * - zero: a half-life, rate constant, volume, total clearance or MRT of 0 is
 *   impossible (major); a Cmax or AUC of 0 is how a value below the limit of
 *   quantification gets curated (minor). Renal and partial clearances of 0 are
 *   ordinary (no finding).
 * - tmax before the dose: a stored calculated tmax earlier than the dose time
 *   of its timecourse means the highest sample was a pre-dose baseline (major);
 *   a negative reported tmax likewise.
 * - tmax after the last sample: a reported tmax later than the last sampling
 *   time (after the dose) of every timecourse of the same subject, intervention
 *   set, substance and tissue, by more than TMAX_END_TOLERANCE (5 %, rounding),
 *   cannot have been observed (major); the time factors (×60, ×24, ×1000) that bring it inside the sampled window
 *   (first to last sample after the dose) are named, the one landing nearest the curve's own peak first.
 * - fractions (fraction unbound, bioavailability, fraction absorbed, recovery,
 *   extraction ratio, plasma binding; percentages are converted): above 1 by at
 *   most FRACTION_NOISE (30 %: analytical error of mass balances, rounding) is
 *   minor, beyond that major, named as a percentage curated as a fraction
 *   (×100) when the value is at most 130; negative is major.
 * - AUC∞ < AUClast: for the same subject, intervention set, substance and
 *   tissue (reported values among themselves; a stored calculated pair by its
 *   timecourse), AUClast above AUC∞ by more than AUC_ORDER_MAJOR (10 %) is
 *   major, by more than AUC_ORDER_MINOR (1 %, rounding to three digits) minor; the unit factors that undone leave
 *   AUClast between 40 % and all of AUC∞ are named (either value may hold the slip).
 * - AUC(0–t) > Cmax · t: reported values of one key (see `aucCmaxFindings`).
 * - an oral tmax within minutes of the dose (see `earlyOralTmaxFinding`).
 * - a dose no human can be given (see `impossibleDoseFinding`).
 */
import type { InterventionRecord } from '../../data/model.js';
import { representativeSeries, representativeValue } from '../../data/records.js';
import { conversionFactorOrNull } from '../../units/convert.js';
import type { QaCheck } from '../check.js';
import { SCALE_FACTORS, slipFactors, unitFactorCause } from '../causes.js';
import type { QaContext } from '../context.js';
import { finding, type Finding, type Severity } from '../finding.js';
import type { ParameterValue } from '../parameters.js';
import { TOLERANCES } from '../tolerances.js';
import { roundingHalfStep } from '../rounding.js';
import { doseUnitFactor } from '../dose-units.js';
import { isDose } from '../dose-units.js';
import { FRACTIONS } from '../slip-factor.js';

export const FRACTION_NOISE = 0.3;
export const TMAX_END_TOLERANCE = 0.05;
export const AUC_ORDER_MINOR = 1.01;
export const AUC_ORDER_MAJOR = 1.1;
/** The lowest share of AUC∞ an AUC to the last sample is taken to cover (extrapolated parts beyond 60 % are rare). */
export const AUC_LAST_SHARE_LOWEST = 0.4;
/** The lowest AUC(0–t) / (Cmax · t) a factor may bring the ratio to (a long interval after a short half-life). */
export const AUC_CMAX_LOWEST = 0.05;

/** Quantities that are > 0 by definition: 0 is as impossible as a negative value. */
export const STRICTLY_POSITIVE: ReadonlySet<string> = new Set([
  'thalf', 'kel', 'vd', 'vd_ss', 'vd_unbound', 'clearance', 'clearance_unbound', 'clearance_intrinsic',
  'clearance_intrinsic_unbound', 'mrt', 'kabs', 'thalf_absorption', 'aumc_inf',
]);
/** Quantities that are ≥ 0: a 0 is a value below the limit of quantification (minor for cmax and AUC). */
export const NON_NEGATIVE: ReadonlySet<string> = new Set(['cmax', 'auc_end', 'auc_inf', 'tmax', 'clearance_renal', 'clearance_partial']);
const ZERO_IS_MINOR: ReadonlySet<string> = new Set(['cmax', 'auc_end', 'auc_inf']);

const fmt = (x: number) => String(+x.toPrecision(4));
const HOUR = 'hour';

function plausibilityFinding(p: ParameterValue, severity: Severity, rule: string, message: string, extra: Partial<Finding> = {}): Finding {
  const o = p.output;
  return finding({
    kind: 'plausibility',
    severity,
    study_sid: o.study_sid,
    study_name: o.study_name,
    subset_pk: o.subset_pk,
    output_pk: o.pk,
    measurement_type: o.measurement_type,
    subject: p.subject,
    reported: p.value,
    reported_unit: p.unit,
    message: `${p.source} ${o.measurement_type} ${message}`,
    ...extra,
    details: { rule, source: p.source, ...(extra.details ?? {}) },
  });
}

/**
 * The record a value that cannot be is fixed in: a reported value itself; a stored calculated one's curve (a
 * negative calculated tmax is a pre-dose sample that was the curve's highest).
 */
function ownRecord(p: ParameterValue): Pick<Finding, 'culprit'> {
  return { culprit: p.source === 'reported' ? 'output' : p.output.subset_pk !== null ? 'timecourse' : null };
}

/** Negative or zero values of quantities that cannot be. */
export function signFinding(p: ParameterValue): Finding | null {
  const type = p.measurement_type;
  if (!STRICTLY_POSITIVE.has(type) && !NON_NEGATIVE.has(type) && !FRACTIONS.has(type)) return null;
  // The central value, else the range minimum, when below 0 (no list per value: this runs for every parameter).
  const what = p.value !== null && p.value < 0 ? '' : p.min !== null && p.min < 0 ? 'range minimum ' : null;
  if (what !== null) {
    const v = (what === '' ? p.value : p.min) as number;
    const where = type === 'tmax' ? ' (before the dose: the highest sample was a pre-dose baseline?)' : '';
    return plausibilityFinding(p, 'major', 'negative', `${what}${fmt(v)} ${p.unit ?? ''} is negative${where}: impossible`, {
      suspected_cause: type === 'tmax' ? 'pre-dose sample taken as the peak' : 'a minus sign curated with the value (a dash, or a change from baseline?)',
      ...ownRecord(p),
    });
  }
  if (p.value === 0 && STRICTLY_POSITIVE.has(type)) {
    return plausibilityFinding(p, 'major', 'zero', `is 0 ${p.unit ?? ''}: impossible for a ${type}`, ownRecord(p));
  }
  if (p.value === 0 && ZERO_IS_MINOR.has(type)) {
    return plausibilityFinding(p, 'minor', 'zero', `is 0 ${p.unit ?? ''}: below the limit of quantification?`);
  }
  return null;
}

/** Fractions above 1 (percentages are already converted to fractions by the canonical unit). */
export function fractionFinding(p: ParameterValue): Finding | null {
  if (!FRACTIONS.has(p.measurement_type) || p.unit !== 'dimensionless') return null;
  const high = Math.max(p.value ?? -Infinity, p.max ?? -Infinity);
  if (!(high > 1)) return null;
  const what = high === p.value ? fmt(high) : `range maximum ${fmt(high)}`;
  if (high <= 1 + FRACTION_NOISE) {
    return plausibilityFinding(p, 'minor', 'fraction-above-1', `${what} is above 1 by at most ${FRACTION_NOISE * 100} %: measurement error or rounding?`);
  }
  const percent = high <= 100 * (1 + FRACTION_NOISE);
  return plausibilityFinding(p, 'major', 'fraction-above-1', `${what} is a fraction above 1: impossible`, {
    ratio: high,
    suspected_cause: percent ? `×100: a percentage (${fmt(high)} %) curated as a fraction` : null,
    ...ownRecord(p),
    details: { cause_kinds: percent ? ['unit-factor'] : [], cause_factors: percent ? [100] : [] },
  });
}

/** Hours per `unit`; null when it is not a time unit. */
function hoursPer(unit: string): number | null {
  return conversionFactorOrNull(unit, HOUR);
}

/**
 * The sampled window after the dose (first positive and last time), in hours, over the key's timecourses, and the
 * last time on the study's own clock (`lastOnClock`, not re-anchored at a later dose); null when unknown.
 */
function sampledWindowHours(ctx: QaContext, key: string): { first: number; last: number; lastOnClock: number; peak: number | null } | null {
  let last: number | null = null;
  let first: number | null = null;
  let lastOnClock = -Infinity;
  // The time of the highest level after the dose (any of the key's curves): where a tmax as curated should lie.
  let peak: number | null = null;
  let highest = -Infinity;
  for (const rt of ctx.timecoursesByKey.get(key) ?? []) {
    const unit = rt.tc.time_unit;
    if (!unit) continue;
    const factor = hoursPer(unit);
    if (factor === null) continue;
    const shift = rt.dose?.time ?? 0;
    const levels = representativeSeries(rt.tc)?.values ?? [];
    for (let i = 0; i < rt.tc.time.length; i++) {
      const t = rt.tc.time[i];
      if (t === null || !Number.isFinite(t)) continue;
      const h = (t - shift) * factor;
      if (last === null || h > last) last = h;
      lastOnClock = Math.max(lastOnClock, t * factor);
      if (h > 0 && (first === null || h < first)) first = h;
      const c = levels[i];
      if (h > 0 && c !== null && c !== undefined && Number.isFinite(c) && c > highest) [highest, peak] = [c, h];
    }
  }
  return last === null || first === null ? null : { first, last, lastOnClock, peak };
}

/**
 * The factors a tmax after the last sample may be off by: minutes as hours, hours as days, ms as s, and a decimal
 * point slip (1.5 h curated as 15 h). ×10 is no tmax slip factor elsewhere (a second peak, another definition lie
 * within a sampling grid's reach), but after the last sample no peak was observed at all.
 */
export const TMAX_TIME_FACTORS: readonly number[] = [60, 24, 1000, 10];

/** How far after the last sample (× its time) a tmax must lie for a decimal slip to be named (see tmaxFindings). */
export const DECIMAL_TMAX_BEYOND = 2;

/** How near its curve's own peak a tmax with a factor undone must land to be preferred (see tmaxFindings). */
export const TMAX_PEAK_FOLD = 2.5;

const DECIMAL_TMAX_CAUSE = { kind: 'unit-factor' as const, factor: 10, text: '×10 (a decimal point slip)' };

/** A stored calculated tmax before its timecourse's dose time; a reported tmax after the last sample. */
export function tmaxFindings(ctx: QaContext, p: ParameterValue): Finding[] {
  if (p.measurement_type !== 'tmax' || p.unit !== HOUR || p.value === null || p.value < 0) return [];
  if (p.source === 'calculated') {
    const rt = p.output.subset_pk === null ? undefined : ctx.timecourseBySubset.get(p.output.subset_pk);
    const perHour = rt?.tc.time_unit ? hoursPer(rt.tc.time_unit) : null;
    const doseTime = rt?.dose && perHour !== null ? rt.dose.time * perHour : null;
    if (doseTime === null || !(p.value < doseTime)) return [];
    return [
      plausibilityFinding(p, 'major', 'tmax-before-dose', `${fmt(p.value)} h is before the dose at ${fmt(doseTime)} h: the highest sample was a pre-dose baseline`, {
        recomputed: doseTime, recomputed_unit: HOUR, suspected_cause: 'pre-dose sample taken as the peak',
      }),
    ];
  }
  const window = sampledWindowHours(ctx, p.key);
  if (window === null || p.value <= window.last * (1 + TMAX_END_TOLERANCE)) return [];
  const { first, last } = window;
  // A tmax read on the study's clock (the second of three doses 2 h apart: samples at 2.1–3.7 h, tmax 2.75 h) was
  // observed: a convention to check, not a value that cannot be.
  const onClock = p.value <= window.lastOnClock * (1 + TMAX_END_TOLERANCE);
  // A factor is named only when it puts tmax inside the sampled window, not merely before its end.
  const inside = (t: number) => t >= first * (1 - TMAX_END_TOLERANCE) && t <= last * (1 + TMAX_END_TOLERANCE);
  const value = p.value;
  const nearPeak = (f: number) => (window.peak === null ? 0 : Math.abs(Math.log(value / f / window.peak)));
  // A decimal slip only for a tmax far after the last sample (twice its time): one just after it is the sampling's end.
  const candidate = (f: number) => inside(value / f) && (f !== 10 || value >= DECIMAL_TMAX_BEYOND * last);
  // Every factor that does, the one landing nearest the curve's own peak first (×60 first without one); none for a
  // tmax read on the study's clock: that explains it.
  const fitting = onClock ? [] : TMAX_TIME_FACTORS.filter(candidate).sort((a, b) => nearPeak(a) - nearPeak(b));
  // Those that land near the curve's own peak (a group's median tmax lies within ×2.5 of its mean curve's), when any does.
  const nearOwnPeak = fitting.filter((f) => nearPeak(f) <= Math.log(TMAX_PEAK_FOLD));
  const factors = nearOwnPeak.length > 0 ? nearOwnPeak : fitting;
  const causes = factors.map((f) => (f === 10 ? DECIMAL_TMAX_CAUSE : unitFactorCause(f, 'tmax'))).filter((c): c is NonNullable<typeof c> => c !== null);
  return [
    plausibilityFinding(p, onClock ? 'minor' : 'major', 'tmax-after-last-sample', `${fmt(p.value)} h is after the last sample of its timecourse (${fmt(last)} h after the dose): ${onClock ? `observed only if read on the study's clock (samples to ${fmt(window.lastOnClock)} h), not from its dose` : 'it cannot have been observed'}`, {
      recomputed: last, recomputed_unit: HOUR, ratio: p.value / last, suspected_cause: causes.length > 0 ? `${causes.map((c) => c.text).join(', or ')}?` : null,
      details: { cause_kinds: causes.length > 0 ? ['unit-factor'] : [], cause_factors: causes.map((c) => c.factor) },
    }),
  ];
}

/**
 * The unit factors f that explain AUClast ×`ratio` AUC∞: undone, AUClast / AUC∞ = ratio / f lies in
 * [AUC_LAST_SHARE_LOWEST, AUC_ORDER_MINOR] (an AUC to the last sample is most of AUC∞; one ×24 of 0.9 of it reads
 * ×21.6, outside the exact window of ×24); nearest to 1 first; a factor the ratio equals (unitFactorCause) alone.
 */
export function aucOrderCauses(ratio: number): (typeof SCALE_FACTORS)[number][] {
  // A factor the ratio equals (within its exact window) is the one: ×1000 exactly is no ×1440 of 0.69.
  const exact = unitFactorCause(ratio, 'auc_inf');
  const exactFactor = SCALE_FACTORS.find((sf) => exact !== null && Math.abs(Math.log(sf.factor / exact.factor)) < 1e-9);
  if (exactFactor) return [exactFactor];
  return SCALE_FACTORS.filter((sf) => (sf.applies === 'all' || sf.applies.has('auc_end')) && ratio / sf.factor >= AUC_LAST_SHARE_LOWEST && ratio / sf.factor <= AUC_ORDER_MINOR)
    .sort((a, b) => Math.abs(Math.log(ratio / a.factor)) - Math.abs(Math.log(ratio / b.factor)));
}

/** AUC∞ below AUClast of the same key (reported) or timecourse (calculated); the unit factors that explain it named (`aucOrderCauses`). */
export function aucOrderFindings(parameters: readonly ParameterValue[]): Finding[] {
  const groups = new Map<string, { inf: ParameterValue[]; end: ParameterValue[] }>();
  for (let i = 0; i < parameters.length; i++) {
    const p = parameters[i];
    if ((p.measurement_type !== 'auc_inf' && p.measurement_type !== 'auc_end') || p.value === null || !(p.value > 0)) continue;
    const group = p.source === 'reported' ? `r|${p.key}|${p.unit}` : `c|${p.output.subset_pk}|${p.unit}`;
    if (p.source === 'calculated' && p.output.subset_pk === null) continue;
    let entry = groups.get(group);
    if (!entry) groups.set(group, (entry = { inf: [], end: [] }));
    (p.measurement_type === 'auc_inf' ? entry.inf : entry.end).push(p);
  }
  const findings: Finding[] = [];
  for (const { inf, end } of groups.values()) {
    if (inf.length === 0 || end.length === 0) continue;
    const largest = end.reduce((a, b) => ((b.value as number) > (a.value as number) ? b : a));
    for (const p of inf) {
      const ratio = (largest.value as number) / (p.value as number);
      if (!(ratio > AUC_ORDER_MINOR)) continue;
      const severity: Severity = ratio > AUC_ORDER_MAJOR ? 'major' : 'minor';
      const causes = aucOrderCauses(ratio);
      findings.push(
        plausibilityFinding(p, severity, 'auc-inf-below-auc-end', `${fmt(p.value as number)} ${p.unit} is below AUClast ${fmt(largest.value as number)} (output ${largest.output.pk}) by ×${fmt(ratio)}: AUC∞ ≥ AUClast by definition`, {
          recomputed: largest.value, recomputed_unit: largest.unit, ratio: 1 / ratio,
          suspected_cause: causes.length > 0 ? causes.map((c) => `AUC∞ ${c.label.replace('×', '×1/')} or AUClast ${c.label} (${c.explanation})`).join(', or ') : null,
          details: { auc_end_output_pk: largest.output.pk, cause_kinds: causes.map(() => 'unit-factor'), cause_factors: causes.map((c) => 1 / c.factor) },
        }),
      );
    }
  }
  return findings;
}

/**
 * AUC over an interval above Cmax × the interval: every concentration of [0, t] is at most Cmax, so
 * AUC(0–t) ≤ Cmax · t for each subject, and for group means too (a mean of bounded values). Reported values of one
 * key (an auc_end with its interval end, a Cmax); beyond the Cmax's own minor tolerance (tolerances.ts: ×1.5 for an
 * individual, ×2 for a group, whose Cmax may be the mean curve's) major, beyond AUC_ORDER_MINOR minor. Either value may hold the slip: the finding names the unit factors of the AUC (or the
 * inverse of the Cmax) that bring the ratio AUC / (Cmax · t) down into (AUC_CMAX_LOWEST, 1].
 */
export function aucCmaxFindings(parameters: readonly ParameterValue[]): Finding[] {
  const groups = new Map<string, { cmax: ParameterValue[]; end: ParameterValue[] }>();
  for (let i = 0; i < parameters.length; i++) {
    const p = parameters[i];
    if (p.source !== 'reported' || p.value === null || !(p.value > 0)) continue;
    const auc = p.measurement_type === 'auc_end' && p.unit === 'gram * hour / liter' && p.output.time !== null && p.output.time > 0 && !!p.output.time_unit;
    if (!auc && !(p.measurement_type === 'cmax' && p.unit === 'gram / liter')) continue;
    let entry = groups.get(p.key);
    if (!entry) groups.set(p.key, (entry = { cmax: [], end: [] }));
    (auc ? entry.end : entry.cmax).push(p);
  }
  const findings: Finding[] = [];
  for (const { cmax, end } of groups.values()) {
    if (cmax.length === 0 || end.length === 0) continue;
    const highest = cmax.reduce((a, b) => ((b.value as number) > (a.value as number) ? b : a));
    for (const p of end) {
      const hours = hoursPer(p.output.time_unit as string);
      if (hours === null) continue;
      const t = (p.output.time as number) * hours;
      const bound = (highest.value as number) * t;
      const ratio = (p.value as number) / bound;
      if (!(ratio > AUC_ORDER_MINOR)) continue;
      // A reported Cmax may sit below the subjects' true peaks as much as its own tolerance allows (a group's Cmax
      // of the mean curve, rounding): only beyond that is the bound broken for certain.
      const slack = TOLERANCES.cmax[p.output.individual_pk === null ? 'group' : 'individual'].minor;
      // And as far as their written digits allow (rounding.ts): an AUC of 2e-5 beside a Cmax of 1e-6 proves little.
      const auc = p.value as number;
      const peak = highest.value as number;
      const roundedRatio = (auc - roundingHalfStep(auc)) / ((peak + roundingHalfStep(peak)) * t);
      const severity: Severity = roundedRatio > slack ? 'major' : 'minor';
      const fitting = SCALE_FACTORS.filter((sf) => sf.applies === 'all' || sf.applies.has('auc_end')).filter((sf) => ratio / sf.factor <= 1 && ratio / sf.factor > AUC_CMAX_LOWEST);
      const causes = fitting.map((sf) => `AUC ${sf.label} or Cmax ${sf.label.replace('×', '×1/')} (${sf.explanation})`);
      findings.push(
        plausibilityFinding(p, severity, 'auc-above-cmax-times-interval', `${fmt(p.value as number)} ${p.unit} over 0–${fmt(t)} h is ×${fmt(ratio)} Cmax ${fmt(highest.value as number)} ${highest.unit} (output ${highest.output.pk}) × ${fmt(t)} h: no concentration of the interval exceeds Cmax`, {
          recomputed: bound, recomputed_unit: p.unit, ratio,
          suspected_cause: causes.join(', or ') || null,
          // The factors as the AUC's (this finding's record): the Cmax's are their inverses.
          details: { cmax_output_pk: highest.output.pk, interval_hours: t, cause_kinds: fitting.map(() => 'unit-factor'), cause_factors: fitting.map((sf) => sf.factor) },
        }),
      );
    }
  }
  return findings;
}

/**
 * The earliest tmax an oral dose allows: the drug must dissolve, leave the stomach and cross the gut wall before its
 * plasma level peaks; the fastest oral peaks (solutions on an empty stomach: paracetamol, caffeine) come after
 * 10–20 min. Under 5 min it cannot have been observed. Only route `oral` (sublingual, rectal solutions and injections
 * peak within minutes).
 */
export const MIN_ORAL_TMAX_HOURS = 5 / 60;
/** The usual window of an oral tmax (h): a factor is named only when it brings the value inside. */
export const ORAL_TMAX_WINDOW: readonly [number, number] = [0.1, 24];

/**
 * A reported tmax after an oral dose below MIN_ORAL_TMAX_HOURS (and above 0: a 0 is the pre-dose rule's): major,
 * naming ×1/60 (hours read as minutes: 30 min curated as 0.5 h read in minutes) or ×1/24 when undoing it brings the
 * value into ORAL_TMAX_WINDOW; without such a factor minor.
 */
export function earlyOralTmaxFinding(p: ParameterValue): Finding | null {
  if (p.measurement_type !== 'tmax' || p.source !== 'reported' || p.route !== 'oral' || p.unit !== HOUR) return null;
  const v = p.value;
  if (v === null || !(v > 0) || v >= MIN_ORAL_TMAX_HOURS) return null;
  const [lo, hi] = ORAL_TMAX_WINDOW;
  const cause = [1 / 60, 1 / 24].map((f) => unitFactorCause(f, 'tmax')).find((c) => c !== null && v / c.factor >= lo && v / c.factor <= hi) ?? null;
  return plausibilityFinding(p, cause ? 'major' : 'minor', 'tmax-too-early-oral', `${fmt(v * 60)} min after an oral dose: no oral dose peaks within ${fmt(MIN_ORAL_TMAX_HOURS * 60)} min`, {
    recomputed: cause ? v / cause.factor : null, recomputed_unit: cause ? HOUR : null, ratio: cause?.factor ?? null,
    suspected_cause: cause ? `${cause.text}: minutes and hours exchanged?` : null,
    details: { cause_kinds: cause ? ['unit-factor'] : [], cause_factors: cause ? [cause.factor] : [] },
  });
}

/**
 * The most of anything a human can be given at once, per kg of body weight: glucose tolerance tests give 1 g/kg
 * (the shared export's largest per-kg dose), the largest paracetamol overdoses reach ~1.5 g/kg (100 g, its largest
 * absolute dose), and drugs kill far below (caffeine from ~0.15 g/kg). 5 g/kg (350 g for 70 kg) is beyond all.
 */
export const MAX_DOSE_G_PER_KG = 5;
export const TYPICAL_WEIGHT_KG = 70;

/**
 * A dosing amount above MAX_DOSE_G_PER_KG (absolute: × TYPICAL_WEIGHT_KG; molar with the molar mass; rates and
 * activities are not bounded): major, culprit the dose, naming the dose slips (×10, ×1000, ×10⁶) that bring it under a
 * tenth of the bound (a dose as large as a glucose load).
 */
export function impossibleDoseFinding(d: InterventionRecord, molarMass: number | null): Finding | null {
  if (!d.normed || !isDose(d) || !d.unit) return null;
  const value = representativeValue(d);
  const unit = value !== null && value > 0 ? doseUnitFactor(d.unit, molarMass) : null;
  if (unit === null) return null;
  const perKg = (value as number) * unit.factor * (unit.kgPower === 0 ? 1 / TYPICAL_WEIGHT_KG : 1);
  if (perKg <= MAX_DOSE_G_PER_KG) return null;
  const causes = slipFactors('dose').filter((c) => c.kind === 'unit-factor' && c.factor > 1 && perKg / c.factor <= MAX_DOSE_G_PER_KG / 10);
  const per = unit.kgPower === 0 ? ` (${fmt(perKg)} g/kg for ${TYPICAL_WEIGHT_KG} kg)` : '';
  return finding({
    kind: 'plausibility', check: 'plausibility/dose', severity: 'major', study_sid: d.study_sid, study_name: d.study_name,
    measurement_type: 'dosing', reported: value, reported_unit: d.unit, ratio: perKg / MAX_DOSE_G_PER_KG,
    suspected_cause: causes.length ? `the dose: ${causes.map((c) => c.text).join(' or ')}` : null, culprit: 'dose', intervention_pk: d.pk,
    message: `dosing ${d.name}: ${fmt(value as number)} ${d.unit}${per} is more than any human can be given at once (${MAX_DOSE_G_PER_KG} g/kg)`,
    details: { rule: 'dose-beyond-human', cause_kinds: causes.length ? ['dose'] : [], cause_factors: causes.map((c) => c.factor) },
  });
}

export const plausibilityCheck: QaCheck = {
  kind: 'plausibility',
  description: 'definitional bounds: negative or zero values of positive quantities, tmax before the dose or after the last sample, an oral tmax within minutes, a dose beyond 5 g/kg, fractions above 1, AUC∞ below AUClast, AUC(0–t) above Cmax · t',
  run(ctx) {
    const findings: Finding[] = [];
    const parameters = ctx.parameters;
    // Each bound is one record's, or one key's (AUC∞ ≥ AUClast): a study not reported gives nothing.
    for (let i = 0; i < parameters.length; i++) {
      const p = parameters[i];
      if (!ctx.reported(p.output.study_sid)) continue;
      const sign = signFinding(p);
      if (sign) findings.push(sign);
      const fraction = fractionFinding(p);
      if (fraction) findings.push(fraction);
      findings.push(...tmaxFindings(ctx, p));
      const early = earlyOralTmaxFinding(p);
      if (early) findings.push(early);
    }
    for (const d of ctx.tables.interventions) {
      const dose = impossibleDoseFinding(d, ctx.molarMass(d.substance));
      if (dose) findings.push(dose);
    }
    findings.push(...aucOrderFindings(ctx.parameters));
    findings.push(...aucCmaxFindings(ctx.parameters));
    return findings;
  },
};
