import { describe, expect, it } from 'vitest';
import type { Comparison } from '../../src/qa/compare-reported.js';
import { CLEARED_WITHIN, curveLevelCauses, curveSides, curveTimeCauses, EITHER_SIDE, MIN_CLEARING, TABLE_CLEARED, TIME_AXIS_CLEARED } from '../../src/qa/curve-cause.js';
import { comparisonFinding } from '../../src/qa/to-findings.js';
import type { ReportedParameter } from '../../src/qa/tolerances.js';
import { comparisonOf } from '../helpers/comparisons.js';

/** Midazolam: 1000 / 325.8 = 3.069, the µmol/L ↔ mg/L factor. */
const MIDAZOLAM = 325.8;
const molarMass = (substance: string | null) => (substance === 'midazolam' ? MIDAZOLAM : null);

/** A group's comparison of one midazolam parameter with timecourse `subset`. */
const comparison = (parameter: ReportedParameter, reported: number, recomputed: number, subset = 11): Comparison =>
  comparisonOf(parameter, reported, recomputed, { subset, substance: 'midazolam', molarMass: MIDAZOLAM });

describe('curve level causes', () => {
  it('names µmol/L ↔ mg/L when Cmax, AUClast and AUC∞ share it, each inside its own minor band', () => {
    // A midazolam curve in µmol/L curated as mg/L: ×3.069; the group's reported values ×1.15 the mean curve's, as ordinary.
    const cmax = comparison('cmax', 0.0000112, 0.0000293); // 0.382 = 1.17 / 3.069
    const aucEnd = comparison('auc_end', 0.0000289, 0.0000797); // 0.363
    const aucInf = comparison('auc_inf', 0.0000309, 0.0000849); // 0.364
    expect(aucInf.verdict.classification).toBe('minor');
    const causes = curveLevelCauses([cmax, aucEnd, aucInf], molarMass);
    expect(causes.size).toBe(3);
    const cause = causes.get(aucInf)!;
    expect(cause.kind).toBe('molar-mass');
    expect(cause.factor).toBeCloseTo(1 / 3.069, 3);
    expect(cause.text).toMatch(/3 reported values \(cmax, auc_end, auc_inf\) are ×0\.3(69|7) the timecourse's level alike/);
    expect(cause.text).toMatch(/µmol\/L ↔ mg\/L \(molar mass 325\.8/);
    const finding = comparisonFinding(aucInf, { curve: cause });
    expect(finding.severity).toBe('major');
    expect(finding.details?.cause_factors).toEqual([cause.factor]);
  });

  it("names the curve when the study's other curves of the substance clear the table's unit, else leaves it open", () => {
    // Curve 11's Cmax and AUC∞ ×1/3.07 of it (as above); curves 12 and 13 of the study: their Cmax and AUC∞ within ×1.5.
    const slipped = [comparison('cmax', 0.0000112, 0.0000293), comparison('auc_inf', 0.0000309, 0.0000849)];
    const others = [comparison('cmax', 1.1, 1, 12), comparison('auc_inf', 0.95, 1, 12), comparison('cmax', 1.2, 1, 13)];
    expect(MIN_CLEARING).toBe(2);
    expect(CLEARED_WITHIN).toBe(1.5);
    const cleared = curveLevelCauses([...slipped, ...others], molarMass).get(slipped[0])!;
    expect(cleared.culprit).toBe('timecourse');
    expect(cleared.text.endsWith(TABLE_CLEARED)).toBe(true);
    // One other comparison only: too few to clear it.
    expect(curveLevelCauses([...slipped, others[0]], molarMass).get(slipped[0])).toMatchObject({ culprit: null });
    // Another curve off by the same factor too: the table's unit (or every figure's) is as likely.
    const alike = comparison('cmax', 0.0000115, 0.0000293, 14);
    const open = curveLevelCauses([...slipped, ...others, alike], molarMass).get(slipped[0])!;
    expect(open.culprit).toBeNull();
    expect(open.text.endsWith(EITHER_SIDE)).toBe(true);
    // Another substance's curves clear nothing: a table holds one substance's values in one unit.
    const otherDrug = others.map((c) => ({ ...c, output: { ...c.output, substance: 'caffeine' } }) as Comparison);
    expect(curveLevelCauses([...slipped, ...otherDrug], molarMass).get(slipped[0])).toMatchObject({ culprit: null });
  });

  it("names a curve's time axis when its t½, kel and AUC∞ share a time factor and the study's other curves clear the table's time unit", () => {
    // Curve 11's times in minutes curated as hours: t½ 2.88 h reported, 179 h recomputed (×1/62), kel ×64.6 (inversely),
    // AUC∞ ×1/60. Curve 12 (another substance, same study): its t½ and AUC∞ agree.
    const slipped = [comparison('thalf', 2.88, 179.1), comparison('kel', 0.2500, 0.00387), comparison('auc_inf', 0.0001609, 0.009631)];
    const others = [comparison('thalf', 2.7, 2.98, 12), comparison('auc_inf', 0.0095, 0.01, 12)].map((c) => ({ ...c, output: { ...c.output, substance: 'morphine' } }) as Comparison);
    const causes = curveTimeCauses([...slipped, ...others]);
    expect(causes.size).toBe(3);
    const thalf = causes.get(slipped[0])!;
    expect(thalf).toMatchObject({ kind: 'unit-factor', culprit: 'timecourse' });
    expect(thalf.factor).toBeCloseTo(1 / 60, 12);
    expect(causes.get(slipped[1])!.factor).toBe(60);
    expect(thalf.text).toMatch(/^the 3 reported values \(thalf, kel, auc_inf\) are ×0\.016\d* the timecourse's time scale alike/);
    expect(thalf.text.endsWith(TIME_AXIS_CLEARED)).toBe(true);
    // Nothing clears the table's time unit (no other curve, or one off by the factor too): nothing named.
    expect(curveTimeCauses(slipped).size).toBe(0);
    expect(curveTimeCauses([...slipped, ...others, comparison('thalf', 3, 185, 13)]).size).toBe(0);
    // A Cmax does not move with time: it is not counted, and one time parameter alone is no common factor.
    expect(curveTimeCauses([slipped[0], comparison('cmax', 1, 1), ...others]).size).toBe(0);
  });

  it('reads CL and V inversely: a curve ×10 gives a Cmax ratio 1/10 and a CL ratio 10', () => {
    const cmax = comparison('cmax', 1.05, 10);
    const cl = comparison('clearance', 98, 10);
    const causes = curveLevelCauses([cmax, cl], molarMass);
    expect(causes.get(cmax)?.factor).toBeCloseTo(0.1, 6);
    expect(causes.get(cl)?.factor).toBeCloseTo(10, 6);
    expect(causes.get(cl)?.kind).toBe('unit-factor');
  });

  it('names the curve when concentrations and a CL or V share the factor (the table would need two slips), and neither side for Cmax and AUC alone', () => {
    // Ohnhaus-like: a curve curated ×10 its true level; the table's Cmax 1/10 of it, its CL and V 10× the recomputed.
    const cmax = comparison('cmax', 0.000269, 0.002623);
    const cl = comparison('clearance', 2.628, 0.2541);
    const vd = comparison('vd', 70.1, 7.375);
    const causes = curveLevelCauses([cmax, cl, vd], molarMass);
    expect([...causes.values()].map((c) => c.culprit)).toEqual(['timecourse', 'timecourse', 'timecourse']);
    expect(causes.get(cl)?.text).toMatch(/— the curve: its reported concentrations and its CL or V are off it in opposite directions/);
    const finding = comparisonFinding(cl, { curve: causes.get(cl) });
    expect(finding.culprit).toBe('timecourse');
    // A dose named across the dosing's comparisons keeps the dose (dose-cause.ts decides first).
    expect(comparisonFinding(cl, { curve: causes.get(cl), dose: { kind: 'unit-factor', factor: 10, text: 'dose', witnessed: true } }).culprit).toBe('dose');
    // Cmax and AUC alone: one concentration unit of the table explains them as well as the curve's.
    const both = curveLevelCauses([comparison('cmax', 1.05, 10), comparison('auc_inf', 0.98, 10)], molarMass);
    expect([...both.values()].map((c) => c.culprit)).toEqual([null, null]);
    expect([...both.values()][0].text).toMatch(/the unit of the curve, or of every reported value$/);
    expect(comparisonFinding(comparison('cmax', 1.05, 10), { curve: [...both.values()][0] }).culprit ?? null).toBeNull();
  });

  it('names nothing for a common factor that is no slip factor (×2 of a 325.8 g/mol drug)', () => {
    expect(curveLevelCauses([comparison('cmax', 2, 1), comparison('auc_inf', 2.1, 1)], molarMass).size).toBe(0);
  });

  it('needs two different parameters: one Cmax, or the same Cmax twice, is its own ratio', () => {
    expect(curveLevelCauses([comparison('cmax', 1, 3.07)], molarMass).size).toBe(0);
    expect(curveLevelCauses([comparison('cmax', 1, 3.07), comparison('cmax', 1, 3.07)], molarMass).size).toBe(0);
  });

  it('leaves a dose slip (CL ×10, Cmax in line) and a one-value slip (Cmax ×10, AUC in line) alone', () => {
    expect(curveLevelCauses([comparison('cmax', 1, 1), comparison('clearance', 10, 1)], molarMass).size).toBe(0);
    expect(curveLevelCauses([comparison('cmax', 10, 1), comparison('auc_inf', 1, 1)], molarMass).size).toBe(0);
  });

  it('needs the ratios within ×1.3 of their common factor', () => {
    // ln 10 ± ln 1.4: a common ×10 but scattered beyond the reported values' own spread; ± ln 1.28 is within it.
    expect(curveLevelCauses([comparison('cmax', 14, 1), comparison('auc_inf', 10 / 1.4, 1)], molarMass).size).toBe(0);
    expect(curveLevelCauses([comparison('cmax', 12.8, 1), comparison('auc_inf', 10 / 1.28, 1)], molarMass).size).toBe(2);
  });

  it('reads a CL and a V beside a Cmax: µmol/L as mg/L of a 285 g/mol drug (×3.51) with each off by its own scatter', () => {
    // Cmax ×1/3.0, CL ×4.13 and ×4.19 (absolute and per kg), V ×2.85 and ×2.82: a common ×1/3.36, within 5 % of 1/3.51.
    const mass = () => 285.3;
    const group = [comparison('cmax', 1, 3), comparison('clearance', 4.13, 1), comparison('clearance', 4.19, 1), comparison('vd', 2.85, 1), comparison('vd', 2.82, 1)];
    const causes = curveLevelCauses(group, mass);
    expect(causes.size).toBe(5);
    expect(causes.get(group[0])?.factor).toBeCloseTo(285.3 / 1000, 6);
    expect(causes.get(group[1])?.factor).toBeCloseTo(1000 / 285.3, 6);
  });

  it('keeps timecourses apart', () => {
    expect(curveLevelCauses([comparison('cmax', 10, 1, 1), comparison('auc_inf', 10, 1, 2)], molarMass).size).toBe(0);
  });

  it('names the curve where the majors of one curve are off it one level both ways, one naming the factor, scattered beyond ×1.3', () => {
    // Harvey-like: one curve ×10; the group's Cmax ×1/5.8 (its members' peaks), AUC∞ ×1/8.1 (neither names ×1/10), CL ×9.6 and V ×8.9 (both name ×10).
    const auc = comparison('auc_inf', 0.0000803, 0.0006492);
    const cmax = comparison('cmax', 0.0000245, 0.0001424);
    const cl = comparison('clearance', 589, 61.62);
    const vd = comparison('vd', 4723, 531.9);
    expect(curveLevelCauses([auc, cmax, cl, vd], molarMass).size).toBe(0);
    expect(auc.verdict.causes).toEqual([]);
    const sides = curveSides([auc, cmax, cl, vd], molarMass);
    expect(sides.size).toBe(4);
    expect(sides.get(auc)).toBe(' — the curve: its auc_inf, cmax and its clearance, vd are off it ×0.1 and ×10 (within ×2), as a slip of its level moves them; the table would need two unit slips');
    const finding = comparisonFinding(cl, { curveSide: sides.get(cl) });
    expect(finding.culprit).toBe('timecourse');
    expect(finding.suspected_cause).toMatch(/^×10 .*— the curve/);
    // A major without a cause of its own (the AUC) takes the side but names no cause.
    expect(comparisonFinding(auc, { curveSide: sides.get(auc) }).culprit).toBe('timecourse');
    // Concentrations alone (a table's one concentration unit), or a dose slip (CL and V alone): no side.
    expect(curveSides([auc, cmax], molarMass).size).toBe(0);
    expect(curveSides([cl, vd], molarMass).size).toBe(0);
    // A Cmax beyond ×2 of the level the CL names: no side.
    expect(curveSides([comparison('cmax', 0.0000245, 0.00007), cl], molarMass).size).toBe(0);
    // No factor named, but AUC∞ ×0.254, CL ×4.57 and V ×6.37 of one curve (levels ×0.254, ×0.219, ×0.157; median ×0.219,
    // each within ×1.5): the curve, without a factor (PKDB00292's torasemide curve ×2.87 over a table ×1.5 off it).
    const [uAuc, uCl, uV] = [comparison('auc_inf', 0.0045, 0.01773, 12), comparison('clearance', 2.58, 0.5641, 12), comparison('vd', 11.7, 1.835, 12)];
    const unnamed = curveSides([uAuc, uCl, uV], molarMass);
    expect(unnamed.size).toBe(3);
    expect(unnamed.get(uCl)).toMatch(/^ — the curve: its auc_inf and its clearance, vd are off it ×0\.219 and ×4\.57 alike \(within ×1\.5\), as one shift of its level moves them \(no unit or molar factor is that/);
    expect(comparisonFinding(uAuc, { curveSide: unnamed.get(uAuc) }).culprit).toBe('timecourse');
    // Within ×2.5 of the curve: an ordinary disagreement, no side.
    expect(curveSides([comparison('auc_inf', 0.009, 0.01773, 13), comparison('clearance', 1.1, 0.5641, 13)], molarMass).size).toBe(0);
    // A time factor (the curve's time axis: minutes as hours) moves its AUCs and CL against each other, not its Cmax or V.
    const timeAuc = comparison('auc_inf', 2.879, 0.04729);
    const timeCl = comparison('clearance', 0.0926, 6.34);
    const timeV = comparison('vd', 0.9, 60);
    const time = curveSides([timeAuc, timeCl, timeV], molarMass);
    expect([...time.keys()]).toEqual([timeAuc, timeCl]);
    expect(time.get(timeCl)).toMatch(/its auc_inf and its clearance are off it ×60 and ×0\.0167 \(within ×2\), as a slip of its time axis moves them/);
  });
});
