/**
 * A concentration timecourse off by a factor f (its unit slipped: µmol/L
 * curated as mg/L, ng/mL as µg/mL) moves every level-scaled value recomputed
 * from it alike: Cmax, AUClast and AUC∞ by f, CL = dose/AUC∞ and V = CL/λz by
 * 1/f, while t½, kel and tmax do not move. So when two or more different
 * level-scaled parameters reported for one timecourse are off their
 * recomputation by one common factor, and a unit or molar ↔ mass factor is
 * that factor, one slip between the curve and its reported values explains
 * them all — even where each ratio alone lies inside its parameter's ordinary
 * band (a group's Cmax ×2.6 its mean curve's peak, an AUC∞ ×2.7, both ×3.07 =
 * µmol/L ↔ mg/L of midazolam once a group mean's ordinary ×1.15 is allowed).
 * The comparisons it explains become major with that cause.
 *
 * Which side slipped: when the values sharing the factor include both a
 * concentration (Cmax, AUC: off by f) and a clearance or volume (off by 1/f),
 * the curve (culprit `timecourse`): one curve's level moves them against each
 * other, while the table would need two unit slips of the same size, one in
 * its concentrations and one in its CL or V (in L/h and L, no concentration
 * unit in them), each the way round a curve slip mimics. Otherwise (only
 * Cmax and AUCs, one concentration unit of the table) it is left open (culprit
 * null): the curve's unit, or the unit of the table every reported value came
 * from — unless the study's other curves of the substance clear the table's
 * unit, their Cmax and AUC agreeing with theirs (MIN_CLEARING): the curve; the
 * checks that compare each with other records (corroborate.ts) or the other
 * studies (reference-side.ts) tell them apart where they can. A curve's time
 * axis likewise (`curveTimeCauses`).
 *
 * Distinct from a dose slip (dose-cause.ts), which moves CL and V but not Cmax
 * or AUC, and from a slip in one reported value, which leaves the others in
 * line: neither gives a common factor over several parameters.
 */
import { exactMolarCause, isTimeFactor, molarMassCause, unitFactorCause, type SuspectedCause } from './causes.js';
import type { Comparison } from './compare-reported.js';
import type { ReportedParameter } from './tolerances.js';
import { pushTo } from '../data/records.js';

/** How a parameter recomputed from a curve moves with the curve's level: as the level (+1) or inversely (−1). */
export const LEVEL_EXPONENT: Partial<Record<ReportedParameter, 1 | -1>> = {
  cmax: 1, auc_end: 1, auc_inf: 1, clearance: -1, vd: -1, vd_ss: -1,
};

/**
 * Each signed ratio within this of the common factor (the reported values' own scatter against one curve: a CL and a
 * V carry their λz extrapolation, a group's Cmax its members' peaks — Cmax ×1/3.0, CL ×4.2 and V ×2.8 of one curve
 * share ×3.4, the CL ×1.27 from it).
 */
export const CURVE_RATIO_SPREAD = 1.3;

/**
 * How close the common factor must be to a slip factor: a group's reported Cmax is the mean of its members' peaks,
 * ordinarily up to ~15 % above the peak of its mean curve, and the ratios share that bias rather than averaging it out.
 */
export const CURVE_FACTOR_TOLERANCE = 0.15;

/** Fewest different level-scaled parameters that must share the factor (one alone is the ratio's own classification). */
export const MIN_CURVE_PARAMETERS = 2;

const fmt = (x: number) => String(+x.toPrecision(3));

/** How a curve-level cause ends while no other record tells the side (corroborate.ts replaces it when one does). */
export const EITHER_SIDE = ' — the unit of the curve, or of every reported value';

/** How it ends when concentrations and clearances or volumes share the factor (see the header): the curve. */
export const CURVE_SIDE = ' — the curve: its reported concentrations and its CL or V are off it in opposite directions, as one curve\'s level moves them; the table would need two unit slips';

