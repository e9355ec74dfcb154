/**
 * The standard NCA profile: what Phoenix WinNonlin, PKNCA and NonCompart
 * compute for a single dose given at time 0. Formulas are those of the
 * dictionary in ../shared/reference/nca/README.md (WinNonlin 6.4 User's Guide):
 *   AUCIFO = AUCLST + CLST/λz,   AUCIFP = AUCLST + CLSTP/λz,  CLSTP = e^(a − λz·TLST)
 *   AUMCIF = AUMCLST + Clast·TLST/λz + Clast/λz²   (Clast observed or predicted)
 *   AUCPE = 100·(AUCIF − AUCLST)/AUCIF,  MRT = AUMC/AUC (IV infusion: − duration/2)
 *   CL(/F) = dose/AUCIF,  VZ(/F) = dose/(λz·AUCIF),  VSS = MRTIV·CL (IV only)
 *   (CL, VZ and VSS times the volume factor of ./units.ts: dose/conc in L)
 *   AUCPBE = 100·AUC(0, t1)/AUCIF for an IV bolus whose C0 was back-extrapolated.
 * The integrals start at the dose (time 0): extravascular and infusion profiles
 * without a sample there get C(0) = 0, an IV bolus gets C0.
 */
import { codesForRoute, ROUTES, type AucMethod, type Pptestcd, type Route } from './codes.js';
import { cleanProfile, NcaInputError, type CleanProfile } from './clean.js';
import { backExtrapolatedC0, firstMaxIndex, lastPositiveIndex, tlag } from './observed.js';
import { integrate } from './trapezoid.js';
import { selectLambdaZ, type LambdaZSelection } from './select-lambda-z.js';
import { DEFAULT_UNITS, parameterUnits } from './units.js';
import { AT, ParameterSheet, VARIANTS, type ParameterValue } from './sheet.js';

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
}

export interface NcaOptions {
  aucMethod?: AucMethod;
  lambdaZ?: LambdaZSelection;
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
  /** Input rows left out: missing time or concentration, or sampled before the dose. */
  excluded: { missing: number[]; predose: number[] };
}

const NO_DOSE = 'no dose given';
const NO_POSITIVE = 'no positive concentration';

function checkedRoute(route: Route | undefined): Route {
  if (route === undefined) return 'extravascular';
  if (!ROUTES.includes(route)) throw new NcaInputError(`route must be one of ${ROUTES.join(', ')}, got "${route}"`);
  return route;
}

function checkedDose(dose: number | undefined): number | null {
  if (dose === undefined) return null;
  if (!(Number.isFinite(dose) && dose > 0)) throw new NcaInputError(`dose must be a positive number, got ${dose}`);
  return dose;
}

function checkedDuration(route: Route, duration: number | undefined): number {
  if (route !== 'iv-infusion') return 0;
  if (duration === undefined || !(Number.isFinite(duration) && duration >= 0)) {
    throw new NcaInputError(`an iv-infusion needs a duration ≥ 0, got ${duration}`);
  }
  return duration;
}

/** Samples the integrals run over: the clean profile, with the dose-time point added where missing. */
interface IntegrationGrid {
  time: readonly number[];
  conc: readonly number[];
  /** Grid index = profile index + offset. */
  offset: number;
  /** IV bolus: C(0) and whether it was back-extrapolated (not observed). */
  c0: number | null;
  c0Extrapolated: boolean;
}

