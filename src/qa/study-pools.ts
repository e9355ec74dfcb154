/**
 * The statistics of the within-study comparison (checks/within-study.ts):
 * each record's deviation from the robust centre of the other arms of its pool
 * (study-items.ts), on the log scale, with the spread of those arms.
 *
 * For a record x of arm A in a pool: d = ln x − median(ln y : y of arms ≠ A),
 * s = max(MAD-scaled SD of those ln y, SPREAD_FLOOR). Leaving the whole arm out
 * keeps an arm's reported and calculated Cmax from vouching for each other.
 * A curve has no single value: its level is the median, over the other arms'
 * curves, of the median log ratio at its sampling times (the other curve
 * interpolated log-linearly), dose-normalised. That level is already its
 * deviation from the other arms (d = level; `relative` in poolDeviations): a
 * level less the centre of the others' levels would count the gap twice, as
 * each of theirs holds their ratio to it (a pair's curves ×10 apart lie at
 * ±ln 10: ×100; among three, one ×10 off its two fellows came out ×31.6). The
 * others' levels still give the spread.
 */
import { logLinearAt, median, medianOfSorted, scaledMadOfSorted, withoutSorted } from './robust.js';
import type { CurveProfile, StudyItem } from './study-items.js';

/**
 * The spread never counts as smaller than 0.3 on the log scale (CV ≈ 30 %):
 * two or three arms that happen to agree closely say little about how far a
 * fourth may lie (between-subject CV is 30–80 %).
 */
export const SPREAD_FLOOR = 0.3;
/** A pool needs this many arms (the record's and two others) to have a centre. */
export const MIN_ARMS = 3;
/**
 * Two arms have no centre, only a ratio: a pair is compared when nothing else is (checks/within-study.ts
 * names only factors no physiology reaches there, and cannot tell which of the two holds the slip).
 */
export const PAIR_ARMS = 2;
/** A curve is compared with at most this many others of its pool (first by subset pk): bounded time. */
export const MAX_CURVE_SIBLINGS = 60;
/**
 * Beyond this many arms one arm cannot move the median or the MAD: the centre and spread are computed once
 * over the whole pool instead of once per arm left out (bounded time on studies with hundreds of individuals).
 */
export const LEAVE_OUT_ARMS = 30;
/** Sampling times that must overlap for two curves to be compared. */
export const MIN_OVERLAP = 3;

export interface Deviation {
  item: StudyItem;
  /** ln(record / centre of the other arms), dose-normalised where the measure is. */
  d: number;
  s: number;
  /** The same before dose normalisation (exposure measures with a dose in every arm), else null. */
  dRaw: number | null;
  sRaw: number | null;
  /** The other arms' median dose over this record's dose, when every arm has one in the same unit. */
  doseRatio: number | null;
  /** Number of other arms. */
  arms: number;
  /** The smallest factor its pool may name: 1 in the strict pool, more in the wider ones (study-items.ts). */
  minFactor: number;
  /** In a pool of two arms: the other arm's item (the ratio is symmetric, either may hold the slip). */
  partner?: StudyItem;
  /** Every arm of its pool is a group of the same population marks (arm-deviations.ts `onePopulation`): no curated trait tells them apart. */
  alike?: boolean;
  /** Every arm of its pool, groups or individuals, is of the same population marks (arm-deviations.ts `onePopulation`). */
  samePopulation?: boolean;
}

/** Scratch for curveLogRatio's log ratios (a pool's curves are compared pairwise: no list per pair); grown as needed. */
let ratioLogs = new Float64Array(64);

/** Median log ratio of curve a to curve b at a's sampling times within b's range; null with fewer than MIN_OVERLAP. */
export function curveLogRatio(a: CurveProfile, b: CurveProfile): number | null {
  if (a.time.length > ratioLogs.length) ratioLogs = new Float64Array(2 * a.time.length);
  // `count` ratios found; the first `finite` slots hold those that are finite (robust.ts `median` ignores the others).
  let count = 0;
  let finite = 0;
  const times = b.time;
  const n = times.length;
  // interpolateLog at each of a's times, b's interval found by one walk along b while a's times ascend (a curve's
  // do); it starts again from b's first time wherever they do not.
  let hi = 0;
  let previous = -Infinity;
  for (let k = 0; k < a.time.length; k++) {
    const t = a.time[k];
    if (!(t >= previous)) hi = 0;
    previous = t;
    if (n === 0 || t < times[0] || t > times[n - 1]) continue;
    while (hi < n - 1 && times[hi] < t) hi++;
    const cb = logLinearAt(times, b.conc, t, hi);
    if (cb === null) continue;
    count++;
    const r = Math.log(a.conc[k] / cb);
    if (!Number.isFinite(r)) continue;
    // Kept ascending by insertion (a curve has a few to a few dozen points): no sorted copy per pair.
    let j = finite++;
    while (j > 0 && ratioLogs[j - 1] > r) {
      ratioLogs[j] = ratioLogs[j - 1];
      j--;
    }
    ratioLogs[j] = r;
  }
  return count >= MIN_OVERLAP ? medianOfSorted(ratioLogs, finite) : null;
}