/**
 * The table's concentration unit cleared by the study's other curves: MIN_CLEARING or more Cmax or AUC comparisons of
 * other curves of the same study, substance and tissue agree with their curves within CLEARED_WITHIN, and none lies
 * near the factor (within CURVE_RATIO_SPREAD). A study reports one substance's Cmax and AUC in one unit across its
 * arms, so that unit held; and two or more reported values of this curve off it alike would otherwise need that many
 * cells slipped alike: the curve is the record (a midazolam curve in µmol/L curated as mg/L, its Cmax and AUC ×1/3.07
 * of it, beside three arms whose Cmax and AUC agree with theirs).
 */
export const MIN_CLEARING = 2;
export const CLEARED_WITHIN = 1.5;

/** How a curve-level cause ends when the study's other curves clear the table's unit (see MIN_CLEARING). */
export const TABLE_CLEARED = ' — the curve: the Cmax and AUC of the study\'s other curves of the substance agree with theirs, so the table\'s unit holds';

/** A curve-level cause, and the record it names to fix (`timecourse`, or null: either side). */
export type CurveLevelCause = SuspectedCause & { culprit: 'timecourse' | null };

/** The slip factor the reported values are off their curve by (reported ÷ curve level), or null. */
function levelSlip(reportedOverCurve: number, molarMass: number | null): SuspectedCause | null {
  return (
    unitFactorCause(reportedOverCurve, 'cmax', { tolerance: CURVE_FACTOR_TOLERANCE }) ??
    molarMassCause(reportedOverCurve, 'cmax', molarMass) ??
    exactMolarCause(reportedOverCurve, 'cmax', molarMass, CURVE_FACTOR_TOLERANCE)
  );
}

/**
 * The curve-level causes, by comparison (identity), of the timecourses whose level-scaled comparisons share one slip
 * factor; `molarMass` gives the measured substance's molar mass.
 */
export function curveLevelCauses(comparisons: readonly Comparison[], molarMass: (substance: string | null) => number | null): Map<Comparison, CurveLevelCause> {
  const bySubset = new Map<number, Comparison[]>();
  for (const c of comparisons) if (LEVEL_EXPONENT[c.parameter] !== undefined && hasRatio(c)) pushTo(bySubset, c.timecourse.tc.subset_pk, c);
  const causes = new Map<Comparison, CurveLevelCause>();
  // Cmax and AUC comparisons by study, substance and tissue: the records that may clear a table's unit.
  const byTable = new Map<string, Comparison[]>();
  for (const group of bySubset.values()) for (const c of group) if (LEVEL_EXPONENT[c.parameter] === 1) pushTo(byTable, tableKey(c), c);
  for (const group of bySubset.values()) {
    // ln(reported level ÷ curve level) as each comparison sees it: Cmax and AUC ratios move with it, CL and V ratios against it.
    const common = commonScale(group, LEVEL_EXPONENT);
    if (common === null) continue;
    const { parameters, centre } = common;
    const slip = levelSlip(Math.exp(centre), molarMass(group[0].output.substance));
    if (slip === null) continue;
    // Concentrations and clearances or volumes both: the curve (see the header).
    const bothWays = group.some((c) => LEVEL_EXPONENT[c.parameter] === 1) && group.some((c) => LEVEL_EXPONENT[c.parameter] === -1);
    const cleared = !bothWays && tableCleared(byTable.get(tableKey(group[0])) ?? [], group[0].timecourse.tc.subset_pk, centre, (c) => Math.log(c.verdict.ratio as number));
    const text =
      `the ${group.length} reported values (${parameters.join(', ')}) are ×${fmt(Math.exp(centre))} the timecourse's level alike` +
      ` (CL and V inversely): ${slip.text}${bothWays ? CURVE_SIDE : cleared ? TABLE_CLEARED : EITHER_SIDE}`;
    const culprit = bothWays || cleared ? 'timecourse' : null;
    for (const c of group) causes.set(c, { kind: slip.kind, factor: LEVEL_EXPONENT[c.parameter] === 1 ? slip.factor : 1 / slip.factor, text, culprit });
  }
  return causes;
}