function integrationGrid({ time, conc }: CleanProfile, route: Route): IntegrationGrid {
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

/** Division that stays null when either side is missing. */
function ratio(numerator: number | null, denominator: number | null): number | null {
  return numerator === null || denominator === null ? null : numerator / denominator;
}

/**
 * Standard NCA of one profile. Throws NcaInputError for unusable input
 * (duplicate times, unequal lengths, a bad route, dose or duration); every
 * other problem leaves the affected parameters null with a note.
 */
export function nca(input: NcaInput, options: NcaOptions = {}): NcaResult {
  const route = checkedRoute(input.route);
  const dose = checkedDose(input.dose);
  const duration = checkedDuration(route, input.duration);
  const method = options.aucMethod ?? 'linear';
  const { units, volumeFactor } = parameterUnits({
    time: input.timeUnit ?? DEFAULT_UNITS.time,
    conc: input.concUnit ?? DEFAULT_UNITS.conc,
    dose: input.doseUnit ?? DEFAULT_UNITS.dose,
    volume: input.volumeUnit ?? DEFAULT_UNITS.volume,
  });
  const codes = codesForRoute(route);
  const profile = cleanProfile(input.time, input.conc);
  const sheet = new ParameterSheet(units);
  const excluded = { missing: profile.missing, predose: profile.predose };
  if (profile.time.length === 0) {
    return { parameters: sheet.parameters(route), lambdaZ: null, notes: sheet.notes(codes, 'no usable post-dose sample'), excluded };
  }
  const { time, conc } = profile;
  const iv = route !== 'extravascular';

  const iMax = firstMaxIndex(conc);
  const iLast = lastPositiveIndex(conc);
  const cmax = conc[iMax];
  const clast = iLast < 0 ? null : conc[iLast];
  const tlast = iLast < 0 ? null : time[iLast];
  sheet.set(AT.CMAX, cmax, '');
  sheet.set(AT.TMAX, time[iMax], '');
  sheet.set(AT.CLST, clast, NO_POSITIVE);
  sheet.set(AT.TLST, tlast, NO_POSITIVE);
  sheet.set(AT.CMAXD, ratio(cmax, dose), NO_DOSE);
  if (!iv) sheet.set(AT.TLAG, tlag(time, conc), NO_POSITIVE);

  const grid = integrationGrid(profile, route);
  const toLast = iLast < 0 ? null : integrate(grid.time, grid.conc, 0, iLast + grid.offset, method);
  const all = integrate(grid.time, grid.conc, 0, grid.time.length - 1, method);
  const auclst = toLast ? toLast.auc : null;
  const aumclst = toLast ? toLast.aumc : null;
  sheet.set(AT.AUCLST, auclst, NO_POSITIVE);
  sheet.set(AT.AUCALL, all.auc, '');
  sheet.set(AT.AUMCLST, aumclst, NO_POSITIVE);
  const mrtShift = route === 'iv-infusion' ? duration / 2 : 0;
  const mrtlst = auclst ? (aumclst as number) / auclst - mrtShift : null;
  sheet.set(iv ? AT.MRTIVLST : AT.MRTEVLST, mrtlst, 'AUCLST is missing or 0');

  const outcome = selectLambdaZ(profile, route, duration, options.lambdaZ ?? 'best-fit', { cmax: iMax, last: iLast });
  const fit = outcome.fit;
  const noFit = outcome.reason ?? '';
  const lamz = fit ? -fit.slope : null;
  sheet.set(AT.LAMZ, lamz, noFit);
  sheet.set(AT.LAMZHL, lamz === null ? null : Math.LN2 / lamz, noFit);
  sheet.set(AT.LAMZNPT, fit ? fit.points.length : null, noFit);
  sheet.set(AT.LAMZLL, fit ? time[fit.points[0]] : null, noFit);
  sheet.set(AT.LAMZUL, fit ? time[fit.points[fit.points.length - 1]] : null, noFit);
  sheet.set(AT.R2, fit ? fit.r2 : null, noFit);
  sheet.set(AT.R2ADJ, fit ? fit.adjR2 : null, noFit);
  sheet.set(AT.CORRXY, fit ? fit.corr : null, noFit);
  const clstp = fit && tlast !== null ? Math.exp(fit.intercept + fit.slope * tlast) : null;
  sheet.set(AT.CLSTP, clstp, noFit);

  const doseReason = dose === null ? NO_DOSE : noFit;
  const backArea = grid.c0Extrapolated ? integrate(grid.time, grid.conc, 0, 1, method).auc : 0;
  // Observed (O) and predicted (P) variants differ only in the Clast used for the extrapolation.
  for (let v = 0; v < 2; v++) {
    const at = VARIANTS[v];
    const c = v === 0 ? clast : clstp;
    const extrapolable = lamz !== null && c !== null && auclst !== null && tlast !== null;
    const aucInf = extrapolable ? auclst + c / lamz : null;
    const aumcInf = extrapolable ? (aumclst as number) + (c * tlast) / lamz + c / (lamz * lamz) : null;
    sheet.set(at.AUCIF, aucInf, noFit);
    sheet.set(at.AUCPE, aucInf === null ? null : (100 * (aucInf - (auclst as number))) / aucInf, noFit);
    sheet.set(at.AUMCIF, aumcInf, noFit);
    sheet.set(at.AUMCPE, aumcInf === null ? null : (100 * (aumcInf - (aumclst as number))) / aumcInf, noFit);
    sheet.set(at.AUCIFD, ratio(aucInf, dose), doseReason);
    const mrt = aucInf === null ? null : (aumcInf as number) / aucInf - mrtShift;
    sheet.set(iv ? at.MRTIVIF : at.MRTEVIF, mrt, noFit);
    const cl = dose === null ? null : ratio(dose * volumeFactor, aucInf);
    sheet.set(iv ? at.CL : at.CLF, cl, doseReason);
    sheet.set(iv ? at.VZ : at.VZF, cl === null || lamz === null ? null : cl / lamz, doseReason);
    if (iv) sheet.set(at.VSS, cl === null || mrt === null ? null : mrt * cl, doseReason);
    if (route === 'iv-bolus') sheet.set(at.AUCPBE, aucInf === null ? null : (100 * backArea) / aucInf, noFit);
  }
  if (route === 'iv-bolus') sheet.set(AT.C0, grid.c0, NO_POSITIVE);

  return {
    parameters: sheet.parameters(route),
    notes: sheet.notes(codes, 'not computable'),
    lambdaZ: fit ? lambdaZPoints(profile, fit.points, fit.intercept, fit.slope) : null,
    excluded,
  };
}

function lambdaZPoints(profile: CleanProfile, points: number[], intercept: number, slope: number): LambdaZPoints {
  return {
    indices: points.map((k) => (profile.row ? profile.row[k] : k)),
    times: points.map((k) => profile.time[k]),
    concentrations: points.map((k) => profile.conc[k]),
    intercept,
    slope,
  };
}
