/**
 * Which slips reconcile a PK identity (identities.ts) that a value breaks, for the odd one out of the pk-identity
 * check (checks/pk-identities.ts): the unit, per-kg and molar ↔ mass factors that, divided out of the value, make all
 * its identities hold — from a point estimate of how far it is off, or, where only bounds constrain it, the one wide
 * prefix factor inside them, or every slip that undoes a hard bound broken far (CLr ≤ CL). And, where several values
 * could be off, the one the other studies' reference names (`referenceNamed`).
 */
import { exactMolarCause, molarMassCause, ratioCauses, slipFactors, unitFactorCause, unknownWeightPerKgCause, type SlipQuantity, type SuspectedCause } from './causes.js';
import type { Candidate, IdentityNode, Slot } from './identities.js';

/** A node with the record it came from (checks/pk-identities.ts `KeyNode`), as far as naming one reads it. */
type RecordNode = IdentityNode & { parameter?: { output: { pk: number } }; dosing?: { pk: number } };

/** How close the factor a value is off by must be to a slip factor to name it (the identities' own scatter, ×1.25). */
export const IDENTITY_FACTOR_TOLERANCE = 0.25;

/** The slots a per-kg vs absolute slip can touch. */
const PER_KG_SLOTS: ReadonlySet<Slot> = new Set(['clearance', 'clearance_renal', 'clearance_unbound', 'vd', 'vd_ss', 'vd_unbound', 'dose']);

/** Slips of ×1000 and more: the only ones a bound (a band of ×20 either way) can name; prefix slips, so only of amounts and volumes. */
const WIDE_SLIPS = [1e3, 1e-3, 1e6, 1e-6];
export const PREFIXABLE: ReadonlySet<Slot> = new Set(['clearance', 'clearance_renal', 'clearance_unbound', 'vd', 'vd_ss', 'vd_unbound', 'auc_inf', 'aumc_inf', 'cmax', 'dose', 'amount']);

/**
 * The slip family of a slot (causes.ts): a renal or unbound clearance slips as a clearance, an unbound volume as a
 * volume, a fraction unbound as a fraction (×100), an amount excreted as a dose; a fraction excreted by no factor here
 * (plausibility sees one above 1).
 */
export function slipQuantity(slot: Slot): SlipQuantity | null {
  if (slot === 'clearance_renal' || slot === 'clearance_unbound') return 'clearance';
  if (slot === 'vd_unbound') return 'vd';
  // An absorption's half-life and rate slip as the elimination's do (minutes vs hours, a decimal point).
  if (slot === 'thalf_absorption') return 'thalf';
  if (slot === 'kabs') return 'kel';
  if (slot === 'fraction_unbound') return 'fraction';
  // An AUMC (g·h²/L) slips by the prefixes and decimals of an AUC (its h² slips are no factor of causes.ts).
  if (slot === 'aumc_inf') return 'auc_inf';
  // An amount excreted slips as a dose does: prefixes, a decimal point, molar ↔ mass, per kg.
  if (slot === 'amount') return 'dose';
  return slot === 'recovery' ? null : slot;
}

/**
 * The slips that, divided out of the candidate's value, make its identities hold: the unit
 * factors, per-kg and molar-mass causes of its factor (within ×1.25) that lie in its interval;
 * with bounds only, the one wide factor (×1000, ×10⁶) inside the interval.
 */
export function candidateCauses(c: Candidate, bodyWeightKg: number | null, molarMass: number | null): SuspectedCause[] {
  const q = slipQuantity(c.node.slot);
  if (q === null) return [];
  const [lo, hi] = c.interval;
  const slack = 1 + IDENTITY_FACTOR_TOLERANCE;
  const reconciles = (f: number) => f >= lo / slack && f <= hi * slack;
  if (c.factor === null) {
    // A time (t½, kel, MRT) is never off by a prefix: ×60 or ×24 hide in a bound's width, so nothing is named.
    if (!PREFIXABLE.has(c.node.slot)) return [];
    const inside = WIDE_SLIPS.filter((f) => f >= lo && f <= hi);
    if (inside.length !== 1) return [];
    const cause = unitFactorCause(inside[0], q);
    return cause ? [cause] : [];
  }
  const options = { tolerance: IDENTITY_FACTOR_TOLERANCE };
  const causes = ratioCauses(c.factor, q, bodyWeightKg, options);
  // A volume, clearance or dose of a subject without a curated weight: per-kg by an adult weight (40–120 kg).
  if (causes.length === 0 && bodyWeightKg === null && PER_KG_SLOTS.has(c.node.slot)) {
    const perKg = unknownWeightPerKgCause(c.factor);
    if (perKg) causes.push(perKg);
  }
  if (causes.length === 0) {
    // CL = dose/AUC∞ is exact where the authors derived one from the other: a molar ↔ mass factor of ×2–10 shows
    // within 3 % there (exactMolarCause), when the factor is a point estimate.
    const molar = molarMassCause(c.factor, q, molarMass) ?? exactMolarCause(c.factor, q, molarMass);
    if (molar) causes.push(molar);
  }
  return causes.filter((cause) => reconciles(cause.factor));
}

