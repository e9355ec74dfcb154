/**
 * The judgments of the reference-range check, computed once per run and shared with within-study (which asks whether
 * the other studies back or refute a slip it found: `referenceBacks`, `referenceRefutes`).
 *
 * Each value (reference-samples.ts) is judged in its stratum against the other studies' arms (reference-stats.ts,
 * range-verdict.ts). A value whose stratum holds too few other studies is judged in the wider pools below, the first
 * that names a slip standing for all (`firstSlipOrFirst`):
 * 0. for a value per dose of a per-kg dose to an unweighed subject, the absolute doses' stratum at both ends of an
 *    adult's weight (`unweighedJudgments`); for a per-kg dose itself, the absolute doses at every adult weight
 *    (`perKgDoseJudgments`: an absolute dose under a per-kg unit is named so);
 * 1. for an adult's value, its stratum over every population (a special population or an interaction that few
 *    studies share): there only a factor no population makes counts (`wideVerdict`: ×100 or more, at |z| ≥ WIDE_Z);
 * 2. for a concentration, every level of its substance in its tissue, any dose (level-samples.ts): only a big
 *    upward unit factor counts there.
 * The fallbacks' judgments are no backing for other checks (their spread holds populations and doses).
 */
import { subjectFields } from '../data/dataset.js';
import type { Comparison } from './compare-reported.js';
import type { RecordKind } from './coverage.js';
import type { QaContext } from './context.js';
import { wideLevelSamples } from './level-samples.js';
import { ADULT_BODY_WEIGHT_KG } from './causes.js';
import { contradicted, FEW_STUDIES, FEW_STUDIES_Z, individual, INSIDE_Z, judge, OUTSIDE_Z, SMALL_FACTOR, SMALL_FACTOR_Z, wideVerdict, type RangeVerdict, type ZInSpread } from './range-verdict.js';
import { armValues, leaveOneStudyOut, MIN_STUDIES, robustReference, type Reference } from './reference-stats.js';
import { PER_KG, PER_KG_DOSE, rangeSamples, sampleLabel, STRATUM_POPULATION_FIELD, STRATUM_SEPARATOR, STRATUM_UNIT_FIELD, type RangeSample, type Unplaced } from './reference-samples.js';

const fmt = (x: number) => String(+x.toPrecision(3));

/** The fallback pools, as a finding names them. */
export type WidePool = 'every population' | 'every dose and population' | typeof UNWEIGHED | typeof UNWEIGHED_PER_KG;

/** The pool of a per-kg dose's value set against absolute doses, its subject's weight unknown. */
export const UNWEIGHED = 'absolute doses, an adult weight of 40–120 kg assumed';
/** The pool of a per-kg value (a clearance in L/h/kg, a volume in L/kg) set against absolute ones, its subject's weight unknown. */
export const UNWEIGHED_PER_KG = 'absolute values, an adult weight of 40–120 kg assumed';

/** One value judged against its reference (null: too few other studies). */
export interface RangeJudgment {
  sample: RangeSample;
  ref: Reference | null;
  verdict: RangeVerdict | null;
  /** The wider pool of a fallback judgment (absent: the sample's own stratum). */
  pool?: WidePool;
}

/** Every value of a run, judged once; shared by this check and within-study (`rangeJudgmentOf`). */
export interface RangeRun {
  judgments: RangeJudgment[];
  unplaced: Unplaced[];
  /** By record kind and pk (a record judged twice: its last judgment); `judgmentOf` reads it by `<record kind>:<pk>`. */
  byRecord: Record<RecordKind, Map<number, RangeJudgment>>;
  /**
   * The judgments of unweighed subjects' per-kg values in their absolute stratum (`unweighedJudgments`), by record
   * kind and pk, with the power of the weight that made them absolute: the one fallback that may back another
   * check's slip (its population and dose are the value's own; only the weight is assumed, over every adult's).
   */
  unweighedByRecord: Record<RecordKind, Map<number, UnweighedJudgment>>;
}

/** A judgment of an unweighed subject's value at a typical adult weight (TYPICAL_ADULT_KG), and the weight's power in it. */
export interface UnweighedJudgment extends RangeJudgment {
  ref: Reference;
  verdict: RangeVerdict;
  kgPower: 1 | -1;
}

