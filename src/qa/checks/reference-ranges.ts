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
 *   factor is named, the others that fit as alternatives; farther out
 *   (|z| ≥ FAR_Z), where none fits so, one that leaves it no longer outside;
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
 * a dose far above every other study's (`unopposedDoseSlip`: ×30 and more; ×10 only as the study's one dose of its
 * substance, |z| ≥ 10) is major too. Otherwise it is minor, and so is a dose
 * whose subjects excreted too much of it for it to have been that factor smaller (`excretionRefutes`). A dose
 * inside its range is still named the culprit when values of two substances it gives are off per dose by one
 * factor and another dosing of the study is in line (`sharedDoseSlips`). A value per dose of a dose named a slip is
 * the dose's doing whenever undoing the dose's factor brings it back inside (whatever factor its own verdict
 * names first). A value per dose off its range is off in itself or in its dose: it is named the record to fix
 * only when something vouches for the dose (`doseVouched`: the dose is typical of its own reference, or another
 * value per dose of it is in line, and would not be with the slip put on the dose); it names the dose when the other studies' doses put the dose out by the slip the
 * value names and in line with it undone (range-verdict.ts `doseOutBy`); else the finding leaves the culprit open.
 * A value without a reference in its own stratum is judged against wider pools (range-run.ts): its stratum over
 * every population, then, for a concentration, every level of its substance in its tissue, any dose
 * (level-samples.ts); only a big unit or molar factor counts there (range-verdict.ts `wideVerdict`), and the
 * finding names the pool.
 */
import { nearFactor, slipFactors, type SuspectedCause } from '../causes.js';
import type { QaCheck } from '../check.js';
import type { QaContext } from '../context.js';
import { CULPRIT_OF_RECORD, finding, type Finding } from '../finding.js';
import { rangeRun, UNWEIGHED, type WidePool } from '../range-run.js';
import { doseOutBy, doseVouched, FEW_STUDIES_Z, INSIDE_Z, judge, mostOffAlike, OUTSIDE_Z, zTimes, type RangeVerdict, type ZInSpread } from '../range-verdict.js';
import type { Reference } from '../reference-stats.js';
import { sampleLabel, type RangeSample } from '../reference-samples.js';
import { FACTOR_TOLERANCE } from '../tolerances.js';
import { pushTo } from '../../data/records.js';
import { excretedAmounts, largestFractionsExcreted, MARGIN } from '../excretion.js';
import { median } from '../robust.js';

export const CHECK = 'reference-range';

export const TOO_FEW = 'too few other studies for a reference range';

const fmt = (x: number) => String(+x.toPrecision(3));

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
  const undone = values.map((v) => Math.abs(v.z + Math.log(factor) / v.spread));
  const gain = values.map((v, k) => undone[k] - Math.abs(v.z));
  return median(undone) <= OUTSIDE_Z && median(gain) < 0;
}

/**
 * Whether the values per dose of a dosing back a small slip ×f of its dose (×10 or ×1/10) that its own reference cannot
 * name alone (range-verdict.ts `RangeVerdict.weak`: too few studies, or too close in): as `backsDoseSlip`, and the
 * values are off their own ranges as curated (their median beyond OUTSIDE_Z) the other way. Two references, of doses
 * and of values per dose, each put the arm out, and one factor of the dose brings both back: its concentrations are
 * those of the usual dose. A high-dose arm (a design) has values per dose in line; a slip of the values alone leaves
 * the dose in line.
 */
export function firmlyBacksDoseSlip(factor: number, values: readonly NormalisedZ[]): boolean {
  if (!backsDoseSlip(factor, values)) return false;
  return median(values.map((v) => -Math.sign(Math.log(factor)) * v.z)) > OUTSIDE_Z;
}

