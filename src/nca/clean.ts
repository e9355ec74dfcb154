/**
 * Input cleaning for the standard profile. The rules follow PKNCA's and
 * WinNonlin's conventions for a single dose given at time 0:
 * - a row whose time or concentration is missing (null, NaN, ±Infinity) is
 *   dropped and reported — NCA needs both coordinates of a point;
 * - a row before the dose (time < 0) is a pre-dose sample: it is reported and
 *   left out of every parameter, because all of them describe [0, ∞);
 * - rows are sorted by time; two kept rows with the same time are an error,
 *   since there is no defensible way to integrate through two values at once;
 * - zero concentrations are kept as values (BLQ reported as 0 stays 0).
 */

export class NcaInputError extends Error {
  override name = 'NcaInputError';
}

export interface CleanProfile {
  /** Strictly increasing times, all ≥ 0. */
  time: readonly number[];
  conc: readonly number[];
  /** Input row of each kept point; null when the input was already clean (identity). */
  row: Int32Array | null;
  /** Input rows dropped for a missing time or concentration. */
  missing: number[];
  /** Input rows dropped as pre-dose samples (time < 0). */
  predose: number[];
}

const isPresent = (v: number | null | undefined): v is number => typeof v === 'number' && Number.isFinite(v);

/** One pass: true when every row is complete, post-dose and strictly increasing in time. */
function alreadyClean(time: readonly (number | null)[], conc: readonly (number | null)[]): boolean {
  let previous = -Infinity;
  for (let i = 0; i < time.length; i++) {
    const t = time[i];
    if (!isPresent(t) || !isPresent(conc[i]) || t < 0 || t <= previous) return false;
    previous = t;
  }
  return true;
}

export function cleanProfile(time: readonly (number | null)[], conc: readonly (number | null)[]): CleanProfile {
  if (time.length !== conc.length) {
    throw new NcaInputError(`time has ${time.length} values but concentration has ${conc.length}`);
  }
  if (alreadyClean(time, conc)) {
    return { time: time as readonly number[], conc: conc as readonly number[], row: null, missing: [], predose: [] };
  }
  const missing: number[] = [];
  const predose: number[] = [];
  const kept: number[] = [];
  for (let i = 0; i < time.length; i++) {
    const t = time[i];
    if (!isPresent(t) || !isPresent(conc[i])) missing.push(i);
    else if (t < 0) predose.push(i);
    else kept.push(i);
  }
  kept.sort((a, b) => (time[a] as number) - (time[b] as number) || a - b);
  for (let k = 1; k < kept.length; k++) {
    if (time[kept[k]] === time[kept[k - 1]]) {
      throw new NcaInputError(`duplicate time ${time[kept[k]]} (input rows ${kept[k - 1] + 1} and ${kept[k] + 1})`);
    }
  }
  return {
    time: kept.map((i) => time[i] as number),
    conc: kept.map((i) => conc[i] as number),
    row: Int32Array.from(kept),
    missing,
    predose,
  };
}
