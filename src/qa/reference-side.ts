/**
 * Which of a reported value and its own curve slipped, by the other studies. A reported value ×r its curve is the
 * value off by r or the curve off by 1/r; the reference ranges (range-run.ts) judge both against the other studies
 * of the substance (the value in its stratum, the curve by its Cmax per dose), each in its own spread. When one of
 * them lies in line with the other studies (|z| ≤ INSIDE_Z) and the other does not, while undoing the slip on that
 * other brings it in line too, the other is the record to fix. This holds where the reference is too narrow in
 * studies or too wide in spread to name a factor of ×10 alone: it only has to say which of two records sits with the
 * others. A dose slip moves both per dose alike (neither in line): no side. Where only one of them has a reference,
 * it alone can tell: out of line as curated and in line with the slip undone (which is where the other record sits).
 */
import type { Culprit } from './finding.js';
import { judgmentOf, type RangeJudgment, type RangeRun } from './range-run.js';
import { INSIDE_Z } from './range-verdict.js';

export interface ReferenceSide {
  culprit: Culprit;
  /** The robust z of the record to fix, as curated and with the slip undone, and that of the other record (null: no reference). */
  z: number;
  undone: number;
  otherZ: number | null;
}

/** A judgment in the record's own stratum (not a wide pool), with its z and spread. */
function own(j: RangeJudgment | undefined): { z: number; spread: number } | null {
  return j?.verdict && j.ref && !j.pool ? { z: j.verdict.z, spread: j.ref.spread } : null;
}

/** The side a reported output ×`ratio` its curve (`subsetPk`) slipped on, by the other studies; null when they cannot tell. */
export function referenceSide(run: RangeRun, outputPk: number, subsetPk: number, ratio: number): ReferenceSide | null {
  if (!(ratio > 0) || ratio === 1) return null;
  const value = own(judgmentOf(run, `output:${outputPk}`));
  const curve = own(judgmentOf(run, `timecourse:${subsetPk}`));
  const ln = Math.log(ratio);
  const inLine = (z: number) => Math.abs(z) <= INSIDE_Z;
  // Undone: the value divided by r, or the curve multiplied by r.
  if (value && !curve) {
    const undone = value.z - ln / value.spread;
    return !inLine(value.z) && inLine(undone) ? { culprit: 'output', z: value.z, undone, otherZ: null } : null;
  }
  if (curve && !value) {
    const undone = curve.z + ln / curve.spread;
    return !inLine(curve.z) && inLine(undone) ? { culprit: 'timecourse', z: curve.z, undone, otherZ: null } : null;
  }
  if (!value || !curve) return null;
  const valueUndone = value.z - ln / value.spread;
  const curveUndone = curve.z + ln / curve.spread;
  if (inLine(value.z) && !inLine(curve.z) && inLine(curveUndone)) return { culprit: 'timecourse', z: curve.z, undone: curveUndone, otherZ: value.z };
  if (inLine(curve.z) && !inLine(value.z) && inLine(valueUndone)) return { culprit: 'output', z: value.z, undone: valueUndone, otherZ: curve.z };
  return null;
}
