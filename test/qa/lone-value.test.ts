import { describe, expect, it } from 'vitest';
import type { Comparison } from '../../src/qa/compare-reported.js';
import { loneValueSides, TIME_MOVED, WITNESS_SLACK } from '../../src/qa/lone-value.js';
import { comparisonFinding } from '../../src/qa/to-findings.js';
import type { ReportedParameter } from '../../src/qa/tolerances.js';
import { comparisonOf } from '../helpers/comparisons.js';

/** An individual's comparison of one parameter with timecourse `subset`. */
const comparison = (parameter: ReportedParameter, reported: number, recomputed: number, subset = 11): Comparison =>
  comparisonOf(parameter, reported, recomputed, { subset, subjectKind: 'individual' });

describe('lone-value: a reported value off its curve whose other values clear the curve', () => {
  it('names the value: an AUC∞ ×62 its curve (×60 named) whose t½ agrees (×1.1), a slip of the time axis would have moved', () => {
    const auc = comparison('auc_inf', 62, 1);
    const thalf = comparison('thalf', 4.4, 4);
    expect(auc.verdict.causes[0].factor).toBe(60);
    const sides = loneValueSides([auc, thalf]);
    expect(sides.get(auc)).toBe(" — the reported value: the same curve's thalf (×1.1) agrees with it, which a slip of the curve's time axis would have moved too");
    expect(sides.has(thalf)).toBe(false);
    const f = comparisonFinding(auc, { valueSide: sides.get(auc) });
    expect(f).toMatchObject({ severity: 'major', culprit: 'output' });
    expect(f.suspected_cause).toMatch(/^×60 \(minutes vs hours\) — the reported value: /);
  });

  it('does not clear a time axis with a Cmax (no time slip moves it), nor a level with a t½', () => {
    expect(TIME_MOVED.has('cmax')).toBe(false);
    const auc = comparison('auc_inf', 62, 1);
    expect(loneValueSides([auc, comparison('cmax', 1, 1)]).size).toBe(0);
    // a Cmax ×1000 its curve beside an AUC in line: the level is cleared; beside a t½ in line it is not
    const cmax = comparison('cmax', 1000, 1, 12);
    expect(loneValueSides([cmax, comparison('auc_end', 1.05, 1, 12)]).get(cmax)).toMatch(/auc_end \(×1\.05\) agrees with it, which a slip of the curve's level/);
    expect(loneValueSides([cmax, comparison('thalf', 1, 1, 12)]).size).toBe(0);
  });

  it('needs the witness within its agree band, short of halfway to the factor, of the same curve, and never names a CL or V (the dose divides them) nor takes one as witness', () => {
    const cmax = comparison('cmax', 10.5, 1, 13);
    // an individual's AUC∞ within its agree band ×1.2 × WITNESS_SLACK 1.25 = ×1.5 is a witness, one ×2.9 is none (it
    // lies within its minor band, but a curve ×3.07 would leave a table ×1.5 high already there)
    expect(WITNESS_SLACK).toBe(1.25);
    expect(loneValueSides([cmax, comparison('auc_inf', 1.45, 1, 13)]).size).toBe(1);
    expect(loneValueSides([cmax, comparison('auc_inf', 2.9, 1, 13)]).size).toBe(0);
    // nor is a tmax: a sampling time, and often slipped ×60 itself
    expect(loneValueSides([comparison('thalf', 0.05, 3, 17), comparison('tmax', 1, 1, 17)]).size).toBe(0);
    expect(loneValueSides([cmax, comparison('auc_inf', 1, 1, 14)]).size).toBe(0);
    const cl = comparison('clearance', 1000, 1, 15);
    expect(cl.verdict.classification).toBe('major');
    expect(loneValueSides([cl, comparison('cmax', 1, 1, 15)]).size).toBe(0);
    // nor clears a curve with a CL or V (a dose of its own may offset the slip), nor with a partial AUC (its window moves)
    const thalf = comparison('thalf', 0.05, 3, 16);
    expect(thalf.verdict.causes[0].factor).toBeCloseTo(1 / 60, 12);
    expect(loneValueSides([thalf, comparison('clearance', 0.9, 1, 16)]).size).toBe(0);
    expect(loneValueSides([thalf, { ...comparison('auc_end', 1.1, 1, 16), note: 'partial AUC over 0–6 h' } as Comparison]).size).toBe(0);
    expect(loneValueSides([thalf, comparison('auc_end', 1.1, 1, 16)]).size).toBe(1);
  });
});
