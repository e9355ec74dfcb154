/**
 * The standard NCA profile: what Phoenix WinNonlin, PKNCA and NonCompart
 * compute for a single dose given at time 0. Formulas are those of the
 * dictionary of WinNonlin (WinNonlin 6.4 User's Guide; docs/references.md):
 *   AUCIFO = AUCLST + CLST/λz,   AUCIFP = AUCLST + CLSTP/λz,  CLSTP = e^(a − λz·TLST)
 *   AUMCIF = AUMCLST + Clast·TLST/λz + Clast/λz²   (Clast observed or predicted)
 *   AUCPE = 100·(AUCIF − AUCLST)/AUCIF,  MRT = AUMC/AUC (IV infusion: − duration/2)
 *   CL(/F) = dose/AUCIF,  VZ(/F) = dose/(λz·AUCIF),  VSS = MRTIV·CL (IV only)
 *   (CL, VZ and VSS times the volume factor of ./units.ts: dose/conc in L)
 *   AUCPBE = 100·AUC(0, t1)/AUCIF for an IV bolus whose C0 was back-extrapolated.
 * The integrals start at the dose (time 0): extravascular and infusion profiles
 * without a sample there get C(0) = 0, an IV bolus gets C0.
 */
import { ROUTES, type AucMethod, type Route } from './codes.js';
import type { Pptestcd } from './parameters.js';
import { applyBlq, blqRules, type BlqPreset, type BlqRules } from './blq.js';
import { cleanProfile, NcaInputError, type CleanProfile } from './clean.js';
import { backExtrapolatedC0, firstMaxIndex, lastPositiveIndex, tlag } from './observed.js';
import { parameterRows, type Quantities } from './parameters.js';
import { integrate } from './trapezoid.js';
import { selectLambdaZ, type LambdaZControls, type LambdaZSelection } from './select-lambda-z.js';
import { qualityFlags, type FlagThresholds, type QualityFlag } from './flags.js';
import { DEFAULT_UNITS, parameterUnits } from './units.js';
import { evaluate, type Notes, type ParameterValue } from './sheet.js';

export type { ParameterValue };

export interface NcaInput {
  time: readonly (number | null)[];
  conc: readonly (number | null)[];
  /** Amount given at time 0; without it the dose-based parameters are missing. */
  dose?: number;
  /** Defaults: dose mg, time h, concentration mg/L (they label results; see ./units.ts). */
  doseUnit?: string;
  timeUnit?: string;
  concUnit?: string;
  /** Volumes in this unit and clearances in it per time unit when dose/conc converts to a volume (default L). */
  volumeUnit?: string;
  route?: Route;
  /** Infusion duration in time units; required for `iv-infusion`. */
  duration?: number;
  /** Per row: the cell was below the limit of quantification (./blq.ts). */
  blq?: readonly boolean[];
  /** LLOQ of the profile or of each row: a value below it is BLQ (./blq.ts). */
  lloq?: number | readonly (number | null)[];
}

export interface NcaOptions {
  aucMethod?: AucMethod;
  lambdaZ?: LambdaZSelection;
  /** Best-fit controls: minimum points, adjusted-R² tolerance, excluded rows, Tmax allowed (./select-lambda-z.ts). */
  lambdaZControls?: LambdaZControls;
  /** A λz given by the user (e.g. from another profile): no regression; AUC∞ and the rest use it. */
  lambdaZValue?: number;
  /** Thresholds of the quality flags (./flags.ts; default PKNCA's: span ≥ 2, R²adj ≥ 0.9, %extrapolated ≤ 20). */
  flags?: Partial<FlagThresholds>;
  /** What BLQ samples become by position (default PKNCA's: first keep as 0, middle drop, last keep as 0). */
  blq?: BlqRules | BlqPreset;
}

export interface LambdaZPoints {
  /** Input rows (positions in the caller's arrays) of the regression points. */
  indices: number[];
  times: number[];
  concentrations: number[];
  intercept: number;
  slope: number;
}

export interface NcaResult {
  /** Every parameter of the route (see codesForRoute), null where it cannot be computed. */
  parameters: Partial<Record<Pptestcd, ParameterValue>>;
  lambdaZ: LambdaZPoints | null;
  /** Why a parameter is null. */
  notes: Partial<Record<Pptestcd, string>>;
  /** Quality flags of the λz fit and the extrapolation (./flags.ts); empty when none is raised. */
  flags: QualityFlag[];
  /** Input rows left out: missing time or concentration, sampled before the dose, or BLQ dropped by a rule (when BLQ input was given). */
  excluded: { missing: number[]; predose: number[]; blq?: number[] };
}