/**
 * A dose far above every other study's (|z| ≥ FEW_STUDIES_Z) with a factor of UNOPPOSED_DOSE_FACTOR or more that
 * brings it back, and no dose-normalised value with a reference to back or contradict it (none measured, or all in
 * strata of too few studies): a slip. Upward only: a microdose study is a design, a thousandfold overdose is not; nor
 * is ×10 alone (a high-dose arm: indocyanine green at 5 mg/kg beside the usual 0.5 mg/kg, Martin1975).
 */
export function unopposedDoseSlip(verdict: RangeVerdict, normalisedValues: readonly NormalisedZ[], alone = false): boolean {
  if (normalisedValues.length > 0 || verdict.cause === null) return false;
  if (verdict.cause.factor >= UNOPPOSED_DOSE_FACTOR) return verdict.z >= FEW_STUDIES_Z;
  return alone && verdict.cause.factor >= 10 && verdict.z >= UNOPPOSED_SMALL_Z;
}
/**
 * Whether a per-kg dose named an absolute dose under a per-kg unit (range-run.ts `perKgDoseVerdict`: out of the absolute
 * doses' range at every adult weight, inside it as an absolute dose) stands with nothing dose-normalised to say
 * otherwise: the value itself fits the doses of the other studies, which no tail of a dose range does by chance.
 */
export function absoluteUnderPerKg(pool: WidePool | undefined, cause: SuspectedCause, normalisedValues: readonly NormalisedZ[]): boolean {
  return pool === UNWEIGHED && cause.kind === 'per-kg' && normalisedValues.length === 0;
}

/** The smallest dose factor named with nothing dose-normalised to back it. */
export const UNOPPOSED_DOSE_FACTOR = 30;
/**
 * A ×10 dose with nothing dose-normalised to back it is named only this far out, and only as its study's one dose of
 * the substance (`alone`): a high-dose arm beside the usual dose (ICG 5 mg/kg beside 0.5 mg/kg, z 10.3) is a design,
 * simvastatin 800 mg given alone (z 13 among 19 studies of 10–80 mg) is not.
 */
export const UNOPPOSED_SMALL_Z = 10;

/**
 * Whether what the subjects excreted rules out a dose slip ×`factor` (the true dose `factor` times smaller): one
 * reported amount in urine, faeces or bile was `largestFraction` of the dose as curated, so `largestFraction × factor`
 * of the true one, and nobody excretes more than MARGIN × a dose (excretion.ts). Davis1976 gave 37.5–100 g of
 * paracetamol (an overdose study) and found a fifth to a half of it in the urine as metabolites: not mg/kg as mg.
 */
export function excretionRefutes(factor: number, largestFraction: number | undefined): boolean {
  return largestFraction !== undefined && factor > 1 && largestFraction * factor > MARGIN;
}

/** A value per dose judged against its reference: its dosing, study, substance, robust z and the factor named (or null). */
export interface PerDoseJudgment {
  dosePk: number;
  /** What the value is: a reported output or a timecourse (a table's value and a figure's curve are curated apart). */
  record?: RangeSample['record'];
  study: string;
  substance: string | null;
  z: number;
  /** The reference's robust spread (log scale), where the value's z is to be moved by a factor of its dose. */
  spread?: number;
  factor: number | null;
}

/**
 * The one slip factor of a dose (×10, ×1000, ×10⁶ either way: slipFactors 'dose', no molar mass or weight) whose undoing
 * brings every value per dose in `named` back inside its range (|z| ≤ OUTSIDE_Z), or null when none or several do: its
 * values each name the factor nearest to themselves (codeine Cmax and AUC, and its glucuronide's, ×1/24, ×1/29.9 per
 * dose under a dose ×10: values at ×0.5 of the median before it slipped), but one dose explains them all.
 */
function commonDoseFactor(named: readonly { z: number; spread?: number }[]): number | null {
  if (named.some((v) => v.spread === undefined)) return null;
  const fits = slipFactors('dose').filter((c) => c.kind === 'unit-factor' && named.every((v) => Math.abs(zTimes({ z: v.z, spread: v.spread as number }, c.factor)) <= OUTSIDE_Z));
  return fits.length === 1 ? fits[0].factor : null;
}

