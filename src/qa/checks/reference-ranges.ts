/**
 * The `reference-range` check (issue 13, item 4): every reported PK
 * parameter, every concentration timecourse and every dose against what the
 * other studies of the dataset report for the same substance, tissue, route,
 * application and population (reference-samples.ts builds the strata,
 * reference-stats.ts the distributions). It sees values that have no
 * timecourse, which reported-vs-recomputed cannot.
 *
 * For a value v (log scale) and the reference of its stratum without its own
 * study (median m, robust SD s, at least MIN_STUDIES other studies):
 * - outside: |ln v − m| > OUTSIDE_Z·s, and beyond every other study's arm
 *   but one (so two studies of, say, poor metabolisers vouch for each other);
 * - major: outside, and a slip factor f (causes.ts `slipFactors`: ×1000,
 *   ×10⁶, ×60, ×24, ×10, molar ↔ mass, per-kg with the body weight) with
 *   |ln f| ≥ OUTSIDE_Z·s (a factor the natural spread cannot imitate) brings
 *   it back to |ln(v/f) − m| ≤ INSIDE_Z·s (INSIDE_Z_WEAK·s for a factor of
 *   less than 2·OUTSIDE_Z·s) — or, far out (|z| ≥ FEW_STUDIES_Z), among the
 *   values two other studies reach (secondMin…secondMax); the closest such
 *   factor is named, the others that fit as alternatives;
 *   a reference of fewer than FEW_STUDIES studies needs |z| ≥ FEW_STUDIES_Z;
 *   a small unit factor (×10) needs SMALL_FACTOR_STUDIES studies and |z| ≥ SMALL_FACTOR_Z, an IV bolus Cmax a factor of
 *   at least ×100 (the first sample's time decides it);
 * - minor: outside, and no factor explains it (a special population the data
 *   does not mark, another formulation, or an error of another kind);
 * - too few other studies: no finding, and the coverage says why.
 * A reported output that disagrees with its own timecourse (reported-vs-recomputed, major) keeps a named factor
 * only when that comparison names the same one: the value's own curve is closer evidence than other studies, and
 * a factor it contradicts (a swapped value ×1/41 of its curve that ×1/32.7, the molar mass, would bring inside the
 * range) names the wrong cause; the verdict is then `outside` (minor), the comparison's major stands.
 * Doses vary legitimately over decades (microdosing, overdose studies), so a
 * dose outside its range is major only when its dose-normalised values
 * (Cmax, AUC per dose) back the factor (`backsDoseSlip`: undoing it brings them
 * back to their centre, better than as curated); those of them whose own verdict
 * names the inverse factor then name the dose as the culprit. With none of them to back or contradict it,
 * a dose far above every other study's (`unopposedDoseSlip`) is major too. Otherwise it is minor.
 * A concentration without a reference in its own stratum is judged against every level of its substance in its
 * tissue, any dose or population (level-samples.ts; only a big upward unit factor counts there: `wideVerdict`).
 */
import type { QaCheck } from '../check.js';
import { slipFactors, SMALL_MOLAR_FACTOR, type SuspectedCause } from '../causes.js';
import type { Comparison } from '../compare-reported.js';
import type { RecordKind } from '../coverage.js';
import type { QaContext } from '../context.js';
import { finding, type Finding } from '../finding.js';
import { armValues, leaveOneStudyOut, MIN_STUDIES, type Reference } from '../reference-stats.js';
import { wideLevelSamples } from '../level-samples.js';
import { rangeSamples, sampleLabel, type RangeSample, type Unplaced } from '../reference-samples.js';
import { FACTOR_TOLERANCE } from '../tolerances.js';

export const CHECK = 'reference-range';

/** Robust z beyond which a value is outside its reference (≈ 1 in 16,000 for a normal distribution). */
export const OUTSIDE_Z = 4;
/** Robust z within which the corrected value must fall for the factor to be named. */
export const INSIDE_Z = 2.5;
/**
 * The same for a factor of less than 2 × OUTSIDE_Z spreads (×10 in a wide stratum): a value in the tail of its
 * reference, slightly beyond OUTSIDE_Z, corrects to the other tail; a real slip of a typical value lands near the median.
 */
