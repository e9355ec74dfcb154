/**
 * Robust reference distributions on the log scale, for the reference-range
 * check (checks/reference-ranges.ts; issue 13, item 4).
 *
 * - One value per study-arm (the median of the arm's log values), so that a
 *   study with forty individuals weighs as much as one with a group mean.
 * - Also the study median: each study weighing one, shared by its arms. A
 *   study of seven arms at one dose must not alone make the centre: in a
 *   tenth of the shared export Somogyi1991's seven arms at 0.03 g of
 *   paracetamol were the median of five studies' doses, and Forrest1979's
 *   ordinary 1.5 g looked like a ×70 per-kg slip (range-verdict.ts judges a
 *   value against both centres).
 * - Centre: the median m of the arm values; spread: the MAD scaled to a
 *   normal SD, s = 1.4826·median(|x − m|) (Rousseeuw & Croux 1993), floored
 *   at SPREAD_FLOOR because a handful of studies can agree by chance.
 * - Leave one study out: the reference of a value never contains its own
 *   study (`leaveOneStudyOut`), so a slipped study cannot pull its own
 *   reference towards itself.
 * - Too few studies (fewer than MIN_STUDIES distinct ones besides the value's
 *   own): no reference, never a guess.
 */

/** Fewest distinct other studies a reference needs. */
export const MIN_STUDIES = 5;

/** Floor of the robust SD on the natural-log scale (≈ ×1.25): analytical, rounding and population differences. */
export const SPREAD_FLOOR = Math.log(1.25);

/** MAD → SD of a normal distribution. */
const MAD_SCALE = 1.4826;

export interface ArmValue {
  study: string;
  /** The arm's central log value. */
  log: number;
}

export interface Reference {
  /** Median of the arm values (log scale). */
  median: number;
  /** Robust SD, floored (log scale). */
  spread: number;
  studies: number;
  arms: number;
  /** Extremes of the arm values, and the second most extreme per direction from another study than the extreme's (log scale). */
  min: number;
  max: number;
  secondMin: number;
  secondMax: number;
  /**
   * The median with each study weighing one, shared by its arms (weight 1/arms; log scale): where `median` and it
   * part, one study's many arms make the median, and a value is judged against both (range-verdict.ts `judge`).
   * Absent, the median.
   */
  studyMedian?: number;
}

export function median(sorted: readonly number[]): number {
  const n = sorted.length;
  const h = n >> 1;
  return n % 2 === 1 ? sorted[h] : (sorted[h - 1] + sorted[h]) / 2;
}

/**
 * One value per arm of a study: the median of the log values given for it. Arms are told apart within their study:
 * an arm named by its intervention set is the empty set in every study whose records have no intervention
 * (undosed levels), and those must not merge into one arm of the first such study.
 */
export function armValues(samples: readonly { study: string; arm: string; log: number }[]): ArmValue[] {
  const byArm = new Map<string, { study: string; logs: number[] }>();
  for (const s of samples) {
    const key = `${s.study}\u0001${s.arm}`;
    const entry = byArm.get(key);
    if (entry) entry.logs.push(s.log);
    else byArm.set(key, { study: s.study, logs: [s.log] });
  }
  return [...byArm.values()].map(({ study, logs }) => ({ study, log: median(logs.sort((a, b) => a - b)) }));
}

/** The reference of some arms, or null with fewer than MIN_STUDIES distinct studies. */
export function robustReference(arms: readonly ArmValue[]): Reference | null {
  const armsOf = armCounts(arms);
  // A stable sort: `leaveOneStudyOut` filters one sorted list, which gives the same order.
  return armsOf.size < MIN_STUDIES ? null : sortedReference([...arms].sort((a, b) => a.log - b.log), armsOf.size, armsOf);
}

/** The number of arms of each study. */
function armCounts(arms: readonly ArmValue[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const a of arms) counts.set(a.study, (counts.get(a.study) ?? 0) + 1);
  return counts;
}

