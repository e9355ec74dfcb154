/**
 * Which points the λz regression uses: the automatic best fit, or a manual
 * choice by input rows or by a time range. Returns the fit or the reason why
 * there is none (the reason becomes the note of every λz-based parameter).
 */
import type { Route } from './codes.js';
import type { CleanProfile } from './clean.js';
import { bestFitStart, fitLogLinear, MIN_LAMBDA_Z_POINTS, positivePoints, type LogLinearFit } from './lambda-z.js';

export type LambdaZSelection = 'best-fit' | { indices: readonly number[] } | { start: number; end: number };

export type LambdaZOutcome = { fit: LogLinearFit; reason: null } | { fit: null; reason: string };

interface Landmarks {
  /** Index of Cmax (first occurrence) in the clean profile. */
  cmax: number;
  /** Index of the last positive concentration, -1 if none. */
  last: number;
}

/**
 * First profile index a best-fit window may start at: after Cmax (Cmax itself
 * only for an IV bolus, whose Cmax is already on the elimination phase) and,
 * for an infusion, not before the end of the infusion.
 */
function bestFitFirstCandidate(profile: CleanProfile, route: Route, duration: number, { cmax }: Landmarks): number {
  let start = route === 'iv-bolus' ? cmax : cmax + 1;
  if (route === 'iv-infusion') while (start < profile.time.length && profile.time[start] < duration) start++;
  return start;
}

function none(reason: string): LambdaZOutcome {
  return { fit: null, reason };
}

/** Profile positions of caller-given input rows; rows that were dropped are reported. */
function rowsToPoints(profile: CleanProfile, rows: readonly number[]): number[] | string {
  const positionOfRow = new Map<number, number>();
  for (let k = 0; k < profile.time.length; k++) positionOfRow.set(profile.row ? profile.row[k] : k, k);
  const points: number[] = [];
  for (const row of rows) {
    const point = positionOfRow.get(row);
    if (point === undefined) return `λz row ${row} is not a usable post-dose sample`;
    points.push(point);
  }
  return [...new Set(points)].sort((a, b) => a - b);
}

function manualPoints(profile: CleanProfile, selection: Exclude<LambdaZSelection, 'best-fit'>): number[] | string {
  if ('indices' in selection) return rowsToPoints(profile, selection.indices);
  const points: number[] = [];
  for (let k = 0; k < profile.time.length; k++) {
    if (profile.time[k] >= selection.start && profile.time[k] <= selection.end) points.push(k);
  }
  return points;
}

export function selectLambdaZ(
  profile: CleanProfile,
  route: Route,
  duration: number,
  selection: LambdaZSelection,
  landmarks: Landmarks,
): LambdaZOutcome {
  const { time, conc } = profile;
  if (landmarks.last < 0) return none('no positive concentration');
  if (selection === 'best-fit') {
    const start = bestFitStart(time, conc, bestFitFirstCandidate(profile, route, duration, landmarks), landmarks.last);
    if (start < 0) return none('no window of ≥ 3 positive points after Cmax with a negative slope');
    return { fit: fitLogLinear(time, conc, positivePoints(conc, start, landmarks.last)), reason: null };
  }
  const chosen = manualPoints(profile, selection);
  if (typeof chosen === 'string') return none(chosen);
  const points = chosen.filter((k) => conc[k] > 0);
  if (points.length < MIN_LAMBDA_Z_POINTS) {
    return none(`manual λz selection has ${points.length} positive points, needs ${MIN_LAMBDA_Z_POINTS}`);
  }
  const fit = fitLogLinear(time, conc, points);
  if (!(fit.slope < 0)) return none(`manual λz selection has a non-negative slope (${fit.slope})`);
  return { fit, reason: null };
}