export const INSIDE_Z_WEAK = 1.5;
/**
 * A small unit factor (below ×20: ×10, ×1000/60) is within reach of real differences between studies (total vs free
 * metabolite, an unmarked interaction or genotype): named only with SMALL_FACTOR_STUDIES other studies and |z| ≥ SMALL_FACTOR_Z.
 * Measured on the shared export: every ×10 named from fewer studies or closer in was a study that differed for a reason.
 */
export const SMALL_FACTOR = 20;

export const SMALL_FACTOR_STUDIES = 10;
export const SMALL_FACTOR_Z = 6;
/**
 * A reference of fewer than FEW_STUDIES other studies can be bimodal (half its studies in another unit), and one
 * slipped study then moves its median: a factor is named from it only at |z| ≥ FEW_STUDIES_Z. Measured with the
 * qa-recall bench (9 copies): the false alarms all came from strata of 5–6 studies at z 4.5–6.6.
 */
export const FEW_STUDIES = 8;
export const FEW_STUDIES_Z = 8;
/** An IV bolus Cmax depends on how soon the first sample was taken: below ×100 no factor is named. */
export const BOLUS_CMAX_FACTOR = 100;

export const TOO_FEW = 'too few other studies for a reference range';

const fmt = (x: number) => String(+x.toPrecision(3));

export interface RangeVerdict {
  classification: 'inside' | 'outside' | 'slip';
  /** Robust z of the value. */
  z: number;
  /** The factor that brings the value closest to the median. */
  cause: SuspectedCause | null;
  /** Every factor that brings it back inside, closest first (the first is `cause`). */
  alternatives: SuspectedCause[];
  /** A dose outside its range whose dose-normalised values do not back a slip. */
  unbacked?: boolean;
  /** A reported output whose own timecourse disagrees with it by another factor than the one that fits. */
  contradicted?: boolean;
}

/** The verdict on one value against its reference (pure; see the header). */
/** Whether the value is the Cmax (or a concentration) after an IV bolus. */
function afterBolus(sample: Pick<RangeSample, 'family' | 'dose'>): boolean {
  const d = sample.dose;
  return sample.family === 'cmax' && d !== null && (d.route === 'iv' || d.route === 'intravenous') && d.application !== 'constant infusion';
}

export function judge(sample: Pick<RangeSample, 'value' | 'family' | 'molarMass' | 'bodyWeightKg' | 'dose'>, ref: Reference): RangeVerdict {
  const v = Math.log(sample.value);
  const z = (v - ref.median) / ref.spread;
  const beyondOthers = z > 0 ? v > ref.secondMax : v < ref.secondMin;
  if (Math.abs(z) <= OUTSIDE_Z || !beyondOthers) return { classification: 'inside', z, cause: null, alternatives: [] };
  const fitting: { cause: SuspectedCause; distance: number }[] = [];
  if (ref.studies < FEW_STUDIES && Math.abs(z) < FEW_STUDIES_Z) return { classification: 'outside', z, cause: null, alternatives: [] };
  for (const cause of slipFactors(sample.family, { molarMass: sample.molarMass, bodyWeightKg: sample.bodyWeightKg })) {
    const lnf = Math.log(cause.factor);
    if (Math.abs(lnf) < OUTSIDE_Z * ref.spread || Math.sign(lnf) !== Math.sign(z)) continue;
    // A small factor (a decimal slip; µmol/L ↔ mg/L of a drug-sized molecule, ×3 for midazolam) is within the reach of
    // ordinary between-study differences (populations, formulations): it names an outlier only against a broad, far reference.
    const smallBelow = cause.kind === 'unit-factor' ? SMALL_FACTOR : cause.kind === 'molar-mass' ? SMALL_MOLAR_FACTOR : 0;
    const small = Math.abs(lnf) < Math.log(smallBelow);
    if (small && (ref.studies < SMALL_FACTOR_STUDIES || Math.abs(z) < SMALL_FACTOR_Z)) continue;
    if (Math.abs(lnf) < Math.log(BOLUS_CMAX_FACTOR) && afterBolus(sample)) continue;
    const distance = Math.abs(v - lnf - ref.median);
    const inside = Math.abs(lnf) >= 2 * OUTSIDE_Z * ref.spread ? INSIDE_Z : INSIDE_Z_WEAK;
    // Far out (|z| ≥ FEW_STUDIES_Z), a factor that lands among the values two or more other studies reach explains it
    // as well as one landing near the median (simvastatin 80 g: ×1000 gives 80 mg, the top of its dose range).
    const amongOthers = Math.abs(z) >= FEW_STUDIES_Z && v - lnf >= ref.secondMin && v - lnf <= ref.secondMax;
    if (distance > inside * ref.spread && !amongOthers) continue;
    // Two factors within FACTOR_TOLERANCE of each other are one explanation: the first named (the unit factor) stays.
    if (fitting.some((f) => Math.abs(Math.log(f.cause.factor / cause.factor)) <= Math.log1p(FACTOR_TOLERANCE))) continue;
    fitting.push({ cause, distance });
  }
  fitting.sort((a, b) => a.distance - b.distance);
  const alternatives = fitting.map((f) => f.cause);
  return { classification: alternatives.length > 0 ? 'slip' : 'outside', z, cause: alternatives[0] ?? null, alternatives };
}

