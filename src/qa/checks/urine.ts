/**
 * The `urine` check: reported `recovery`, `cumulative amount` and
 * `clearance_renal` against the urine timecourses of the same subject,
 * intervention set and substance (issue 14, item 4), with src/nca/urine.ts's
 * definitions: Ae(t) the amount excreted by t, fe = Ae/Dose, CLR = Ae(0, T)/AUC(0, T).
 *
 * What it reads (times after the dose, in hours; amounts in grams):
 * - `cumulative-amount` timecourses: Ae(t) interpolated linearly between
 *   samples (exact at a sample), from (0, 0);
 * - `recovery` timecourses: fe(t) likewise;
 * - `excretion-rate` (and urine `ra`) timecourses: Ae(t) ≈ the area under the
 *   rate curve from (0, 0) (PKNCA's AURC, trapezoids over the sampled rates):
 *   an approximation (rates are plotted at collection midpoints), so its
 *   agreement band is wider.
 * A value at time t is only read when the timecourse reaches t (within 2 %;
 * 10 % for rates); a reported value without a time is read at the last sample.
 * fe of a metabolite is in moles of the dose (Ae/M_metabolite)/(Dose/M_dose), and
 * needs both molar masses; a per-kg renal clearance needs the body weight.
 * CLR needs a plasma (or serum, blood) concentration timecourse of the same key
 * and an Ae to T read from a cumulative amount or recovery timecourse; the plasma AUC(0, T)
 * is λz-extrapolated (the standard profile's fit) past its last sample.
 *
 * Severity (QA_WAVE2 discipline): `major` only when a slip factor (×100 for a
 * percentage curated as a fraction, the unit factors of ../causes.ts, the body
 * weight) explains the ratio AND brings it back within the agreement band;
 * outside the band otherwise `minor` (beyond 2×) or `info`.
 * Not seen: recovery in faeces or bile, and outputs without a urine timecourse
 * (most of the export: the paper gives the total only); the identity
 * recovery = amount/dose between two reported outputs is pk-identities.ts's.
 */
import type { TimecourseRecord } from '../../data/model.js';
import { nca } from '../../nca/nca.js';
import { backExtrapolatedC0 } from '../../nca/observed.js';
import { partialAreas } from '../../nca/partial-auc.js';
import { conversionFactor } from '../../units/convert.js';
import { UnitError } from '../../units/errors.js';
import type { QaCheck } from '../check.js';
import { foldDistance, nearFactor, SCALE_FACTORS, type SuspectedCause } from '../causes.js';
import type { QaContext, RecomputedTimecourse } from '../context.js';
import { finding, type Finding, type Severity } from '../finding.js';
import { pushTo, representativeSeries } from '../../data/records.js';
import { outputHours, type ParameterValue } from '../parameters.js';

/** Agreement bands (fold): read off a cumulative or recovery series, and approximated from rates. */
export const EXACT_BAND = 1.25;
export const RATE_BAND = 1.5;
/** Beyond this fold an unexplained disagreement is minor, within it info. */
export const MINOR_FOLD = 2;
export const URINE_TYPES: ReadonlySet<string> = new Set(['cumulative-amount', 'recovery', 'excretion-rate', 'ra']);
const CHECKED: ReadonlySet<string> = new Set(['recovery', 'cumulative amount', 'clearance_renal']);
const PLASMA_TISSUES = ['plasma', 'serum', 'blood'];

/** A urine series in hours after the dose: amounts in g, fractions, or rates in g/h. */
export interface UrineSeries {
  tc: TimecourseRecord;
  kind: 'amount' | 'fraction' | 'rate';
  time: number[];
  value: number[];
}

const factorOrNull = (from: string | null, to: string, molarMass: number | null): number | null => {
  if (!from) return null;
  try {
    return conversionFactor(from, to, molarMass === null ? undefined : { molarMass });
  } catch (e) {
    if (e instanceof UnitError) return null;
    throw e;
  }
};