/** The judgment of a record named `<record kind>:<pk>` (`output:12`, `timecourse:3`, `dosing:4`), if any. */
export function judgmentOf(run: RangeRun, record: string): RangeJudgment | undefined {
  return byRecordName(run.byRecord, record);
}

/**
 * The robust z and spread of a record's judgment in its own stratum (`<record kind>:<pk>`), or null: none, too few
 * studies, or a wide pool's (whose spread holds populations and doses, no witness for one record).
 */
export function ownJudgment(run: RangeRun, record: string): ZInSpread | null {
  const j = judgmentOf(run, record);
  return j?.verdict && j.ref && !j.pool ? { z: j.verdict.z, spread: j.ref.spread } : null;
}

/** The entry of a per-kind map of a record named `<record kind>:<pk>`. */
function byRecordName<T>(maps: Record<RecordKind, Map<number, T>>, record: string): T | undefined {
  const colon = record.lastIndexOf(':');
  return maps[record.slice(0, colon) as RecordKind]?.get(Number(record.slice(colon + 1)));
}

const runs = new WeakMap<QaContext, RangeRun>();

/** The judgments of every value of the context, computed on first use (pure of the context). */
export function rangeRun(ctx: QaContext): RangeRun {
  const known = runs.get(ctx);
  if (known) return known;
  const unplaced: Unplaced[] = [];
  const byStratum = groupByStratum(rangeSamples(ctx, (u) => unplaced.push(u)));
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
      judgments.push({ sample: s, ref, verdict: ownCurveAllows(judge(s, ref), s, ownCurve, 'outside') });
    }
  }
  // Keyed by number (no key text per judgment). The fallbacks below are no backing for other checks: not kept here.
  const byRecord: Record<RecordKind, Map<number, RangeJudgment>> = { output: new Map(), timecourse: new Map(), dosing: new Map() };
  for (let i = 0; i < judgments.length; i++) byRecord[judgments[i].sample.record].set(judgments[i].sample.pk, judgments[i]);
  // By record kind and pk (numbers: no key text per sample).
  const referenced: Record<RecordKind, Set<number>> = { output: new Set(), timecourse: new Set(), dosing: new Set() };
  for (const j of judgments) if (j.ref !== null) referenced[j.sample.record].add(j.sample.pk);
  const unreferenced = (s: RangeSample) => s.record !== 'dosing' && !referenced[s.record].has(s.pk);
  const unweighed = unweighedJudgments(ctx, byStratum, unreferenced, ownCurve);
  const unweighedByRecord: Record<RecordKind, Map<number, UnweighedJudgment>> = { output: new Map(), timecourse: new Map(), dosing: new Map() };
  for (const j of unweighed) unweighedByRecord[j.sample.record].set(j.sample.pk, j);
  // Per-kg doses without a reference of their own, against the absolute doses (no backing for other checks: not kept above).
  const perKgDoses = perKgDoseJudgments(ctx, byStratum, (s) => !referenced.dosing.has(s.pk));
  // Adults only: a neonate's absolute clearance is ×1/300 an adult's (its weight and maturation), more than any population.
  const adult = (s: RangeSample) => ctx.mayBeAdultHuman(subjectFields(s.subject));
  const anyPopulation = fallbackJudgments(byStratum.values(), (s) => unreferenced(s) && adult(s), anyPopulationKey, 'every population', (v, ref) => wideVerdict(v, ref, 'both'), ownCurve);
  const levels = groupByStratum(wideLevelSamples(ctx));
  const anyDose = fallbackJudgments(levels.values(), unreferenced, (s) => s.stratum, 'every dose and population', (v, ref) => wideVerdict(v, ref, 'upward'), ownCurve);
  judgments.push(...firstSlipOrFirst([...unweighed, ...perKgDoses, ...anyPopulation, ...anyDose]));
  const run = { judgments, unplaced, byRecord, unweighedByRecord };
  runs.set(ctx, run);
  return run;
}