/**
 * Whether the output's own timecourse comparison contradicts the factor: it is major and names no cause within
 * FACTOR_TOLERANCE of it (the slip hypothesis value/f predicts reported/recomputed ≈ f).
 */
export function contradicted(factor: number, comparison: Pick<Comparison, 'verdict'> | undefined): boolean {
  if (!comparison || comparison.verdict.classification !== 'major') return false;
  return !comparison.verdict.causes.some((c) => Math.abs(Math.log(c.factor / factor)) <= Math.log1p(FACTOR_TOLERANCE));
}

/** A dose-normalised value's robust z against its reference, and that reference's spread (log scale). */
export interface NormalisedZ {
  z: number;
  spread: number;
}

/**
 * Whether the dose-normalised values of a dosing back a slip ×f of its dose: undoing it multiplies each of them by f,
 * moving its z by ln f / spread. Backed when that brings them (their median) back inside their range (OUTSIDE_Z) and
 * closer to their centre than they are as curated: the slip explains them better than no slip (the dose itself has
 * already been brought near its own centre by the factor). A microdose or overdose study, whose
 * concentrations match its dose, has values near their centre that the factor would throw out: not backed.
 */
export function backsDoseSlip(factor: number, values: readonly NormalisedZ[]): boolean {
  if (values.length === 0) return false;
  const mid = (xs: number[]) => {
    const sorted = [...xs].sort((a, b) => a - b);
    const h = sorted.length >> 1;
    return sorted.length % 2 ? sorted[h] : (sorted[h - 1] + sorted[h]) / 2;
  };
  const undone = values.map((v) => Math.abs(v.z + Math.log(factor) / v.spread));
  const gain = values.map((v, k) => undone[k] - Math.abs(v.z));
  return mid(undone) <= OUTSIDE_Z && mid(gain) < 0;
}

/**
 * A dose far above every other study's (|z| ≥ FEW_STUDIES_Z) with a factor that brings it back, and no
 * dose-normalised value with a reference to back or contradict it (none measured, or all in strata of too few
 * studies): a slip. Upward only: a microdose study is a design, a thousandfold overdose is not.
 */
export function unopposedDoseSlip(verdict: RangeVerdict, normalisedValues: readonly NormalisedZ[]): boolean {
  return normalisedValues.length === 0 && verdict.cause !== null && verdict.cause.factor > 1 && verdict.z >= FEW_STUDIES_Z;
}

const CULPRIT = { output: 'output', timecourse: 'timecourse', dosing: 'dose' } as const;