/**
 * A copy of a curve's item with its level. Field by field, in the order of study-items.ts' item literals, rather
 * than `{ ...item, log, rawLog }`: a spread copy gets a hidden class of its own, and the pool statistics, which
 * meet the copies after thousands of plain items, were deoptimised and recompiled for them (≈ 15 % of the
 * check's CPU on the shared export, most of it the optimising compiler's).
 */
function withLevel(item: StudyItem, log: number, rawLog: number | null): StudyItem {
  return {
    arm: item.arm, record: item.record, measure: item.measure, source: item.source, type: item.type, family: item.family,
    pool: item.pool, base: item.base, kind: item.kind, wider: item.wider, slot: item.slot,
    study_sid: item.study_sid, study_name: item.study_name, subject: item.subject, log, rawLog,
    value: item.value, unit: item.unit, dose: item.dose, bodyWeightKg: item.bodyWeightKg, output: item.output, timecourse: item.timecourse, profile: item.profile,
  };
}

/** Sets `log` (dose-normalised) and `rawLog` of every curve of a pool to its level among the others; curves without overlap are dropped. */
export function curveLevels(curves: readonly StudyItem[]): StudyItem[] {
  const ordered = [...curves].sort((a, b) => (a.timecourse?.tc.subset_pk ?? 0) - (b.timecourse?.tc.subset_pk ?? 0));
  const reference = ordered.slice(0, MAX_CURVE_SIBLINGS);
  const levelled: StudyItem[] = [];
  for (let i = 0; i < ordered.length; i++) {
    const item = ordered[i];
    const norm: number[] = [];
    const raw: number[] = [];
    for (let j = 0; j < reference.length; j++) {
      const other = reference[j];
      if (other === item || other.arm === item.arm || !item.profile || !other.profile) continue;
      const r = curveLogRatio(item.profile, other.profile);
      if (r === null) continue;
      raw.push(r);
      if (item.dose && other.dose) norm.push(r - Math.log(item.dose.value / other.dose.value));
    }
    if (raw.length === 0) continue;
    const withDose = item.dose !== null && norm.length === raw.length;
    levelled.push(withLevel(item, withDose ? median(norm) : median(raw), withDose ? median(raw) : null));
  }
  return levelled;
}

type Pick = (item: StudyItem) => number | null;
const pickLog: Pick = (i) => i.log;
const pickRaw: Pick = (i) => i.rawLog;
const pickDose: Pick = (i) => i.dose?.value ?? null;

/** The finite values `pick` gives for the items, ascending (a pool's columns, sorted once for every arm left out). */
function ascending(items: readonly StudyItem[], pick: Pick): Float64Array {
  const values = new Float64Array(items.length);
  let n = 0;
  for (let k = 0; k < items.length; k++) {
    const v = pick(items[k]);
    if (v !== null && Number.isFinite(v)) values[n++] = v;
  }
  return values.subarray(0, n).sort();
}

/** Scratch: one arm's own values (a few) and the other arms' values of a pool; reused, grown as needed. */
let own = new Float64Array(16);
let others = new Float64Array(256);

/** The values of the pool's other arms, ascending, in `others`: the column without the arm's own values; returns their count. */
function othersOf(column: Float64Array, arm: readonly StudyItem[], pick: Pick): number {
  if (arm.length > own.length) own = new Float64Array(2 * arm.length);
  if (column.length > others.length) others = new Float64Array(2 * column.length);
  let m = 0;
  for (let j = 0; j < arm.length; j++) {
    const v = pick(arm[j]);
    if (v === null || !Number.isFinite(v)) continue;
    // Insertion sort: an arm holds one to a few items of a pool.
    let k = m++;
    while (k > 0 && own[k - 1] > v) {
      own[k] = own[k - 1];
      k--;
    }
    own[k] = v;
  }
  return withoutSorted(column, own, m, others);
}

