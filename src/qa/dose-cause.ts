/**
 * A wrong curated dose scales vd, vd_ss and clearance (∝ dose) by the same
 * factor and leaves cmax, tmax, AUC and the half-life alone. So when, for all
 * timecourses of one dosing intervention, the dose-proportional comparisons
 * are off by one common factor while none of the dose-independent ones is
 * major, the dose is the suspect: reported/recomputed = true dose/curated dose.
 * A dose that is off by a unit factor (×10, ×1000) would also be named as a
 * unit slip by the ratio alone; when two or more dose-proportional values of
 * one dosing are all off alike, one slip in the dose explains them better than
 * several identical slips in reported values, so the dose cause replaces it.
 * A curve's level off moves its CL and V alike too; only its Cmax or AUC,
 * which the dose leaves alone, tells the two apart. So the dose is the record
 * to fix (`witnessed`) only where each curve whose CL or V is off has a Cmax
 * or AUC compared and in line; else the cause names the dose, or the curve's
 * level, and leaves the record to other evidence (a planted curve ×10 with
 * only CL, V and Vss reported was blamed on its dose). One CL or V alone
 * cannot tell its dose from itself: open too.
 */
import type { SuspectedCause } from './causes.js';
import type { Comparison } from './compare-reported.js';
import { LEVEL_EXPONENT } from './curve-cause.js';
import { DOSE_PROPORTIONAL } from './tolerances.js';
import { pushTo } from '../data/records.js';

/** Spread allowed between the dose-proportional ratios of one dosing (authors' λz differs per parameter). */
export const DOSE_RATIO_SPREAD = 1.5;

const fmt = (x: number) => String(+x.toPrecision(3));

export interface DoseCause extends SuspectedCause {
  /** Two or more CL or V off alike, each off curve's own Cmax or AUC in line: the dose, not the value or the curve's level; else the record is open. */
  witnessed: boolean;
}

/** Whether the curve of `c` has a Cmax or AUC compared in line: a level the dose leaves alone and a curve's slip would move. */
function levelInLine(c: Comparison, group: readonly Comparison[]): boolean {
  return group.some((o) => o.timecourse.tc.subset_pk === c.timecourse.tc.subset_pk && LEVEL_EXPONENT[o.parameter] === 1 && o.verdict.ratio !== null && o.verdict.classification !== 'major');
}

/** Dose-mismatch causes for the comparisons they explain (by identity); each replaces the ratio's own causes. */
export function doseMismatchCauses(comparisons: readonly Comparison[]): Map<Comparison, DoseCause> {
  const byDosing = new Map<number, Comparison[]>();
  for (const c of comparisons) {
    const dosing = c.timecourse.dose ? c.timecourse.dosingPks[0] : undefined;
    if (dosing === undefined) continue;
    pushTo(byDosing, dosing, c);
  }
  const causes = new Map<Comparison, DoseCause>();
  for (const group of byDosing.values()) {
    const independentMajor = group.some((c) => !DOSE_PROPORTIONAL.has(c.parameter) && c.verdict.classification === 'major');
    if (independentMajor) continue;
    const proportional = group.filter((c) => DOSE_PROPORTIONAL.has(c.parameter));
    const suspects = proportional.filter(
      (c) => c.verdict.classification === 'major' && c.verdict.ratio !== null && c.verdict.causes.every((k) => k.kind === 'unit-factor'),
    );
    if (suspects.length === 0) continue;
    const slipNamed = suspects.some((c) => c.verdict.causes.length > 0);
    if (slipNamed && suspects.length < 2) continue;
    // A CL or V of the dosing in line with its curve contradicts a slip of the dose, which would have moved it too
    // (a reported V ×11.9 its curve beside a CL in line is the V's own slip, not a dose ×1/12).
    if (suspects.length < proportional.length) continue;
    const logs = suspects.map((c) => Math.log(c.verdict.ratio as number));
    const centre = logs.reduce((a, b) => a + b, 0) / logs.length;
    if (logs.some((l) => Math.abs(l - centre) > Math.log(DOSE_RATIO_SPREAD))) continue;
    // One CL or V alone is as likely off in itself as through its dose: named, but left open (a reported V ×1/50 its
    // curve, mg/kg read as mg on the value, was blamed on a typical dose).
    const lone = suspects.length === 1;
    const levels = suspects.every((c) => levelInLine(c, group));
    const witnessed = !lone && levels;
    for (const c of suspects) {
      const dose = c.timecourse.dose;
      if (!dose) continue;
      const ratio = c.verdict.ratio as number;
      const open = lone
        ? ` — or the value itself ×${fmt(ratio)}: no other CL or V of the dosing is compared to tell them apart`
        : levels
          ? ''
          : ` — or the curve's level ×${fmt(1 / ratio)}: no Cmax or AUC of the curve is compared in line to tell them apart`;
      causes.set(c, {
        kind: 'dose',
        factor: ratio,
        text: `dose: the reported value implies a dose of ${fmt(dose.value * ratio)} ${dose.unit}, the curated dosing is ${fmt(dose.value)} ${dose.unit} (×${fmt(1 / ratio)})${open}`,
        witnessed,
      });
    }
  }
  return causes;
}
