/**
 * Derived NCA quantities: small pure functions of the primary ones (areas,
 * λz, the dose), each with its formula and a reference by the short names of
 * docs/references.md. Every function returns null when an input is missing
 * (null) or the quotient is undefined (a zero denominator), so that callers
 * never see Infinity or NaN for "cannot be computed".
 */

const isNum = (x: number | null | undefined): x is number => typeof x === 'number';

/** a/b, null when either is missing or b is 0. */
export function ratio(a: number | null, b: number | null): number | null {
  return isNum(a) && isNum(b) && b !== 0 ? a / b : null;
}

/** Terminal half-life t½ = ln 2/λz (WinNonlin; PKNCA `half.life`). */
export function halfLife(lambdaZ: number | null): number | null {
  return isNum(lambdaZ) && lambdaZ > 0 ? Math.LN2 / lambdaZ : null;
}

/**
 * Clast predicted by the λz regression ln C = a − λz·t at Tlast:
 * Clast,pred = e^(a − λz·Tlast) (WinNonlin; PKNCA `clast.pred`).
 */
export function predictedClast(intercept: number | null, lambdaZ: number | null, tlast: number | null): number | null {
  return isNum(intercept) && isNum(lambdaZ) && isNum(tlast) ? Math.exp(intercept - lambdaZ * tlast) : null;
}

/**
 * AUC to infinity: AUC∞ = AUClast + Clast/λz, with the observed Clast
 * (AUCIFO) or the predicted one (AUCIFP) (WinNonlin; PKNCA `aucinf.obs`,
 * `aucinf.pred`; Gabrielsson & Weiner).
 */
export function aucInfinity(auclast: number | null, clast: number | null, lambdaZ: number | null): number | null {
  return isNum(auclast) && isNum(clast) && isNum(lambdaZ) && lambdaZ > 0 ? auclast + clast / lambdaZ : null;
}

/**
 * AUMC to infinity: AUMC∞ = AUMClast + Clast·Tlast/λz + Clast/λz², the
 * integral of t·Clast·e^(−λz(t − Tlast)) from Tlast to ∞ added to AUMClast
 * (WinNonlin; PKNCA `aumcinf.obs`; Gabrielsson & Weiner).
 */
export function aumcInfinity(
  aumclast: number | null,
  clast: number | null,
  tlast: number | null,
  lambdaZ: number | null,
): number | null {
  if (!(isNum(aumclast) && isNum(clast) && isNum(tlast) && isNum(lambdaZ) && lambdaZ > 0)) return null;
  return aumclast + (clast * tlast) / lambdaZ + clast / (lambdaZ * lambdaZ);
}

/** Share of an area extrapolated beyond the data, %: 100·(X∞ − Xlast)/X∞ (WinNonlin AUC_%Extrap; PKNCA `aucpext`). */
export function percentExtrapolated(total: number | null, observed: number | null): number | null {
  return isNum(total) && isNum(observed) && total !== 0 ? (100 * (total - observed)) / total : null;
}

/**
 * Mean residence time MRT = AUMC/AUC − Tinf/2, where Tinf is the infusion
 * duration (0 for a bolus or an extravascular dose, where this is MRT of the
 * absorbed drug plus absorption time) (WinNonlin; PKNCA `mrt`; Gibaldi & Perrier).
 */
export function meanResidenceTime(aumc: number | null, auc: number | null, infusionDuration = 0): number | null {
  const m = ratio(aumc, auc);
  return m === null || auc === 0 ? null : m - infusionDuration / 2;
}

/**
 * MRT at steady state from one dosing interval τ:
 * MRT = [AUMCτ + τ·(AUC∞ − AUCτ)]/AUCτ − Tinf/2, with AUC∞ the area of the
 * interval's curve extrapolated to infinity (WinNonlin steady-state MRTINF;
 * Gibaldi & Perrier). For a one-compartment model it equals 1/k.
 */
export function steadyStateMrt(
  aumcTau: number | null,
  aucTau: number | null,
  aucInf: number | null,
  tau: number | null,
  infusionDuration = 0,
): number | null {
  if (!(isNum(aumcTau) && isNum(aucTau) && isNum(aucInf) && isNum(tau)) || aucTau === 0) return null;
  return (aumcTau + tau * (aucInf - aucTau)) / aucTau - infusionDuration / 2;
}