/** Samples by stratum, strata in order of first appearance. */
function groupByStratum(samples: readonly RangeSample[]): Map<string, RangeSample[]> {
  const byStratum = new Map<string, RangeSample[]>();
  for (const s of samples) {
    const list = byStratum.get(s.stratum);
    if (list) list.push(s);
    else byStratum.set(s.stratum, [s]);
  }
  return byStratum;
}

/**
 * The verdict, unless its factor is one the output's own timecourse contradicts (reference-ranges.ts header): then
 * `demoted` without a cause (its comparison's major stands) — `outside` in its own stratum, `inside` in a wide pool.
 */
function ownCurveAllows(verdict: RangeVerdict, s: RangeSample, ownCurve: ReadonlyMap<number, Comparison>, demoted: 'outside' | 'inside'): RangeVerdict {
  if (!verdict.cause || s.record !== 'output' || !contradicted(verdict.cause.factor, ownCurve.get(s.pk))) return verdict;
  return { ...verdict, classification: demoted, cause: null, alternatives: [], ...(demoted === 'outside' ? { contradicted: true } : {}) };
}

/**
 * Values of a subject without a curated weight that reference-samples.ts keeps in a per-kg stratum of their own,
 * most of which has too few studies — values per dose of a per-kg dose (`… / (gram / kilogram)`: their value ÷ kg is
 * per gram) and per-kg values (a clearance in L/h/kg, a volume in L/kg: their value × kg is absolute) — judged in the
 * absolute stratum at every adult weight (`adultWeightVerdict`): a slip only when it is out at all of them and a
 * factor brings it back at one; anything else counts as inside (the weight alone moves the value ×3). Not for a
 * subject that may be a child or of another species.
 */
function unweighedJudgments(
  ctx: QaContext,
  byStratum: ReadonlyMap<string, readonly RangeSample[]>,
  judged: (s: RangeSample) => boolean,
  ownCurve: ReadonlyMap<number, Comparison>,
): UnweighedJudgment[] {
  const judgments: UnweighedJudgment[] = [];
  const absolute = absoluteReferences(byStratum);
  for (const [stratum, list] of byStratum) {
    if (list[0].record === 'dosing') continue;
    const found = absolute(stratum);
    if (found === null) continue;
    const { unit, kgPower, pool } = found.absoluteOf;
    for (const s of list) {
      if (!judged(s) || (kgPower === -1 && s.dose === null) || !ctx.mayBeAdultHuman(subjectFields(s.subject))) continue;
      const ref = found.refOf(s.study);
      if (ref === null) continue;
      const typical = { ...s, value: s.value * TYPICAL_ADULT_KG ** kgPower, unit };
      judgments.push({ sample: typical, ref, verdict: ownCurveAllows(adultWeightVerdict(s, ref, kgPower), s, ownCurve, 'inside'), pool, kgPower });
    }
  }
  return judgments;
}

/**
 * Per-kg doses whose own stratum (the substance's doses in g/kg) has too few other studies, judged in the absolute
 * doses' stratum at every adult weight (`perKgDoseVerdict`): most studies of a drug dose it in mg, few in mg/kg, so a
 * dose curated as 30 mg/kg where the paper gave 30 mg (×70 a typical adult's dose) had nothing to be set against. Only
 * for a dose whose every subject (the groups and individuals of its outputs and timecourses) may be an adult human:
 * a child's weight would make a per-kg dose smaller than any adult's.
 */
function perKgDoseJudgments(ctx: QaContext, byStratum: ReadonlyMap<string, readonly RangeSample[]>, judged: (s: RangeSample) => boolean): RangeJudgment[] {
  const judgments: RangeJudgment[] = [];
  let adults: ReadonlyMap<number, boolean> | undefined;
  const absolute = absoluteReferences(byStratum);
  for (const [stratum, list] of byStratum) {
    if (list[0].record !== 'dosing' || !list.some(judged)) continue;
    const found = absolute(stratum);
    if (found === null || found.absoluteOf.kgPower !== 1) continue;
    adults ??= adultDoses(ctx);
    for (const s of list) {
      if (!judged(s) || adults.get(s.pk) !== true) continue;
      const ref = found.refOf(s.study);
      if (ref === null) continue;
      const typical = { ...s, value: s.value * TYPICAL_ADULT_KG, unit: found.absoluteOf.unit };
      judgments.push({ sample: typical, ref, verdict: perKgDoseVerdict(s, ref), pool: UNWEIGHED });
    }
  }
  return judgments;
}

