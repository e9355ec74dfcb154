/**
 * A record's own statistics against each other: its mean, median and value lie within its own range, and its
 * minimum is no larger than its maximum (min ≤ median ≤ max and min ≤ mean ≤ max hold for any sample). A record that
 * breaks this has a slip in one of its fields — the mean typed a decade off, a range taken from another row, min and
 * max swapped — whatever the other records say. Written values are taken as they are anywhere within half their
 * last digit (rounding.ts), so that a mean of 7.0 beside a minimum of 7.04 is no contradiction.
 */
import type { Stats } from '../data/model.js';
import type { SuspectedCause } from './causes.js';
import { roundingHalfStep } from './rounding.js';

/** The statistics fields of a record that keep an order (of PK-DB's Stats block: any output, dosing or characteristic). */
export type RecordStats = Pick<Stats, 'value' | 'mean' | 'median' | 'min' | 'max'>;

/** The central fields held to the range, in the order a finding names them. */
export const CENTRAL_FIELDS = ['mean', 'median', 'value'] as const;
export type CentralField = (typeof CENTRAL_FIELDS)[number];

/** One broken order: a central field outside the range, or a range whose minimum exceeds its maximum. */
export type StatsContradiction =
  | { kind: 'outside'; field: CentralField; value: number; min: number | null; max: number | null; side: 'below' | 'above'; by: number }
  | { kind: 'inverted'; min: number; max: number; by: number };

/** Whether a ≤ b as written: a, less half its last digit, is at most b plus half its own. */
function notAbove(a: number, b: number): boolean {
  return a - roundingHalfStep(a) <= b + roundingHalfStep(b) + 1e-12 * Math.max(Math.abs(a), Math.abs(b));
}

const finite = (x: number | null): x is number => x !== null && Number.isFinite(x);

/**
 * Every broken order of a record's statistics: `outside` for a mean, median or value below its min or above its max
 * (`by`: how far, as a ratio ≥ 1, of the value to the bound it passes), `inverted` for min > max (`by`: min / max,
 * of positive ones; Infinity otherwise). Empty when the record has no range or keeps its order.
 */
export function statsContradictions(stats: RecordStats): StatsContradiction[] {
  const found: StatsContradiction[] = [];
  const min = finite(stats.min) ? stats.min : null;
  const max = finite(stats.max) ? stats.max : null;
  if (min === null && max === null) return found;
  if (min !== null && max !== null && !notAbove(min, max)) found.push({ kind: 'inverted', min, max, by: max > 0 ? min / max : Infinity });
  for (const field of CENTRAL_FIELDS) {
    const v = stats[field];
    if (!finite(v)) continue;
    if (min !== null && !notAbove(min, v)) found.push({ kind: 'outside', field, value: v, min, max, side: 'below', by: v > 0 ? min / v : Infinity });
    else if (max !== null && !notAbove(v, max)) found.push({ kind: 'outside', field, value: v, min, max, side: 'above', by: max > 0 ? v / max : Infinity });
  }
  return found;
}

/**
 * The one slip factor f whose undoing puts a central value back inside its record's range (min ≤ v / f ≤ max, as
 * written), of a range that keeps its order, has both ends and is narrower than the factor (max / min < f): a wider
 * range would take several. Null when none or several do. A mean of 38 beside a range of 2.1–4.4 is ×10 (3.8); of 38
 * beside 20–28, nothing (×1.4: no slip's size). One field typed apart from its row slips by a decimal (DECIMAL_FACTORS
 * of the check), not by a unit: a unit slip moves the mean and its range alike.
 */
export function factorBringingInside(c: StatsContradiction, factors: readonly SuspectedCause[]): SuspectedCause | null {
  if (c.kind !== 'outside' || !(c.value > 0) || c.min === null || c.max === null || !(c.min > 0)) return null;
  if (!notAbove(c.min, c.max)) return null;
  const fits = factors.filter((f) => {
    if (Math.abs(Math.log(f.factor)) <= Math.log(c.max as number / (c.min as number))) return false;
    const undone = c.value / f.factor;
    return notAbove(c.min as number, undone) && notAbove(undone, c.max as number);
  });
  return fits.length === 1 ? fits[0] : null;
}
