/**
 * The standard NCA profile: what Phoenix WinNonlin, PKNCA and NonCompart
 * compute for a single dose given at time 0. Formulas are those of the
 * dictionary in ../shared/reference/nca/README.md (WinNonlin 6.4 User's Guide):
 *   AUCIFO = AUCLST + CLST/λz,   AUCIFP = AUCLST + CLSTP/λz,  CLSTP = e^(a − λz·TLST)
 *   AUMCIF = AUMCLST + Clast·TLST/λz + Clast/λz²   (Clast observed or predicted)
 *   AUCPE = 100·(AUCIF − AUCLST)/AUCIF,  MRT = AUMC/AUC (IV infusion: − duration/2)
 *   CL(/F) = dose/AUCIF,  VZ(/F) = dose/(λz·AUCIF),  VSS = MRTIV·CL (IV only)
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

export interface NcaInput {
  time: readonly (number | null)[];
  conc: readonly (number | null)[];
  /** Amount given at time 0; without it the dose-based parameters are missing. */
  dose?: number;
  /** Defaults: dose mg, time h, concentration mg/L (units only label results). */
  doseUnit?: string;
  timeUnit?: string;
  concUnit?: string;
  route?: Route;
  /** Infusion duration in time units; required for `iv-infusion`. */
  duration?: number;
}

export interface NcaOptions {
  aucMethod?: AucMethod;
  lambdaZ?: LambdaZSelection;
}

export interface ParameterValue {
  value: number | null;
  unit: string;
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

/** Collects parameter values; a null or non-finite value is stored as null with its reason. */
class ParameterSheet {
  readonly parameters: Partial<Record<Pptestcd, ParameterValue>> = {};
  readonly notes: Partial<Record<Pptestcd, string>> = {};
  constructor(
    private readonly codes: readonly Pptestcd[],
    private readonly units: Record<Pptestcd, string>,
  ) {}

  set(code: Pptestcd, value: number | null, reason: string): void {
    if (value !== null && Number.isFinite(value)) {
      this.parameters[code] = { value, unit: this.units[code] };
      return;
    }
    this.parameters[code] = { value: null, unit: this.units[code] };
    this.notes[code] = value === null ? reason : `${reason} (value ${value})`;
  }