/**
 * For a per-kg stratum, its absolute counterpart (absoluteUnit) and the reference of the absolute stratum's values for
 * a study: without the study's own values (leave-one-study-out), or all of them for a study that has none there; null
 * for a stratum that is not per kg or has no absolute counterpart. References built once per absolute stratum.
 */
function absoluteReferences(byStratum: ReadonlyMap<string, readonly RangeSample[]>) {
  const built = new Map<string, { loso: Map<string, Reference | null>; all: Reference | null }>();
  return (stratum: string): { absoluteOf: NonNullable<ReturnType<typeof absoluteUnit>>; refOf: (study: string) => Reference | null } | null => {
    const fields = stratum.split(STRATUM_SEPARATOR);
    const absoluteOf = absoluteUnit(fields[STRATUM_UNIT_FIELD]);
    if (absoluteOf === null) return null;
    fields[STRATUM_UNIT_FIELD] = absoluteOf.unit;
    const key = fields.join(STRATUM_SEPARATOR);
    const others = byStratum.get(key);
    if (!others) return null;
    let refs = built.get(key);
    if (!refs) {
      const arms = armValues(others.map((o) => ({ study: o.study, arm: o.arm, log: Math.log(o.value) })));
      built.set(key, (refs = { loso: leaveOneStudyOut(arms), all: robustReference(arms) }));
    }
    const { loso, all } = refs;
    return { absoluteOf, refOf: (study) => (loso.has(study) ? (loso.get(study) ?? null) : all) };
  };
}

/** Whether every subject given a dosing (by its outputs and timecourses) may be an adult human; absent when none is known. */
function adultDoses(ctx: QaContext): Map<number, boolean> {
  const adults = new Map<number, boolean>();
  const see = (pks: readonly number[], subject: { group_pk: number | null; individual_pk: number | null }) => {
    for (const pk of pks) if (adults.get(pk) !== false) adults.set(pk, ctx.mayBeAdultHuman(subject));
  };
  for (const o of ctx.tables.outputs) if (o.normed) see(o.intervention_pks, o);
  for (const tc of ctx.tables.timecourses) if (tc.normed) see(tc.intervention_pk, tc);
  return adults;
}

/**
 * The verdict on a per-kg dose as an absolute one (`adultWeightVerdict`, the weight's power 1); but when it lies above
 * the absolute doses' range at every adult weight and its value read as an absolute dose (no weight) lies inside it
 * (|z| ≤ INSIDE_Z), the slip named is an absolute dose under a per-kg unit, ×70 at a typical adult's weight — before
 * any unit factor that happens to bring some adult weight's dose back.
 */
export function perKgDoseVerdict(s: RangeSample, ref: Reference): RangeVerdict {
  const aboveAtEveryWeight = ADULT_WEIGHT_GRID_KG.every((kg) => {
    const v = judge({ ...s, value: s.value * kg, bodyWeightKg: kg }, ref);
    return v.classification !== 'inside' && v.z > 0;
  });
  const asAbsolute = (Math.log(s.value) - ref.median) / ref.spread;
  const atWeights = adultWeightVerdict(s, ref, 1);
  if (!aboveAtEveryWeight || Math.abs(asAbsolute) > INSIDE_Z) return atWeights;
  const w = TYPICAL_ADULT_KG;
  const cause = { kind: 'per-kg' as const, factor: w, text: `×${w} (per-kg vs absolute: an absolute dose under a per-kg unit, ×${w} at a typical adult's weight; as an absolute dose it lies in the range)` };
  return { classification: 'slip', z: atWeights.z, cause, alternatives: [cause, ...atWeights.alternatives.filter((c) => c.factor !== w)] };
}

