/**
 * The verdict of the reference-range check (checks/reference-ranges.ts) on one value against its reference, pure:
 * for a value v (log scale) and the reference of its stratum without its own study (median m, robust SD s,
 * reference-stats.ts):
 * - outside: |ln v − m| > OUTSIDE_Z·s, and beyond every other study's arm but one (so two studies of, say, poor
 *   metabolisers vouch for each other); and as far from the studies' median (reference-stats.ts `studyMedian`, each
 *   study weighing one), which a factor must bring it near too: one study's many arms do not make the centre;
 * - slip: outside, and a slip factor f (causes.ts `slipFactors`) with |ln f| ≥ OUTSIDE_Z·s (a factor the natural
 *   spread cannot imitate) brings it back to |ln(v/f) − m| ≤ INSIDE_Z·s (INSIDE_Z_WEAK·s for a factor of less than
 *   2·OUTSIDE_Z·s) — or, far out (|z| ≥ FEW_STUDIES_Z), among the values two other studies reach; the closest such
 *   factor is named, the others that fit as alternatives. Farther out (|z| ≥ FAR_Z), where no factor fits so, the
 *   one factor that undone leaves the value no longer outside (|z| ≤ OUTSIDE_Z) is named (none when two do). A
 *   reference of fewer than FEW_STUDIES studies needs |z| ≥ FEW_STUDIES_Z; a small unit factor (×10)
 *   SMALL_FACTOR_STUDIES studies and |z| ≥ SMALL_FACTOR_Z, and a
 *   group's value (not an individual's: `individual`) — though named after a molar factor of ×10–20 next to it that
 *   names the slip (paracetamol's ×15.1: a decimal slip is as likely); an IV
 *   bolus Cmax a factor of at least BOLUS_CMAX_FACTOR.
 * - A wide reference (any population, any dose: range-run.ts) can tell only big unit slips: `wideVerdict`.
 */
import { nearFactor, slipFactors, SMALL_MOLAR_FACTOR, type SuspectedCause } from './causes.js';
import type { Comparison } from './compare-reported.js';
import type { Reference } from './reference-stats.js';
import type { RangeSample } from './reference-samples.js';
import { FACTOR_TOLERANCE } from './tolerances.js';

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
/**
 * Farther out still (|z| ≥ FAR_Z: ×23 off the median at the floor spread of ×1.3 per z), no value of the reference's
 * population lies there, and a factor that undone leaves the value no longer outside (|z| ≤ OUTSIDE_Z) explains it
 * better than nothing does: named when no factor fits by the rules above (a simvastatin tmax of 190 h, z 17: 3.2 h,
 * z 3.2, with ×60 undone), and only when one factor does so. Not the other studies' extremes: a value landing near
 * the lowest would turn on one study.
 */
export const FAR_Z = 12;
/** An IV bolus Cmax depends on how soon the first sample was taken: below ×100 no factor is named. */
export const BOLUS_CMAX_FACTOR = 100;

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
  /** A dose outside its range that the amounts excreted after it rule out as too large: the largest fraction of it excreted in one amount. */
  excretedTooMuch?: number;
  /** A reported output whose own timecourse disagrees with it by another factor than the one that fits. */
  contradicted?: boolean;
  /**
   * A dose's small factors (×10, ×1/10) that fit but may not name a slip from its own reference alone (too few
   * studies, or too close in: SMALL_FACTOR_STUDIES, SMALL_FACTOR_Z): its values per dose may still back one
   * (checks/reference-ranges.ts `firmlyBacksDoseSlip`).
   */
  weak?: SuspectedCause[];
}

/**
 * Whether the value is one individual's. The reference's spread is that of arms (a group's mean, an individual study
 * arm's median): one person lies further out — the lowest simvastatin Cmax of 24 individuals is ×1/5.5 the other
 * studies' median, z −6 — so a small factor (×10) is never named for an individual from other studies; its own
 * study's individuals tell it (group-members, within-study).
 */
export function individual(sample: { subject?: string | null }): boolean {
  return sample.subject?.startsWith('individual:') === true;
}

/** Whether the value is the Cmax (or a concentration) after an IV bolus. */
function afterBolus(sample: Pick<RangeSample, 'family' | 'dose'>): boolean {
  const d = sample.dose;
  return sample.family === 'cmax' && d !== null && (d.route === 'iv' || d.route === 'intravenous') && d.application !== 'constant infusion';
}

