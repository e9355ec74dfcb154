/**
 * The `baseline` check: the pre-dose level of a substance that the body makes
 * itself (glucose, insulin, cortisol, cholesterol) against the pre-dose levels
 * of the same substance and tissue in the study's other arms. Before any
 * intervention every arm of one study samples the same physiology: on the
 * shared export such baselines of one study agree within ×1.3 (glucose 0.90
 * vs 0.92 g/L in an OGTT and an IV arm), whatever the arms do afterwards. So a
 * whole curve curated ×10 or in µmol/L as mg/L shows at its first samples,
 * even when the arm has no partner value and its pool (route, dose) holds it
 * alone — which the within-study check, comparing whole curves only within a
 * pool, cannot see.
 *
 * For each concentration timecourse: its baseline B = the median of its
 * samples before the dose (t ≤ dose time; t ≤ 0 when the dose time is
 * unknown; at the time of an IV dose not the curve's highest sample, which is
 * the bolus's C0), in the canonical unit with the molar mass. A
 * baseline counts only when it is an endogenous level, not a drug's pre-dose
 * noise or a multiple-dose trough: B ≥ MIN_SHARE of the curve's own highest
 * point, positive, no `multiple dose` in the arm, and not off from the others
 * by its dose's ratio to theirs (`scalesWithDose`: a trough of earlier doses).
 *
 * A curve is off when at least MIN_OTHERS other curves of the study (same
 * substance and tissue) have a baseline, they agree with each other within
 * OTHERS_AGREE (max/min), and B lies beyond ×MIN_RATIO of their median r;
 * major when a slip factor of a concentration (causes.ts `slipFactors`: ×10,
 * ×1000, molar ↔ mass) of ×MIN_RATIO and more lies within FACTOR_SLACK of r
 * (culprit: the timecourse), minor when r is beyond ×UNEXPLAINED and none
 * does. It cannot see a study with fewer than three baselines of the
 * substance, nor a slip all arms share.
 */
import { subjectLabel, subjectOf } from '../../data/dataset.js';
import { pushTo } from '../../data/records.js';
import type { QaCheck } from '../check.js';
import { nearestCause, slipFactors, type SuspectedCause } from '../causes.js';
import { multipleDose } from '../compare-reported.js';
import type { QaContext, RecomputedTimecourse } from '../context.js';
import { finding, type Finding } from '../finding.js';
import { concentrationSeries } from '../input-checks.js';
import { canonicalUnit } from '../parameters.js';
import { median } from '../robust.js';

const CHECK = 'baseline';
/** A baseline is an endogenous level only at this share of the curve's own peak and more (a drug's pre-dose noise is far below). */
export const MIN_SHARE = 0.05;
/** Other arms with a baseline that the comparison needs. */
export const MIN_OTHERS = 2;
/** The other arms' baselines must agree within this factor (max / min): otherwise the study's baselines move for a reason. */
export const OTHERS_AGREE = 1.5;
/** A baseline this far from the others' median (either way) is off; slip factors below it are not named. */
export const MIN_RATIO = 2;
/** The ratio must lie within ×1.25 of the slip factor (the others' own spread, ≤ ×1.5, is the scale). */
export const FACTOR_SLACK = Math.log(1.25);
/** Beyond this factor a baseline off by no slip factor is still worth a look (minor). */
export const UNEXPLAINED = 3;

const fmt = (x: number) => String(+x.toPrecision(3));

export interface Baseline {
  rt: RecomputedTimecourse;
  /** Median pre-dose level, canonical unit. */
  level: number;
  unit: string;
  /** How many pre-dose samples. */
  samples: number;
}

/**
 * The median of the pre-dose samples of a series (see the header), or null: none, not positive, or below
 * MIN_SHARE of the series' highest value.
 */
export function preDoseLevel(time: readonly (number | null)[], values: readonly (number | null)[], doseTime: number | null, ivDose: boolean): { level: number; samples: number } | null {
  let peak = -Infinity;
  for (let i = 0; i < values.length; i++) {
    const c = values[i];
    if (c !== null && Number.isFinite(c) && c > peak) peak = c;
  }
  const before: number[] = [];
  for (let i = 0; i < time.length && i < values.length; i++) {
    const t = time[i];
    const c = values[i];
    if (t === null || c === null || !Number.isFinite(t) || !Number.isFinite(c)) continue;
    const at = doseTime ?? 0;
    // At the time of an IV dose the curve's highest sample is the bolus's C0, not a level before it.
    const pre = t < at || (t === at && !(ivDose && c === peak));
    if (pre) before.push(c);
  }
  if (before.length === 0) return null;
  const level = median(before);
  if (!(level > 0) || level < MIN_SHARE * peak) return null;
  return { level, samples: before.length };
}

/** The slip factor (this over the others) nearest to `log` within FACTOR_SLACK, of ×MIN_RATIO and more; null otherwise. */
export function baselineSlip(log: number, causes: readonly SuspectedCause[]): SuspectedCause | null {
  return nearestCause(log, causes, MIN_RATIO, FACTOR_SLACK);
}