/** The adult weights an unweighed subject's value is judged at: both ends of ADULT_BODY_WEIGHT_KG and every 10 kg between. */
export const ADULT_WEIGHT_GRID_KG: readonly number[] = (() => {
  const [light, heavy] = ADULT_BODY_WEIGHT_KG;
  const grid: number[] = [];
  for (let kg = light; kg < heavy; kg += 10) grid.push(kg);
  return [...grid, heavy];
})();

/**
 * The verdict on a value per (g/kg) of dose as a value per gram (kgPower −1: ÷ kg), or on a per-kg value as an
 * absolute one (kgPower 1: × kg), at every adult weight of ADULT_WEIGHT_GRID_KG. A slip when the value lies out of
 * the reference, on one side, at every one of them (the weight alone, ×3 across adults, does not explain it) and a
 * factor brings it back at some adult weight: the factor that does at most weights is named (a body weight is not:
 * the subject's is unknown). Else inside; z at a typical 70 kg. (Asking one factor to bring it back at both 40 and
 * 120 kg named nothing against a narrow reference: a midazolam Cmax per dose of spread ×1.25 cannot hold a ×3.)
 */
export function adultWeightVerdict(s: RangeSample, ref: Reference, kgPower: 1 | -1 = -1): RangeVerdict {
  // At its assumed weight (a per-kg slip is then a factor of that weight: not named).
  const at = (kg: number) => judge({ ...s, value: s.value * kg ** kgPower, bodyWeightKg: kg }, ref);
  const z = at(TYPICAL_ADULT_KG).z;
  const inside: RangeVerdict = { classification: 'inside', z, cause: null, alternatives: [] };
  const verdicts = ADULT_WEIGHT_GRID_KG.map(at);
  const side = Math.sign(verdicts[0].z);
  if (!verdicts.every((v) => v.classification !== 'inside' && Math.sign(v.z) === side)) return inside;
  const named = new Map<number, { cause: RangeVerdict['alternatives'][number]; weights: number }>();
  for (const v of verdicts) {
    for (const cause of v.alternatives) {
      if (cause.kind === 'per-kg') continue;
      const known = named.get(cause.factor);
      if (known) known.weights++;
      else named.set(cause.factor, { cause, weights: 1 });
    }
  }
  // Most weights first; a tie keeps the order of first naming (the lightest weight's, closest first).
  const alternatives = [...named.values()].sort((a, b) => b.weights - a.weights).map((x) => x.cause);
  if (alternatives.length === 0) return inside;
  return { classification: 'slip', z, cause: alternatives[0], alternatives };
}

/**
 * The absolute unit of a per-kg stratum unit, the power of the weight that makes its values absolute, and the pool's
 * name; null for a unit that is not per kg.
 */
export function absoluteUnit(perKg: string | undefined): { unit: string; kgPower: 1 | -1; pool: WidePool } | null {
  if (perKg?.endsWith(PER_KG_DOSE)) return { unit: `${perKg.slice(0, -PER_KG_DOSE.length)} / gram`, kgPower: -1, pool: UNWEIGHED };
  if (perKg?.endsWith(PER_KG)) return { unit: perKg.slice(0, -PER_KG.length), kgPower: 1, pool: UNWEIGHED_PER_KG };
  return null;
}

/**
 * One fallback judgment per record: the first that names a slip, else the first. Each pool is its own evidence (the
 * undosed caffeine levels of every population spread too wide to tell a ×1000 curve that every caffeine level tells).
 */
export function firstSlipOrFirst(judgments: readonly RangeJudgment[]): RangeJudgment[] {
  const chosen: Record<RecordKind, Map<number, RangeJudgment>> = { output: new Map(), timecourse: new Map(), dosing: new Map() };
  for (const j of judgments) {
    const byPk = chosen[j.sample.record];
    const kept = byPk.get(j.sample.pk);
    if (!kept || (kept.verdict?.classification !== 'slip' && j.verdict?.classification === 'slip')) byPk.set(j.sample.pk, j);
  }
  return [...chosen.output.values(), ...chosen.timecourse.values(), ...chosen.dosing.values()];
}

/** A typical adult's weight, for the value a finding shows (its verdict holds from 40 to 120 kg). */
const TYPICAL_ADULT_KG = 70;