/** The verdict on one value against its reference (pure; see the header). */
export function judge(sample: Pick<RangeSample, 'value' | 'family' | 'molarMass' | 'bodyWeightKg' | 'dose'> & { subject?: string | null; record?: RangeSample['record'] }, ref: Reference): RangeVerdict {
  const v = Math.log(sample.value);
  const z = (v - ref.median) / ref.spread;
  const beyondOthers = z > 0 ? v > ref.secondMax : v < ref.secondMin;
  // The studies' own centre too (reference-stats.ts `studyMedian`): one study's many arms do not make a value outside.
  const studyCentre = ref.studyMedian ?? ref.median;
  const zStudies = (v - studyCentre) / ref.spread;
  if (Math.abs(z) <= OUTSIDE_Z || Math.abs(zStudies) <= OUTSIDE_Z || Math.sign(zStudies) !== Math.sign(z) || !beyondOthers) return { classification: 'inside', z, cause: null, alternatives: [] };
  const fitting: { cause: SuspectedCause; distance: number }[] = [];
  // Small unit factors that fit but may not name a slip alone (see below): named beside a molar factor next to them.
  const companions: SuspectedCause[] = [];
  // Factors that leave a value beyond FAR_Z no longer outside (see FAR_Z), for when nothing fits closer.
  const farFits: { cause: SuspectedCause; distance: number }[] = [];
  if (ref.studies < FEW_STUDIES && Math.abs(z) < FEW_STUDIES_Z) return { classification: 'outside', z, cause: null, alternatives: [] };
  for (const cause of slipFactors(sample.family, { molarMass: sample.molarMass, bodyWeightKg: sample.bodyWeightKg })) {
    const lnf = Math.log(cause.factor);
    if (Math.abs(lnf) < OUTSIDE_Z * ref.spread || Math.sign(lnf) !== Math.sign(z)) continue;
    // A small factor (a decimal slip; µmol/L ↔ mg/L of a drug-sized molecule, ×3 for midazolam) is within the reach of
    // ordinary between-study differences (populations, formulations): it names an outlier only against a broad, far reference.
    const smallBelow = cause.kind === 'unit-factor' ? SMALL_FACTOR : cause.kind === 'molar-mass' ? SMALL_MOLAR_FACTOR : 0;
    const small = Math.abs(lnf) < Math.log(smallBelow);
    const alone = !(small && (ref.studies < SMALL_FACTOR_STUDIES || Math.abs(z) < SMALL_FACTOR_Z || individual(sample)));
    if (!alone && cause.kind !== 'unit-factor') continue;
    if (Math.abs(lnf) < Math.log(BOLUS_CMAX_FACTOR) && afterBolus(sample)) continue;
    // The corrected value near both centres (they are one in most strata).
    const distance = Math.max(Math.abs(v - lnf - ref.median), Math.abs(v - lnf - studyCentre));
    const inside = Math.abs(lnf) >= 2 * OUTSIDE_Z * ref.spread ? INSIDE_Z : INSIDE_Z_WEAK;
    // Far out (|z| ≥ FEW_STUDIES_Z), a factor that lands among the values two or more other studies reach explains it
    // as well as one landing near the median (simvastatin 80 g: ×1000 gives 80 mg, the top of its dose range).
    const amongOthers = Math.abs(z) >= FEW_STUDIES_Z && v - lnf >= ref.secondMin && v - lnf <= ref.secondMax;
    if (distance > inside * ref.spread && !amongOthers) {
      // Only where no factor fits as above: the far rule names no alternatives beside a better fit.
      if (alone && Math.abs(z) >= FAR_Z && distance <= OUTSIDE_Z * ref.spread) farFits.push({ cause, distance });
      continue;
    }
    if (!alone) {
      companions.push(cause);
      continue;
    }
    // Two factors within FACTOR_TOLERANCE of each other are one explanation: the first named (the unit factor) stays.
    if (fitting.some((f) => Math.abs(Math.log(f.cause.factor / cause.factor)) <= Math.log1p(FACTOR_TOLERANCE))) continue;
    fitting.push({ cause, distance });
  }
  // One factor only: the window is wide (8 spreads), and where two land in it (×1/461.5 and ×1/46.1 on a poor
  // metaboliser's metabolite) it tells none of them.
  if (fitting.length === 0 && companions.length === 0 && farFits.length === 1) fitting.push(farFits[0]);
  fitting.sort((a, b) => a.distance - b.distance);
  const alternatives = fitting.map((f) => f.cause);
  // A molar factor of ×10–20 (paracetamol's mmol/L read as mg/dL, ×15.1) names a slip where a decimal slip may not;
  // the ×10 that fits too is named after it, as likely a slip (not for a dose: its alternatives decide its backing).
  if (sample.record !== 'dosing') {
    for (const c of companions) if (alternatives.some((a) => a.kind === 'molar-mass' && Math.abs(Math.log(a.factor / c.factor)) <= Math.log(2))) alternatives.push(c);
  }
  const verdict: RangeVerdict = { classification: alternatives.length > 0 ? 'slip' : 'outside', z, cause: alternatives[0] ?? null, alternatives };
  if (sample.record === 'dosing' && alternatives.length === 0 && companions.length > 0) verdict.weak = companions;
  return verdict;
}

