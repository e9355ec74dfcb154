import { describe, expect, it } from 'vitest';
import { classify } from '../../src/qa/classify.js';
import type { Comparison } from '../../src/qa/compare-reported.js';
import { doseMismatchCauses } from '../../src/qa/dose-cause.js';
import type { ReportedParameter } from '../../src/qa/tolerances.js';

/** A comparison of one parameter of a timecourse dosed by `dosingPk` (1 g curated); only the fields the rule reads. */
function comparison(parameter: ReportedParameter, reported: number, recomputed: number, dosingPk = 7): Comparison {
  return {
    parameter,
    reported,
    recomputed,
    verdict: classify({ parameter, reported, recomputed, subject: 'individual', bodyWeightKg: null }),
    timecourse: { dose: { value: 1, unit: 'gram', route: 'iv-bolus', duration: 0, time: 0 }, dosingPks: [dosingPk] },
  } as unknown as Comparison;
}

describe('dose mismatch', () => {
  it('names the dose when every dose-proportional value is off alike and the rest agree', () => {
    const cl = comparison('clearance', 16.5, 160);
    const vd = comparison('vd', 73, 700);
    const thalf = comparison('thalf', 3.1, 3);
    const causes = doseMismatchCauses([cl, vd, thalf]);
    expect(causes.get(cl)?.kind).toBe('dose');
    expect(causes.get(vd)?.text).toMatch(/implies a dose of 0\.10\d gram/);
    expect(causes.has(thalf)).toBe(false);
  });

  it('replaces a ×10 unit slip named per value by the dose', () => {
    const cl = comparison('clearance', 10, 100);
    expect(cl.verdict.causes[0]?.factor).toBeCloseTo(0.1, 12);
    const vd = comparison('vd', 50, 500);
    expect(doseMismatchCauses([cl, vd]).get(cl)?.kind).toBe('dose');
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
