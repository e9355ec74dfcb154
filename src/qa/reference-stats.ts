/**
 * Robust reference distributions on the log scale, for the reference-range
 * check (checks/reference-ranges.ts; issue 13, item 4).
 *
 * - One value per study-arm (the median of the arm's log values), so that a
 *   study with forty individuals weighs as much as one with a group mean.
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
  const studies = new Set(arms.map((a) => a.study)).size;
  // A stable sort: `leaveOneStudyOut` filters one sorted list, which gives the same order.
  return studies < MIN_STUDIES ? null : sortedReference([...arms].sort((a, b) => a.log - b.log), studies);
}

/** The reference of arms sorted by log value, from `studies` distinct studies (at least one arm). */
function sortedReference(byLog: readonly ArmValue[], studies: number): Reference {
  const n = byLog.length;
  const h = n >> 1;
  const m = n % 2 === 1 ? byLog[h].log : (byLog[h - 1].log + byLog[h].log) / 2;
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
  return { median: m, spread, studies, arms: n, min: low.log, max: high.log, secondMin, secondMax };
}

/**
 * The reference of each study's values: built from the arms of every other
 * study. O(studies × arms) per stratum (the arms sorted once); strata are per substance, so small.
 */
export function leaveOneStudyOut(arms: readonly ArmValue[]): Map<string, Reference | null> {
  const result = new Map<string, Reference | null>();
  const studies = new Set(arms.map((a) => a.study));
  // Without MIN_STUDIES others for any study, nothing to compute (most strata: one substance in few studies).
  if (studies.size <= MIN_STUDIES) {
    for (const study of studies) result.set(study, null);
    return result;
  }
  const byLog = [...arms].sort((a, b) => a.log - b.log);
  for (const study of studies) {
    result.set(study, sortedReference(byLog.filter((a) => a.study !== study), studies.size - 1));
  }
  return result;
}
