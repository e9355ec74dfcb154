/**
 * The terminal rate constant λz: ordinary least squares of ln C on t,
 * ln C = a − λz·t, uniform weights.
 *
 * Best fit (Phoenix WinNonlin "best fit"; WinNonlin in docs/references.md):
 * over the last 3, 4, … positive concentrations of the candidate range, keep
 * the fits with a negative slope, take the largest adjusted R²,
 *   R²adj = 1 − (1 − R²)(n − 1)/(n − 2),
 * and among the fits within 1e-4 of it the one with the most points.
 *
 * The search adds one point at a time from the end and keeps running sums, so
 * all windows cost O(n) together. The sums are taken about the last point
 * (x = t − t_last, y = ln C − ln C_last), which keeps Σx² − (Σx)²/n free of the
 * cancellation that raw times of, say, 10,000 min would cause. The chosen
 * window is then refitted with centred two-pass sums for the reported values.
 */

export interface LogLinearFit {
  /** Profile indices of the points used, ascending. */
  points: number[];
  slope: number;
  intercept: number;
  r2: number;
  adjR2: number;
  /** Pearson correlation of t and ln C. */
  corr: number;
}

/** Tolerance on adjusted R² within which more points win (WinNonlin's 0.0001). */
export const ADJ_R2_TOLERANCE = 1e-4;
/** Fewest points a λz regression may use. */
export const MIN_LAMBDA_Z_POINTS = 3;

/** Scratch buffers reused across calls: the best-fit search allocates nothing per window. */
let adjByCount = new Float64Array(64);
let firstByCount = new Int32Array(64);

function ensureScratch(n: number): void {
  if (adjByCount.length > n) return;
  adjByCount = new Float64Array(2 * n);
  firstByCount = new Int32Array(2 * n);
}

/**
 * Best-fit window over the positive concentrations in profile indices
 * [start, end] (end = Tlast). Returns the first index of the chosen window
 * (the window runs from there to `end`, positive points only), or -1 when no
 * window of ≥ `minPoints` (default 3) points has a negative slope; `tolerance` is the
 * adjusted-R² margin within which more points win (default 1e-4).
 */
export function bestFitStart(
  time: readonly number[],
  conc: readonly number[],
  start: number,
  end: number,
  minPoints = MIN_LAMBDA_Z_POINTS,
  tolerance = ADJ_R2_TOLERANCE,
): number {
  if (end - start + 1 < minPoints) return -1;
  ensureScratch(end - start + 2);
  const tRef = time[end];
  const yRef = Math.log(conc[end]);
  let n = 0;
  let sx = 0;
  let sy = 0;
  let sxx = 0;
  let sxy = 0;
  let syy = 0;
  let maxAdj = -Infinity;
  for (let i = end; i >= start; i--) {
    const c = conc[i];
    if (!(c > 0)) continue;
    const x = time[i] - tRef;
    const y = Math.log(c) - yRef;
    n++;
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
    syy += y * y;
    adjByCount[n] = NaN;
    firstByCount[n] = i;
    if (n < minPoints) continue;
    const ssx = sxx - (sx * sx) / n;
    const ssxy = sxy - (sx * sy) / n;
    const ssy = syy - (sy * sy) / n;
    if (!(ssxy < 0) || !(ssx > 0) || !(ssy > 0)) continue;
    const r2 = (ssxy * ssxy) / (ssx * ssy);
    const adj = 1 - ((1 - r2) * (n - 1)) / (n - 2);
    adjByCount[n] = adj;
    if (adj > maxAdj) maxAdj = adj;
  }
  if (maxAdj === -Infinity) return -1;
  for (let k = n; k >= minPoints; k--) {
    if (adjByCount[k] >= maxAdj - tolerance) return firstByCount[k];
  }
  return -1;
}

/** Profile indices of the positive concentrations in [from, to]. */
export function positivePoints(conc: readonly number[], from: number, to: number): number[] {
  const points: number[] = [];
  for (let i = from; i <= to; i++) if (conc[i] > 0) points.push(i);
  return points;
}

/**
 * OLS of ln C on t over the given points (all concentrations > 0), centred
 * two-pass sums: slope = Sxy/Sxx, intercept = ȳ − slope·x̄,
 * R² = Sxy²/(Sxx·Syy), r = Sxy/√(Sxx·Syy). Needs ≥ 3 points with distinct times.
 */
export function fitLogLinear(time: readonly number[], conc: readonly number[], points: number[]): LogLinearFit {
  const n = points.length;
  let mx = 0;
  let my = 0;
  for (const i of points) {
    mx += time[i];
    my += Math.log(conc[i]);
  }
  mx /= n;
  my /= n;
  let sxx = 0;
  let sxy = 0;
  let syy = 0;
  for (const i of points) {
    const dx = time[i] - mx;
    const dy = Math.log(conc[i]) - my;
    sxx += dx * dx;
    sxy += dx * dy;
    syy += dy * dy;
  }
  const slope = sxy / sxx;
  // A perfectly flat window has Syy = 0: R² is then 0 by convention, not NaN.
  const r2 = syy > 0 ? (sxy * sxy) / (sxx * syy) : 0;
  return {
    points,
    slope,
    intercept: my - slope * mx,
    r2,
    adjR2: 1 - ((1 - r2) * (n - 1)) / (n - 2),
    corr: syy > 0 ? sxy / Math.sqrt(sxx * syy) : 0,
  };
}