function rangeFinding(s: RangeSample, ref: Reference, verdict: RangeVerdict, doseSlip: boolean): Finding {
  const m = Math.exp(ref.median);
  const low = Math.exp(ref.median - OUTSIDE_Z * ref.spread);
  const high = Math.exp(ref.median + OUTSIDE_Z * ref.spread);
  const reference = `${ref.studies} other studies, ${ref.arms} arms: median ${fmt(m)}, range ${fmt(low)}–${fmt(high)} ${s.unit}`;
  const cause = verdict.cause;
  const back = cause ? `; undoing ${cause.text.split(' (')[0]} brings it to ${fmt(s.value / cause.factor)}` : '';
  const causes = verdict.alternatives.map((c) => c.text).join(', or ');
  const culprit = doseSlip ? 'dose' : CULPRIT[s.record];
  return finding({
    kind: 'reference-range',
    check: `${CHECK}/${s.record}`,
    severity: verdict.classification === 'slip' ? 'major' : 'minor',
    study_sid: s.study,
    study_name: s.studyName,
    subset_pk: s.subsetPk,
    output_pk: s.outputPk,
    measurement_type: s.measurementType,
    subject: s.subject,
    reported: s.value,
    reported_unit: s.unit,
    recomputed: m,
    recomputed_unit: s.unit,
    ratio: s.value / m,
    suspected_cause: cause ? `${doseSlip ? 'the dose: ' : ''}${causes}` : null,
    culprit: cause ? culprit : null,
    intervention_pk: s.interventionPk,
    message: `${sampleLabel(s)}: ${fmt(s.value)} ${s.unit} is outside the reference of ${reference} (robust z ${fmt(verdict.z)})${back}${cause ? '' : verdict.unbacked ? '; its dose-normalised values do not back a slip of the dose (none, or inside their ranges)' : verdict.contradicted ? '; its own timecourse disagrees with it by another factor than the one that would bring it back' : '; no slip factor brings it back'}`,
    details: {
      stratum: s.stratum,
      reference_studies: ref.studies,
      reference_arms: ref.arms,
      reference_median: m,
      reference_low: low,
      reference_high: high,
      z: verdict.z,
      cause_kinds: verdict.alternatives.map((c) => c.kind),
      cause_factors: verdict.alternatives.map((c) => c.factor),
    },
  });
}

/** One value judged against its reference (null: too few other studies). */
export interface RangeJudgment {
  sample: RangeSample;
  ref: Reference | null;
  verdict: RangeVerdict | null;
}

/** Every value of a run, judged once; shared by this check and within-study (`rangeJudgmentOf`). */
export interface RangeRun {
  judgments: RangeJudgment[];
  unplaced: Unplaced[];
  /** By record kind and pk (a record judged twice: its last judgment); `judgmentOf` reads it by `<record kind>:<pk>`. */
  byRecord: Record<RecordKind, Map<number, RangeJudgment>>;
}

/** The judgment of a record named `<record kind>:<pk>` (`output:12`, `timecourse:3`, `dosing:4`), if any. */
export function judgmentOf(run: RangeRun, record: string): RangeJudgment | undefined {
  const colon = record.lastIndexOf(':');
  return run.byRecord[record.slice(0, colon) as RecordKind]?.get(Number(record.slice(colon + 1)));
}

const runs = new WeakMap<QaContext, RangeRun>();

/** The judgments of every value of the context, computed on first use (pure of the context). */
export function rangeRun(ctx: QaContext): RangeRun {
  const known = runs.get(ctx);
  if (known) return known;
  const unplaced: Unplaced[] = [];
  const samples = rangeSamples(ctx, (u) => unplaced.push(u));
  const byStratum = new Map<string, RangeSample[]>();
  for (const s of samples) {
    const list = byStratum.get(s.stratum);
    if (list) list.push(s);
    else byStratum.set(s.stratum, [s]);
  }
  const ownCurve = new Map<number, Comparison>();
  for (const c of ctx.comparisons) ownCurve.set(c.output.pk, c);
  const judgments: RangeJudgment[] = [];
  for (const list of byStratum.values()) {
    // Most strata (one substance in a few studies) have no reference for anyone: counted before any arm is built.
    const studies = new Set<string>();
    for (const s of list) studies.add(s.study);
    if (studies.size <= MIN_STUDIES) {
      for (const s of list) judgments.push({ sample: s, ref: null, verdict: null });
      continue;
    }
    const references = leaveOneStudyOut(armValues(list.map((s) => ({ study: s.study, arm: s.arm, log: Math.log(s.value) }))));
    for (const s of list) {
      const ref = references.get(s.study) ?? null;
      if (ref === null) {
        judgments.push({ sample: s, ref: null, verdict: null });
        continue;
      }
      let verdict = judge(s, ref);
      if (verdict.cause && s.record === 'output' && contradicted(verdict.cause.factor, ownCurve.get(s.pk))) {
        verdict = { ...verdict, classification: 'outside', cause: null, alternatives: [], contradicted: true };
      }
      judgments.push({ sample: s, ref, verdict });
    }
  }
  // Keyed by number (no key text per judgment). The any-dose levels below are no backing for other checks: not kept here.
  const byRecord: Record<RecordKind, Map<number, RangeJudgment>> = { output: new Map(), timecourse: new Map(), dosing: new Map() };
  for (let i = 0; i < judgments.length; i++) byRecord[judgments[i].sample.record].set(judgments[i].sample.pk, judgments[i]);
  judgments.push(...wideLevelJudgments(ctx, byRecord, ownCurve));
  const run = { judgments, unplaced, byRecord };
  runs.set(ctx, run);
  return run;
}

