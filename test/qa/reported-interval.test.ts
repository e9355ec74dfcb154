import { describe, expect, it } from 'vitest';
import { expectedDisagreement, reportedWindow, windowAuc } from '../../src/qa/reported-interval.js';

const pts = (times: number[], conc: number[]) => times.map((time, i) => ({ time, conc: conc[i] }));

describe('reportedWindow', () => {
  it('starts a single dose at the dose, a curve sampled from T/2 on at its first sample', () => {
    expect(reportedWindow(pts([0, 1, 2, 4, 8], [0, 5, 4, 2, 1]), 2, false)).toEqual({ start: 0, end: 2 });
    // A steady-state AUC0–24 of a curve sampled from 48 h to 432 h: 48–72 h.
    expect(reportedWindow(pts([48, 60, 72, 432], [4, 6, 4, 0.1]), 24, true)).toEqual({ start: 48, end: 72 });
  });

  it('gives no window when the curve does not cover it or a multiple-dose start is ambiguous', () => {
    expect(reportedWindow(pts([0, 1, 2], [0, 5, 4]), 12, false)).toBeNull();
    expect(reportedWindow(pts([0, 1, 2, 24, 48], [0, 5, 4, 2, 1]), 24, true)).toBeNull();
    // Within 5 % past the last sample (rounded times) still counts as covered.
    expect(reportedWindow(pts([0, 1, 2, 23], [0, 5, 4, 1]), 24, false)).toEqual({ start: 0, end: 24 });
  });
});

describe('windowAuc', () => {
  it('integrates linear up, log down: 0–1 h (0→10) = 5, 1–2 h (10→5) = 5/ln 2', () => {
    const auc = windowAuc(pts([0, 1, 2, 4], [0, 10, 5, 2.5]), { start: 0, end: 2 });
    expect(auc).toBeCloseTo(5 + 5 / Math.log(2), 10);
  });

  it('interpolates inside a segment: 0–0.5 h of a ramp 0→10 over 1 h is 0.5 × 5 / 2 = 1.25', () => {
    expect(windowAuc(pts([0, 1, 2], [0, 10, 5]), { start: 0, end: 0.5 })).toBeCloseTo(1.25, 12);
  });

  it('returns null for times the NCA rejects (duplicates)', () => {
    expect(windowAuc(pts([0, 1, 1, 2], [0, 10, 9, 5]), { start: 0, end: 2 })).toBeNull();
  });
});

describe('expectedDisagreement', () => {
  it('excuses a reported 0 and a curve at 0, naming which', () => {
    expect(expectedDisagreement({ parameter: 'cmax', reported: 0, recomputed: 0.02, route: 'extravascular', firstSampleHours: 0.5 })).toMatch(/reported 0/);
    expect(expectedDisagreement({ parameter: 'auc_end', reported: 3, recomputed: 0, route: 'extravascular', firstSampleHours: 0.5 })).toMatch(/digitised at 0/);
  });

  it('excuses an IV bolus Cmax above the curve when the first sample is after the dose, not below it', () => {
    expect(expectedDisagreement({ parameter: 'cmax', reported: 14, recomputed: 8, route: 'iv-bolus', firstSampleHours: 0.25 })).toMatch(/first sample is 15 min after the dose/);
    expect(expectedDisagreement({ parameter: 'cmax', reported: 4, recomputed: 8, route: 'iv-bolus', firstSampleHours: 0.25 })).toBeNull();
    expect(expectedDisagreement({ parameter: 'cmax', reported: 14, recomputed: 8, route: 'extravascular', firstSampleHours: 0.25 })).toBeNull();
  });
});
