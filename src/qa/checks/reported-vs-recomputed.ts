/**
 * The `reported-vs-recomputed` check: each reported output against the
 * recomputations (pkdb and standard profile) of the concentration
 * timecourse(s) of the same subject, intervention set, substance and tissue,
 * in the reported unit, classified (classify.ts); a wrong dose is named
 * across the comparisons of one dosing (dose-cause.ts), a curve's level off by
 * a slip factor across the comparisons of one timecourse (curve-cause.ts). It
 * sees only outputs that have such a timecourse.
 */
import type { QaCheck } from '../check.js';
import { doseMismatchCauses } from '../dose-cause.js';
import { comparisonFinding } from '../to-findings.js';
import { curveLevelCauses } from '../curve-cause.js';


export const reportedVsRecomputedCheck: QaCheck = {
  kind: 'reported-vs-recomputed',
  description: 'reported cmax, tmax, AUC, t½, kel, Vd, Vss and CL against the same values recomputed from the timecourse of the same subject, interventions, substance and tissue',
  run(ctx) {
    const comparisons = ctx.comparisons;
    const doseCauses = doseMismatchCauses(comparisons);
    const curveCauses = curveLevelCauses(comparisons, ctx.molarMass);
    return comparisons.map((c) => comparisonFinding(c, { dose: doseCauses.get(c), curve: curveCauses.get(c) }));
  },
};