/** In the any-dose level pool, the smallest unit factor named, and the robust z it needs. */
export const WIDE_MIN_FACTOR = 100;
export const WIDE_Z = 6;

/**
 * What the any-dose level pool can tell: a value far above every other study's levels (|z| ≥ WIDE_Z) that a unit
 * factor of at least WIDE_MIN_FACTOR brings back (mg as µg, g/L as mg/L). Everything else counts as inside: doses
 * (microdoses to overdoses), interactions and sampling spans move levels by more than any smaller factor, and a level
 * far below the others is as likely a microdose study as a slip.
 */
export function wideVerdict(verdict: RangeVerdict): RangeVerdict {
  const alternatives = verdict.z >= WIDE_Z ? verdict.alternatives.filter((c) => c.kind === 'unit-factor' && c.factor >= WIDE_MIN_FACTOR) : [];
  return alternatives.length === 0 ? { classification: 'inside', z: verdict.z, cause: null, alternatives: [] } : { ...verdict, classification: 'slip', cause: alternatives[0], alternatives };
}

/**
 * Concentrations without a reference in their own stratum (none, or too few studies there), judged against every
 * level of their substance in their tissue, any dose or population (level-samples.ts).
 */
function wideLevelJudgments(ctx: QaContext, strict: RangeRun['byRecord'], ownCurve: ReadonlyMap<number, Comparison>): RangeJudgment[] {
  const referenced = (s: RangeSample) => strict[s.record].get(s.pk)?.ref != null;
  const byStratum = new Map<string, RangeSample[]>();
  for (const s of wideLevelSamples(ctx)) {
    const list = byStratum.get(s.stratum);
    if (list) list.push(s);
    else byStratum.set(s.stratum, [s]);
  }
  const judgments: RangeJudgment[] = [];
  for (const list of byStratum.values()) {
    const unreferenced = list.filter((s) => !referenced(s));
    if (unreferenced.length === 0) continue;
    const references = leaveOneStudyOut(armValues(list.map((s) => ({ study: s.study, arm: s.arm, log: Math.log(s.value) }))));
    for (const s of unreferenced) {
      const ref = references.get(s.study) ?? null;
      const verdict = ref === null ? null : wideVerdict(judge(s, ref));
      // A factor its own curve contradicts is no slip either (as in a strict stratum); the comparison's major stands.
      const kept = verdict?.cause && s.record === 'output' && contradicted(verdict.cause.factor, ownCurve.get(s.pk)) ? { ...verdict, classification: 'inside' as const, cause: null, alternatives: [] } : verdict;
      judgments.push({ sample: s, ref, verdict: kept });
    }
  }
  return judgments;
}

/**
 * Whether the cross-study reference of a record backs a slip ×f found by another check (within-study): its value lies
 * on the factor's side of the centre, and undoing the factor brings it within INSIDE_Z and nearer the centre than it
 * is (the slip explains it better than no slip). Returns the reference in words, or null.
 */
export function referenceBacks(ctx: QaContext, record: string, factor: number): string | null {
  return withFactorUndone(ctx, record, factor, (z, undone) => Math.sign(z) === Math.sign(Math.log(factor)) && Math.abs(undone) <= INSIDE_Z && Math.abs(undone) < Math.abs(z));
}

/**
 * A record's robust z in its cross-study reference and the z with a slip ×factor undone, put to `test`: the reference
 * in words when it passes, else (or without a reference) null.
 */
