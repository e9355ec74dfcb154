/**
 * The deviations of within-study (checks/within-study.ts), placed: every record of a study set against the other arms
 * of its pool (study-items.ts, study-pools.ts) — the strict pool first, then, for a record left without one, the
 * wider pools of its base, then the one other arm of its strict pool for big factors only. Each record is placed
 * once, in its first pool with enough arms.
 */
import { ALIKE_FACTOR } from './arm-biology.js';
import type { QaContext } from './context.js';
import { curveLevels, MIN_ARMS, PAIR_ARMS, poolDeviations, type Deviation } from './study-pools.js';
import { Numbering } from './study-ids.js';
import { studyItems, WIDER_FACTORS, type StudyItem } from './study-items.js';

/**
 * Factors at least this large are beyond biology within one study: the only ones a pair of arms (no spread to judge
 * it by) is set against each other for, and major in within-study without other evidence.
 */
export const BIG_FACTOR = 30;
/** The smallest factor a pair of arms apart only by other interventions may name (see armDeviations). */
export const WIDE_PAIR_FACTOR = 300;

/**
 * A pair of groups of one population by every curated trait (`onePopulation`), at one dose and condition, is set
 * against each other from ×10: group means of one population differ by far less (within-study names which holds it
 * only with other evidence, and says either may).
 */
export const ALIKE_PAIR_FACTOR = ALIKE_FACTOR;

/**
 * Item lists indexed by a numbered key (ids from 0 to `count`, numbered by study-items.ts in order of first
 * appearance); an id no item has is a hole (`filter` skips it).
 */
function listsById(items: readonly StudyItem[], count: number, id: (item: StudyItem) => number): StudyItem[][] {
  const lists: StudyItem[][] = new Array(count);
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    const k = id(item);
    const list = lists[k];
    if (list) list.push(item);
    else lists[k] = [item];
  }
  return lists;
}

/** The items of one base by kind and wider condition of `tier`, in order of first appearance. */
function widerPools(items: readonly StudyItem[], tier: number): StudyItem[][] {
  const pools: StudyItem[][] = [];
  const groups = new Map<number, StudyItem[]>();
  const individuals = new Map<number, StudyItem[]>();
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    const map = item.kind === 'group' ? groups : individuals;
    const list = map.get(item.wider[tier]);
    if (list) list.push(item);
    else {
      const pool = [item];
      map.set(item.wider[tier], pool);
      pools.push(pool);
    }
  }
  return pools;
}

/** Whether every item of a pool belongs to one arm (poolDeviations and curveLevels then give nothing). */
function oneArm(pool: readonly StudyItem[]): boolean {
  const arm = pool[0].arm;
  for (let i = 1; i < pool.length; i++) if (pool[i].arm !== arm) return false;
  return true;
}

