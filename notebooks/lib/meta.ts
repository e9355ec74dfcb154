/**
 * Small meta-analysis on the log scale, for positive PK parameters such as
 * half-lives whose between-subject spread is log-normal.
 *
 * References: Higgins JPT & Thomas J (eds), Cochrane Handbook for Systematic
 * Reviews of Interventions, ch. 10 (inverse-variance pooling, DerSimonian–Laird
 * τ², I²) and ch. 6.5.2 (summary statistics); DerSimonian R & Laird N,
 * Control Clin Trials 1986;7:177–188; Higgins JPT, White IR & Anzures-Cabrera J,
 * Stat Med 2008;27:6072–6092 (meta-analysis of skewed data: log-normal moments).
 */

export interface LogEstimate {
  /** Mean of ln(x): the log of the geometric mean. */
  logMean: number;
  /** Standard error of logMean; null when the source gives no spread (a single value, a mean without sd). */
  logSe: number | null;
  /** Subjects behind the estimate. */
  n: number;
}

/**
 * ln-scale moments of a log-normal variable from its arithmetic mean and sd:
 *   σ² = ln(1 + (sd/mean)²),   μ = ln(mean) − σ²/2
 * (Higgins et al. 2008, eq. 2), and SE(μ) = σ/√n.
 */
export function fromMeanSd(mean: number, sd: number | null, n: number): LogEstimate {
  if (!(mean > 0)) throw new Error(`a log-normal mean must be > 0, got ${mean}`);
  if (sd === null || !(sd > 0) || n < 2) return { logMean: Math.log(mean), logSe: null, n };
  const variance = Math.log(1 + (sd / mean) ** 2);
  return { logMean: Math.log(mean) - variance / 2, logSe: Math.sqrt(variance / n), n };
}

/** ln-scale mean and its SE (sample sd / √n) of individual positive values. */
export function fromValues(values: readonly number[]): LogEstimate {
  const logs = values.filter((v) => v > 0).map(Math.log);
  const n = logs.length;
  if (n === 0) throw new Error('no positive value to summarise');
  const logMean = logs.reduce((a, b) => a + b, 0) / n;
  if (n < 2) return { logMean, logSe: null, n };
  const variance = logs.reduce((a, b) => a + (b - logMean) ** 2, 0) / (n - 1);
  return { logMean, logSe: Math.sqrt(variance / n), n };
}

/** Two-sided 95 % quantiles t(0.975, df) for df 1–30, then 40, 60, 120; 1.96 beyond. */
const T975: readonly [number, number][] = [
  [1, 12.706], [2, 4.303], [3, 3.182], [4, 2.776], [5, 2.571], [6, 2.447], [7, 2.365], [8, 2.306], [9, 2.262], [10, 2.228],
  [11, 2.201], [12, 2.179], [13, 2.16], [14, 2.145], [15, 2.131], [16, 2.12], [17, 2.11], [18, 2.101], [19, 2.093], [20, 2.086],
  [21, 2.08], [22, 2.074], [23, 2.069], [24, 2.064], [25, 2.06], [26, 2.056], [27, 2.052], [28, 2.048], [29, 2.045], [30, 2.042],
  [40, 2.021], [60, 2.0], [120, 1.98],
];

/** t(0.975, df), taking the tabulated df at or below `df` (slightly conservative between table rows). */
export function t975(df: number): number {
  if (!(df >= 1)) throw new Error(`degrees of freedom must be ≥ 1, got ${df}`);
  if (df > 120) return 1.96;
  let q = T975[0][1];
  for (const [d, value] of T975) if (d <= df) q = value;
  return q;
}

/** Geometric mean with its 95 % interval exp(μ ± t(n−1)·SE); no interval without an SE. */
export function geometricInterval(e: LogEstimate): { estimate: number; lower: number | null; upper: number | null } {
  const estimate = Math.exp(e.logMean);
  if (e.logSe === null) return { estimate, lower: null, upper: null };
  const half = t975(e.n - 1) * e.logSe;
  return { estimate, lower: Math.exp(e.logMean - half), upper: Math.exp(e.logMean + half) };
}

export interface PooledEstimate {
  /** Geometric-mean scale: exp of the pooled log mean. */
  estimate: number;
  lower: number;
  upper: number;
  /** Between-study variance on the log scale (DerSimonian–Laird). */
  tau2: number;
  /** Share of variability due to heterogeneity, %: max(0, (Q − df)/Q)·100. */
  i2: number;
  q: number;
  k: number;
}

/**
 * DerSimonian–Laird random-effects pooling of log estimates:
 *   wᵢ = 1/SEᵢ²,  Q = Σwᵢ(yᵢ − ȳ_w)²,  τ² = max(0, (Q − (k−1)) / (Σwᵢ − Σwᵢ²/Σwᵢ)),
 *   wᵢ* = 1/(SEᵢ² + τ²),  μ = Σwᵢ*yᵢ / Σwᵢ*,  SE(μ) = 1/√Σwᵢ*,  95 % CI μ ± 1.96·SE.
 * Estimates without an SE cannot be weighted and are left out; null when none has one.
 */
export function dersimonianLaird(estimates: readonly LogEstimate[]): PooledEstimate | null {
  const usable = estimates.filter((e): e is LogEstimate & { logSe: number } => e.logSe !== null && e.logSe > 0);
  const k = usable.length;
  if (k === 0) return null;
  const w = usable.map((e) => 1 / e.logSe ** 2);
  const sumW = w.reduce((a, b) => a + b, 0);
  const fixed = usable.reduce((acc, e, i) => acc + w[i] * e.logMean, 0) / sumW;
  const q = usable.reduce((acc, e, i) => acc + w[i] * (e.logMean - fixed) ** 2, 0);
  const c = sumW - w.reduce((a, b) => a + b * b, 0) / sumW;
  const tau2 = k > 1 && c > 0 ? Math.max(0, (q - (k - 1)) / c) : 0;
  const wStar = usable.map((e) => 1 / (e.logSe ** 2 + tau2));
  const sumWStar = wStar.reduce((a, b) => a + b, 0);
  const mu = usable.reduce((acc, e, i) => acc + wStar[i] * e.logMean, 0) / sumWStar;
  const se = 1 / Math.sqrt(sumWStar);
  return {
    estimate: Math.exp(mu),
    lower: Math.exp(mu - 1.96 * se),
    upper: Math.exp(mu + 1.96 * se),
    tau2,
    i2: q > 0 && k > 1 ? Math.max(0, (q - (k - 1)) / q) * 100 : 0,
    q,
    k,
  };
}
