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
import { ownJudgment, type RangeRun } from './range-run.js';
import { INSIDE_Z, zTimes, type ZInSpread } from './range-verdict.js';

export interface ReferenceSide {
  culprit: Culprit;
  /** The robust z of the record to fix, as curated and with the slip undone, and that of the other record (null: no reference). */
  z: number;
  undone: number;
  otherZ: number | null;
}

/**
 * The side a reported output ×`ratio` its curve (`subsetPk`) slipped on, by the other studies; null when they cannot
 * tell. `subsetPk` null: the curve's reference, its level, does not speak to the quantity (a t½ or tmax off its curve
 * is no level of it), and the value's own reference alone tells.
 */
export function referenceSide(run: RangeRun, outputPk: number, subsetPk: number | null, ratio: number): ReferenceSide | null {
  if (!(ratio > 0) || ratio === 1) return null;
  const value = ownJudgment(run, `output:${outputPk}`);
  const curve = subsetPk === null ? null : ownJudgment(run, `timecourse:${subsetPk}`);
  const inLine = (z: number) => Math.abs(z) <= INSIDE_Z;
  // The record to fix: out as curated and in line with the slip undone (the value ÷ r, the curve × r), while the other
  // record, where it has a reference, is in line. Both cannot hold: one needs the value out, the other in line.
  const side = (culprit: Culprit, off: ZInSpread, undo: number, other: ZInSpread | null): ReferenceSide | null => {
    const undone = zTimes(off, undo);
    return !inLine(off.z) && inLine(undone) && (other === null || inLine(other.z)) ? { culprit, z: off.z, undone, otherZ: other?.z ?? null } : null;
  };
  return (value && side('output', value, 1 / ratio, curve)) || (curve && side('timecourse', curve, ratio, value)) || null;
}