/** Every deviation of the context, by arm: from the strict pool, else (too few arms there) from the first wider one that has enough. */
export function armDeviations(ctx: QaContext): Map<string, Deviation[]> {
  const { items, pools, bases, slots } = studyItems(ctx);
  const byArm = new Map<string, Deviation[]>();
  // A record's measure (and output) is placed once, in its first pool that has enough arms (a levelled curve
  // is a copy of its item with the same slot).
  const placed = new Uint8Array(slots);
  const populationOf = populationNumbers(ctx);
  const unplaced = (i: StudyItem) => placed[i.slot] === 0;
  // Loops by index: they run over every pool and item before they are optimised, when for…of allocates per element.
  const place = (pools: readonly StudyItem[][], minFactor: number, minArms = MIN_ARMS, alikeMinFactor = minFactor) => {
    for (let p = 0; p < pools.length; p++) {
      const pool = pools[p];
      // Most pools hold one arm (5,249 of 8,733 strict pools of the shared export): nothing to compare it with.
      if (oneArm(pool) || !pool.some(unplaced)) continue;
      const curves = pool[0].measure === 'curve';
      const alikeFirst = alikeMinFactor !== minFactor ? onePopulation(pool, populationOf) : undefined;
      const factor = alikeFirst === 'groups' ? alikeMinFactor : minFactor;
      const fresh = poolDeviations(curves ? curveLevels(pool) : pool, factor, unplaced, minArms, curves);
      const population = fresh.length === 0 ? null : alikeFirst !== undefined ? alikeFirst : onePopulation(pool, populationOf);
      if (population !== null) {
        for (let d = 0; d < fresh.length; d++) {
          fresh[d].samePopulation = true;
          if (population === 'groups') fresh[d].alike = true;
        }
      }
      for (let d = 0; d < fresh.length; d++) {
        const dev = fresh[d];
        const list = byArm.get(dev.item.arm);
        if (list) list.push(dev);
        else byArm.set(dev.item.arm, [dev]);
      }
      for (let d = 0; d < fresh.length; d++) placed[fresh[d].item.slot] = 1;
    }
  };
  place(listsById(items, pools, (i) => i.pool).filter(Boolean), 1);
  // Wider pools only where a record was left without a pool: the items of its base, kind and wider condition.
  const byBase = listsById(items, bases, (i) => i.base);
  const unplacedBases = () => {
    const needed = new Set<number>();
    for (let i = 0; i < items.length; i++) if (placed[items[i].slot] === 0) needed.add(items[i].base);
    return needed;
  };
  WIDER_FACTORS.forEach((minFactor, tier) => {
    for (const base of unplacedBases()) place(widerPools(byBase[base], tier), minFactor);
  });
  // Last, a record still without a pool against the one other arm of its strict pool, for big factors only. Not in
  // the wider pools: an inducer moves an oral curve ×50 (rifampicin on midazolam), and a pair has no spread to show it.
  const pairBases = unplacedBases();
  if (pairBases.size > 0) place(listsById(items.filter((i) => i.measure !== 'other' && pairBases.has(i.base)), pools, (i) => i.pool).filter(Boolean), BIG_FACTOR, PAIR_ARMS, ALIKE_PAIR_FACTOR);
  // And one still without against the one other arm of its route without the other interventions (a drug alone and
  // with an inhibitor), for slips no interaction reaches: WIDE_PAIR_FACTOR (rifampicin moves oral midazolam ×1/25 on
  // average, one subject ×1/99: Backman 1996).
  for (const base of unplacedBases()) place(widerPools(byBase[base].filter((i) => i.measure !== 'other'), 0), WIDE_PAIR_FACTOR, PAIR_ARMS);
  return byArm;
}

/**
 * Whether every item of a pool is a subject of the same population marks (population.ts: disease, healthy, genotype,
 * phenotype, species, …), all adults or all not: arms the curated data does not tell apart by who they are. `groups`
 * when every item is a group (`Deviation.alike`), `subjects` when some are individuals (`Deviation.samePopulation`),
 * null when the marks differ.
 */
function onePopulation(pool: readonly StudyItem[], populationOf: (record: SubjectFields) => number): 'groups' | 'subjects' | null {
  let population = -1;
  let groups = true;
  for (let i = 0; i < pool.length; i++) {
    const item = pool[i];
    const record = item.output ?? item.timecourse?.tc;
    if (!record) return null;
    if (item.kind !== 'group') groups = false;
    const own = populationOf(record);
    if (population === -1) population = own;
    else if (own !== population) return null;
  }
  return groups ? 'groups' : 'subjects';
}

type SubjectFields = { group_pk: number | null; individual_pk: number | null };

/**
 * The population of a record's subject, numbered: its marks (context.ts `subjectMarks`) and whether it may be an
 * adult (age is no population mark, but children and adults differ by more than ×10: a neonate's caffeine clearance).
 * By subject, once: the pools of a run ask for the same subjects many times.
 */
function populationNumbers(ctx: QaContext): (record: SubjectFields) => number {
  const numbering = new Numbering();
  const bySubject = new Map<number, number>();
  return (record) => {
    const subject = record.individual_pk != null ? -record.individual_pk - 1 : (record.group_pk ?? Number.MAX_SAFE_INTEGER);
    let id = bySubject.get(subject);
    if (id === undefined) bySubject.set(subject, (id = numbering.of([`${ctx.mayBeAdultHuman(record)}\u0001${ctx.subjectMarks(record).join('\u0001')}`])));
    return id;
  };
}