/**
 * Whether the output's own timecourse comparison contradicts the factor: it is major and names no cause within
 * FACTOR_TOLERANCE of it (the slip hypothesis value/f predicts reported/recomputed ≈ f).
 */
export function contradicted(factor: number, comparison: Pick<Comparison, 'verdict'> | undefined): boolean {
  if (!comparison || comparison.verdict.classification !== 'major') return false;
  return !comparison.verdict.causes.some((c) => Math.abs(Math.log(c.factor / factor)) <= Math.log1p(FACTOR_TOLERANCE));
}

/** In a wide reference (any population, any dose: range-run.ts), the smallest factor named, and the robust z it needs. */
export const WIDE_MIN_FACTOR = 100;
export const WIDE_Z = 6;
/**
 * How far from the wide reference's median a value must lie to be a slip there: beyond the largest effect of a
 * population or interaction in the shared export (rifampicin on oral midazolam, one individual's AUC ×1/99,
 * Backman 1996) with a margin of 1.5.
 */
export const WIDE_MIN_DEPARTURE = 150;

/**
 * What a wide reference can tell: a value far from every other study's (|z| ≥ WIDE_Z and WIDE_MIN_DEPARTURE from
 * their median) that a unit or molar factor of at least WIDE_MIN_FACTOR (either way) brings back near their median
 * (within INSIDE_Z spreads; the values two other studies reach are no landing here: the pool holds populations
 * and doses): mg as µg, g/L as mg/L, µmol as µg of a large molecule. Everything else counts as inside: populations
 * and interactions move a value by up to ×100, doses from microdose to overdose by more. `upward`: only a value
 * above the others, for a pool over every dose, where a level far below the others is as likely a microdose study.
 */
export function wideVerdict(verdict: RangeVerdict, ref: Pick<Reference, 'spread'>, direction: 'both' | 'upward'): RangeVerdict {
  const departure = verdict.z * ref.spread;
  const far = (direction === 'upward' ? verdict.z >= WIDE_Z : Math.abs(verdict.z) >= WIDE_Z) && Math.abs(departure) >= Math.log(WIDE_MIN_DEPARTURE);
  const fits = (c: SuspectedCause) =>
    (c.kind === 'unit-factor' || c.kind === 'molar-mass') && Math.abs(Math.log(c.factor)) >= Math.log(WIDE_MIN_FACTOR) && Math.abs(departure - Math.log(c.factor)) <= INSIDE_Z * ref.spread;
  const alternatives = far ? verdict.alternatives.filter(fits) : [];
  return alternatives.length === 0 ? { classification: 'inside', z: verdict.z, cause: null, alternatives: [] } : { ...verdict, classification: 'slip', cause: alternatives[0], alternatives };
}

/** A dose within this robust z of its own reference's centre is a typical dose for its substance, route and population. */
export const TYPICAL_DOSE_Z = 2;

/** A robust z and the spread (log scale) of the reference it is against. */
export interface ZInSpread {
  z: number;
  spread: number;
}

/** The robust z of the value × factor against the same reference: z + ln factor / spread. */
export function zTimes(v: ZInSpread, factor: number): number {
  return v.z + Math.log(factor) / v.spread;
}

