/**
 * Uncertainty of parameters recomputed from a group-mean curve (what PK-DB
 * stores: mean ± SD or SE with n per time), by a seeded parametric bootstrap
 * of the mean curve (Efron & Tibshirani): each replicate draws the mean at
 * every time from its sampling distribution and reruns `nca()`; the
 * percentiles of the replicates give the interval of each parameter.
 *
 * - Sampling distribution of a mean: SE = SD/√n (or the SE given), drawn
 *   log-normal with the same mean and SE (σ² = ln(1 + SE²/m²),
 *   μ = ln m − σ²/2), so a draw is never negative; a mean of 0 stays 0.
 * - Correlation between times is unknown in a mean curve: `independent`
 *   draws each time separately (narrowest), `shared` uses one standard normal
 *   per replicate for all times (perfect correlation, widest for AUC and
 *   Cmax). Within-subject correlation is positive, so the truth lies between:
 *   `both` (default) reports each and an envelope [min lower, max upper].
 * - Bounded: at most MAX_REPLICATES replicates, and a replicate budget of
 *   MAX_WORK samples (replicates × times); `maxMs` stops early (the
 *   replicates done are used and counted).
 */
import { NcaInputError } from './clean.js';
import { nca, type NcaInput, type NcaOptions } from './nca.js';
import type { Pptestcd } from './parameters.js';
import { mulberry32 } from './random.js';

export type Correlation = 'independent' | 'shared';

export interface BootstrapOptions extends NcaOptions {
  /** Per time: SD with `n`, or SE directly. */
  sd?: readonly (number | null)[];
  se?: readonly (number | null)[];
  n?: number | readonly (number | null)[];
  replicates?: number;
  seed?: number;
  correlation?: Correlation | 'both';
  /** Parameters to summarise (default CMAX, AUCLST, AUCIFO, LAMZHL, TMAX, and CLFO/CLO, VZFO/VZO when a dose is given). */
  codes?: readonly Pptestcd[];
  /** Central interval, default 0.95. */
  level?: number;
  maxMs?: number;
}

export interface Interval {
  lower: number;
  upper: number;
  median: number;
  /** Replicates where the parameter could be computed. */
  n: number;
}

export interface ParameterUncertainty {
  estimate: number | null;
  independent?: Interval | null;
  shared?: Interval | null;
  /** [min of the lowers, max of the uppers] of the computed correlations. */
  envelope: { lower: number; upper: number } | null;
}

export interface BootstrapResult {
  parameters: Partial<Record<Pptestcd, ParameterUncertainty>>;
  replicates: number;
  notes: string[];
}

export const MAX_REPLICATES = 10_000;
export const MAX_WORK = 5_000_000;

/** Standard normal draws (Box–Muller) from a uniform source. */
export function normal(uniform: () => number): () => number {
  let spare: number | null = null;
  return () => {
    if (spare !== null) {
      const s = spare;
      spare = null;
      return s;
    }
    const u = 1 - uniform();
    const v = uniform();
    const r = Math.sqrt(-2 * Math.log(u));
    spare = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  };
}

/** Percentile of sorted values, linear between order statistics (R type 7). */
export function quantile(sorted: readonly number[], p: number): number {
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  return sorted[lo] + (h - lo) * ((sorted[Math.min(lo + 1, sorted.length - 1)] ?? sorted[lo]) - sorted[lo]);
}

function standardErrors(input: NcaInput, o: BootstrapOptions): (number | null)[] {
  const m = input.conc.length;
  if (o.se) {
    if (o.se.length !== m) throw new NcaInputError(`se has ${o.se.length} values but concentration has ${m}`);
    return [...o.se];
  }
  if (!o.sd || o.n === undefined) throw new NcaInputError('the bootstrap needs `se`, or `sd` with `n`');
  if (o.sd.length !== m) throw new NcaInputError(`sd has ${o.sd.length} values but concentration has ${m}`);
  return o.sd.map((s, i) => {
    const n = typeof o.n === 'number' ? o.n : (o.n as readonly (number | null)[])[i];
    return s === null || n === null || !(n! >= 1) ? null : s / Math.sqrt(n!);
  });
}