/**
 * The weighted median of values in ascending order: the first value at which the cumulative weight reaches half the
 * total, or the mean of it and the next when it reaches exactly half (so equal weights give the plain median).
 */
export function weightedMedian(ascending: ArrayLike<number>, weights: ArrayLike<number>): number {
  const n = ascending.length;
  let total = 0;
  for (let k = 0; k < n; k++) total += weights[k];
  const half = total / 2;
  // Sums of 1/arms are inexact in binary: "exactly half" within a relative 1e-9.
  const slack = 1e-9 * total;
  let cumulative = 0;
  for (let k = 0; k < n; k++) {
    cumulative += weights[k];
    if (cumulative >= half - slack) return Math.abs(cumulative - half) <= slack && k + 1 < n ? (ascending[k] + ascending[k + 1]) / 2 : ascending[k];
  }
  return ascending[n - 1];
}

/** The reference of arms sorted by log value, from `studies` distinct studies (at least one arm). */
function sortedReference(byLog: readonly ArmValue[], studies: number, armsOf: ReadonlyMap<string, number>): Reference {
  const n = byLog.length;
  const h = n >> 1;
  const m = n % 2 === 1 ? byLog[h].log : (byLog[h - 1].log + byLog[h].log) / 2;
  // Most strata have one arm per study: the study median is then the median, with no weights to build.
  let studyMedian = m;
  if (n > studies) {
    const logs = new Float64Array(n);
    const weights = new Float64Array(n);
    for (let k = 0; k < n; k++) {
      logs[k] = byLog[k].log;
      weights[k] = 1 / (armsOf.get(byLog[k].study) as number);
    }
    studyMedian = weightedMedian(logs, weights);
  }
  // |x − m| ascending without a sort: the values below m read downwards merged with those from m upwards.
  const deviations = new Array<number>(n);
  let below = 0;
  while (below < n && byLog[below].log < m) below++;
  let i = below - 1;
  let j = below;
  for (let k = 0; k < n; k++) {
    const left = i >= 0 ? m - byLog[i].log : Infinity;
    const right = j < n ? byLog[j].log - m : Infinity;
    if (left <= right) {
      deviations[k] = left;
      i--;
    } else {
      deviations[k] = right;
      j++;
    }
  }
  const spread = Math.max(MAD_SCALE * median(deviations), SPREAD_FLOOR);
  // The second extreme comes from a study other than the extreme's: one study's several arms count once.
  const low = byLog[0];
  const high = byLog[n - 1];
  let secondMin = low.log;
  for (let k = 1; k < n; k++) {
    if (byLog[k].study !== low.study) {
      secondMin = byLog[k].log;
      break;
    }
  }
  let secondMax = high.log;
  for (let k = n - 2; k >= 0; k--) {
    if (byLog[k].study !== high.study) {
      secondMax = byLog[k].log;
      break;
    }
  }
  return { median: m, spread, studies, arms: n, min: low.log, max: high.log, secondMin, secondMax, studyMedian };
}

/**
 * The reference of each study's values: built from the arms of every other
 * study. O(studies × arms) per stratum (the arms sorted once); strata are per substance, so small.
 */
export function leaveOneStudyOut(arms: readonly ArmValue[]): Map<string, Reference | null> {
  const result = new Map<string, Reference | null>();
  // Leaving a study out leaves the others' arm counts, and so their weights, as they are.
  const armsOf = armCounts(arms);
  // Without MIN_STUDIES others for any study, nothing to compute (most strata: one substance in few studies).
  if (armsOf.size <= MIN_STUDIES) {
    for (const study of armsOf.keys()) result.set(study, null);
    return result;
  }
  const byLog = [...arms].sort((a, b) => a.log - b.log);
  for (const study of armsOf.keys()) {
    result.set(study, sortedReference(byLog.filter((a) => a.study !== study), armsOf.size - 1, armsOf));
  }
  return result;
}
