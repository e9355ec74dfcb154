import { describe, expect, it } from 'vitest';
import type { Comparison } from '../../src/qa/compare-reported.js';
import { doseMismatchCauses } from '../../src/qa/dose-cause.js';
import { comparisonFinding } from '../../src/qa/to-findings.js';
import type { ReportedParameter } from '../../src/qa/tolerances.js';
import { comparisonOf } from '../helpers/comparisons.js';

/** A comparison of one parameter of a timecourse dosed by `dosingPk` (1 g curated), as the run would classify it. */
function comparison(parameter: ReportedParameter, reported: number, recomputed: number, dosingPk = 7): Comparison {
  const base = comparisonOf(parameter, reported, recomputed, { subjectKind: 'individual' });
  return { ...base, timecourse: { ...base.timecourse, dose: { value: 1, unit: 'gram', route: 'iv-bolus', duration: 0, time: 0 }, dosingPks: [dosingPk] } } as unknown as Comparison;
}

describe('dose mismatch', () => {
  it('names the dose when every dose-proportional value is off alike and the curve\'s Cmax or AUC agrees', () => {
    const cl = comparison('clearance', 16.5, 160);
    const vd = comparison('vd', 73, 700);
    const thalf = comparison('thalf', 3.1, 3);
    const auc = comparison('auc_inf', 6.2, 6);
    const causes = doseMismatchCauses([cl, vd, thalf, auc]);
    expect(causes.get(cl)?.kind).toBe('dose');
    expect(causes.get(cl)?.witnessed).toBe(true);
    expect(causes.get(vd)?.text).toMatch(/implies a dose of 0\.10\d gram, the curated dosing is 1 gram \(×9\.\d+\)$/);
    expect(causes.has(thalf)).toBe(false);
    expect(causes.has(auc)).toBe(false);
    expect(comparisonFinding(cl, { dose: causes.get(cl) })).toMatchObject({ culprit: 'dose', intervention_pk: 7 });
  });

  it('leaves the dose or the curve open when no Cmax or AUC of the curve is in line (a t½ moves with neither)', () => {
    // A curve ×10 moves CL and V as a dose ×1/10 does; a t½ stays with both.
    const cl = comparison('clearance', 16.5, 160);
    const vd = comparison('vd', 73, 700);
    const thalf = comparison('thalf', 3.1, 3);
    const causes = doseMismatchCauses([cl, vd, thalf]);
    expect(causes.get(cl)?.witnessed).toBe(false);
    expect(causes.get(cl)?.text).toMatch(/— or the curve's level ×9\.\d+: no Cmax or AUC of the curve is compared in line/);
    const finding = comparisonFinding(cl, { dose: causes.get(cl) });
    expect(finding.culprit).toBeNull();
    expect(finding.intervention_pk).toBe(7);
    expect(finding.severity).toBe('major');
  });

  it('replaces a ×10 unit slip named per value by the dose', () => {
    const cl = comparison('clearance', 10, 100);
    expect(cl.verdict.causes[0]?.factor).toBeCloseTo(0.1, 12);
    const vd = comparison('vd', 50, 500);
    expect(doseMismatchCauses([cl, vd]).get(cl)?.kind).toBe('dose');
  });

  it('does not blame the dose for a lone V off its curve beside a CL in line, which a dose slip would have moved too', () => {
    const vd = comparison('vd', 50, 10); // ×5: major, no factor named
    expect(vd.verdict).toMatchObject({ classification: 'major', causes: [] });
    expect(doseMismatchCauses([vd, comparison('clearance', 10.2, 10), comparison('auc_inf', 1, 1)]).size).toBe(0);
    // Alone, with nothing to contradict it, the dose stays a candidate, but open: one V cannot tell its dose from itself.
    const lone = doseMismatchCauses([vd, comparison('auc_inf', 1, 1)]).get(vd);
    expect(lone).toMatchObject({ kind: 'dose', witnessed: false });
    expect(lone?.text).toMatch(/— or the value itself ×5: no other CL or V of the dosing is compared to tell them apart$/);
    expect(comparisonFinding(vd, { dose: lone }).culprit).toBeNull();
  });

  it('keeps a lone unit slip a unit slip', () => {
    const cl = comparison('clearance', 10, 10_000);
    const vd = comparison('vd', 50, 51);
    expect(doseMismatchCauses([cl, vd]).size).toBe(0);
  });

  it('does not blame the dose when a dose-independent value is also major', () => {
    const cl = comparison('clearance', 16.5, 160);
    const cmax = comparison('cmax', 5, 1);
    expect(doseMismatchCauses([cl, cmax]).size).toBe(0);
  });

  it('does not blame the dose when the ratios of one dosing disagree', () => {
    const a = comparison('clearance', 10, 100);
    const b = comparison('vd', 10, 400);
    expect(doseMismatchCauses([a, b]).size).toBe(0);
  });
});