/** Identities that hold by definition, whatever the population or study (not a route's or a model's approximation). */
const HARD_BOUNDS: ReadonlySet<string> = new Set(['identity/clr-cl']);
/** How far a hard bound must be broken before its odd one out is named a slip with no point estimate. */
export const HARD_BOUND_BREAK = 10;
/** The widest slip named for a broken bound: one that leaves the value at most this far on the bound's other side. */
const HARD_BOUND_SPAN = 1000;

/**
 * The slips that would put a value that breaks a hard bound (HARD_BOUNDS) by at least ×HARD_BOUND_BREAK back within
 * it: every slip factor of its quantity (unit, per-kg, molar) inside the candidate's interval and within
 * ×HARD_BOUND_SPAN of its edge, nearest first. A renal clearance ×16 the total clearance of the same subject (CLr ≤ CL,
 * fe ≤ 1) is a slip of one of them, whichever: ×16.7 (mL/min read as L/h), ×60, ×70 per kg, ×1000 all undo it. Empty
 * otherwise (candidateCauses names a bound's slip only when one wide factor alone fits).
 */
export function boundCauses(c: Candidate, codes: readonly string[], bodyWeightKg: number | null, molarMass: number | null): SuspectedCause[] {
  // The hard bounds are between clearances (CLr ≤ CL).
  if (slipQuantity(c.node.slot) !== 'clearance' || c.factor !== null || codes.length === 0 || !codes.every((code) => HARD_BOUNDS.has(code))) return [];
  const [lo, hi] = c.interval;
  const high = lo >= HARD_BOUND_BREAK;
  if (!high && !(hi <= 1 / HARD_BOUND_BREAK)) return [];
  const [from, to] = high ? [lo, Math.min(hi, lo * HARD_BOUND_SPAN)] : [Math.max(lo, hi / HARD_BOUND_SPAN), hi];
  return slipFactors('clearance', { bodyWeightKg, molarMass })
    .filter((k) => k.factor >= from && k.factor <= to)
    .sort((a, b) => Math.abs(Math.log(a.factor)) - Math.abs(Math.log(b.factor)));
}

/** Whether the cross-study reference backs a slip ×factor of a record (range-run.ts `referenceBacks`): its words, or null. */
export type ReferenceBacking = (record: string, factor: number) => string | null;

/**
 * The one reported value among a key's candidates that the other studies put off by one of its causes, with that
 * cause and their words; null when none or several are.
 */
export function referenceNamed(ranked: readonly { c: Candidate; causes: SuspectedCause[] }[], backs: ReferenceBacking, vouches: DoseVouching): { c: Candidate; cause: SuspectedCause; words: string } | null {
  const backed: { c: Candidate; cause: SuspectedCause; words: string }[] = [];
  // The other studies judge a Cmax or AUC per dose: with the dose a candidate too, they tell the value's slip from the
  // dose's only where the other studies' doses vouch for the dose (a dose ×10 put a torasemide AUC∞ per dose at z −10,
  // and the AUC was named; Callahan1983's AUCs in µmol·h/L are named beside a typical caffeine dose).
  const dose = ranked.find((r) => r.c.node.slot === 'dose');
  const dosePk = dose ? ((dose.c.node as RecordNode).dosing?.pk ?? null) : null;
  for (const { c, causes } of ranked) {
    const pk = (c.node as RecordNode).parameter?.output.pk;
    if (pk === undefined) continue;
    for (const cause of causes) {
      if (dose && PER_DOSE_SLOTS.has(c.node.slot) && !(dosePk !== null && vouches(dosePk, cause.factor))) continue;
      const words = backs(`output:${pk}`, cause.factor);
      if (words === null) continue;
      backed.push({ c, cause, words });
      break;
    }
  }
  return backed.length === 1 ? backed[0] : null;
}

/**
 * Whether the other studies' doses vouch for a dosing against a slip ×factor of a value per dose of it (range-verdict.ts
 * `doseVouched`: the dose typical as curated and not at the dose the slip would imply).
 */
export type DoseVouching = (dosePk: number, valueFactor: number) => boolean;

/** The slots the other studies judge per dose (reference-samples.ts): exposure. */
const PER_DOSE_SLOTS: ReadonlySet<Slot> = new Set(['auc_inf', 'cmax']);