/**
 * Dosings whose values per dose point at the dose rather than at themselves: values of two or more substances given
 * by it (a drug and its metabolite), or a reported value and a curve (a table and a figure, curated apart), are off by
 * one factor, none of its values per dose is in line, and a value per
 * dose of another dosing of the same study is (so the study's concentrations are not all in one wrong unit). Returns
 * the dose's factor (the inverse of the values'), by dosing pk. Oh2012: midazolam and 1-hydroxymidazolam per dose
 * ×1/1000 the other studies', after a curated 0.1 g dose whose curve is a microdose's; caffeine of the
 * same cocktail in line.
 */
export function sharedDoseSlips(values: readonly PerDoseJudgment[]): Map<number, number> {
  const byDose = new Map<number, PerDoseJudgment[]>();
  for (const v of values) pushTo(byDose, v.dosePk, v);
  // By study, the dosings with a value per dose in line.
  const inLine = new Map<string, Set<number>>();
  for (const v of values) {
    if (Math.abs(v.z) > INSIDE_Z) continue;
    const doses = inLine.get(v.study);
    if (doses) doses.add(v.dosePk);
    else inLine.set(v.study, new Set([v.dosePk]));
  }
  const studyInLine = (study: string, except: number) => {
    const doses = inLine.get(study);
    return doses !== undefined && (doses.size > 1 || !doses.has(except));
  };
  const slips = new Map<number, number>();
  for (const [pk, list] of byDose) {
    const named = list.filter((v) => v.factor !== null);
    if (named.length < 2 || named.length !== list.length) continue;
    const first = named[0].factor as number;
    const alike = named.every((v) => Math.abs(Math.log((v.factor as number) / first)) <= Math.log1p(FACTOR_TOLERANCE));
    const substances = new Set(named.map((v) => v.substance));
    const apart = substances.size >= 2 || (named.some((v) => v.record === 'output') && named.some((v) => v.record === 'timecourse'));
    if (!apart || !studyInLine(named[0].study, pk)) continue;
    const doseFactor = alike ? 1 / first : commonDoseFactor(named);
    if (doseFactor !== null) slips.set(pk, doseFactor);
  }
  return slips;
}

/**
 * Another value per dose of the same dose, curated apart from `sample` — of another substance, or a reported value
 * where the sample is a curve (or the other way round) — off its range the same way (beyond OUTSIDE_Z) by a factor both
 * name among their alternatives: its words, or null. Two cells typed apart slipping alike is the less likely story than one dose slipped
 * (a codeine dose ×10: its table's Cmax per dose and its figure's curve both ×1/10, a metabolite in line before).
 */
function offAlikeApart(sample: RangeSample, others: readonly { sample: RangeSample; z: number; factors: readonly number[] }[], z: number, factors: readonly number[]): string | null {
  for (const v of others) {
    // One factor both name among their alternatives (a curve's ×1/29.9 or ×1/10 beside a Cmax's ×1/10 or ×1/29.9).
    if (Math.sign(v.z) !== Math.sign(z) || Math.abs(v.z) <= OUTSIDE_Z || !v.factors.some((f) => factors.some((g) => nearFactor(f, g)))) continue;
    if (v.sample.substance !== sample.substance) return `a value of ${v.sample.substance ?? 'another substance'}`;
    if (v.sample.record !== sample.record) return v.sample.record === 'timecourse' ? 'its curve' : 'a reported value';
  }
  return null;
}

/** The verdict with the dose's factor (×1/f on a value per dose) named first: the factor the value names itself may be another. */
function doseFirst(verdict: RangeVerdict, doseFactor: number): RangeVerdict {
  const cause: SuspectedCause = { kind: 'dose', factor: 1 / doseFactor, text: `×${fmt(1 / doseFactor)} (its dose ×${fmt(doseFactor)})` };
  return { ...verdict, cause, alternatives: [cause, ...verdict.alternatives] };
}

