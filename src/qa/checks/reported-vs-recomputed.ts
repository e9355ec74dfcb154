/**
 * The `reported-vs-recomputed` check: each reported output against the
 * recomputations (pkdb and standard profile) of the concentration
 * timecourse(s) of the same subject, intervention set, substance and tissue,
 * in the reported unit, classified (classify.ts); a wrong dose is named
 * across the comparisons of one dosing (dose-cause.ts), a curve's level off by
 * a slip factor across the comparisons of one timecourse (curve-cause.ts), a lone
 * value off its curve whose other values clear the curve (lone-value.ts); which
 * of the value and its curve slipped, where the other studies put one in line
 * and the other out (reference-side.ts); a dose named so is doubted where the
 * other studies' doses put it in line and the dose the values imply out. It sees
 * only outputs that have such a timecourse.
 */
import type { QaCheck } from '../check.js';
import { doseMismatchCauses } from '../dose-cause.js';
import type { Finding } from '../finding.js';
import { ownJudgment, rangeRun } from '../range-run.js';
import { doseOutBy, dosesDoubt } from '../range-verdict.js';
import { referenceSide } from '../reference-side.js';
import { comparisonFinding } from '../to-findings.js';
import { curveLevelCauses, curveSides, curveTimeCauses } from '../curve-cause.js';
import { loneValueSides } from '../lone-value.js';
import { settle } from '../corroborate.js';

const fmt = (x: number) => String(+x.toPrecision(3));

/** Parameters a curve's level does not move: its reference (Cmax per dose) says nothing of them. */
const LEVEL_FREE: ReadonlySet<string> = new Set(['tmax', 'thalf', 'kel', 'mrt']);

/**
 * A major with no record to fix yet, settled by the other studies where they put one of its two records in line and
 * the other out (reference-side.ts); the other majors unchanged.
 */
function byReference(f: Finding, run: () => ReturnType<typeof rangeRun>): Finding {
  if (f.severity !== 'major' || f.culprit || f.ratio === null || f.output_pk === null || f.subset_pk === null) return f;
  // The other studies judge a curve by its level: no witness for a t½, kel or tmax of it (their time axis).
  const side = referenceSide(run(), f.output_pk, LEVEL_FREE.has(f.measurement_type ?? '') ? null : f.subset_pk, f.ratio);
  if (!side) return f;
  const which = side.culprit === 'output' ? 'the reported value' : 'the curve';
  const other = side.culprit === 'output' ? 'the curve' : 'the reported value';
  const text =
    side.otherZ === null
      ? `${which} is the record to fix: the other studies put it out (robust z ${fmt(side.z)}) and in line with the slip undone (z ${fmt(side.undone)}), where ${other} sits`
      : `${which} is the record to fix: the other studies put ${other} in line (robust z ${fmt(side.otherZ)}) and ${which} out (z ${fmt(side.z)}; ${fmt(side.undone)} undone)`;
  return settle(f, side.culprit, text, ['reference-range']);
}

/**
 * A dose named across its comparisons (dose-cause.ts: every CL and V of the dosing off alike, nothing else) that the
 * other studies' doses put in line as curated and out at the dose the values imply (range-verdict.ts `dosesDoubt`)
 * is no likely slip: a curve's level off moves CL and V alike too where nothing else is reported. The culprit is then
 * left open; other findings keep theirs.
 */
function doseDoubted(f: Finding, run: () => ReturnType<typeof rangeRun>): Finding {
  if (f.culprit !== 'dose' || f.intervention_pk == null || f.ratio === null || !(f.ratio > 0)) return f;
  const doubt = dosesDoubt(ownJudgment(run(), `dosing:${f.intervention_pk}`), f.ratio);
  if (!doubt) return f;
  const text = ` — but the other studies' doses put the curated dose in line (robust z ${fmt(doubt.z)}) and the one the values imply out (z ${fmt(doubt.implied)}): the dose, or the curve's level`;
  return { ...f, culprit: null, suspected_cause: `${f.suspected_cause ?? ''}${text}` };
}

/**
 * A dose named across its comparisons but left open between the dose and the curve's level (dose-cause.ts: no Cmax
 * or AUC of the curve compared in line) is the dose where the other studies' doses put it out and the dose the values
 * imply in line (range-verdict.ts `doseOutBy`): a curve's level off leaves its dose typical. The values per dose
 * cannot tell the two (a dose ×1/10 and a curve ×10 put its Cmax per dose ×10 alike); the dose itself can.
 */
export function doseOut(f: Finding, run: () => ReturnType<typeof rangeRun>): Finding {
  const kinds = f.details?.cause_kinds;
  if (f.severity !== 'major' || f.culprit || f.intervention_pk == null || f.ratio === null || !(f.ratio > 0)) return f;
  if (!Array.isArray(kinds) || !kinds.includes('dose')) return f;
  const out = doseOutBy(ownJudgment(run(), `dosing:${f.intervention_pk}`), f.ratio);
  if (!out) return f;
  const text = `the dose is the record to fix: the other studies' doses put it out (robust z ${fmt(out.z)}) and the dose the values imply in line (z ${fmt(out.undone)}), where a curve's level off would have left it typical`;
  return settle(f, 'dose', text, ['reference-range']);
}

export const reportedVsRecomputedCheck: QaCheck = {
  kind: 'reported-vs-recomputed',
  description: 'reported cmax, tmax, AUC, t½, kel, Vd, Vss and CL against the same values recomputed from the timecourse of the same subject, interventions, substance and tissue',
  run(ctx) {
    const comparisons = ctx.comparisons;
    const doseCauses = doseMismatchCauses(comparisons);
    const curveCauses = curveLevelCauses(comparisons, ctx.molarMass);
    // A curve's time axis, where its level names nothing (curve-cause.ts).
    for (const [c, cause] of curveTimeCauses(comparisons)) if (!curveCauses.has(c)) curveCauses.set(c, cause);
    const sides = curveSides(comparisons, ctx.molarMass);
    const valueSides = loneValueSides(comparisons);
    let run: ReturnType<typeof rangeRun> | undefined;
    const lazyRun = () => (run ??= rangeRun(ctx));
    return comparisons.map((c) => {
      const f = comparisonFinding(c, { dose: doseCauses.get(c), curve: curveCauses.get(c), curveSide: sides.get(c), valueSide: valueSides.get(c) });
      return byReference(doseOut(doseDoubted(f, lazyRun), lazyRun), lazyRun);
    });
  },
};