/**
 * How a parameter recomputed from a curve moves with the curve's time axis: as time (+1: AUCs, t½, tmax) or inversely
 * (−1: kel, CL = dose/AUC). Cmax and V = CL/kel do not move.
 */
export const TIME_EXPONENT: Partial<Record<ReportedParameter, 1 | -1>> = {
  auc_end: 1, auc_inf: 1, thalf: 1, tmax: 1, kel: -1, clearance: -1,
};

/** How a time-axis cause ends: the curve, its table's time unit cleared by the study's other curves (as MIN_CLEARING). */
export const TIME_AXIS_CLEARED = ' — the curve\'s time axis: the time-scaled values of the study\'s other curves agree with theirs, so the table\'s time unit holds';

/**
 * The time-axis counterpart of `curveLevelCauses`: two or more different time-scaled parameters reported for one
 * timecourse (t½, AUC, tmax; kel and CL inversely) off it by one common time factor (×60 minutes as hours, ×24, ×1440;
 * within CURVE_RATIO_SPREAD; a partial AUC left out), where the study's other curves, of any substance, clear the
 * table's time unit (MIN_CLEARING of their time-scaled comparisons agree within CLEARED_WITHIN, none shares the
 * factor): the curve's time axis is the record to fix. Without that, the table's time unit (its t½, AUC and kel
 * columns alike) is as likely: nothing is returned, each comparison keeps its own cause.
 */
export function curveTimeCauses(comparisons: readonly Comparison[]): Map<Comparison, CurveLevelCause> {
  const bySubset = new Map<number, Comparison[]>();
  const byTable = new Map<string, Comparison[]>();
  for (const c of comparisons) {
    // A partial AUC over the reported interval does not scale with the axis (its window moves along it).
    if (TIME_EXPONENT[c.parameter] === undefined || !hasRatio(c) || c.note) continue;
    pushTo(bySubset, c.timecourse.tc.subset_pk, c);
    // A table's time unit is one for every substance it reports (its t½ column): the study's other curves, any substance.
    pushTo(byTable, c.output.study_sid, c);
  }
  const causes = new Map<Comparison, CurveLevelCause>();
  const timeLog = (c: Comparison) => scaleLog(c, TIME_EXPONENT);
  for (const group of bySubset.values()) {
    const common = commonScale(group, TIME_EXPONENT);
    if (common === null) continue;
    const { parameters, centre } = common;
    const slip = unitFactorCause(Math.exp(centre), 'thalf', { tolerance: CURVE_FACTOR_TOLERANCE });
    if (slip === null || !isTimeFactor(slip.factor)) continue;
    if (!tableCleared(byTable.get(group[0].output.study_sid) ?? [], group[0].timecourse.tc.subset_pk, centre, timeLog)) continue;
    const text =
      `the ${group.length} reported values (${parameters.join(', ')}) are ×${fmt(Math.exp(centre))} the timecourse's time scale alike` +
      ` (kel and CL inversely): ${slip.text}${TIME_AXIS_CLEARED}`;
    for (const c of group) causes.set(c, { kind: slip.kind, factor: TIME_EXPONENT[c.parameter] === 1 ? slip.factor : 1 / slip.factor, text, culprit: 'timecourse' });
  }
  return causes;
}

/** Whether a comparison has a usable ratio (positive, finite). */
const hasRatio = (c: Comparison): boolean => c.verdict.ratio !== null && c.verdict.ratio > 0 && Number.isFinite(c.verdict.ratio);

/** ln of a comparison's ratio as the curve's scale moves it (`exponent`: LEVEL_EXPONENT or TIME_EXPONENT). */
const scaleLog = (c: Comparison, exponent: Partial<Record<ReportedParameter, 1 | -1>>): number => (exponent[c.parameter] as number) * Math.log(c.verdict.ratio as number);

/**
 * The scale factor (its log, the mean) one curve's comparisons share: MIN_CURVE_PARAMETERS or more different
 * parameters, each within CURVE_RATIO_SPREAD of it as `exponent` reads it; null otherwise.
 */
