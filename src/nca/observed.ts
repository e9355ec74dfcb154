/**
 * Parameters read directly off the observations (no integration, no fit).
 * Conventions as in WinNonlin's NCA user guide and PKNCA.
 */

/** Index of the first maximum of conc[from..] (Cmax, Tmax take the first occurrence); -1 if empty. */
export function firstMaxIndex(conc: readonly number[], from = 0): number {
  let best = -1;
  for (let i = from; i < conc.length; i++) if (best < 0 || conc[i] > conc[best]) best = i;
  return best;
}

/** Index of the last positive concentration (Tlast, Clast); -1 if none is positive. */
export function lastPositiveIndex(conc: readonly number[]): number {
  for (let i = conc.length - 1; i >= 0; i--) if (conc[i] > 0) return i;
  return -1;
}

/** Index of the first positive concentration; -1 if none. */
export function firstPositiveIndex(conc: readonly number[], from = 0): number {
  for (let i = from; i < conc.length; i++) if (conc[i] > 0) return i;
  return -1;
}

/**
 * Tlag: the time of the last sample before the first positive concentration
 * (all earlier samples are ≤ 0); the dose time 0 when the first sample is
 * already positive; null when nothing is positive.
 */
export function tlag(time: readonly number[], conc: readonly number[]): number | null {
  const first = firstPositiveIndex(conc);
  if (first < 0) return null;
  return first === 0 ? 0 : time[first - 1];
}

/**
 * C0 for an IV bolus given at time 0 (PKNCA `pk.calc.c0` methods "logslope",
 * then "c1"): the log-linear line through the first two samples,
 * C0 = C1·(C1/C2)^(t1/(t2−t1)), when C1 > C2 > 0; otherwise the first positive
 * concentration. Null when nothing is positive.
 */
export function backExtrapolatedC0(time: readonly number[], conc: readonly number[]): number | null {
  if (conc.length >= 2 && conc[0] > conc[1] && conc[1] > 0) {
    const [t1, t2] = [time[0], time[1]];
    return conc[0] * Math.exp((Math.log(conc[0]) - Math.log(conc[1])) * (t1 / (t2 - t1)));
  }
  const first = firstPositiveIndex(conc);
  return first < 0 ? null : conc[first];
}
