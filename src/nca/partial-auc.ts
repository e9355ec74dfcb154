/**
 * Partial areas: AUC (and AUMC) between any two times, with PKNCA's `aucint`
 * semantics (PKNCA `pk.calc.aucint`, `interp.extrap.conc`):
 *
 * - Concentration at a time t (`concentrationAt`):
 *   - at a sample: the sample;
 *   - before the first sample: `origin` (default 0; PKNCA `conc.origin`), so
 *     the segment from the start to the first sample is a linear ramp from it;
 *   - between two samples up to Tlast: interpolated by the rule the AUC method
 *     applies to that segment: linear, or for `lin-up-log-down` on a falling
 *     positive segment (C1 > C2 > 0) log-linear,
 *     C(t) = C1·(C2/C1)^((t − t1)/(t2 − t1)); so the pieces of a segment add up
 *     to the segment's own trapezoid exactly;
 *   - after Tlast, by `type`:
 *     `last` (AUClast, the default without λz): 0;
 *     `all` (AUCall): the samples as observed, i.e. linear down to the first
 *       trailing zero, 0 after the last sample;
 *     `inf` (AUCinf, the default with λz): Cx·e^(−λz(t − Tlast)) with Cx the
 *       observed Clast, or the predicted Clast passed as `clast` (AUCINT based
 *       on AUCIFP: the curve then steps from Clast,obs to Clast,pred at Tlast).
 * - Areas: segment by segment, each with its method's rule (./trapezoid.ts);
 *   past Tlast with λz the exponential is integrated exactly, whatever the
 *   method (PKNCA #203: the log trapezoid), AUC = (C(a) − C(b))/λz and
 *   AUMC = [C(a)(a + 1/λz) − C(b)(b + 1/λz)]/λz; `end` may be Infinity.
 * - A profile whose concentrations are all 0 has area 0 (PKNCA).
 *
 * Times are used as given: the AUMC is the first moment about time 0, so pass
 * times relative to the dose for an AUMC (ncaIntervals does).
 */
import type { AucMethod } from './codes.js';
import { NcaInputError } from './clean.js';
import { lastPositiveIndex } from './observed.js';
import { isLogSegment, linearAuc, linearAumc, logAuc, logAumc, type Areas } from './trapezoid.js';

export type AucType = 'last' | 'all' | 'inf';

export interface AucIntervalOptions {
  method?: AucMethod;
  /** What happens after Tlast (see the header); default `inf` when `lambdaZ` is given, `last` otherwise. */
  type?: AucType;
  /** Terminal rate constant for `inf`. */
  lambdaZ?: number | null;
  /** Concentration the `inf` extrapolation starts from at Tlast (default the observed Clast). */
  clast?: number | null;
  /** Concentration before the first sample (default 0). */
  origin?: number;
}

/** A profile checked for partial areas: strictly increasing finite times, finite concentrations. */
function checkProfile(time: readonly number[], conc: readonly number[]): void {
  if (time.length !== conc.length) throw new NcaInputError(`time has ${time.length} values but concentration has ${conc.length}`);
  if (time.length === 0) throw new NcaInputError('a partial AUC needs at least one sample');
  for (let i = 0; i < time.length; i++) {
    if (!Number.isFinite(time[i]) || !Number.isFinite(conc[i])) {
      throw new NcaInputError(`sample ${i + 1}: time and concentration must be finite numbers (got ${time[i]}, ${conc[i]})`);
    }
    if (i > 0 && !(time[i] > time[i - 1])) throw new NcaInputError(`sample ${i + 1}: times must increase strictly (${time[i - 1]}, ${time[i]})`);
  }
}

function checkBounds(start: number, end: number): void {
  if (!Number.isFinite(start)) throw new NcaInputError(`start must be a finite number, got ${start}`);
  if (!(end > start)) throw new NcaInputError(`end must be after start, got start ${start} and end ${end}`);
}

/** Concentration at t inside segment k (time[k] ≤ t ≤ time[k+1]) by the segment's rule. */
function interpolate(time: readonly number[], conc: readonly number[], k: number, t: number, log: boolean): number {
  const [t1, t2, c1, c2] = [time[k], time[k + 1], conc[k], conc[k + 1]];
  if (t === t1) return c1;
  if (t === t2) return c2;
  const f = (t - t1) / (t2 - t1);
  return log ? c1 * Math.exp(f * Math.log(c2 / c1)) : c1 + f * (c2 - c1);
}

function segmentAreas(t1: number, c1: number, t2: number, c2: number, log: boolean, out: Areas): void {
  if (t2 <= t1) return;
  if (log && c1 > c2 && c2 > 0) {
    out.auc += logAuc(t1, c1, t2, c2);
    out.aumc += logAumc(t1, c1, t2, c2);
  } else {
    out.auc += linearAuc(t1, c1, t2, c2);
    out.aumc += linearAumc(t1, c1, t2, c2);
  }
}