/** A sample's stratum over every population: its quantity, substance, tissue, route, application, dosed substance, unit and extra. */
function anyPopulationKey(s: RangeSample): string {
  const fields = s.stratum.split(STRATUM_SEPARATOR);
  fields.splice(STRATUM_POPULATION_FIELD, 1);
  return fields.join(STRATUM_SEPARATOR);
}

/**
 * The samples `judged` asks for, each against the other studies' samples of its wider pool (`poolOf`, read off a
 * stratum's first sample: the pool is a union of strata), with a verdict only a wide reference can give
 * (`verdictOf`); a factor the output's own curve contradicts counts as inside (its comparison's major stands).
 */
function fallbackJudgments(
  strata: Iterable<readonly RangeSample[]>,
  judged: (s: RangeSample) => boolean,
  poolOf: (s: RangeSample) => string,
  pool: WidePool,
  verdictOf: (v: RangeVerdict, ref: Reference) => RangeVerdict,
  ownCurve: ReadonlyMap<number, Comparison>,
): RangeJudgment[] {
  // By stratum, not by sample: a few thousand strata, and one key each.
  const pools = new Map<string, (readonly RangeSample[])[]>();
  const wanted = new Set<string>();
  for (const stratum of strata) {
    const key = poolOf(stratum[0]);
    const lists = pools.get(key);
    if (lists) lists.push(stratum);
    else pools.set(key, [stratum]);
    if (stratum.some(judged)) wanted.add(key);
  }
  // Only judgments with a reference: the strict stratum has said "too few other studies" for the others.
  const judgments: RangeJudgment[] = [];
  for (const key of wanted) {
    const list = (pools.get(key) as (readonly RangeSample[])[]).flat();
    // Most pools still hold a handful of studies: no reference for anyone, counted before any arm is built.
    const studies = new Set<string>();
    for (const s of list) studies.add(s.study);
    if (studies.size <= MIN_STUDIES) continue;
    const references = leaveOneStudyOut(armValues(list.map((s) => ({ study: s.study, arm: s.arm, log: Math.log(s.value) }))));
    for (const s of list) {
      if (!judged(s)) continue;
      const ref = references.get(s.study) ?? null;
      if (ref === null) continue;
      const verdict = verdictOf(judge(s, ref), ref);
      judgments.push({ sample: s, ref, verdict: ownCurveAllows(verdict, s, ownCurve, 'inside'), pool });
    }
  }
  return judgments;
}

/**
 * Whether the cross-study reference of a record backs a slip ×f found by another check (within-study): its value lies
 * on the factor's side of the centre beyond INSIDE_Z (an individual's small factor towards more exposure: SMALL_FACTOR_Z,
 * FEW_STUDIES_Z from fewer than FEW_STUDIES studies),
 * and undoing the factor brings it within INSIDE_Z and nearer the centre than it is (the slip explains it better than
 * no slip). Returns the reference in words, or null.
 */
export function referenceBacks(ctx: QaContext, record: string, factor: number, towards: Exposure = 'unknown'): string | null {
  // One person lies further out than the arms a reference is built of, and towards more exposure (a lower clearance, a
  // higher AUC) a poor metaboliser or a failing liver lies ×5–×30 out: there a small factor (×10) of an individual is
  // backed only from SMALL_FACTOR_Z (other studies never name one alone: range-verdict.ts `individual`). Burns1991: two
  // individuals' ICG clearance ×1/9 and ×1/6 of their eleven fellows', z −2 among every study of ICG, −3.9 among five
  // of them. Towards less exposure no phenotype reaches ×10 (Ma2008: an individual's clearance ×10.6 its 25 fellows').
  const strict = towards !== 'less' && Math.abs(Math.log(factor)) < Math.log(SMALL_FACTOR);
  const backs = (z: number, undone: number, j: RangeJudgment & { ref: Reference }) => {
    // A reference of fewer than FEW_STUDIES studies, as for naming a factor (range-verdict.ts `judge`): FEW_STUDIES_Z.
    // Burns1991's individual lay at z −6.5 among five studies of ICG in one part of the shared export.
    const beyond = !strict || !individual(j.sample) ? INSIDE_Z : j.ref.studies < FEW_STUDIES ? FEW_STUDIES_Z : SMALL_FACTOR_Z;
    // The value itself out of the reference's inside band: one that lies inside it (z −2) backs nothing.
    return Math.sign(z) === Math.sign(Math.log(factor)) && Math.abs(z) > beyond && Math.abs(undone) <= INSIDE_Z && Math.abs(undone) < Math.abs(z);
  };
  const run = rangeRun(ctx);
  const own = judgmentOf(run, record);
  return own?.ref ? withFactorUndone(own, factor, backs) : unweighedBacks(run, record, factor, backs);
}

