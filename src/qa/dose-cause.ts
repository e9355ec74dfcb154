/**
 * A wrong curated dose scales vd, vd_ss and clearance (∝ dose) by the same
 * factor and leaves cmax, tmax, AUC and the half-life alone. So when, for all
 * timecourses of one dosing intervention, the dose-proportional comparisons
 * are off by one common factor while none of the dose-independent ones is
 * major, the dose is the suspect: reported/recomputed = true dose/curated dose.
 */
import type { SuspectedCause } from './causes.js';
import type { Comparison } from './compare.js';
import { DOSE_PROPORTIONAL } from './tolerances.js';

/** Spread allowed between the dose-proportional ratios of one dosing (authors' λz differs per parameter). */
export const DOSE_RATIO_SPREAD = 1.5;

const fmt = (x: number) => String(+x.toPrecision(3));

/** Dose-mismatch causes for the comparisons they explain (by identity). */
export function doseMismatchCauses(comparisons: readonly Comparison[]): Map<Comparison, SuspectedCause> {
  const byDosing = new Map<number, Comparison[]>();
  for (const c of comparisons) {
    const dosing = c.timecourse.dose ? c.timecourse.dosingPks[0] : undefined;
    if (dosing === undefined) continue;
    const list = byDosing.get(dosing);
    if (list) list.push(c);
    else byDosing.set(dosing, [c]);
  }
  const causes = new Map<Comparison, SuspectedCause>();
  for (const group of byDosing.values()) {
    const independentMajor = group.some((c) => !DOSE_PROPORTIONAL.has(c.parameter) && c.verdict.classification === 'major');
    if (independentMajor) continue;
    const suspects = group.filter(
      (c) => DOSE_PROPORTIONAL.has(c.parameter) && c.verdict.classification === 'major' && c.verdict.causes.length === 0 && c.verdict.ratio !== null,
    );
    if (suspects.length === 0) continue;
    const logs = suspects.map((c) => Math.log(c.verdict.ratio as number));
    const centre = logs.reduce((a, b) => a + b, 0) / logs.length;
    if (logs.some((l) => Math.abs(l - centre) > Math.log(DOSE_RATIO_SPREAD))) continue;
    for (const c of suspects) {
      const dose = c.timecourse.dose;
      if (!dose) continue;
      const ratio = c.verdict.ratio as number;
      causes.set(c, {
        kind: 'dose',
        factor: ratio,
        text: `dose: the reported value implies a dose of ${fmt(dose.value * ratio)} ${dose.unit}, the curated dosing is ${fmt(dose.value)} ${dose.unit} (×${fmt(1 / ratio)})`,
      });
    }
  }
  return causes;
}
