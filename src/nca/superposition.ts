/**
 * Superposition (PKNCA `superposition`; Gibaldi & Perrier): under linear
 * kinetics the profile after several doses is the sum of shifted, scaled
 * copies of the single-dose profile,
 *   C(t) = Σ_i (D_i/D)·C1(t − t_i),
 * with C1 the single-dose profile (dose D at time 0) read by
 * ./partial-auc.ts `concentrationAt`: interpolated by the AUC method between
 * samples, λz-extrapolated past Tlast (observed or predicted Clast), 0 before
 * the dose (extravascular and infusion) or C0 back-extrapolated (IV bolus).
 * At steady state with dosing interval τ, for 0 ≤ t ≤ τ,
 *   Css(t) = Σ_{n≥0} C1(t + nτ)
 *          = Σ_{n<N} C1(t + nτ) + Cx·e^(−λz(t + Nτ − Tlast))/(1 − e^(−λz·τ)),
 * N the first n with t + nτ > Tlast: the exponential tail summed exactly.
 * Steady state is approached as 1 − e^(−λz·t): 90 % after 3.3 half-lives,
 * 95 % after 4.3, 97 % after 5 (./derived.ts `timeToSteadyState`).
 */
import type { AucMethod, Route } from './codes.js';
import { NcaInputError } from './clean.js';
import { accumulationIndex, halfLife, timeToSteadyState } from './derived.js';
import { backExtrapolatedC0, firstMaxIndex, lastPositiveIndex } from './observed.js';
import { aucInterval, concentrationAt } from './partial-auc.js';

export interface SuperpositionOptions {
  /** λz of the single-dose profile (needed past its Tlast). */
  lambdaZ: number;
  method?: AucMethod;
  route?: Route;
  /** Clast the extrapolation starts from (default observed; pass CLSTP for the predicted one). */
  clast?: number;
}

export interface SteadyStateOptions extends SuperpositionOptions {
  tau: number;
  /** Ratio of the repeated dose to the single dose (default 1). */
  doseRatio?: number;
  /** Output times in [0, τ]; default the sample times folded into [0, τ], plus 0 and τ. */
  times?: readonly number[];
}

export interface SteadyStatePrediction {
  time: number[];
  conc: number[];
  cmax: number;
  tmax: number;
  cmin: number;
  /** AUCτ of the predicted profile by the AUC method (tends to the single-dose AUC∞·doseRatio with dense times). */
  auctau: number;
  /** 1/(1 − e^(−λz·τ)). */
  accumulationIndex: number;
  halfLife: number;
  /** Time to 90 % and to 97 % of steady state after the first dose. */
  timeTo90: number;
  timeTo97: number;
}

/** Upper bound on the number of dosing intervals summed explicitly (Tlast/τ). */
export const MAX_EXPLICIT_TERMS = 1_000_000;

/** The single-dose profile with the dose-time point settled: (0, 0), or (0, C0) for a bolus. */
function anchored(time: readonly number[], conc: readonly number[], route: Route): { time: number[]; conc: number[] } {
  if (time.length !== conc.length || time.length === 0) throw new NcaInputError('superposition needs a non-empty profile with as many times as concentrations');
  if (time[0] < 0) throw new NcaInputError('the single-dose profile must start at or after its dose (time 0)');
  if (time[0] === 0 && !(route === 'iv-bolus' && !(conc[0] > 0))) return { time: [...time], conc: [...conc] };
  const from = time[0] === 0 ? 1 : 0;
  const c0 = route === 'iv-bolus' ? backExtrapolatedC0(time.slice(from), conc.slice(from)) ?? 0 : 0;
  return { time: [0, ...time.slice(from)], conc: [c0, ...conc.slice(from)] };
}

function checkedLambdaZ(lambdaZ: number): void {
  if (!(Number.isFinite(lambdaZ) && lambdaZ > 0)) throw new NcaInputError(`superposition needs λz > 0, got ${lambdaZ}`);
}

/** Concentrations at `at` after doses {time, ratio (= D_i/D)}, from a single-dose profile. */
export function superpose(
  time: readonly number[],
  conc: readonly number[],
  doses: readonly { time: number; ratio?: number }[],
  at: readonly number[],
  options: SuperpositionOptions,
): number[] {
  checkedLambdaZ(options.lambdaZ);
  const p = anchored(time, conc, options.route ?? 'extravascular');
  const read = { method: options.method, type: 'inf' as const, lambdaZ: options.lambdaZ, clast: options.clast };
  return at.map((t) => {
    let c = 0;
    for (const d of doses) if (t >= d.time) c += (d.ratio ?? 1) * (concentrationAt(p.time, p.conc, t - d.time, read) as number);
    return c;
  });
}

/** The steady-state profile over one dosing interval predicted from a single-dose profile (see the header). */
export function steadyState(time: readonly number[], conc: readonly number[], options: SteadyStateOptions): SteadyStatePrediction {
  const { tau, lambdaZ } = options;
  checkedLambdaZ(lambdaZ);
  if (!(Number.isFinite(tau) && tau > 0)) throw new NcaInputError(`tau must be a positive number, got ${tau}`);
  const ratio = options.doseRatio ?? 1;
  const p = anchored(time, conc, options.route ?? 'extravascular');
  const iLast = lastPositiveIndex(p.conc);
  const tlast = iLast < 0 ? 0 : p.time[iLast];
  if (tlast / tau > MAX_EXPLICIT_TERMS) throw new NcaInputError(`Tlast/τ = ${tlast / tau} exceeds ${MAX_EXPLICIT_TERMS} intervals`);
  const cx = iLast < 0 ? 0 : options.clast ?? p.conc[iLast];
  const read = { method: options.method, type: 'inf' as const, lambdaZ, clast: cx };
  const geometric = 1 / -Math.expm1(-lambdaZ * tau);
  const at = options.times ? [...options.times] : [...new Set([0, tau, ...p.time.map((t) => t % tau)])].sort((a, b) => a - b);
  for (const t of at) if (!(t >= 0 && t <= tau)) throw new NcaInputError(`steady-state output times must lie in [0, τ], got ${t}`);
  const css = at.map((t) => {
    let c = 0;
    let n = 0;
    for (; t + n * tau <= tlast; n++) c += concentrationAt(p.time, p.conc, t + n * tau, read) as number;
    if (iLast >= 0) c += cx * Math.exp(-lambdaZ * (t + n * tau - tlast)) * geometric;
    return ratio * c;
  });
  const iMax = firstMaxIndex(css);
  return {
    time: at,
    conc: css,
    cmax: css[iMax],
    tmax: at[iMax],
    cmin: css.reduce((m, c) => (c < m ? c : m), Infinity),
    auctau: aucInterval(at, css, at[0], at[at.length - 1], { method: options.method, type: 'all' }) ?? 0,
    accumulationIndex: accumulationIndex(lambdaZ, tau) as number,
    halfLife: halfLife(lambdaZ) as number,
    timeTo90: timeToSteadyState(lambdaZ, 0.9) as number,
    timeTo97: timeToSteadyState(lambdaZ, 0.97) as number,
  };
}
