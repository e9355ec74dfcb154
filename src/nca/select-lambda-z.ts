/**
 * Which points the λz regression uses: the automatic best fit, or a manual
 * choice by input rows or by a time range. Returns the fit or the reason why
 * there is none (the reason becomes the note of every λz-based parameter).
 */
import type { Route } from './codes.js';
import type { CleanProfile } from './clean.js';
import { NcaInputError } from './clean.js';
import { ADJ_R2_TOLERANCE, bestFitStart, fitLogLinear, MIN_LAMBDA_Z_POINTS, positivePoints, type LogLinearFit } from './lambda-z.js';

export type LambdaZSelection = 'best-fit' | { indices: readonly number[] } | { start: number; end: number };

/**
 * Controls of the best fit (PKNCA `min.hl.points`, `adj.r.squared.factor`,
 * `exclude_half.life`, `allow.tmax.in.half.life`; WinNonlin's exclusions):
 * - `minPoints`: fewest points a window may have (default 3, at least 3);
 * - `adjR2Tolerance`: margin of adjusted R² within which the fit with more
 *   points wins (default 1e-4, WinNonlin; PKNCA's factor is the same idea);
 * - `exclude`: input rows left out of the regression, then best fit on the rest;
 * - `allowTmax`: the Cmax point may start a window (extravascular and infusion).
 * A user-supplied λz (`NcaOptions.lambdaZValue`) bypasses the regression.
 */
export interface LambdaZControls {
  minPoints?: number;
  adjR2Tolerance?: number;
  exclude?: readonly number[];
  allowTmax?: boolean;
}

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
function bestFitFirstCandidate(profile: CleanProfile, route: Route, duration: number, { cmax }: Landmarks, allowTmax: boolean): number {
  let start = route === 'iv-bolus' || allowTmax ? cmax : cmax + 1;
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
  controls: LambdaZControls = {},
): LambdaZOutcome {
  const { time, conc } = profile;
  if (landmarks.last < 0) return none('no positive concentration');
  if (selection === 'best-fit') {
    const minPoints = controls.minPoints ?? MIN_LAMBDA_Z_POINTS;
    if (!(Number.isInteger(minPoints) && minPoints >= MIN_LAMBDA_Z_POINTS)) throw new NcaInputError(`λz minPoints must be an integer ≥ 3, got ${minPoints}`);
    const tolerance = controls.adjR2Tolerance ?? ADJ_R2_TOLERANCE;
    if (!(tolerance >= 0)) throw new NcaInputError(`λz adjR2Tolerance must be ≥ 0, got ${tolerance}`);
    const from = bestFitFirstCandidate(profile, route, duration, landmarks, controls.allowTmax ?? false);
    const excluded = controls.exclude?.length ? rowsToPoints(profile, controls.exclude) : [];
    if (typeof excluded === 'string') return none(excluded);
    const why = `no window of ≥ ${minPoints} positive points after Cmax${excluded.length ? ' (rows excluded)' : ''} with a negative slope`;
    if (excluded.length === 0) {
      const start = bestFitStart(time, conc, from, landmarks.last, minPoints, tolerance);
      if (start < 0) return none(why);
      return { fit: fitLogLinear(time, conc, positivePoints(conc, start, landmarks.last)), reason: null };
    }
    // Best fit over the candidates without the excluded points, indices mapped back to the profile.
    const skip = new Set(excluded);
    const kept: number[] = [];
    for (let k = from; k <= landmarks.last; k++) if (!skip.has(k)) kept.push(k);
    while (kept.length > 0 && !(conc[kept[kept.length - 1]] > 0)) kept.pop();
    const start = bestFitStart(kept.map((k) => time[k]), kept.map((k) => conc[k]), 0, kept.length - 1, minPoints, tolerance);
    if (start < 0) return none(why);
    return { fit: fitLogLinear(time, conc, kept.slice(start).filter((k) => conc[k] > 0)), reason: null };
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