/**
 * Whether something other than the value itself vouches for a dose, so that a value per dose off its range by
 * `valueFactor` (c) is off in itself, not through its dose: the dose is typical of the other studies' doses
 * (|z| ≤ TYPICAL_DOSE_Z) and would not be as the dose the slip implies (× c: |z + ln c / s| > INSIDE_Z), or another
 * value per dose of it is in line (|z| ≤ INSIDE_Z) and would not be with the dose's slip undone (× 1/c). A witness in
 * line either way tells nothing: a value per dose at z −2 under a dose ×10 is at +1.8 without it. A dose ×10 of
 * paracetamol (10 g, z 3.8 among doses from microdoses to overdoses) with its one AUC per dose ×1/10 is no vouched
 * dose: the AUC or the dose.
 */
export function doseVouched(dose: ZInSpread | null | undefined, otherValues: readonly ZInSpread[], valueFactor: number): boolean {
  const doseTells = dose != null && Math.abs(dose.z) <= TYPICAL_DOSE_Z && Math.abs(zTimes(dose, valueFactor)) > INSIDE_Z;
  return doseTells || otherValues.some((v) => Math.abs(v.z) <= INSIDE_Z && Math.abs(zTimes(v, 1 / valueFactor)) > INSIDE_Z);
}

/**
 * Whether most of a dosing's values per dose are off their ranges the same way as a value at robust z `z` naming
 * `factor` (beyond OUTSIDE_Z on its side; the value and at least two others counted), by factors that are not all
 * the value's own: then one record under them all, the dose, is as likely the slip as each value, and a value of the
 * dosing in line vouches for nothing. A codeine dose ×10 put 25 values per dose of four analytes at z −4 to −8, the
 * lowest naming ×1/24 or ×1/29.9 each and most no factor: two values in line did not make those their own. Where
 * every one of them names the value's factor (a table's 23 AUCs in µmol·h/L read as mg·h/L, ×194 each), the values'
 * one unit is the slip, and each value the record to fix.
 */
export function mostOffAlike(others: readonly { z: number; factor: number | null }[], z: number, factor: number): boolean {
  if (others.length < 2) return false;
  const alike = others.filter((v) => Math.sign(v.z) === Math.sign(z) && Math.abs(v.z) > OUTSIDE_Z);
  if ((alike.length + 1) * 2 <= others.length + 1) return false;
  return alike.some((v) => v.factor === null || !nearFactor(v.factor, factor));
}

/**
 * Whether a dose itself sits out of the other studies' doses by the slip a value per dose of it names: the value per
 * dose ×c (a dose ×1/c), the dose outside its reference (|z| > INSIDE_Z) and in line with the slip undone (|z + ln c / s|
 * ≤ INSIDE_Z). Then the dose is the record to fix: a paracetamol dose of 10 g (z 3.8) whose AUC per dose is ×1/10 is
 * back at 1 g (z 0) with it undone. The robust z as curated and undone, or null.
 */
export function doseOutBy(dose: ZInSpread | null | undefined, valueFactor: number): { z: number; undone: number } | null {
  if (!dose || !(valueFactor > 0)) return null;
  const undone = zTimes(dose, valueFactor);
  return Math.abs(dose.z) > INSIDE_Z && Math.abs(undone) <= INSIDE_Z ? { z: dose.z, undone } : null;
}

/**
 * Whether the other studies' doses doubt a dose slip that values of it imply: the dose typical as curated (|z| ≤
 * TYPICAL_DOSE_Z) and out at the dose the values imply (× `impliedFactor`: |z + ln f / s| > INSIDE_Z). The robust z
 * as curated and implied, or null. Midazolam 7.5 mg (z 0.2) whose CL and V imply 2.4 mg (z −4 at spread 0.28): a
 * curve ×3.07 (µmol/L as mg/L) moves CL and V alike too.
 */
export function dosesDoubt(dose: ZInSpread | null | undefined, impliedFactor: number): { z: number; implied: number } | null {
  if (!dose || !(impliedFactor > 0)) return null;
  const implied = zTimes(dose, impliedFactor);
  return Math.abs(dose.z) <= TYPICAL_DOSE_Z && Math.abs(implied) > INSIDE_Z ? { z: dose.z, implied } : null;
}