function withFactorUndone(ctx: QaContext, record: string, factor: number, test: (z: number, undone: number) => boolean): string | null {
  const j = judgmentOf(rangeRun(ctx), record);
  if (!j || !j.ref || !j.verdict) return null;
  const z = j.verdict.z;
  const undone = z - Math.log(factor) / j.ref.spread;
  return test(z, undone) ? `${j.ref.studies} other studies' ${sampleLabel(j.sample)} put it at robust z ${fmt(z)}, ${fmt(undone)} with the factor undone` : null;
}

/**
 * Whether the cross-study reference of a record refutes a slip ×f that another check (within-study) would blame on
 * it: its value lies inside its reference (|z| ≤ INSIDE_Z) and undoing the factor would take it beyond OUTSIDE_Z. The
 * disagreement is real, but the records it was set against are the likelier holders of the slip (a group's total
 * clearance beside its individuals' curated renal clearances). Returns the reference in words, or null.
 */
export function referenceRefutes(ctx: QaContext, record: string, factor: number): string | null {
  return withFactorUndone(ctx, record, factor, (z, undone) => Math.abs(z) <= INSIDE_Z && Math.abs(undone) > OUTSIDE_Z);
}

export function referenceRangeFindings(ctx: QaContext): Finding[] {
  const run = rangeRun(ctx);
  for (const u of run.unplaced) ctx.notExamined(u.record, u.pk, CHECK, u.reason);
  const judged: { sample: RangeSample; ref: Reference; verdict: RangeVerdict }[] = [];
  /** Per dosing, the robust z and spread of each of its dose-normalised values that has a reference. */
  const normalised = new Map<number, NormalisedZ[]>();
  for (const { sample: s, ref, verdict } of run.judgments) {
    if (ref === null || verdict === null) {
      ctx.notExamined(s.record, s.pk, CHECK, TOO_FEW);
      continue;
    }
    ctx.examined(s.record, s.pk, CHECK);
    if (s.record !== 'dosing' && s.dose !== null) {
      ctx.examined('dosing', s.dose.pk, CHECK);
      const zs = normalised.get(s.dose.pk) ?? [];
      zs.push({ z: verdict.z, spread: ref.spread });
      normalised.set(s.dose.pk, zs);
    }
    if (verdict.classification !== 'inside') judged.push({ sample: s, ref, verdict });
  }
  // A dose outside its range is a slip only when its dose-normalised values are off by the inverse factor (an
  // overdose or a microdose study measures concentrations to match); those values then name the dose as culprit.
  const doseSlips = new Map<number, number>();
  const inverse = (a: number, b: number) => Math.abs(Math.log(a * b)) <= Math.log1p(FACTOR_TOLERANCE);
  for (const j of judged) {
    if (j.sample.record !== 'dosing' || !j.verdict.cause) continue;
    const zs = normalised.get(j.sample.pk) ?? [];
    const backed = j.verdict.alternatives.find((c) => backsDoseSlip(c.factor, zs)) ?? (unopposedDoseSlip(j.verdict, zs) ? j.verdict.cause : undefined);
    if (backed) {
      doseSlips.set(j.sample.pk, backed.factor);
      j.verdict = { ...j.verdict, cause: backed, alternatives: [backed, ...j.verdict.alternatives.filter((c) => c !== backed)] };
    } else j.verdict = { ...j.verdict, classification: 'outside', cause: null, alternatives: [], unbacked: true };
  }
  return judged.map(({ sample, ref, verdict }) => {
    const doseFactor = sample.record !== 'dosing' && sample.dose !== null ? doseSlips.get(sample.dose.pk) : undefined;
    const doseSlip = doseFactor !== undefined && verdict.cause !== null && inverse(doseFactor, verdict.cause.factor);
    return rangeFinding(sample, ref, verdict, doseSlip);
  });
}

export const referenceRangeCheck: QaCheck = {
  kind: 'reference-range',
  description: 'reported parameters (Cmax and AUC per dose, CL, V, t½, tmax), timecourse exposure (Cmax per dose, endogenous levels) and doses against the other studies of the same substance, tissue, route and population; concentrations with no such reference against every level of the substance',
  run: referenceRangeFindings,
};