  /** Marks every code not yet set as missing for the given reason. */
  fillMissing(reason: string): void {
    for (const code of this.codes) if (!(code in this.parameters)) this.set(code, null, reason);
  }
}

/** λz-dependent quantities, or null with the reason. */
function ratio(numerator: number | null, denominator: number | null): number | null {
  return numerator === null || denominator === null ? null : numerator / denominator;
}

export function nca(input: NcaInput, options: NcaOptions = {}): NcaResult {
  const route = checkedRoute(input.route);
  const dose = checkedDose(input.dose);
  const duration = checkedDuration(route, input.duration);
  const method = options.aucMethod ?? 'linear';
  const units = parameterUnits({
    time: input.timeUnit ?? DEFAULT_UNITS.time,
    conc: input.concUnit ?? DEFAULT_UNITS.conc,
    dose: input.doseUnit ?? DEFAULT_UNITS.dose,
  });
  const profile = cleanProfile(input.time, input.conc);
  const sheet = new ParameterSheet(codesForRoute(route), units);
  const excluded = { missing: profile.missing, predose: profile.predose };
  if (profile.time.length === 0) {
    sheet.fillMissing('no usable post-dose sample');
    return { parameters: sheet.parameters, lambdaZ: null, notes: sheet.notes, excluded };
  }
  const { time, conc } = profile;
  const iv = route !== 'extravascular';
  const set = (code: Pptestcd, value: number | null, reason: string) => sheet.set(code, value, reason);

  const iMax = firstMaxIndex(conc);
  const iLast = lastPositiveIndex(conc);
  const cmax = conc[iMax];
  const clast = iLast < 0 ? null : conc[iLast];
  const tlast = iLast < 0 ? null : time[iLast];
  set('CMAX', cmax, '');
  set('TMAX', time[iMax], '');
  set('CLST', clast, NO_POSITIVE);
  set('TLST', tlast, NO_POSITIVE);
  set('CMAXD', ratio(cmax, dose), NO_DOSE);
  if (!iv) set('TLAG', tlag(time, conc), NO_POSITIVE);

  const grid = integrationGrid(profile, route);
  const gridLast = grid.time.length - 1;
  const toLast = iLast < 0 ? null : integrate(grid.time, grid.conc, 0, iLast + grid.offset, method);
  const all = integrate(grid.time, grid.conc, 0, gridLast, method);
  const auclst = toLast ? toLast.auc : null;
  const aumclst = toLast ? toLast.aumc : null;
  set('AUCLST', auclst, NO_POSITIVE);
  set('AUCALL', all.auc, '');
  set('AUMCLST', aumclst, NO_POSITIVE);
  const mrtShift = route === 'iv-infusion' ? duration / 2 : 0;
  set(iv ? 'MRTIVLST' : 'MRTEVLST', auclst ? (aumclst as number) / auclst - mrtShift : null, 'AUCLST is missing or 0');

  const outcome = selectLambdaZ(profile, route, duration, options.lambdaZ ?? 'best-fit', { cmax: iMax, last: iLast });
  const fit = outcome.fit;
  const noFit = outcome.reason ?? '';
  const lamz = fit ? -fit.slope : null;
  set('LAMZ', lamz, noFit);
  set('LAMZHL', lamz === null ? null : Math.LN2 / lamz, noFit);
  set('LAMZNPT', fit ? fit.points.length : null, noFit);
  set('LAMZLL', fit ? time[fit.points[0]] : null, noFit);
  set('LAMZUL', fit ? time[fit.points[fit.points.length - 1]] : null, noFit);
  set('R2', fit ? fit.r2 : null, noFit);
  set('R2ADJ', fit ? fit.adjR2 : null, noFit);
  set('CORRXY', fit ? fit.corr : null, noFit);
  const clstp = fit && tlast !== null ? Math.exp(fit.intercept + fit.slope * tlast) : null;
  set('CLSTP', clstp, noFit);

  // Observed (O) and predicted (P) variants differ only in the Clast used for the extrapolation.
  const variants = [
    ['O', clast],
    ['P', clstp],
  ] as const;
  for (const [suffix, c] of variants) {
    const extrapolable = lamz !== null && c !== null && auclst !== null && tlast !== null;
    const aucInf = extrapolable ? auclst + c / lamz : null;
    const aumcInf = extrapolable ? (aumclst as number) + (c * tlast) / lamz + c / (lamz * lamz) : null;
    const code = (stem: string) => `${stem}${suffix}` as Pptestcd;
    set(code('AUCIF'), aucInf, noFit);
    set(code('AUCPE'), aucInf === null ? null : (100 * (aucInf - (auclst as number))) / aucInf, noFit);
    set(code('AUMCIF'), aumcInf, noFit);
    set(code('AUMCPE'), aumcInf === null ? null : (100 * (aumcInf - (aumclst as number))) / aumcInf, noFit);
    set(`AUCIF${suffix}D` as Pptestcd, dose === null ? null : ratio(aucInf, dose), dose === null ? NO_DOSE : noFit);
    const mrt = aucInf === null ? null : (aumcInf as number) / aucInf - mrtShift;
    set(code(iv ? 'MRTIVIF' : 'MRTEVIF'), mrt, noFit);
    const doseReason = dose === null ? NO_DOSE : noFit;
    const cl = dose === null ? null : ratio(dose, aucInf);
    set(code(iv ? 'CL' : 'CLF'), cl, doseReason);
    set(code(iv ? 'VZ' : 'VZF'), cl === null || lamz === null ? null : cl / lamz, doseReason);
    if (iv) set(code('VSS'), cl === null || mrt === null ? null : mrt * cl, doseReason);
    if (route === 'iv-bolus') {
      const backArea = grid.c0Extrapolated ? integrate(grid.time, grid.conc, 0, 1, method).auc : 0;
      set(code('AUCPBE'), aucInf === null ? null : (100 * backArea) / aucInf, noFit);
    }
  }
  if (route === 'iv-bolus') set('C0', grid.c0, NO_POSITIVE);
  sheet.fillMissing('not computable');

  return {
    parameters: sheet.parameters,
    lambdaZ: fit ? lambdaZPoints(profile, fit.points, fit.intercept, fit.slope) : null,
    notes: sheet.notes,
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