/** The verdict on one baseline against the others' levels (same unit): null when in line or not comparable. */
export function judgeBaseline(level: number, others: readonly number[], causes: readonly SuspectedCause[]): { log: number; centre: number; cause: SuspectedCause | null } | null {
  if (others.length < MIN_OTHERS) return null;
  let lo = Infinity;
  let hi = -Infinity;
  for (const o of others) {
    if (o < lo) lo = o;
    if (o > hi) hi = o;
  }
  if (!(lo > 0) || hi / lo > OTHERS_AGREE) return null;
  const centre = median(others);
  const log = Math.log(level / centre);
  if (Math.abs(log) < Math.log(MIN_RATIO)) return null;
  const cause = baselineSlip(log, causes);
  if (cause === null && Math.abs(log) < Math.log(UNEXPLAINED)) return null;
  return { log, centre, cause };
}

/**
 * Whether a baseline off by exp(log) is off by its dose of the measured substance against the others' (same
 * unit, ×2 apart or more, the ratios within ×1.5): a trough left by earlier doses, not an endogenous level.
 */
export function scalesWithDose(log: number, b: Pick<Baseline, 'rt'>, others: readonly Pick<Baseline, 'rt'>[]): boolean {
  const dose = b.rt.dose;
  if (dose === null) return false;
  const theirs = others.map((o) => o.rt.dose).filter((d) => d !== null && d.unit === dose.unit).map((d) => (d as NonNullable<typeof d>).value);
  if (theirs.length === 0) return false;
  const doseLog = Math.log(dose.value / median(theirs));
  return Math.abs(doseLog) >= Math.log(2) && Math.abs(log - doseLog) <= Math.log(1.5);
}

function baselineOf(ctx: QaContext, rt: RecomputedTimecourse): Baseline | null {
  const { tc } = rt;
  if (!tc.normed || !tc.unit || multipleDose(ctx, rt)) return null;
  const series = concentrationSeries(tc);
  if (!series || series.values.length !== tc.time.length) return null;
  const canonical = canonicalUnit(tc.unit, ctx.molarMass(rt.substance));
  if (canonical === null) return null;
  const iv = rt.dose !== null && rt.dose.route !== 'extravascular';
  const pre = preDoseLevel(tc.time, series.values, rt.dose?.time ?? null, iv);
  return pre && { rt, level: pre.level * canonical.factor, unit: canonical.unit, samples: pre.samples };
}

function baselineFinding(b: Baseline, others: readonly Baseline[], verdict: NonNullable<ReturnType<typeof judgeBaseline>>): Finding {
  const { tc } = b.rt;
  const ratio = Math.exp(verdict.log);
  const cause = verdict.cause;
  return finding({
    kind: 'baseline',
    check: cause ? `${CHECK}/slip` : `${CHECK}/off`,
    severity: cause ? 'major' : 'minor',
    study_sid: tc.study_sid,
    study_name: tc.study_name,
    subset_pk: tc.subset_pk,
    measurement_type: tc.measurement_type,
    subject: subjectLabel(subjectOf(tc)),
    reported: b.level,
    reported_unit: b.unit,
    recomputed: verdict.centre,
    recomputed_unit: b.unit,
    ratio,
    suspected_cause: cause?.text ?? null,
    culprit: cause ? 'timecourse' : null,
    message:
      `${tc.substance} pre-dose level of timecourse ${tc.subset_pk} (${tc.tissue}, median of ${b.samples} sample(s)) is ${fmt(b.level)} ${b.unit}, ` +
      `×${fmt(ratio)} the pre-dose level of the study's ${others.length} other curves (${fmt(verdict.centre)}, agreeing within ×${OTHERS_AGREE}): ` +
      (cause ? `before any intervention every arm samples the same physiology; ${cause.text}?` : 'no slip factor explains it'),
    details: { other_subset_pks: others.map((o) => o.rt.tc.subset_pk), cause_factors: cause ? [cause.factor] : [] },
  });
}

/** Every curve's baseline against its study's other baselines of the substance and tissue. */
export function baselineFindings(ctx: QaContext): Finding[] {
  const byKey = new Map<string, Baseline[]>();
  for (const rt of ctx.timecourses) {
    const b = baselineOf(ctx, rt);
    if (b === null) continue;
    pushTo(byKey, `${rt.tc.study_sid}|${rt.tc.substance}|${rt.tc.tissue}|${b.unit}`, b);
  }
  const findings: Finding[] = [];
  for (const list of byKey.values()) {
    if (list.length < MIN_OTHERS + 1) continue;
    const causes = slipFactors('cmax', { molarMass: ctx.molarMass(list[0].rt.substance) });
    for (const b of list) {
      const others = list.filter((o) => o !== b);
      const verdict = judgeBaseline(b.level, others.map((o) => o.level), causes);
      if (verdict && !scalesWithDose(verdict.log, b, others)) findings.push(baselineFinding(b, others, verdict));
    }
  }
  return findings;
}

export const baselinesCheck: QaCheck = {
  kind: 'baseline',
  description: "a curve's pre-dose level of an endogenous substance against the pre-dose levels of the study's other arms",
  run: baselineFindings,
};