/** Areas of the data over [a, b] ⊆ [time[0], time[iEnd]], segment by segment. */
function dataAreas(time: readonly number[], conc: readonly number[], iEnd: number, a: number, b: number, method: AucMethod, out: Areas): void {
  for (let k = 0; k < iEnd; k++) {
    const lo = Math.max(a, time[k]);
    const hi = Math.min(b, time[k + 1]);
    if (hi <= lo) continue;
    const log = isLogSegment(method, conc[k], conc[k + 1]);
    segmentAreas(lo, interpolate(time, conc, k, lo, log), hi, interpolate(time, conc, k, hi, log), log, out);
  }
}

function resolvedType(options: AucIntervalOptions): AucType {
  return options.type ?? (options.lambdaZ != null ? 'inf' : 'last');
}

/**
 * Concentration at time t by the rules of the header (PKNCA `interp.extrap.conc`);
 * null when `inf` extrapolation has no λz.
 */
export function concentrationAt(time: readonly number[], conc: readonly number[], t: number, options: AucIntervalOptions = {}): number | null {
  checkProfile(time, conc);
  const method = options.method ?? 'linear';
  if (t < time[0]) return options.origin ?? 0;
  const iLast = lastPositiveIndex(conc);
  const n = time.length;
  const type = resolvedType(options);
  const lastData = iLast < 0 || type === 'all' ? n - 1 : iLast;
  if (t <= time[lastData]) {
    let k = 0;
    while (k < lastData && time[k + 1] < t) k++;
    if (k === lastData) return conc[k];
    return interpolate(time, conc, k, t, isLogSegment(method, conc[k], conc[k + 1]));
  }
  if (iLast < 0 || type !== 'inf') return 0;
  const lz = options.lambdaZ;
  if (lz == null || !(lz > 0)) return null;
  return (options.clast ?? conc[iLast]) * Math.exp(-lz * (t - time[iLast]));
}

/**
 * AUC and AUMC over [start, end] (end may be Infinity with `inf`), or the
 * reason they cannot be computed. Throws NcaInputError for unusable input.
 */
export function partialAreas(
  time: readonly number[],
  conc: readonly number[],
  start: number,
  end: number,
  options: AucIntervalOptions = {},
): Areas | string {
  checkProfile(time, conc);
  checkBounds(start, end);
  const method = options.method ?? 'linear';
  const out: Areas = { auc: 0, aumc: 0 };
  const iLast = lastPositiveIndex(conc);
  if (iLast < 0) return out;
  const type = resolvedType(options);
  const n = time.length;
  if (!Number.isFinite(end) && type !== 'inf') return `an AUC to infinity needs the "inf" type and λz`;
  // Before the first sample: `origin` up to start, then a linear ramp to the first sample.
  const origin = options.origin ?? 0;
  if (start < time[0]) {
    if (end <= time[0]) segmentAreas(start, origin, end, origin, false, out);
    else segmentAreas(start, origin, time[0], conc[0], false, out);
  }
  // Inside the data: up to Tlast, or to the last sample for AUCall.
  const iData = type === 'all' ? n - 1 : iLast;
  const tData = time[iData];
  if (end > time[0] && start < tData) dataAreas(time, conc, iData, Math.max(start, time[0]), Math.min(end, tData), method, out);
  // Past Tlast: λz extrapolation (exact exponential integral) for `inf`, zero otherwise.
  const tlast = time[iLast];
  if (type === 'inf' && end > tlast) {
    const lz = options.lambdaZ;
    if (lz == null || !(lz > 0)) return 'λz is needed to extrapolate past Tlast';
    const cx = options.clast ?? conc[iLast];
    if (!(Number.isFinite(cx) && cx >= 0)) return `Clast for the extrapolation must be a number ≥ 0, got ${cx}`;
    const a = Math.max(start, tlast);
    const ca = cx * Math.exp(-lz * (a - tlast));
    const cb = Number.isFinite(end) ? cx * Math.exp(-lz * (end - tlast)) : 0;
    const bTerm = Number.isFinite(end) ? cb * (end + 1 / lz) : 0;
    out.auc += (ca - cb) / lz;
    out.aumc += (ca * (a + 1 / lz) - bTerm) / lz;
  }
  return out;
}

/**
 * AUC between `start` and `end` (PKNCA `aucint`; see the header for the
 * interpolation and extrapolation rules); null when it needs a λz it was not
 * given. Throws NcaInputError for unusable input.
 */
export function aucInterval(
  time: readonly number[],
  conc: readonly number[],
  start: number,
  end: number,
  options: AucIntervalOptions = {},
): number | null {
  const areas = partialAreas(time, conc, start, end, options);
  return typeof areas === 'string' ? null : areas.auc;
}
