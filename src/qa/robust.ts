/**
 * Robust location and scale for the within-study comparisons (checks/within-study.ts):
 * PK parameters are log-normal (between-subject CV 30–80 %), and a slip is one
 * value off by a large factor, so the centre is the median of the logs and the
 * spread the scaled median absolute deviation (MAD), neither of which a single
 * slipped value moves (Rousseeuw & Croux 1993; Hampel's identifier).
 */

/** 1.4826: the MAD of a normal sample times this estimates its standard deviation. */
export const MAD_SCALE = 1.4826;

/** Scratch space for the sorts below: medians are taken per arm left out of every pool, allocation-free. */
let scratch = new Float64Array(256);

/** Sorts the first n numbers of the scratch and returns their median; NaN for none. */
function scratchMedian(n: number): number {
  return medianOfSorted(n === 0 ? scratch.subarray(0, 0) : scratch.subarray(0, n).sort());
}

function reserve(n: number): void {
  if (n > scratch.length) scratch = new Float64Array(Math.max(n, 2 * scratch.length));
}

/** The median of finite numbers; NaN for none. Does not modify its input. */
export function median(values: readonly number[]): number {
  // A typed array sorts numerically without a comparator call per pair.
  reserve(values.length);
  let n = 0;
  for (let k = 0; k < values.length; k++) if (Number.isFinite(values[k])) scratch[n++] = values[k];
  return scratchMedian(n);
}

/** The median of ascending finite numbers (the first `n`); NaN for none. */
export function medianOfSorted(sorted: ArrayLike<number>, n = sorted.length): number {
  if (n === 0) return NaN;
  const mid = n >> 1;
  return n % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** MAD_SCALE · median(|x − centre|): a standard deviation that ignores outliers; NaN for none. */
export function scaledMad(values: readonly number[], centre = median(values)): number {
  reserve(values.length);
  let n = 0;
  for (const v of values) {
    const d = Math.abs(v - centre);
    if (Number.isFinite(d)) scratch[n++] = d;
  }
  return MAD_SCALE * scratchMedian(n);
}

/**
 * scaledMad of the first `n` ascending finite numbers around `centre` (finite), without sorting the
 * deviations: those below the centre read downwards merged with those from it upwards are |x − centre|
 * ascending, and the median needs only the middle one or two. NaN for none.
 */
export function scaledMadOfSorted(sorted: ArrayLike<number>, n: number, centre: number): number {
  if (n === 0) return NaN;
  let i = 0;
  while (i < n && sorted[i] < centre) i++;
  let j = i;
  i--;
  const h = n >> 1;
  let previous = NaN;
  let current = NaN;
  for (let k = 0; k <= h; k++) {
    const left = i >= 0 ? centre - sorted[i] : Infinity;
    const right = j < n ? sorted[j] - centre : Infinity;
    previous = current;
    if (left <= right) {
      current = left;
      i--;
    } else {
      current = right;
      j++;
    }
  }
  return MAD_SCALE * (n % 2 === 1 ? current : (previous + current) / 2);
}

/**
 * `all` (ascending) without one occurrence of each of the first `removedCount` of `removed` (ascending, a
 * sub-multiset of `all`), written to `into`; returns how many were written. Leaves one arm out of a pool
 * sorted once, in one pass.
 */
export function withoutSorted(all: ArrayLike<number>, removed: ArrayLike<number>, removedCount: number, into: Float64Array): number {
  let n = 0;
  let r = 0;
  for (let k = 0; k < all.length; k++) {
    const v = all[k];
    if (r < removedCount && v === removed[r]) r++;
    else into[n++] = v;
  }
  return n;
}

/**
 * The level of a curve at time t, linear between the samples around it, as curated (times in any order, NaN where a
 * time or level is missing); null outside the sampled range.
 */
export function levelAt(times: readonly number[], levels: readonly number[], t: number): number | null {
  let before = -1;
  let after = -1;
  for (let i = 0; i < times.length; i++) {
    if (!Number.isFinite(times[i]) || !Number.isFinite(levels[i])) continue;
    if (times[i] <= t && (before < 0 || times[i] > times[before])) before = i;
    if (times[i] >= t && (after < 0 || times[i] < times[after])) after = i;
  }
  if (before < 0 || after < 0) return null;
  if (times[after] === times[before]) return Math.max(levels[before], levels[after]);
  return levels[before] + ((levels[after] - levels[before]) * (t - times[before])) / (times[after] - times[before]);
}

/** Log-linear interpolation of a positive profile (times ascending) at t; null outside its range or across a non-positive point. */
export function interpolateLog(times: readonly number[], values: readonly number[], t: number): number | null {
  const n = times.length;
  if (n === 0 || t < times[0] || t > times[n - 1]) return null;
  let hi = 0;
  while (hi < n - 1 && times[hi] < t) hi++;
  return logLinearAt(times, values, t, hi);
}

/** interpolateLog at t within the range, given `hi`: the first index whose time is not below t (else the last). */
export function logLinearAt(times: readonly number[], values: readonly number[], t: number, hi: number): number | null {
  if (times[hi] === t) return values[hi] > 0 ? values[hi] : null;
  const lo = hi - 1;
  if (lo < 0) return null;
  const t0 = times[lo];
  const t1 = times[hi];
  const c0 = values[lo];
  const c1 = values[hi];
  if (!(c0 > 0) || !(c1 > 0) || t1 === t0) return null;
  return Math.exp(Math.log(c0) + ((t - t0) / (t1 - t0)) * (Math.log(c1) - Math.log(c0)));
}