/**
 * A per-kg value of a subject without a curated weight (a curve per dose of 7.5 mg/kg; a clearance in L/h/kg), whose
 * own stratum has no reference, backs a slip through its absolute stratum (`unweighedJudgments`) only as it would at
 * any adult weight: its value beyond the band at the weight that brings it nearest the centre (`test`'s z), and back
 * inside with the factor undone at some adult weight (`test`'s undone). Returns the reference in words, or null.
 */
function unweighedBacks(run: RangeRun, record: string, factor: number, test: (z: number, undone: number, judgment: RangeJudgment & { ref: Reference }) => boolean): string | null {
  const j = byRecordName(run.unweighedByRecord, record);
  if (!j) return null;
  const lnf = Math.log(factor);
  // z at each adult weight: the value scales as kg^kgPower from the typical weight's.
  const zs = ADULT_WEIGHT_GRID_KG.map((kg) => j.verdict.z + (j.kgPower * Math.log(kg / TYPICAL_ADULT_KG)) / j.ref.spread);
  const nearest = zs.reduce((a, b) => (Math.abs(b) < Math.abs(a) ? b : a));
  // Rounding noise snapped to 0 (the factor undone exactly at a weight of the grid).
  const undone = zs.map((z) => z - lnf / j.ref.spread).reduce((a, b) => (Math.abs(b) < Math.abs(a) ? b : a), Infinity);
  const shown = Math.abs(undone) < 1e-9 ? 0 : undone;
  if (!zs.every((z) => Math.sign(z) === Math.sign(nearest)) || !test(nearest, undone, j)) return null;
  const farthest = zs.reduce((a, b) => (Math.abs(b) > Math.abs(a) ? b : a));
  return `${j.ref.studies} other studies' ${sampleLabel(j.sample)} (${j.pool}) put it at robust z ${fmt(nearest)} to ${fmt(farthest)}, ${fmt(shown)} with the factor undone`;
}

/** Which way a record lies from its fellows: towards more exposure (higher AUC or Cmax, longer t½, lower CL), less, or unknown (V, tmax). */
export type Exposure = 'more' | 'less' | 'unknown';

/**
 * A judgment's robust z in its cross-study reference and the z with a slip ×factor undone, put to `test`: the reference
 * in words when it passes, else (or without a reference) null.
 */
function withFactorUndone(
  j: RangeJudgment | undefined,
  factor: number,
  test: (z: number, undone: number, judgment: RangeJudgment & { ref: Reference }) => boolean,
): string | null {
  if (!j || !j.ref || !j.verdict) return null;
  const z = j.verdict.z;
  const undone = z - Math.log(factor) / j.ref.spread;
  return test(z, undone, j as RangeJudgment & { ref: Reference }) ? `${j.ref.studies} other studies' ${sampleLabel(j.sample)} put it at robust z ${fmt(z)}, ${fmt(undone)} with the factor undone` : null;
}

/**
 * Whether the cross-study reference of a record refutes a slip ×f that another check (within-study) would blame on
 * it: its value lies inside its reference (|z| ≤ INSIDE_Z) and undoing the factor would take it beyond OUTSIDE_Z. The
 * disagreement is real, but the records it was set against are the likelier holders of the slip (a group's total
 * clearance beside its individuals' curated renal clearances). Returns the reference in words, or null.
 */
export function referenceRefutes(ctx: QaContext, record: string, factor: number): string | null {
  return withFactorUndone(judgmentOf(rangeRun(ctx), record), factor, (z, undone) => Math.abs(z) <= INSIDE_Z && Math.abs(undone) > OUTSIDE_Z);
}
