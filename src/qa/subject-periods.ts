/**
 * A subject's own level in its other periods: in a crossover or repeated-
 * measures study the same group or individual is measured under several
 * conditions (another co-medication, another dose, another visit), each
 * condition a pool of its own (study-items.ts). A subject's deviation from
 * its pool's centre is its biology (a poor metaboliser is high in every
 * period) and repeats from period to period; a slip hits one record only.
 *
 * So a record off its pool by a slip factor, whose subject lies at one level
 * in at least MIN_PERIODS other periods of the same measure (same study,
 * substance, tissue, measure, unit and time point: the pool's `base`), and
 * is off that level by the factor, is a slip of that record, not its subject:
 * - the other periods agree with each other (their deviations within
 *   PERIODS_AGREE, ×2, of one another);
 * - the record lies beyond `outlier` of their mean, and undoing the factor
 *   brings it within `back` of it (the thresholds of the caller's check).
 *
 * Within-subject variability is far smaller than between-subject (a CV of
 * 10–30 % against 30–80 % for clearance-driven measures), so a subject at
 * its own level elsewhere and ×10 off here leaves no biology to explain it.
 */
import type { Deviation } from './study-pools.js';

const fmt = (x: number) => String(+x.toPrecision(3));

/** Other periods needed: one could hold a slip of its own. */
export const MIN_PERIODS = 2;
/** The other periods agree when their deviations lie within ×2 of one another. */
export const PERIODS_AGREE = Math.log(2);

/**
 * A subject's deviations by base (study, substance, tissue, measure, unit, time; numbered) and subject: maps
 * by number then subject label, with no key text per deviation (~20,000 of the shared export).
 */
export type PeriodIndex = ReadonlyMap<number, ReadonlyMap<string, readonly Deviation[]>>;

/** Indexes deviations by subject and base; a record's deviations without a subject are left out. */
export function periodIndex(deviations: Iterable<readonly Deviation[]>): PeriodIndex {
  const index = new Map<number, Map<string, Deviation[]>>();
  for (const list of deviations) {
    for (let k = 0; k < list.length; k++) {
      const d = list[k];
      const subject = d.item.subject;
      if (subject === null) continue;
      let bySubject = index.get(d.item.base);
      if (bySubject === undefined) index.set(d.item.base, (bySubject = new Map()));
      const known = bySubject.get(subject);
      if (known) known.push(d);
      else bySubject.set(subject, [d]);
    }
  }
  return index;
}

/** The subject's level in its other periods: the mean deviation and their number, when they agree. */
export function ownLevel(lead: Deviation, index: PeriodIndex): { level: number; periods: number } | null {
  if (lead.item.subject === null) return null;
  // One deviation per other pool (condition); never another record of the lead's own pool.
  const byPool = new Map<number, number>();
  for (const d of index.get(lead.item.base)?.get(lead.item.subject) ?? []) {
    if (d.item.pool === lead.item.pool || d.item.record === lead.item.record || byPool.has(d.item.pool)) continue;
    byPool.set(d.item.pool, d.d);
  }
  if (byPool.size < MIN_PERIODS) return null;
  const ds = [...byPool.values()];
  if (Math.max(...ds) - Math.min(...ds) > PERIODS_AGREE) return null;
  return { level: ds.reduce((sum, d) => sum + d, 0) / ds.length, periods: ds.length };
}

/**
 * Whether the subject's other periods convict the lead deviation of the slip ×factor (see the header): the words
 * for the finding, or null.
 */
export function ownPeriodsConvict(lead: Deviation, factor: number, index: PeriodIndex, outlier: number, back: number): string | null {
  const own = ownLevel(lead, index);
  if (own === null) return null;
  const residual = lead.d - own.level;
  if (Math.abs(residual) < outlier || Math.abs(residual - Math.log(factor)) > back) return null;
  return `the same ${lead.item.subject} lies at ×${fmt(Math.exp(own.level))} the centre in its ${own.periods} other periods of this measure, and this record ×${fmt(Math.exp(residual))} that level`;
}

/** How near its level elsewhere a subject's deviation must be to repeat it (×2, as PERIODS_AGREE). */
export const REPEATS_WITHIN = Math.log(2);

/**
 * Whether the subject lies at the lead's deviation, within REPEATS_WITHIN, in another period of the same measure:
 * its own biology (a poor metaboliser high in every period), whatever else the arm's siblings say.
 */
export function repeatsElsewhere(lead: Deviation, index: PeriodIndex): boolean {
  if (lead.item.subject === null) return false;
  for (const d of index.get(lead.item.base)?.get(lead.item.subject) ?? []) {
    if (d.item.pool === lead.item.pool || d.item.record === lead.item.record) continue;
    if (Math.abs(d.d - lead.d) <= REPEATS_WITHIN) return true;
  }
  return false;
}

/** A twin in line: within ×2 of the other arms' centre (arm-biology.ts IN_LINE). */
export const TWIN_IN_LINE = Math.log(2);

/**
 * Whether the same subject's other record of the lead's measure in the lead's own arm — a value the study reports
 * twice for one condition (a table and a figure, two analyses of one occasion), the same base and source — lies in
 * line with the other arms (within TWIN_IN_LINE) while the lead lies beyond `outlier` of it and the factor brings it
 * back within `back`: the subject is typical there, so no biology of it (a poor metaboliser, an unmarked disease)
 * puts the lead off, and the lead alone holds the slip. With one other period the subject's level elsewhere cannot
 * tell (`ownLevel` needs MIN_PERIODS); its twin can, being the same quantity. Its words, or null.
 */
export function twinConvicts(lead: Deviation, factor: number, arm: readonly Deviation[], outlier: number, back: number): string | null {
  const subject = lead.item.subject;
  if (subject === null) return null;
  for (const twin of arm) {
    if (twin.item.record === lead.item.record || twin.item.subject !== subject || twin.item.base !== lead.item.base || twin.item.source !== lead.item.source) continue;
    if (Math.abs(twin.d) > TWIN_IN_LINE) continue;
    const residual = lead.d - twin.d;
    if (Math.abs(residual) < outlier || Math.abs(residual - Math.log(factor)) > back) continue;
    return `the same ${subject}'s other ${twin.item.type} of this arm (${twin.item.record}) lies in line, at ×${fmt(Math.exp(twin.d))} the centre, and this record ×${fmt(Math.exp(residual))} that value`;
  }
  return null;
}
