/**
 * A reported value off its own curve by a named slip factor, with the curve cleared by the same curve's other
 * reported values: the value is the record to fix.
 *
 * A comparison of one value with its curve cannot tell alone which of the two slipped. But a slip of the curve
 * moves more than that one value: a level factor (its unit's prefix, molar ↔ mass) every level-scaled value
 * recomputed from it — Cmax and the AUCs by f, CL and V by 1/f — and a time factor (its time axis: minutes read as
 * hours) its AUCs, t½, tmax and CL by f or 1/f and its kel inversely, not its Cmax nor its V. So where another
 * reported value of the same curve that the slip would have moved agrees with it — its ratio within its agree band
 * (see `clears`) and nearer 1 than halfway to the factor, on the log scale — the curve is cleared, and one slip in the
 * value explains the disagreement (an AUC∞ ×62 its curve whose Cmax and t½ agree with it: the AUC's ×60).
 *
 * Only for a Cmax, an AUC or a time parameter, and only those as witnesses: a CL or V is recomputed with the dose, a
 * third record (corroborate.ts weighs it). Never a partial AUC over a reported interval, either way.
 */
import { isTimeFactor } from './causes.js';
import type { Comparison } from './compare-reported.js';
import { LEVEL_EXPONENT, TIME_EXPONENT } from './curve-cause.js';
import { pushTo } from '../data/records.js';
import { TOLERANCES, type ReportedParameter } from './tolerances.js';

/** The parameters a slip of the curve's time axis moves (its Cmax and V stay): curve-cause.ts TIME_EXPONENT's. */
export const TIME_MOVED: ReadonlySet<ReportedParameter> = new Set(Object.keys(TIME_EXPONENT) as ReportedParameter[]);

/**
 * The values the rule may name, and the witnesses that may clear a curve: not a CL or V, whose recomputation divides the
 * dose too (a dose curated in a unit of its own can offset a curve's slip: Morais1992's CL agreed with a curve ×60).
 */
const NAMEABLE: ReadonlySet<ReportedParameter> = new Set(['cmax', 'auc_end', 'auc_inf', 'thalf', 'kel', 'tmax']);

/**
 * How far beyond its agree band (or a group Cmax's ordinary excess) a witness may lie: a curve ×3.07 (µmol/L as mg/L)
 * leaves its AUC∞ at ×1/3.07 of a table that was ×1.5 high already, not at ×0.64.
 */
export const WITNESS_SLACK = 1.25;

const fmt = (x: number) => String(+x.toPrecision(3));

/** Whether a slip of the curve by a factor of this kind would move the parameter's recomputation. */
function moves(parameter: ReportedParameter, time: boolean): boolean {
  return time ? TIME_MOVED.has(parameter) : LEVEL_EXPONENT[parameter] !== undefined;
}

/**
 * Whether the comparison agrees with its curve, well short of the factor: within its agree band (a group Cmax's
 * ordinary excess) × WITNESS_SLACK, and nearer 1 than halfway to the factor. Not a partial AUC over a reported interval
 * (its window moves along a slipped time axis, and it is interpolated between samples), nor a CL or V (NAMEABLE), nor
 * a tmax (a sampling time, and the commonest time slip itself: one ×60 of its own can offset the curve's).
 */
function clears(c: Comparison, factor: number): boolean {
  if (c.note || !NAMEABLE.has(c.parameter) || c.parameter === 'tmax') return false;
  const ratio = c.verdict.ratio;
  if (ratio === null || !(ratio > 0) || !Number.isFinite(ratio)) return false;
  const fold = Math.abs(Math.log(ratio));
  const tolerance = TOLERANCES[c.parameter][c.subjectKind];
  const agrees = Math.log(Math.max(tolerance.agree, tolerance.ordinaryExcess ?? 0) * WITNESS_SLACK);
  return fold <= agrees && fold < Math.abs(Math.log(factor)) / 2;
}

/**
 * For each major comparison of a nameable parameter whose first named cause a slip of its curve would have made, and
 * whose curve another reported value clears (see the header): the words that name the value, by comparison.
 */
export function loneValueSides(comparisons: readonly Comparison[]): Map<Comparison, string> {
  const bySubset = new Map<number, Comparison[]>();
  for (const c of comparisons) pushTo(bySubset, c.timecourse.tc.subset_pk, c);
  const sides = new Map<Comparison, string>();
  for (const group of bySubset.values()) {
    if (group.length < 2) continue;
    for (const c of group) {
      const cause = c.verdict.causes[0];
      if (c.verdict.classification !== 'major' || !cause || !NAMEABLE.has(c.parameter) || c.note) continue;
      if (cause.kind !== 'unit-factor' && cause.kind !== 'molar-mass') continue;
      const time = isTimeFactor(cause.factor);
      if (!moves(c.parameter, time)) continue;
      const witnesses = group.filter((o) => o.output.pk !== c.output.pk && moves(o.parameter, time) && clears(o, cause.factor));
      if (witnesses.length === 0) continue;
      const named = [...new Set(witnesses.map((w) => `${w.parameter} (×${fmt(w.verdict.ratio as number)})`))].join(', ');
      sides.set(c, ` — the reported value: the same curve's ${named} agree${witnesses.length === 1 ? 's' : ''} with it, which a slip of the curve${time ? "'s time axis" : "'s level"} would have moved too`);
    }
  }
  return sides;
}