function summarise(values: number[], level: number): Interval | null {
  if (values.length === 0) return null;
  values.sort((a, b) => a - b);
  const tail = (1 - level) / 2;
  return { lower: quantile(values, tail), upper: quantile(values, 1 - tail), median: quantile(values, 0.5), n: values.length };
}

export function bootstrapMeanCurve(input: NcaInput, options: BootstrapOptions): BootstrapResult {
  const replicates = options.replicates ?? 1000;
  if (!(Number.isInteger(replicates) && replicates >= 10 && replicates <= MAX_REPLICATES)) {
    throw new NcaInputError(`replicates must be an integer in [10, ${MAX_REPLICATES}], got ${replicates}`);
  }
  if (replicates * input.conc.length > MAX_WORK) throw new NcaInputError(`replicates × samples exceeds ${MAX_WORK}`);
  const level = options.level ?? 0.95;
  if (!(level > 0 && level < 1)) throw new NcaInputError(`level must be in (0, 1), got ${level}`);
  const se = standardErrors(input, options);
  const notes: string[] = [];
  if (se.some((s, i) => s === null && input.conc[i] !== null)) notes.push('times without SD/SE are held at their mean');
  const base = nca(input, options);
  const dosed = input.dose !== undefined;
  const iv = input.route === 'iv-bolus' || input.route === 'iv-infusion';
  const codes = options.codes ?? (['CMAX', 'TMAX', 'AUCLST', 'AUCIFO', 'LAMZHL', ...(dosed ? (iv ? ['CLO', 'VZO'] : ['CLFO', 'VZFO']) : [])] as Pptestcd[]);
  // Log-normal parameters per time (null: held fixed).
  const logParams = input.conc.map((m, i) => {
    const s = se[i];
    if (m === null || s === null || !(m > 0) || !(s > 0)) return null;
    const sigma2 = Math.log1p((s * s) / (m * m));
    return { mu: Math.log(m) - sigma2 / 2, sigma: Math.sqrt(sigma2) };
  });
  const which: Correlation[] = options.correlation === undefined || options.correlation === 'both' ? ['independent', 'shared'] : [options.correlation];
  const started = Date.now();
  const draws: Record<Correlation, Map<Pptestcd, number[]>> = { independent: new Map(), shared: new Map() };
  let done = 0;
  for (const correlation of which) {
    const z = normal(mulberry32((options.seed ?? 1) + (correlation === 'shared' ? 7919 : 0)));
    const values = draws[correlation];
    for (const code of codes) values.set(code, []);
    const conc = input.conc.slice();
    let r = 0;
    for (; r < replicates; r++) {
      if (options.maxMs !== undefined && Date.now() - started > options.maxMs) break;
      const common = z();
      for (let i = 0; i < conc.length; i++) {
        const p = logParams[i];
        if (p) conc[i] = Math.exp(p.mu + p.sigma * (correlation === 'shared' ? common : z()));
      }
      const result = nca({ ...input, conc }, options);
      for (const code of codes) {
        const v = result.parameters[code]?.value;
        if (v !== null && v !== undefined) values.get(code)!.push(v);
      }
    }
    done = Math.max(done, r);
    if (r < replicates) notes.push(`${correlation}: stopped after ${r} of ${replicates} replicates (maxMs)`);
  }
  const parameters: BootstrapResult['parameters'] = {};
  for (const code of codes) {
    const u: ParameterUncertainty = { estimate: base.parameters[code]?.value ?? null, envelope: null };
    for (const correlation of which) u[correlation] = summarise(draws[correlation].get(code)!, level);
    const intervals = which.map((c) => u[c]).filter((x): x is Interval => !!x);
    if (intervals.length) u.envelope = { lower: Math.min(...intervals.map((x) => x.lower)), upper: Math.max(...intervals.map((x) => x.upper)) };
    parameters[code] = u;
  }
  return { parameters, replicates: done, notes };
}

/** Whether a reported value lies within the envelope the data allow (null: no interval). */
export function withinUncertainty(reported: number, u: ParameterUncertainty | undefined): boolean | null {
  if (!u?.envelope) return null;
  return reported >= u.envelope.lower && reported <= u.envelope.upper;
}