export function checkedRoute(route: Route | undefined): Route {
  if (route === undefined) return 'extravascular';
  if (!ROUTES.includes(route)) throw new NcaInputError(`route must be one of ${ROUTES.join(', ')}, got "${route}"`);
  return route;
}

export function checkedDose(dose: number | undefined): number | null {
  if (dose === undefined) return null;
  if (!(Number.isFinite(dose) && dose > 0)) throw new NcaInputError(`dose must be a positive number, got ${dose}`);
  return dose;
}

export function checkedDuration(route: Route, duration: number | undefined): number {
  if (route !== 'iv-infusion') return 0;
  if (duration === undefined || !(Number.isFinite(duration) && duration >= 0)) {
    throw new NcaInputError(`an iv-infusion needs a duration ≥ 0, got ${duration}`);
  }
  return duration;
}

/** Samples the integrals run over: the clean profile, with the dose-time point added where missing. */
export interface IntegrationGrid {
  time: readonly number[];
  conc: readonly number[];
  /** Grid index = profile index + offset. */
  offset: number;
  /** IV bolus: C(0) and whether it was back-extrapolated (not observed). */
  c0: number | null;
  c0Extrapolated: boolean;
}

export function integrationGrid({ time, conc }: CleanProfile, route: Route): IntegrationGrid {
  if (route === 'iv-bolus') {
    if (time[0] === 0 && conc[0] > 0) return { time, conc, offset: 0, c0: conc[0], c0Extrapolated: false };
    // A non-positive value at the bolus time is not the peak: it is replaced by C0.
    const from = time[0] === 0 ? 1 : 0;
    const c0 = backExtrapolatedC0(time.slice(from), conc.slice(from));
    if (c0 === null) return { time, conc, offset: 0, c0: null, c0Extrapolated: false };
    return {
      time: [0, ...time.slice(from)],
      conc: [c0, ...conc.slice(from)],
      offset: 1 - from,
      c0,
      c0Extrapolated: true,
    };
  }
  if (time[0] === 0) return { time, conc, offset: 0, c0: null, c0Extrapolated: false };
  return { time: [0, ...time], conc: [0, ...conc], offset: 1, c0: null, c0Extrapolated: false };
}

/** Quantities of a single-dose profile whose interval fields are not used. */
export const NO_INTERVAL = {
  tau: null, aucint: null, aumcint: null, aucintReason: '', cmin: null, tmin: null, ctrough: null, troughReason: '',
  firstAuctau: null, firstCmax: null,
} as const;

export interface ProfileSettings {
  route: Route;
  dose: number | null;
  /** Infusion duration, 0 for other routes. */
  duration: number;
  method: AucMethod;
  lambdaZ: LambdaZSelection;
  volumeFactor: number;
  controls?: LambdaZControls;
}

/**
 * The primary quantities of a clean, non-empty profile whose dose is at time 0:
 * Cmax/Tmax, Clast/Tlast, Tlag, AUClast/AUCall/AUMClast on the integration
 * grid, the λz fit, and for an IV bolus C0 and its back-extrapolated area.
 */
export function profileQuantities(profile: CleanProfile, s: ProfileSettings): Quantities {
  const { time, conc } = profile;
  const { route, method } = s;
  const iMax = firstMaxIndex(conc);
  const iLast = lastPositiveIndex(conc);
  const grid = integrationGrid(profile, route);
  const toLast = iLast < 0 ? null : integrate(grid.time, grid.conc, 0, iLast + grid.offset, method);
  const all = integrate(grid.time, grid.conc, 0, grid.time.length - 1, method);
  const outcome = selectLambdaZ(profile, route, s.duration, s.lambdaZ, { cmax: iMax, last: iLast }, s.controls);
  const fit = outcome.fit;
  return {
    route,
    dose: s.dose,
    infusionDuration: route === 'iv-infusion' ? s.duration : 0,
    volumeFactor: s.volumeFactor,
    cmax: conc[iMax],
    tmax: time[iMax],
    clast: iLast < 0 ? null : conc[iLast],
    tlast: iLast < 0 ? null : time[iLast],
    tlag: route === 'extravascular' ? tlag(time, conc) : null,
    auclst: toLast ? toLast.auc : null,
    aumclst: toLast ? toLast.aumc : null,
    aucall: all.auc,
    areaReason: '',
    fit,
    fitReason: outcome.reason ?? '',
    lamz: fit ? -fit.slope : null,
    lamzFirst: fit ? time[fit.points[0]] : null,
    lamzLast: fit ? time[fit.points[fit.points.length - 1]] : null,
    c0: route === 'iv-bolus' ? grid.c0 : null,
    backArea: grid.c0Extrapolated ? integrate(grid.time, grid.conc, 0, 1, method).auc : 0,
    ...NO_INTERVAL,
  };
}