/**
 * Clearance CL = Dose/AUC (CL/F for an extravascular dose; at steady state
 * Dose/AUCτ), times `volumeFactor`, which puts dose/concentration in the
 * reported volume unit (./units.ts) (WinNonlin; PKNCA `cl.obs`, `cl.last`; Rowland & Tozer).
 */
export function clearance(dose: number | null, auc: number | null, volumeFactor = 1): number | null {
  const c = ratio(dose, auc);
  return c === null ? null : c * volumeFactor;
}

/** Terminal volume Vz = CL/λz = Dose/(λz·AUC) (Vz/F extravascular; at steady state Dose/(λz·AUCτ)) (WinNonlin; PKNCA `vz`). */
export function terminalVolume(clearanceValue: number | null, lambdaZ: number | null): number | null {
  return isNum(lambdaZ) && lambdaZ > 0 ? ratio(clearanceValue, lambdaZ) : null;
}

/** Steady-state volume Vss = MRT·CL, intravascular doses only (WinNonlin; PKNCA `vss`; Benet & Galeazzi). */
export function steadyStateVolume(mrt: number | null, clearanceValue: number | null): number | null {
  return isNum(mrt) && isNum(clearanceValue) ? mrt * clearanceValue : null;
}

/** Share of AUC∞ contributed by the back-extrapolated IV-bolus area from 0 to the first sample, %: 100·AUC(0, t1)/AUC∞ (WinNonlin AUC_%Back_Ext). */
export function percentBackExtrapolated(backArea: number | null, aucInf: number | null): number | null {
  const r = ratio(backArea, aucInf);
  return r === null ? null : 100 * r;
}

/** Average concentration over an interval: Cav = AUC(start, end)/(end − start) (WinNonlin Cavg; PKNCA `cav`). */
export function averageConcentration(auc: number | null, duration: number | null): number | null {
  return isNum(duration) && duration > 0 ? ratio(auc, duration) : null;
}

/** Peak-trough ratio PTR = Cmax/Ctrough (PKNCA `ptr`; CDISC PTROUGHR). */
export function peakTroughRatio(cmax: number | null, ctrough: number | null): number | null {
  return ratio(cmax, ctrough);
}

/** Swing = (Cmax − Cmin)/Cmin (WinNonlin Swing; PKNCA `swing`). */
export function swing(cmax: number | null, cmin: number | null): number | null {
  return isNum(cmax) && isNum(cmin) && cmin > 0 ? (cmax - cmin) / cmin : null;
}

/** Degree of fluctuation, %: 100·(Cmax − Cmin)/Cav (WinNonlin Fluctuation%; PKNCA `deg.fluc`; CDISC FLUCP). */
export function fluctuation(cmax: number | null, cmin: number | null, cav: number | null): number | null {
  return isNum(cmax) && isNum(cmin) && isNum(cav) && cav > 0 ? (100 * (cmax - cmin)) / cav : null;
}

/**
 * Accumulation index predicted from λz: R = 1/(1 − e^(−λz·τ)), the AUCτ,ss/AUCτ,1
 * ratio of a linear one-compartment model dosed every τ (WinNonlin
 * Accumulation_Index; CDISC AILAMZ; Gibaldi & Perrier).
 */
export function accumulationIndex(lambdaZ: number | null, tau: number | null): number | null {
  if (!(isNum(lambdaZ) && isNum(tau) && lambdaZ > 0 && tau > 0)) return null;
  return 1 / -Math.expm1(-lambdaZ * tau);
}

/**
 * Time to reach `fraction` of steady state under linear kinetics dosed
 * regularly: t = −ln(1 − fraction)/λz = log2(1/(1 − fraction))·t½ — 90 % after
 * 3.32 half-lives, 95 % after 4.32, 97 % after 5 (Rowland & Tozer).
 */
export function timeToSteadyState(lambdaZ: number | null, fraction = 0.9): number | null {
  if (!(isNum(lambdaZ) && lambdaZ > 0 && fraction > 0 && fraction < 1)) return null;
  return -Math.log1p(-fraction) / lambdaZ;
}

/**
 * λz span ratio: the number of half-lives the regression covers,
 * (LAMZUL − LAMZLL)/t½ (CDISC LAMZSPN; PKNCA `span.ratio`, flagged below 2).
 */
export function spanRatio(first: number | null, last: number | null, halfLifeValue: number | null): number | null {
  return isNum(first) && isNum(last) && isNum(halfLifeValue) && halfLifeValue > 0 ? (last - first) / halfLifeValue : null;
}