/** Median and spread (floored) of a column, or of the other arms' values when an arm is left out. */
function centreAndSpread(column: Float64Array, arm: readonly StudyItem[] | null, pick: Pick): { centre: number; spread: number } {
  const values = arm === null ? column : others;
  const n = arm === null ? column.length : othersOf(column, arm, pick);
  const centre = medianOfSorted(values, n);
  return { centre, spread: Math.max(scaledMadOfSorted(values, n, centre), SPREAD_FLOOR) };
}

/**
 * Centre and spread of the logs, raw logs and doses of the items of a pool not of arm `leftOut` (whose items
 * are `leftOutItems`; null: the whole pool), from the pool's columns sorted once (see poolDeviations).
 */
function statistics(pool: readonly StudyItem[], columns: Record<'logs' | 'raws' | 'doses', Float64Array>, leftOut: string | null, leftOutItems: readonly StudyItem[] | null) {
  let rawComplete = true;
  // The others' one dose unit (null: none, or several); undefined before the first.
  let unit: string | null | undefined;
  for (let k = 0; k < pool.length; k++) {
    const i = pool[k];
    if (i.arm === leftOut) continue;
    if (i.rawLog === null) rawComplete = false;
    const u = i.dose?.unit ?? null;
    if (unit === undefined) unit = u;
    else if (u !== unit) unit = null;
  }
  const { centre, spread: s } = centreAndSpread(columns.logs, leftOutItems, pickLog);
  const raw = rawComplete ? centreAndSpread(columns.raws, leftOutItems, pickRaw) : null;
  const doseUnits = unit ?? null;
  // With one unit every other arm has a dose: the column holds them all.
  const doseMedian = doseUnits === null ? NaN : centreAndSpread(columns.doses, leftOutItems, pickDose).centre;
  return { centre, s, rawCentre: raw?.centre ?? NaN, sRaw: raw?.spread ?? null, doseMedian, doseUnits };
}

/**
 * Each item's deviation from the other arms of its pool; pools with fewer than `minArms` arms (MIN_ARMS, or
 * PAIR_ARMS for a pair) give none. `relative`: the items' logs are levels against the other arms (curveLevels), each
 * its own deviation. With `wanted`, only the deviations of the items it accepts (the centre still
 * counts every arm): an arm without a wanted item costs nothing.
 */
export function poolDeviations(pool: readonly StudyItem[], minFactor = 1, wanted?: (item: StudyItem) => boolean, minArms = MIN_ARMS, relative = false): Deviation[] {
  // Loops by index and Map.forEach: this runs for every pool of the run, mostly before it is optimised, when
  // for…of allocates an iterator result per element.
  const byArm = new Map<string, StudyItem[]>();
  for (let k = 0; k < pool.length; k++) {
    const item = pool[k];
    const list = byArm.get(item.arm);
    if (list) list.push(item);
    else byArm.set(item.arm, [item]);
  }
  const arms = byArm.size;
  if (arms < Math.max(minArms, PAIR_ARMS)) return [];
  const deviations: Deviation[] = [];
  const columns = { logs: ascending(pool, pickLog), raws: ascending(pool, pickRaw), doses: ascending(pool, pickDose) };
  const whole = arms > LEAVE_OUT_ARMS ? statistics(pool, columns, null, null) : null;
  // A pair's arms, each the other's partner (its first item).
  const pair = arms === PAIR_ARMS ? [...byArm.values()] : null;
  byArm.forEach((items, arm) => {
    if (wanted && !items.some(wanted)) return;
    const stats = whole ?? statistics(pool, columns, arm, items);
    const { s, sRaw, doseMedian, doseUnits } = stats;
    // A levelled curve's log is its ratio to the others already (see the header).
    const centre = relative ? 0 : stats.centre;
    const rawCentre = relative ? 0 : stats.rawCentre;
    const partner = pair === null ? undefined : (pair[0] === items ? pair[1] : pair[0])[0];
    for (let k = 0; k < items.length; k++) {
      const item = items[k];
      if (wanted && !wanted(item)) continue;
      const sameUnit = item.dose !== null && doseUnits === item.dose.unit;
      const doseRatio = sameUnit ? doseMedian / item.dose!.value : null;
      deviations.push({
        item,
        d: item.log - centre,
        s,
        dRaw: sRaw !== null && item.rawLog !== null ? item.rawLog - rawCentre : null,
        sRaw,
        doseRatio,
        arms: arms - 1,
        minFactor,
        partner,
      });
    }
  });
  return deviations;
}