/** The series of a urine timecourse, sorted, with (0, 0) prepended; null when its units do not convert. */
export function urineSeries(tc: TimecourseRecord, doseTimeH: number, molarMass: number | null): UrineSeries | null {
  const kind = tc.measurement_type === 'cumulative-amount' ? 'amount' : tc.measurement_type === 'recovery' ? 'fraction' : 'rate';
  const target = kind === 'amount' ? 'gram' : kind === 'fraction' ? 'dimensionless' : 'gram / hour';
  const f = factorOrNull(tc.unit, target, molarMass);
  const ft = factorOrNull(tc.time_unit, 'hour', null);
  const series = representativeSeries(tc)?.values;
  if (f === null || ft === null || !series || series.length !== tc.time.length) return null;
  const points: [number, number][] = [];
  tc.time.forEach((t, i) => {
    const v = series[i];
    if (t !== null && v !== null && Number.isFinite(t) && Number.isFinite(v) && t * ft - doseTimeH > 0) points.push([t * ft - doseTimeH, v * f]);
  });
  if (points.length === 0) return null;
  points.sort((a, b) => a[0] - b[0]);
  for (let i = 1; i < points.length; i++) if (points[i][0] === points[i - 1][0]) return null;
  return { tc, kind, time: [0, ...points.map((p) => p[0])], value: [0, ...points.map((p) => p[1])] };
}

/** Largest share of an Ae read from rates that may come from the λz extrapolation past the last rate. */
export const MAX_RATE_EXTRAPOLATION = 0.3;

/**
 * Ae by t from a rate series: the area under the rate curve (trapezoids from
 * (0, 0)), past the last rate extended by R_last·(1 − e^(−λz(t − t_last)))/λz
 * with λz the best fit of the rate curve (the rate method: urinary rates fall
 * with the plasma λz), when that part is at most MAX_RATE_EXTRAPOLATION of it.
 */
function excretedByRate(s: UrineSeries, t: number): number | null {
  const last = s.time[s.time.length - 1];
  const inside = partialAreas(s.time, s.value, 0, Math.min(t, last), { type: 'all' });
  if (typeof inside === 'string') return null;
  if (t <= last) return inside.auc;
  const fit = nca({ time: s.time, conc: s.value }, { aucMethod: 'linear' });
  const lz = fit.parameters.LAMZ?.value;
  const rLast = s.value[s.value.length - 1];
  if (!lz || !(rLast > 0)) return null;
  const tail = (rLast * -Math.expm1(-lz * (t - last))) / lz;
  return tail <= MAX_RATE_EXTRAPOLATION * (inside.auc + tail) ? inside.auc + tail : null;
}

/** Ae (g) or fe by time t (h) from a series; null when the series does not reach t. */
export function excretedBy(s: UrineSeries, t: number): number | null {
  if (!(t > 0)) return null;
  if (s.kind === 'rate') return excretedByRate(s, t);
  const last = s.time[s.time.length - 1];
  if (t > last * 1.02) return null;
  const end = Math.min(t, last);
  let k = 1;
  while (s.time[k] < end) k++;
  const [t1, t2, v1, v2] = [s.time[k - 1], s.time[k], s.value[k - 1], s.value[k]];
  return v1 + ((end - t1) / (t2 - t1)) * (v2 - v1);
}

/** The dose of the intervention set in g and its substance, when there is exactly one dosing. */
function doseOf(ctx: QaContext, p: ParameterValue): { grams: number; substance: string | null; timeH: number; pk: number } | null {
  const dosings = ctx.dosingOfSet(p.output.intervention_pks);
  if (dosings.length !== 1) return null;
  const d = dosings[0];
  const grams = d.value === null ? null : factorOrNull(d.unit, 'gram', ctx.molarMass(d.substance));
  if (grams === null || d.value === null || !(d.value > 0)) return null;
  const t = d.time === null ? 0 : Number(d.time);
  const ft = factorOrNull(d.time_unit, 'hour', null) ?? 1;
  return { grams: d.value * grams, substance: d.substance, timeH: Number.isFinite(t) ? t * ft : 0, pk: d.pk };
}

interface Expected {
  value: number;
  band: number;
  how: string;
  subset_pk: number;
}

/** fe from Ae for the reported substance and the dose: a metabolite in moles of the dose. */
function fraction(ctx: QaContext, aeGrams: number, substance: string | null, dose: { grams: number; substance: string | null }): number | null {
  if (substance === dose.substance) return aeGrams / dose.grams;
  const [m, md] = [ctx.molarMass(substance), ctx.molarMass(dose.substance)];
  return m === null || md === null ? null : aeGrams / m / (dose.grams / md);
}

