/**
 * Areas under the concentration curve (AUC) and under the first-moment curve
 * t·C (AUMC), segment by segment.
 *
 * Linear trapezoid on [t1, t2], dt = t2 − t1:
 *   AUC  = dt·(C1 + C2)/2
 *   AUMC = dt·(t1·C1 + t2·C2)/2
 * Log trapezoid (C assumed exponential between the samples; used by
 * "lin-up/log-down" only when C1 > C2 > 0, WinNonlin's "Linear Up Log Down"):
 *   k = ln(C1/C2)/dt,  AUC = (C1 − C2)/k,  AUMC = (t1·C1 − t2·C2)/k + (C1 − C2)/k²
 * (WinNonlin: Phoenix WinNonlin 6.4 User's Guide, NCA computation formulas;
 * docs/references.md).
 *
 * Numerical stability: written with u = (C1 − C2)/C2 > 0 and ln(C1/C2) = log1p(u),
 *   AUC  = dt·C2·u / log1p(u)
 *   AUMC = t1·AUC + dt²·C2·(u − log1p(u)) / log1p(u)²
 * (the second form follows from t1·C1 − t2·C2 = t1·(C1 − C2) − dt·C2). C1 − C2 is
 * exact for nearby values (Sterbenz), log1p keeps full precision for tiny u,
 * and u − log1p(u) uses its Taylor series where direct subtraction would
 * cancel. Both forms tend to the linear trapezoid as u → 0.
 */
import type { AucMethod } from './codes.js';

/** True where the log trapezoid applies: lin-up/log-down on a strictly falling, positive segment. */
export function isLogSegment(method: AucMethod, c1: number, c2: number): boolean {
  return method === 'lin-up-log-down' && c1 > c2 && c2 > 0;
}

export function linearAuc(t1: number, c1: number, t2: number, c2: number): number {
  return ((t2 - t1) * (c1 + c2)) / 2;
}

export function linearAumc(t1: number, c1: number, t2: number, c2: number): number {
  return ((t2 - t1) * (t1 * c1 + t2 * c2)) / 2;
}

/** u − log1p(u) = u²/2 − u³/3 + u⁴/4 − …, summed as a series where the difference would cancel. */
export function uMinusLog1p(u: number): number {
  if (Math.abs(u) > 1e-3) return u - Math.log1p(u);
  // Terms up to u⁷: the first omitted term is below 1e-24 relative to u²/2.
  let term = u * u;
  let sum = 0;
  for (let n = 2; n <= 7; n++) {
    sum += (n % 2 === 0 ? 1 : -1) * (term / n);
    term *= u;
  }
  return sum;
}

/** Log-trapezoid AUC; requires c1 > c2 > 0. */
export function logAuc(t1: number, c1: number, t2: number, c2: number): number {
  const u = (c1 - c2) / c2;
  return ((t2 - t1) * c2 * u) / Math.log1p(u);
}

/** Log-trapezoid AUMC; requires c1 > c2 > 0. */
export function logAumc(t1: number, c1: number, t2: number, c2: number): number {
  const dt = t2 - t1;
  const u = (c1 - c2) / c2;
  const l = Math.log1p(u);
  return (t1 * dt * c2 * u) / l + (dt * dt * c2 * uMinusLog1p(u)) / (l * l);
}

export interface Areas {
  auc: number;
  aumc: number;
}

/** AUC and AUMC from sample `from` to sample `to` (inclusive indices) by the given method. */
export function integrate(
  time: readonly number[],
  conc: readonly number[],
  from: number,
  to: number,
  method: AucMethod,
): Areas {
  let auc = 0;
  let aumc = 0;
  for (let i = from; i < to; i++) {
    const t1 = time[i];
    const c1 = conc[i];
    const t2 = time[i + 1];
    const c2 = conc[i + 1];
    if (isLogSegment(method, c1, c2)) {
      auc += logAuc(t1, c1, t2, c2);
      aumc += logAumc(t1, c1, t2, c2);
    } else {
      auc += linearAuc(t1, c1, t2, c2);
      aumc += linearAumc(t1, c1, t2, c2);
    }
  }
  return { auc, aumc };
}