/**
 * Standard NCA of one profile. Throws NcaInputError for unusable input
 * (duplicate times, unequal lengths, a bad route, dose or duration); every
 * other problem leaves the affected parameters null with a note. The
 * parameters are the rows of the table in ./parameters.ts for the route.
 */
export function nca(input: NcaInput, options: NcaOptions = {}): NcaResult {
  const route = checkedRoute(input.route);
  const dose = checkedDose(input.dose);
  const duration = checkedDuration(route, input.duration);
  const { units, volumeFactor } = parameterUnits({
    time: input.timeUnit ?? DEFAULT_UNITS.time,
    conc: input.concUnit ?? DEFAULT_UNITS.conc,
    dose: input.doseUnit ?? DEFAULT_UNITS.dose,
    volume: input.volumeUnit ?? DEFAULT_UNITS.volume,
  });
  const rows = parameterRows(route);
  const applied = input.blq !== undefined || input.lloq !== undefined ? applyBlq(input, blqRules(options.blq)) : null;
  const profile = cleanProfile(input.time, applied ? applied.conc : input.conc);
  const excluded: NcaResult['excluded'] = applied
    ? { missing: withoutRows(profile.missing, applied.dropped), predose: profile.predose, blq: applied.dropped }
    : { missing: profile.missing, predose: profile.predose };
  if (profile.time.length === 0) {
    const empty = emptyQuantities(route, dose, volumeFactor, 'no usable post-dose sample');
    const { parameters } = evaluate(rows, empty, units);
    const notes: Notes = {};
    for (const row of rows) notes[row.code] = 'no usable post-dose sample';
    return { parameters, lambdaZ: null, notes, flags: [], excluded };
  }
  const settings = {
    route, dose, duration, method: options.aucMethod ?? 'linear', lambdaZ: options.lambdaZ ?? 'best-fit', volumeFactor, controls: options.lambdaZControls,
  };
  const q = profileQuantities(profile, settings);
  if (options.lambdaZValue !== undefined) userLambdaZ(q, options.lambdaZValue);
  const { parameters, notes } = evaluate(rows, q, units);
  return {
    parameters,
    notes,
    flags: qualityFlags(parameters, options.flags),
    lambdaZ: q.fit ? lambdaZPoints(profile, q.fit.points, q.fit.intercept, q.fit.slope) : null,
    excluded,
  };
}

/** A user-supplied λz replaces the regression (PKNCA `lambda.z` given; WinNonlin's fixed Lambda_z). */
export function userLambdaZ(q: Quantities, value: number): void {
  if (!(Number.isFinite(value) && value > 0)) throw new NcaInputError(`lambdaZValue must be a positive number, got ${value}`);
  Object.assign(q, { lamz: value, fit: null, fitReason: 'λz given by the user (no regression)', lamzFirst: null, lamzLast: null });
}

/** `rows` without those in `drop` (BLQ rows a rule dropped are not missing values). */
function withoutRows(rows: number[], drop: readonly number[]): number[] {
  if (drop.length === 0) return rows;
  const set = new Set(drop);
  return rows.filter((r) => !set.has(r));
}

/** Quantities of a profile without a usable sample: everything missing for `reason`. */
export function emptyQuantities(route: Route, dose: number | null, volumeFactor: number, reason: string): Quantities {
  return {
    route, dose, infusionDuration: 0, volumeFactor, cmax: null, tmax: null, clast: null, tlast: null, tlag: null,
    auclst: null, aumclst: null, aucall: null, areaReason: reason, fit: null, fitReason: reason, lamz: null, lamzFirst: null,
    lamzLast: null, c0: null, backArea: 0, ...NO_INTERVAL,
  };
}

export function lambdaZPoints(profile: CleanProfile, points: number[], intercept: number, slope: number): LambdaZPoints {
  return {
    indices: points.map((k) => (profile.row ? profile.row[k] : k)),
    times: points.map((k) => profile.time[k]),
    concentrations: points.map((k) => profile.conc[k]),
    intercept,
    slope,
  };
}