function expectedExcretion(ctx: QaContext, p: ParameterValue, series: UrineSeries[], dose: ReturnType<typeof doseOf>): Expected | null {
  const t = outputHours(p);
  for (const s of series) {
    const at = t ?? s.time[s.time.length - 1];
    const x = excretedBy(s, at);
    if (x === null) continue;
    const band = s.kind === 'rate' ? RATE_BAND : EXACT_BAND;
    const how = `${s.tc.measurement_type} timecourse ${s.tc.subset_pk} at ${+at.toPrecision(4)} h`;
    const base = { band, subset_pk: s.tc.subset_pk };
    if (p.measurement_type === 'cumulative amount') {
      if (s.kind !== 'fraction') return { ...base, value: x, how };
      if (dose && dose.substance === p.substance) return { ...base, value: x * dose.grams, how: `${how} × dose` };
      continue;
    }
    if (s.kind === 'fraction') return { ...base, value: x, how };
    const fe = dose ? fraction(ctx, x, p.substance, dose) : null;
    if (fe !== null) return { ...base, value: fe, how: `${how} / dose` };
  }
  return null;
}

/** Plasma AUC(0, T) in g·h/L of the key's concentration timecourse (standard profile points and λz). */
function plasmaAuc(ctx: QaContext, p: ParameterValue, tH: number): { auc: number; subset_pk: number } | null {
  for (const tissue of PLASMA_TISSUES) {
    const rts: readonly RecomputedTimecourse[] = ctx.timecoursesByKey.get(ctx.matchKey({ ...p.output, tissue })) ?? [];
    for (const rt of rts) {
      const std = rt.standard;
      const ft = factorOrNull(rt.tc.time_unit, 'hour', null);
      const fc = factorOrNull(rt.tc.unit, 'gram / liter', ctx.molarMass(p.substance));
      if (std.error || std.points.length === 0 || ft === null || fc === null) continue;
      const time = std.points.map((q) => q.time);
      const conc = std.points.map((q) => q.conc);
      if (time[0] > 0) {
        // From the dose: C0 back-extrapolated for an IV bolus (as the standard profile), 0 otherwise.
        const c0 = rt.dose?.route === 'iv-bolus' ? backExtrapolatedC0(time, conc) ?? 0 : 0;
        time.unshift(0);
        conc.unshift(c0);
      }
      const lambdaZ = std.lambdaZ ? -std.lambdaZ.slope : null;
      const end = tH / ft;
      const areas = partialAreas(time, conc, 0, end, { method: 'lin-up-log-down', type: end <= time[time.length - 1] ? 'all' : 'inf', lambdaZ });
      if (typeof areas !== 'string' && areas.auc > 0) return { auc: areas.auc * ft * fc, subset_pk: rt.tc.subset_pk };
    }
  }
  return null;
}

function expectedRenalClearance(ctx: QaContext, p: ParameterValue, series: UrineSeries[], dose: ReturnType<typeof doseOf>): Expected | null {
  for (const s of series) {
    const tH = s.time[s.time.length - 1];
    const atEnd = s.kind === 'rate' ? excretedBy(s, tH) : s.value[s.value.length - 1];
    const ae = s.kind !== 'fraction' ? atEnd : dose && dose.substance === p.substance ? (atEnd as number) * dose.grams : null;
    if (ae === null) continue;
    const plasma = plasmaAuc(ctx, p, tH);
    if (!plasma) continue;
    let clr = ae / plasma.auc;
    if (p.unit === 'liter / hour / kilogram') {
      if (!p.bodyWeightKg) continue;
      clr /= p.bodyWeightKg;
    } else if (p.unit !== 'liter / hour') continue;
    const how = `Ae(0, ${+tH.toPrecision(4)} h) of ${s.tc.measurement_type} timecourse ${s.tc.subset_pk} / plasma AUC of timecourse ${plasma.subset_pk}`;
    return { value: clr, band: s.kind === 'rate' ? RATE_BAND : EXACT_BAND, how, subset_pk: s.tc.subset_pk };
  }
  return null;
}

/** The slip factor that explains r and brings it within the band, with its text. */
export function slipCause(r: number, type: string, band: number, bodyWeightKg: number | null): SuspectedCause | null {
  const candidates: SuspectedCause[] = [];
  if (type === 'recovery') {
    candidates.push({ kind: 'unit-factor', factor: 100, text: '×100: a percentage curated as a fraction' }, { kind: 'unit-factor', factor: 0.01, text: '×1/100: a fraction curated as a percentage' });
  }
  for (const sf of SCALE_FACTORS) {
    if (sf.applies !== 'all' && !(type === 'clearance_renal' && sf.applies.has('clearance'))) continue;
    candidates.push(
      { kind: 'unit-factor', factor: sf.factor, text: `${sf.label} (${sf.explanation})` },
      { kind: 'unit-factor', factor: 1 / sf.factor, text: `${sf.label.replace('×', '×1/')} (${sf.explanation})` },
    );
  }
  if (type === 'clearance_renal' && bodyWeightKg) {
    const w = +bodyWeightKg.toPrecision(3);
    candidates.push({ kind: 'per-kg', factor: bodyWeightKg, text: `per-kg vs absolute (body weight ${w} kg)` }, { kind: 'per-kg', factor: 1 / bodyWeightKg, text: `per-kg vs absolute (body weight ${w} kg)` });
  }
  let best: SuspectedCause | null = null;
  for (const c of candidates) {
    if (foldDistance(r, c.factor) > Math.log(band)) continue;
    if (!best || foldDistance(r, c.factor) < foldDistance(r, best.factor)) best = c;
  }
  return best && !nearFactor(best.factor, 1, 0.5) ? best : null;
}