function commonScale(group: readonly Comparison[], exponent: Partial<Record<ReportedParameter, 1 | -1>>): { parameters: ReportedParameter[]; centre: number } | null {
  const parameters = [...new Set(group.map((c) => c.parameter))];
  if (parameters.length < MIN_CURVE_PARAMETERS) return null;
  const logs = group.map((c) => scaleLog(c, exponent));
  const centre = logs.reduce((a, b) => a + b, 0) / logs.length;
  return logs.some((l) => Math.abs(l - centre) > Math.log(CURVE_RATIO_SPREAD)) ? null : { parameters, centre };
}

/** The study, substance and tissue of a comparison's reported value: one table's unit for them. */
function tableKey(c: Comparison): string {
  return `${c.output.study_sid}\u0001${c.output.substance}\u0001${c.output.tissue}`;
}

/**
 * Whether the comparisons of the table's other curves (all but `subsetPk`'s) clear its unit of the factor e^logFactor
 * (MIN_CLEARING): none lies near the factor as `logOf` reads it (the level or time scale each sees), and MIN_CLEARING
 * or more agree with their curves within CLEARED_WITHIN.
 */
function tableCleared(table: readonly Comparison[], subsetPk: number, logFactor: number, logOf: (c: Comparison) => number): boolean {
  let agreeing = 0;
  for (const c of table) {
    if (c.timecourse.tc.subset_pk === subsetPk) continue;
    if (Math.abs(logOf(c) - logFactor) <= Math.log(CURVE_RATIO_SPREAD)) return false;
    if (Math.abs(Math.log(c.verdict.ratio as number)) <= Math.log(CLEARED_WITHIN)) agreeing++;
  }
  return agreeing >= MIN_CLEARING;
}

/** Cause kinds that name a curve's level: a unit prefix or a molar ↔ mass factor (not a dose, not a weight). */
const LEVEL_KINDS: ReadonlySet<SuspectedCause['kind']> = new Set(['unit-factor', 'molar-mass']);

/** The parameters a curve's time axis moves (AUC with time, CL = dose/AUC against it): `curveSides` for a time factor. */
const TIME_SCALED: ReadonlySet<string> = new Set(['auc_end', 'auc_inf', 'clearance']);

/** How far a major's ratio may lie from a level factor another major of its curve names and still back it (as corroborate.ts). */
export const SIDE_RATIO_SPREAD = 2;

/**
 * The side of the majors of a curve that are off it one level both ways, beyond the common-factor rule above: a level
 * factor f (a unit prefix or molar ↔ mass, as `levelSlip`; or a time factor, then AUCs and CL only) that one of them
 * names, and majors in both directions whose ratios put the curve's level within ×2 of it — Cmax or AUC ×f, CL or V ×1/f (a V carries its λz extrapolation, a group's Cmax its members'
 * peaks: Cmax ×1/5.8, AUC ×1/8.1, CL ×9.6 and V ×8.9 of one curve ×10, CL and V naming ×10). The curve, by the
 * header's reasoning: a dose slip moves CL and V alone, a table's concentration unit Cmax and AUC alone. Where none
 * names a factor, majors both ways at one level beyond ×2.5 (`unnamedSide`). The text to append to each, by
 * comparison; majors of one direction only are left alone.
 */