/**
 * The finding of one judged value. `doseSlip`: its dose is the culprit; `undecided`: a value per dose whose dose
 * nothing vouches for (`doseVouched`), the value or its dose.
 */
function rangeFinding(s: RangeSample, ref: Reference, verdict: RangeVerdict, doseSlip: boolean, pool: WidePool | undefined, undecided = false, why = ''): Finding {
  const m = Math.exp(ref.median);
  const low = Math.exp(ref.median - OUTSIDE_Z * ref.spread);
  const high = Math.exp(ref.median + OUTSIDE_Z * ref.spread);
  const reference = `${ref.studies} other studies${pool ? ` (${pool})` : ''}, ${ref.arms} arms: median ${fmt(m)}, range ${fmt(low)}–${fmt(high)} ${s.unit}`;
  const cause = verdict.cause;
  const back = cause ? `; undoing ${cause.text.split(' (')[0]} brings it to ${fmt(s.value / cause.factor)}` : '';
  const causes = verdict.alternatives.map((c) => c.text).join(', or ');
  const culprit = doseSlip ? 'dose' : CULPRIT_OF_RECORD[s.record];
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
    suspected_cause: cause ? `${doseSlip ? 'the dose: ' : ''}${causes}${undecided ? why || ' — in the value or in its dose (nothing else vouches for the dose)' : why}` : null,
    culprit: cause && !undecided ? culprit : null,
    intervention_pk: s.interventionPk,
    message: `${sampleLabel(s)}: ${fmt(s.value)} ${s.unit} is outside the reference of ${reference} (robust z ${fmt(verdict.z)})${back}${cause ? '' : verdict.excretedTooMuch !== undefined ? `; what was excreted of it (up to ${fmt(verdict.excretedTooMuch)} of it in one amount) rules out a smaller dose` : verdict.unbacked ? '; its dose-normalised values do not back a slip of the dose (none, or inside their ranges)' : verdict.contradicted ? '; its own timecourse disagrees with it by another factor than the one that would bring it back' : '; no slip factor brings it back'}`,
    details: {
      // A value per dose: a slip of its dose moves it too (corroborate.ts `byOwnDose`).
      ...(s.record !== 'dosing' && s.dose !== null ? { per_dose: true } : {}),
      stratum: s.stratum,
      reference_pool: pool ?? 'stratum',
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

export function referenceRangeFindings(ctx: QaContext): Finding[] {
  const run = rangeRun(ctx);
  for (const u of run.unplaced) ctx.notExamined(u.record, u.pk, CHECK, u.reason);
  const judged: { sample: RangeSample; ref: Reference; verdict: RangeVerdict; pool?: WidePool }[] = [];
  /** Per dosing, the robust z and spread of each of its dose-normalised values that has a reference. */
  const normalised = new Map<number, NormalisedZ[]>();
  /** Every value per dose with its verdict, for `sharedDoseSlips`. */
  const perDose: PerDoseJudgment[] = [];
  for (const { sample: s, ref, verdict, pool } of run.judgments) {
    if (ref === null || verdict === null) {
      ctx.notExamined(s.record, s.pk, CHECK, TOO_FEW);
      continue;
    }
    ctx.examined(s.record, s.pk, CHECK);
    if (s.record !== 'dosing' && s.dose !== null) {
      ctx.examined('dosing', s.dose.pk, CHECK);
      perDose.push({ dosePk: s.dose.pk, record: s.record, study: s.study, substance: s.substance, z: verdict.z, spread: ref.spread, factor: verdict.classification === 'slip' ? (verdict.cause?.factor ?? null) : null });
      const zs = normalised.get(s.dose.pk) ?? [];
      zs.push({ z: verdict.z, spread: ref.spread });
      normalised.set(s.dose.pk, zs);
    }
    if (verdict.classification !== 'inside') judged.push({ sample: s, ref, verdict, pool });
  }
  // A dose outside its range is a slip only when its dose-normalised values are off by the inverse factor (an
  // overdose or a microdose study measures concentrations to match); those values then name the dose as culprit.
  const doseSlips = new Map<number, number>();
  const inverse = (a: number, b: number) => Math.abs(Math.log(a * b)) <= Math.log1p(FACTOR_TOLERANCE);
  // What the subjects excreted of a dose bounds how much smaller it can have been (excretion.ts).
  const excreted = largestFractionsExcreted(excretedAmounts(ctx));
  // Per study and dosed substance (as the stratum pools it: a salt as its base), how many dosings it has.
  const dosingsOf = new Map<string, number>();
  const doseKey = (s: RangeSample) => `${s.study}\u0001${s.stratum}`;
  for (const j of run.judgments) if (j.sample.record === 'dosing') dosingsOf.set(doseKey(j.sample), (dosingsOf.get(doseKey(j.sample)) ?? 0) + 1);
  /** Dosings named by a small factor their values per dose back (`firmlyBacksDoseSlip`). */
  const backedWeak = new Set<number>();
  for (const j of judged) {
    if (j.sample.record !== 'dosing') continue;
    const zs = normalised.get(j.sample.pk) ?? [];
    const fraction = excreted.get(j.sample.pk);
    if (!j.verdict.cause) {
      // A small factor its own reference cannot name alone, which the values per dose back firmly.
      const weak = (j.verdict.weak ?? []).find((c) => !excretionRefutes(c.factor, fraction) && firmlyBacksDoseSlip(c.factor, zs));
      if (weak) {
        doseSlips.set(j.sample.pk, weak.factor);
        j.verdict = { ...j.verdict, classification: 'slip', cause: weak, alternatives: [weak] };
        backedWeak.add(j.sample.pk);
      }
      continue;
    }
    const alone = dosingsOf.get(doseKey(j.sample)) === 1;
    const possible = j.verdict.alternatives.filter((c) => !excretionRefutes(c.factor, fraction));
    const backed =
      possible.find((c) => backsDoseSlip(c.factor, zs)) ??
      (possible.length > 0 && (unopposedDoseSlip({ ...j.verdict, cause: possible[0] }, zs, alone) || absoluteUnderPerKg(j.pool, possible[0], zs)) ? possible[0] : undefined);
    if (backed) {
      doseSlips.set(j.sample.pk, backed.factor);
      j.verdict = { ...j.verdict, cause: backed, alternatives: [backed, ...possible.filter((c) => c !== backed)] };
    } else {
      const excretedTooMuch = possible.length < j.verdict.alternatives.length ? fraction : undefined;
      j.verdict = { ...j.verdict, classification: 'outside', cause: null, alternatives: [], unbacked: true, excretedTooMuch };
    }
  }
  // Two substances of one dosing off alike, while another dosing of the study is in line: the dose.
  for (const [pk, factor] of sharedDoseSlips(perDose)) if (!doseSlips.has(pk) && !excretionRefutes(factor, excreted.get(pk))) doseSlips.set(pk, factor);
  // What vouches for each dose: its own z, and the z of every value per dose of it (not from a wide pool: its spread
  // holds populations and doses).
  const doseZ = new Map<number, ZInSpread>();
  /** Per dose, each of its values per dose with its z, spread and the factors its verdict names (none unless a slip). */
  const valueZs = new Map<number, { sample: RangeSample; z: number; spread: number; factors: number[] }[]>();
  for (const { sample: s, verdict, ref, pool } of run.judgments) {
    if (!verdict || !ref || pool) continue;
    if (s.record === 'dosing') doseZ.set(s.pk, { z: verdict.z, spread: ref.spread });
    else if (s.dose !== null) pushTo(valueZs, s.dose.pk, { sample: s, z: verdict.z, spread: ref.spread, factors: verdict.classification === 'slip' ? verdict.alternatives.map((c) => c.factor) : [] });
  }
  return judged.map(({ sample, ref, verdict, pool }) => {
    const dose = sample.record !== 'dosing' ? sample.dose : null;
    const cause = verdict.cause;
    if (sample.record === 'dosing' && backedWeak.has(sample.pk)) return rangeFinding(sample, ref, verdict, false, pool, false, ' — its values per dose are off their own range the other way, and in line with it undone');
    if (dose === null || cause === null) return rangeFinding(sample, ref, verdict, false, pool);
    const doseFactor = doseSlips.get(dose.pk);
    // The dose's slip undone brings the value back inside, or leaves it where it would name no slip of its own (a value
    // at the edge of its range before the dose slipped: z 13 ×70 off, −4.3 undone, where ×24 fits closer): the dose's
    // doing, whichever factor the value names first. A second slip of the value itself is the less likely story.
    const doseSlip =
      doseFactor !== undefined &&
      (inverse(doseFactor, cause.factor) ||
        Math.abs(zTimes({ z: verdict.z, spread: ref.spread }, doseFactor)) <= OUTSIDE_Z ||
        judge({ ...sample, value: sample.value * doseFactor }, ref).classification !== 'slip');
    const named = doseSlip && !inverse(doseFactor, cause.factor) ? doseFirst(verdict, doseFactor) : verdict;
    const others = (valueZs.get(dose.pk) ?? []).filter((v) => v.sample !== sample);
    // Most of the dose's values off alike, by factors not all this value's, and one factor of the dose brings them all
    // back (range-verdict.ts `mostOffAlike`, `commonDoseFactor`): the value or its dose.
    const mostOff =
      !doseSlip &&
      mostOffAlike(others.map((v) => ({ z: v.z, factor: v.factors[0] ?? null })), verdict.z, cause.factor) &&
      commonDoseFactor([{ z: verdict.z, spread: ref.spread }, ...others.filter((v) => Math.sign(v.z) === Math.sign(verdict.z) && Math.abs(v.z) > OUTSIDE_Z)]) !== null;
    // Or a value of the dose curated apart from this one (another substance; a table's value and a figure's curve) off
    // by the same factor: two slips alike, or one in the dose.
    const apart = !doseSlip && !mostOff ? offAlikeApart(sample, others, verdict.z, verdict.alternatives.map((c) => c.factor)) : null;
    const offAlike = mostOff || apart !== null;
    // Then only the dose's own z among the other studies' doses vouches for it (a caffeine dose of 200 mg, which ×1000
    // would make 200 g), not a value of it in line.
    const open = !doseSlip && !doseVouched(doseZ.get(dose.pk), offAlike ? [] : others, cause.factor);
    // Nothing vouches for the dose, and the other studies' doses put it out by the slip the value names: the dose.
    const doseOut = open ? doseOutBy(doseZ.get(dose.pk), cause.factor) : null;
    if (doseOut) {
      const why = ` — the other studies' doses put this dose out (robust z ${fmt(doseOut.z)}) and in line with the slip undone (z ${fmt(doseOut.undone)})`;
      return rangeFinding(sample, ref, named, true, pool, false, why);
    }
    const why = !open
      ? ''
      : mostOff
        ? ` — in the value or in its dose (most of the dose's ${others.length} other values per dose are off the same way)`
        : apart
          ? ` — in the value or in its dose (${apart} of the same dose is off by the same factor)`
          : '';
    return rangeFinding(sample, ref, named, doseSlip, pool, open, why);
  });
}

export const referenceRangeCheck: QaCheck = {
  kind: 'reference-range',
  description: 'reported parameters (Cmax and AUC per dose, CL, V, t½, tmax), timecourse exposure (Cmax per dose, endogenous levels) and doses against the other studies of the same substance, tissue, route and population; concentrations with no such reference against every level of the substance',
  run: referenceRangeFindings,
};