function judge(p: ParameterValue, e: Expected, doseInterventionPk: number | null): Finding | null {
  const reported = p.value as number;
  const r = reported / e.value;
  if (!(r > 0) || !Number.isFinite(r) || foldDistance(r, 1) <= Math.log(e.band)) return null;
  const cause = slipCause(r, p.measurement_type, e.band, p.bodyWeightKg);
  const severity: Severity = cause ? 'major' : foldDistance(r, 1) > Math.log(MINOR_FOLD) ? 'minor' : 'info';
  const o = p.output;
  return finding({
    kind: 'urine',
    check: `urine/${p.measurement_type.replace(' ', '-')}`,
    severity,
    study_sid: o.study_sid,
    study_name: o.study_name,
    subset_pk: e.subset_pk,
    output_pk: o.pk,
    measurement_type: o.measurement_type,
    subject: p.subject,
    reported,
    reported_unit: p.unit,
    recomputed: e.value,
    recomputed_unit: p.unit,
    ratio: r,
    suspected_cause: cause?.text ?? null,
    culprit: cause ? 'output' : null,
    intervention_pk: doseInterventionPk,
    message: `reported ${o.measurement_type} ${+reported.toPrecision(4)} vs ${+e.value.toPrecision(4)} from the ${e.how} (×${+r.toPrecision(3)})`,
    details: { how: e.how, band: e.band, cause_kinds: cause ? [cause.kind] : [], cause_factors: cause ? [cause.factor] : [] },
  });
}

export interface UrineCoverage {
  candidates: number;
  checked: number;
}

/** Findings and how many reported outputs could be checked (the note's figure). */
export function urineFindings(ctx: QaContext): { findings: Finding[]; coverage: UrineCoverage } {
  const byKey = new Map<string, TimecourseRecord[]>();
  for (const tc of ctx.tables.timecourses) {
    if (!tc.normed || tc.tissue !== 'urine' || !URINE_TYPES.has(tc.measurement_type)) continue;
    const member = ctx.dataset.firstMemberOutput(tc);
    if (!member) continue;
    const key = ctx.matchKey({ ...member, intervention_pks: tc.intervention_pk, tissue: 'urine' });
    pushTo(byKey, key, tc);
  }
  const findings: Finding[] = [];
  const coverage = { candidates: 0, checked: 0 };
  if (byKey.size === 0) return { findings, coverage };
  const parameters = ctx.parameters;
  for (let i = 0; i < parameters.length; i++) {
    const p = parameters[i];
    if (p.source !== 'reported' || !CHECKED.has(p.measurement_type) || p.value === null) continue;
    if (p.measurement_type !== 'clearance_renal' && p.tissue !== 'urine') continue;
    const tcs = byKey.get(ctx.matchKey({ ...p.output, tissue: 'urine' }));
    if (!tcs) continue;
    coverage.candidates++;
    const dose = doseOf(ctx, p);
    const series = tcs
      .map((tc) => urineSeries(tc, dose?.timeH ?? 0, ctx.molarMass(p.substance)))
      .filter((s): s is UrineSeries => s !== null)
      // Exact reads first: cumulative amounts, then recoveries, then rates.
      .sort((a, b) => ['amount', 'fraction', 'rate'].indexOf(a.kind) - ['amount', 'fraction', 'rate'].indexOf(b.kind));
    const expected = p.measurement_type === 'clearance_renal' ? expectedRenalClearance(ctx, p, series, dose) : expectedExcretion(ctx, p, series, dose);
    if (!expected || !(expected.value > 0)) continue;
    coverage.checked++;
    const f = judge(p, expected, dose?.pk ?? null);
    if (f) findings.push(f);
  }
  return { findings, coverage };
}

export const urineCheck: QaCheck = {
  kind: 'urine',
  description: 'reported recovery, cumulative amount and renal clearance against the urine timecourses (Ae, fe = Ae/dose, CLR = Ae/AUC)',
  run: (ctx) => urineFindings(ctx).findings,
};