export function curveSides(comparisons: readonly Comparison[], molarMass: (substance: string | null) => number | null): Map<Comparison, string> {
  const bySubset = new Map<number, Comparison[]>();
  for (const c of comparisons) if (LEVEL_EXPONENT[c.parameter] !== undefined && c.verdict.classification === 'major' && hasRatio(c)) pushTo(bySubset, c.timecourse.tc.subset_pk, c);
  const sides = new Map<Comparison, string>();
  const backs = Math.log(SIDE_RATIO_SPREAD);
  for (const group of bySubset.values()) {
    // ln(reported level ÷ curve level) each comparison sees (CL and V inversely), and the levels its causes name.
    const levelOf = (c: Comparison) => scaleLog(c, LEVEL_EXPONENT);
    // A factor a curve's level can slip by (a unit prefix, molar ↔ mass) moves every level-scaled value; a time factor
    // (its time axis: minutes as hours) the AUCs and CL only (not Cmax; V = CL/λz not at all).
    const mass = molarMass(group[0].output.substance);
    const named = group.flatMap((c) => c.verdict.causes.filter((k) => LEVEL_KINDS.has(k.kind)).map((k) => (LEVEL_EXPONENT[c.parameter] as number) * Math.log(k.factor)));
    for (const level of named) {
      const time = isTimeFactor(Math.exp(level));
      if (!time && levelSlip(Math.exp(level), mass) === null) continue;
      const off = group.filter((c) => !sides.has(c) && (!time || TIME_SCALED.has(c.parameter)) && Math.abs(levelOf(c) - level) <= backs);
      const direct = [...new Set(off.filter((c) => LEVEL_EXPONENT[c.parameter] === 1).map((c) => c.parameter))];
      const inverse = [...new Set(off.filter((c) => LEVEL_EXPONENT[c.parameter] === -1).map((c) => c.parameter))];
      if (direct.length === 0 || inverse.length === 0) continue;
      const what = time ? 'a slip of its time axis' : 'a slip of its level';
      const text = ` — the curve: its ${direct.join(', ')} and its ${inverse.join(', ')} are off it ×${fmt(Math.exp(level))} and ×${fmt(Math.exp(-level))} (within ×${SIDE_RATIO_SPREAD}), as ${what} moves them; the table would need two unit slips`;
      for (const c of off) sides.set(c, text);
    }
    unnamedSide(group.filter((c) => !sides.has(c)), levelOf, sides);
  }
  return sides;
}

/** How far from 1 a curve's level must lie, off its reported values both ways, to be named without a factor (`unnamedSide`). */
export const UNNAMED_LEVEL = 2.5;
/** How near their median level those values must lie (a CL and a V carry their λz extrapolation). */
export const UNNAMED_SPREAD = 1.5;

/**
 * The curve, where its majors lie off it in both directions by one level that no slip factor is (a slip on top of an
 * ordinary disagreement, or another record's curve linked): its reported AUC ×0.25 and its CL ×4.6 and V ×6.4 of it
 * put its level ×3.9–4.3 off, which a dose slip (CL and V alone) or the table's concentration unit (Cmax and AUC
 * alone) cannot do; the table would need two slips. Beyond ×UNNAMED_LEVEL, each within ×UNNAMED_SPREAD of their
 * median, majors of both directions; the text names no factor.
 */
function unnamedSide(group: readonly Comparison[], levelOf: (c: Comparison) => number, sides: Map<Comparison, string>): void {
  const levels = group.map(levelOf).sort((a, b) => a - b);
  if (levels.length < 2) return;
  const centre = levels[Math.floor((levels.length - 1) / 2)];
  if (Math.abs(centre) < Math.log(UNNAMED_LEVEL)) return;
  const off = group.filter((c) => Math.abs(levelOf(c) - centre) <= Math.log(UNNAMED_SPREAD));
  const direct = [...new Set(off.filter((c) => LEVEL_EXPONENT[c.parameter] === 1).map((c) => c.parameter))];
  const inverse = [...new Set(off.filter((c) => LEVEL_EXPONENT[c.parameter] === -1).map((c) => c.parameter))];
  if (direct.length === 0 || inverse.length === 0) return;
  const text = ` — the curve: its ${direct.join(', ')} and its ${inverse.join(', ')} are off it ×${fmt(Math.exp(centre))} and ×${fmt(Math.exp(-centre))} alike (within ×${UNNAMED_SPREAD}), as one shift of its level moves them (no unit or molar factor is that: a slip beside an ordinary difference, or another curve linked); the table would need two slips`;
  for (const c of off) sides.set(c, text);
}
