/**
 * What a reported AUC over a stated interval is compared with, and the
 * expected reasons for two kinds of disagreement that are not slips
 * (issue 13, item 8; issue 14, item 3):
 *
 * - A reported AUC0–T whose end T differs from the timecourse's last time is
 *   compared with the partial AUC of the curve over the reported interval
 *   (src/nca `aucInterval`, PKNCA `aucint` semantics with linear-up/log-down
 *   interpolation; no extrapolation past Tlast), when the curve covers it.
 *   The interval starts at the dose that starts it: the dose time for a single
 *   dose; for a curve whose first sample is T/2 or later after the dose, the
 *   first sample, taken as the dose that opens the sampled dosing interval (a
 *   steady-state AUC0–24 of a 432-h curve sampled from 48 h on is the area
 *   from 48 to 72 h). A multiple-dose curve sampled from the first dose on is
 *   ambiguous (first dose or steady state?): no window, the comparison keeps
 *   the whole curve and calls the difference "another interval".
 * - An IV bolus Cmax above the curve's highest point, when the first sample
 *   is after the dose: the concentration falls fastest right after a bolus,
 *   so an author's C0 (back-extrapolated) or earlier sample is higher.
 * - A reported 0 (a value below the limit of quantification), or a curve
 *   digitised as all zeros: no ratio exists, and no slip factor can be named.
 */
import { aucInterval } from '../nca/index.js';

export interface Point {
  time: number;
  conc: number;
}

/** Relative slack on the curve's end: a window ending within 5 % past the last sample is still covered (rounded times). */
export const WINDOW_SLACK = 0.05;

/**
 * The reported interval [start, start + length] in the points' time frame (time after the dose, sorted),
 * or null when the curve does not cover it or its start is ambiguous (see the header).
 */
export function reportedWindow(points: readonly Point[], length: number, multipleDose: boolean): { start: number; end: number } | null {
  if (points.length < 2 || !(length > 0)) return null;
  const first = points[0].time;
  const last = points[points.length - 1].time;
  let start = 0;
  if (first >= length / 2) start = first;
  else if (multipleDose) return null;
  const end = start + length;
  return end <= last * (1 + WINDOW_SLACK) ? { start, end } : null;
}

/** The AUC over the window by linear-up/log-down trapezoids, 0 past Tlast; null when the points cannot be integrated. */
export function windowAuc(points: readonly Point[], window: { start: number; end: number }): number | null {
  try {
    const auc = aucInterval(points.map((p) => p.time), points.map((p) => p.conc), window.start, window.end, { method: 'lin-up-log-down', type: 'last' });
    return auc !== null && Number.isFinite(auc) ? auc : null;
  } catch {
    // Duplicate or unsorted times: the input check reports them; the comparison keeps the whole-curve AUC.
    return null;
  }
}

/** Why a major disagreement is expected after all, or null. */
export function expectedDisagreement(c: {
  parameter: string;
  reported: number;
  recomputed: number;
  route: string | null;
  /** The first sampling time after the dose, in hours; null when unknown. */
  firstSampleHours: number | null;
}): string | null {
  if (c.reported === 0 || c.recomputed === 0) {
    return `${c.reported === 0 ? 'a reported 0 (below the limit of quantification?)' : 'a curve digitised at 0'}: no ratio, no slip factor`;
  }
  if (c.parameter === 'cmax' && c.route === 'iv-bolus' && c.reported > c.recomputed && c.firstSampleHours !== null && c.firstSampleHours > 0) {
    const minutes = +(c.firstSampleHours * 60).toPrecision(3);
    return `IV bolus: the first sample is ${minutes} min after the dose, so the reported Cmax (C0 or an earlier sample) is above the curve's`;
  }
  return null;
}
