/**
 * The parameter table: the single home of every NCA parameter, one row per
 * CDISC PPTESTCD code (SDTM controlled terminology, codelist C85839; the codes
 * NonCompart and PKNCA report), as PKNCA registers each parameter beside the
 * function that computes it (`add.interval.col`). A row gives the code, the
 * routes and scopes it applies to, its unit rule (./units.ts), the CDISC test
 * name, a description, what it needs (the reason printed when it is missing)
 * and the pure function that computes it from the profile's primary
 * quantities (`Quantities`) and the parameters before it in the table.
 *
 * Adding a parameter is one row here and, if it is a new quantity, one pure
 * function in ./derived.ts. `nca()`, `ncaIntervals()`, the units, the result
 * sheet and the CSV columns of `pkdb nca` are all built from this table.
 *
 * Scopes: `single` rows make the single-dose profile (dose at time 0);
 * `interval` rows are reported per dosing interval by ncaIntervals (times
 * relative to the interval's dose). A row in both computes the same way in
 * both, except the MRT rows, which use the steady-state formula when the
 * interval is a dosing interval (as WinNonlin does for steady-state data).
 */
import type { Route } from './codes.js';
import type { LogLinearFit } from './lambda-z.js';
import {
  accumulationIndex, aucInfinity, aumcInfinity, averageConcentration, clearance, fluctuation, halfLife,
  meanResidenceTime, peakTroughRatio, percentBackExtrapolated, percentExtrapolated, ratio, steadyStateMrt,
  spanRatio, steadyStateVolume, swing, terminalVolume,
} from './derived.js';

/** How a parameter's unit is composed from the time (T), concentration (C) and dose (D) units (./units.ts). */
export type UnitRule =
  | 'conc' | 'time' | 'auc' | 'aumc' | 'rate' | 'percent' | 'count' | 'ratio'
  | 'concPerDose' | 'aucPerDose' | 'volume' | 'clearance';

/** What a parameter needs; when it is missing, the first unmet need names the reason. */
export type Need = 'area' | 'aucint' | 'positive' | 'lambdaZ' | 'dose' | 'auclast' | 'dosingInterval' | 'trough' | 'firstInterval';

export type Scope = 'single' | 'interval';

/**
 * Primary quantities of one profile (or of one interval, times relative to its
 * dose), computed once by the engine; every parameter is a function of these.
 */
export interface Quantities {
  route: Route;
  /** Dose amount; null when not given. */
  dose: number | null;
  /** Infusion duration (0 otherwise): MRT subtracts half of it. */
  infusionDuration: number;
  /** Multiplies D/C into the reported volume unit (./units.ts). */
  volumeFactor: number;
  cmax: number | null;
  tmax: number | null;
  clast: number | null;
  tlast: number | null;
  tlag: number | null;
  auclst: number | null;
  aucall: number | null;
  aumclst: number | null;
  /** Why the areas from the dose are missing ('' when they are not). */
  areaReason: string;
  fit: LogLinearFit | null;
  /** Why there is no λz fit ('' when there is one). */
  fitReason: string;
  lamz: number | null;
  /** Time of the first and last λz point. */
  lamzFirst: number | null;
  lamzLast: number | null;
  /** IV bolus: C0 and the back-extrapolated area from the dose to the first sample. */
  c0: number | null;
  backArea: number;
  // Interval scope (null in a single-dose profile).
  /** τ = end − start of a dosing interval (an interval starting at a dose); null otherwise. */
  tau: number | null;
  /** AUC and AUMC over [start, end] (./partial-auc.ts), relative time, and why they are missing. */
  aucint: number | null;
  aumcint: number | null;
  aucintReason: string;
  cmin: number | null;
  tmin: number | null;
  ctrough: number | null;
  /** Why there is no Ctrough ('' when there is one). */
  troughReason: string;
  /** AUCτ and Cmax of the first dosing interval of the profile (accumulation ratios). */
  firstAuctau: number | null;
  firstCmax: number | null;
}

/** Parameter values computed so far, by code (null: missing). */
export type Values = Record<string, number | null>;

export interface ParameterRow<C extends string = string> {
  code: C;
  /** CDISC PPTEST name. */
  test: string;
  description: string;
  unit: UnitRule;
  routes: readonly Route[];
  scopes: readonly Scope[];
  needs: readonly Need[];
  compute: (q: Quantities, v: Values) => number | null;
}

const ALL: readonly Route[] = ['extravascular', 'iv-bolus', 'iv-infusion'];
const EV: readonly Route[] = ['extravascular'];
const IV: readonly Route[] = ['iv-bolus', 'iv-infusion'];
const BOLUS: readonly Route[] = ['iv-bolus'];
const SINGLE: readonly Scope[] = ['single'];
const INTERVAL: readonly Scope[] = ['interval'];
const BOTH: readonly Scope[] = ['single', 'interval'];

function row<C extends string>(
  code: C,
  routes: readonly Route[],
  scopes: readonly Scope[],
  unit: UnitRule,
  test: string,
  description: string,
  needs: readonly Need[],
  compute: (q: Quantities, v: Values) => number | null,
): ParameterRow<C> {
  return { code, routes, scopes, unit, test, description, needs, compute };
}

const fit = (q: Quantities) => q.fit;
/** MRT: single dose AUMC∞/AUC∞ − Tinf/2; dosing interval [AUMCτ + τ(AUC∞ − AUCτ)]/AUCτ − Tinf/2. */
const mrtInf = (q: Quantities, aucInf: number | null, aumcInf: number | null) =>
  q.tau === null
    ? meanResidenceTime(aumcInf, aucInf, q.infusionDuration)
    : steadyStateMrt(q.aumcint, q.aucint, aucInf, q.tau, q.infusionDuration);

/**
 * Every parameter, in report order. A row may read only rows above it
 * (`v.CODE`); test/nca/parameters.test.ts checks the order.
 */
export const PARAMETERS = [
  // Observed (no integration, no fit): WinNonlin user's guide, PKNCA pk.calc.simple.
  row('CMAX', ALL, BOTH, 'conc', 'Max Conc', 'Maximum observed concentration (first occurrence)', [], (q) => q.cmax),
  row('TMAX', ALL, BOTH, 'time', 'Time of CMAX', 'Time of Cmax (after the dose)', [], (q) => q.tmax),
  row('CLST', ALL, BOTH, 'conc', 'Last Nonzero Conc', 'Last positive concentration', ['positive'], (q) => q.clast),
  row('TLST', ALL, BOTH, 'time', 'Time of Last Nonzero Conc', 'Time of Clast', ['positive'], (q) => q.tlast),
  row('CLSTP', ALL, BOTH, 'conc', 'Last Nonzero Conc Pred', 'Clast predicted by the λz line, e^(a − λz·Tlast)', ['lambdaZ'],
    (q) => (q.fit && q.tlast !== null ? Math.exp(q.fit.intercept + q.fit.slope * q.tlast) : null)),
  // Areas: ./trapezoid.ts.
  row('AUCLST', ALL, BOTH, 'auc', 'AUC to Last Nonzero Conc', 'AUC from the dose to Tlast', ['area', 'positive'], (q) => q.auclst),
  row('AUCALL', ALL, BOTH, 'auc', 'AUC All', 'AUC from the dose to the last sample, trailing zeros included', ['area'], (q) => q.aucall),
  row('AUCIFO', ALL, BOTH, 'auc', 'AUC Infinity Obs', 'AUClast + Clast/λz', ['area', 'lambdaZ'], (q) => aucInfinity(q.auclst, q.clast, q.lamz)),
  row('AUCIFP', ALL, BOTH, 'auc', 'AUC Infinity Pred', 'AUClast + Clast,pred/λz', ['area', 'lambdaZ'], (q, v) => aucInfinity(q.auclst, v.CLSTP, q.lamz)),
  row('AUCPEO', ALL, BOTH, 'percent', 'AUC %Extrapolation Obs', '100·(AUCIFO − AUClast)/AUCIFO', ['area', 'lambdaZ'],
    (q, v) => percentExtrapolated(v.AUCIFO, q.auclst)),
  row('AUCPEP', ALL, BOTH, 'percent', 'AUC %Extrapolation Pred', '100·(AUCIFP − AUClast)/AUCIFP', ['area', 'lambdaZ'],
    (q, v) => percentExtrapolated(v.AUCIFP, q.auclst)),
  // Terminal phase: ./lambda-z.ts, ./select-lambda-z.ts.
  row('LAMZ', ALL, BOTH, 'rate', 'Lambda z', 'Terminal rate constant, minus the slope of ln C on t', ['lambdaZ'], (q) => q.lamz),
  row('LAMZHL', ALL, BOTH, 'time', 'Half-Life Lambda z', 'ln 2/λz', ['lambdaZ'], (q) => halfLife(q.lamz)),
  row('LAMZNPT', ALL, BOTH, 'count', 'Number of Points for Lambda z', 'Points in the λz regression', ['lambdaZ'],
    (q) => (q.fit ? q.fit.points.length : null)),
  row('LAMZLL', ALL, BOTH, 'time', 'Lambda z Lower Limit', 'Time of the first λz point', ['lambdaZ'], (q) => q.lamzFirst),
  row('LAMZUL', ALL, BOTH, 'time', 'Lambda z Upper Limit', 'Time of the last λz point', ['lambdaZ'], (q) => q.lamzLast),
  row('LAMZSPN', ALL, BOTH, 'ratio', 'Lambda z Span', 'Half-lives the λz points span: (LAMZUL − LAMZLL)/LAMZHL', ['lambdaZ'],
    (q, v) => spanRatio(q.lamzFirst, q.lamzLast, v.LAMZHL)),
  row('R2', ALL, BOTH, 'ratio', 'R Squared', 'R² of the λz regression', ['lambdaZ'], (q) => fit(q)?.r2 ?? null),
  row('R2ADJ', ALL, BOTH, 'ratio', 'R Squared Adjusted', '1 − (1 − R²)(n − 1)/(n − 2)', ['lambdaZ'], (q) => fit(q)?.adjR2 ?? null),
  row('CORRXY', ALL, BOTH, 'ratio', 'Correlation Between TimeX and Log ConcY', 'Correlation of t and ln C in the λz regression',
    ['lambdaZ'], (q) => fit(q)?.corr ?? null),
  row('AUMCLST', ALL, BOTH, 'aumc', 'AUMC to Last Nonzero Conc', 'Area under t·C from the dose to Tlast', ['area', 'positive'], (q) => q.aumclst),
  row('AUMCIFO', ALL, BOTH, 'aumc', 'AUMC Infinity Obs', 'AUMClast + Clast·Tlast/λz + Clast/λz²', ['area', 'lambdaZ'],
    (q) => aumcInfinity(q.aumclst, q.clast, q.tlast, q.lamz)),
  row('AUMCIFP', ALL, BOTH, 'aumc', 'AUMC Infinity Pred', 'As AUMCIFO with Clast,pred', ['area', 'lambdaZ'],
    (q, v) => aumcInfinity(q.aumclst, v.CLSTP, q.tlast, q.lamz)),
  row('AUMCPEO', ALL, BOTH, 'percent', 'AUMC % Extrapolation Obs', '100·(AUMCIFO − AUMClast)/AUMCIFO', ['area', 'lambdaZ'],
    (q, v) => percentExtrapolated(v.AUMCIFO, q.aumclst)),
  row('AUMCPEP', ALL, BOTH, 'percent', 'AUMC % Extrapolation Pred', '100·(AUMCIFP − AUMClast)/AUMCIFP', ['area', 'lambdaZ'],
    (q, v) => percentExtrapolated(v.AUMCIFP, q.aumclst)),
  // Dose-normalised (single dose).
  row('CMAXD', ALL, SINGLE, 'concPerDose', 'Max Conc Norm by Dose', 'Cmax/Dose', ['dose'], (q, v) => ratio(v.CMAX, q.dose)),
  row('AUCIFOD', ALL, SINGLE, 'aucPerDose', 'AUC Infinity Obs Norm by Dose', 'AUCIFO/Dose', ['area', 'dose', 'lambdaZ'], (q, v) => ratio(v.AUCIFO, q.dose)),
  row('AUCIFPD', ALL, SINGLE, 'aucPerDose', 'AUC Infinity Pred Norm by Dose', 'AUCIFP/Dose', ['area', 'dose', 'lambdaZ'], (q, v) => ratio(v.AUCIFP, q.dose)),
  // Extravascular.
  row('TLAG', EV, SINGLE, 'time', 'Time Until First Nonzero Conc', 'Time of the last sample before the first positive one (0 if the first is positive)',
    ['positive'], (q) => q.tlag),
  row('MRTEVLST', EV, SINGLE, 'time', 'MRT Extravasc to Last Nonzero Conc', 'AUMClast/AUClast', ['area', 'auclast'],
    (q) => meanResidenceTime(q.aumclst, q.auclst)),
  row('MRTEVIFO', EV, BOTH, 'time', 'MRT Extravasc Infinity Obs', 'AUMCIFO/AUCIFO; dosing interval: [AUMCτ + τ(AUCIFO − AUCτ)]/AUCτ', ['area', 'lambdaZ'],
    (q, v) => mrtInf(q, v.AUCIFO, v.AUMCIFO)),
  row('MRTEVIFP', EV, BOTH, 'time', 'MRT Extravasc Infinity Pred', 'As MRTEVIFO with the predicted Clast', ['area', 'lambdaZ'],
    (q, v) => mrtInf(q, v.AUCIFP, v.AUMCIFP)),
  row('CLFO', EV, SINGLE, 'clearance', 'Total CL Obs by F', 'Dose/AUCIFO', ['area', 'dose', 'lambdaZ'], (q, v) => clearance(q.dose, v.AUCIFO, q.volumeFactor)),
  row('CLFP', EV, SINGLE, 'clearance', 'Total CL Pred by F', 'Dose/AUCIFP', ['area', 'dose', 'lambdaZ'], (q, v) => clearance(q.dose, v.AUCIFP, q.volumeFactor)),
  row('VZFO', EV, SINGLE, 'volume', 'Vz Obs by F', 'Dose/(λz·AUCIFO)', ['area', 'dose', 'lambdaZ'], (q, v) => terminalVolume(v.CLFO, q.lamz)),
  row('VZFP', EV, SINGLE, 'volume', 'Vz Pred by F', 'Dose/(λz·AUCIFP)', ['area', 'dose', 'lambdaZ'], (q, v) => terminalVolume(v.CLFP, q.lamz)),
  // Intravascular.
  row('MRTIVLST', IV, SINGLE, 'time', 'MRT Intravasc to Last Nonzero Conc', 'AUMClast/AUClast − Tinf/2', ['area', 'auclast'],
    (q) => meanResidenceTime(q.aumclst, q.auclst, q.infusionDuration)),
  row('MRTIVIFO', IV, BOTH, 'time', 'MRT Intravasc Infinity Obs', 'AUMCIFO/AUCIFO − Tinf/2; dosing interval: [AUMCτ + τ(AUCIFO − AUCτ)]/AUCτ − Tinf/2',
    ['area', 'lambdaZ'], (q, v) => mrtInf(q, v.AUCIFO, v.AUMCIFO)),
  row('MRTIVIFP', IV, BOTH, 'time', 'MRT Intravasc Infinity Pred', 'As MRTIVIFO with the predicted Clast', ['area', 'lambdaZ'],
    (q, v) => mrtInf(q, v.AUCIFP, v.AUMCIFP)),
  row('CLO', IV, SINGLE, 'clearance', 'Total CL Obs', 'Dose/AUCIFO', ['area', 'dose', 'lambdaZ'], (q, v) => clearance(q.dose, v.AUCIFO, q.volumeFactor)),
  row('CLP', IV, SINGLE, 'clearance', 'Total CL Pred', 'Dose/AUCIFP', ['area', 'dose', 'lambdaZ'], (q, v) => clearance(q.dose, v.AUCIFP, q.volumeFactor)),
  row('VZO', IV, SINGLE, 'volume', 'Vz Obs', 'Dose/(λz·AUCIFO)', ['area', 'dose', 'lambdaZ'], (q, v) => terminalVolume(v.CLO, q.lamz)),
  row('VZP', IV, SINGLE, 'volume', 'Vz Pred', 'Dose/(λz·AUCIFP)', ['area', 'dose', 'lambdaZ'], (q, v) => terminalVolume(v.CLP, q.lamz)),
  row('VSSO', IV, SINGLE, 'volume', 'Vol Dist Steady State Obs', 'MRTIVIFO·CLO', ['area', 'dose', 'lambdaZ'], (_q, v) => steadyStateVolume(v.MRTIVIFO, v.CLO)),
  row('VSSP', IV, SINGLE, 'volume', 'Vol Dist Steady State Pred', 'MRTIVIFP·CLP', ['area', 'dose', 'lambdaZ'], (_q, v) => steadyStateVolume(v.MRTIVIFP, v.CLP)),
  // IV bolus.
  row('C0', BOLUS, BOTH, 'conc', 'Initial Conc', 'Concentration at the bolus time, back-extrapolated from the first two samples when not observed',
    ['positive'], (q) => q.c0),
  row('AUCPBEO', BOLUS, SINGLE, 'percent', 'AUC %Back Extrapolation Obs', '100·AUC(0, t1)/AUCIFO for a back-extrapolated C0', ['area', 'lambdaZ'],
    (q, v) => percentBackExtrapolated(q.backArea, v.AUCIFO)),
  row('AUCPBEP', BOLUS, SINGLE, 'percent', 'AUC %Back Extrapolation Pred', '100·AUC(0, t1)/AUCIFP for a back-extrapolated C0', ['area', 'lambdaZ'],
    (q, v) => percentBackExtrapolated(q.backArea, v.AUCIFP)),
  // Intervals and multiple dosing (ncaIntervals; times relative to the interval's dose).
  row('AUCINT', ALL, INTERVAL, 'auc', 'AUC from T1 to T2', 'AUC over [start, end], interpolated inside the data, λz-extrapolated past Tlast',
    ['aucint'], (q) => q.aucint),
  row('CMIN', ALL, INTERVAL, 'conc', 'Min Conc', 'Minimum observed concentration in the interval (first occurrence)', [], (q) => q.cmin),
  row('TMIN', ALL, INTERVAL, 'time', 'Time of CMIN', 'Time of Cmin after the dose', [], (q) => q.tmin),
  row('TAU', ALL, INTERVAL, 'time', 'Dosing Interval', 'τ = end − start of an interval that starts at a dose', ['dosingInterval'], (q) => q.tau),
  row('AUCTAU', ALL, INTERVAL, 'auc', 'AUC Over Dosing Interval', 'AUCINT of a dosing interval [dose, dose + τ]', ['dosingInterval', 'aucint'],
    (q) => (q.tau === null ? null : q.aucint)),
  row('AUMCTAU', ALL, INTERVAL, 'aumc', 'AUMC Over Dosing Interval', 'Area under t·C over [dose, dose + τ], t after the dose', ['dosingInterval', 'aucint'],
    (q) => (q.tau === null ? null : q.aumcint)),
  row('CTROUGH', ALL, INTERVAL, 'conc', 'Conc Trough', 'Observed concentration at the trough time (default: the interval end, the next pre-dose sample)',
    ['trough'], (q) => q.ctrough),
  row('CAVG', ALL, INTERVAL, 'conc', 'Average Concentration', 'AUCτ/τ', ['dosingInterval', 'aucint'], (q, v) => averageConcentration(v.AUCTAU, q.tau)),
  row('PTROUGHR', ALL, INTERVAL, 'ratio', 'Peak Trough Ratio', 'Cmax/Ctrough', ['trough'], (_q, v) => peakTroughRatio(v.CMAX, v.CTROUGH)),
  row('SWING', ALL, INTERVAL, 'ratio', 'Swing', '(Cmax − Cmin)/Cmin', [], (_q, v) => swing(v.CMAX, v.CMIN)),
  row('FLUCP', ALL, INTERVAL, 'percent', 'Fluctuation%', '100·(Cmax − Cmin)/Cavg', ['dosingInterval', 'aucint'], (_q, v) => fluctuation(v.CMAX, v.CMIN, v.CAVG)),
  row('AILAMZ', ALL, INTERVAL, 'ratio', 'Accumulation Index using Lambda z', '1/(1 − e^(−λz·τ))', ['dosingInterval', 'lambdaZ'],
    (q) => accumulationIndex(q.lamz, q.tau)),
  row('ARAUC', ALL, INTERVAL, 'ratio', 'Accumulation Ratio AUCTAU', 'AUCτ of this interval / AUCτ of the first dosing interval',
    ['dosingInterval', 'aucint', 'firstInterval'], (q, v) => ratio(v.AUCTAU, q.firstAuctau)),
  row('ARCMAX', ALL, INTERVAL, 'ratio', 'Accumulation Ratio Cmax', 'Cmax of this interval / Cmax of the first dosing interval',
    ['dosingInterval', 'firstInterval'], (q, v) => (q.tau === null ? null : ratio(v.CMAX, q.firstCmax))),
  row('CLTAU', IV, INTERVAL, 'clearance', 'Total CL for Dose Int', 'Dose/AUCτ (CLss)', ['dosingInterval', 'aucint', 'dose'],
    (q, v) => clearance(q.dose, v.AUCTAU, q.volumeFactor)),
  row('CLFTAU', EV, INTERVAL, 'clearance', 'Total CL by F for Dose Int', 'Dose/AUCτ (CLss/F)', ['dosingInterval', 'aucint', 'dose'],
    (q, v) => clearance(q.dose, v.AUCTAU, q.volumeFactor)),
  row('VZTAU', IV, INTERVAL, 'volume', 'Vz for Dose Int', 'Dose/(λz·AUCτ)', ['dosingInterval', 'aucint', 'dose', 'lambdaZ'],
    (q, v) => terminalVolume(v.CLTAU, q.lamz)),
  row('VZFTAU', EV, INTERVAL, 'volume', 'Vz for Dose Int by F', 'Dose/(λz·AUCτ)', ['dosingInterval', 'aucint', 'dose', 'lambdaZ'],
    (q, v) => terminalVolume(v.CLFTAU, q.lamz)),
] as const;

export type Pptestcd = (typeof PARAMETERS)[number]['code'];
export const PPTESTCD: readonly Pptestcd[] = PARAMETERS.map((p) => p.code);

/** The table's row of a code. */
export const PARAMETER: Readonly<Record<Pptestcd, ParameterRow<Pptestcd>>> = Object.fromEntries(
  PARAMETERS.map((p) => [p.code, p]),
) as Record<Pptestcd, ParameterRow<Pptestcd>>;

function select(route: Route, scope: Scope): readonly ParameterRow<Pptestcd>[] {
  return PARAMETERS.filter((p) => (p.routes as readonly Route[]).includes(route) && (p.scopes as readonly Scope[]).includes(scope));
}

const ROWS: Record<Scope, Record<Route, readonly ParameterRow<Pptestcd>[]>> = {
  single: { extravascular: select('extravascular', 'single'), 'iv-bolus': select('iv-bolus', 'single'), 'iv-infusion': select('iv-infusion', 'single') },
  interval: { extravascular: select('extravascular', 'interval'), 'iv-bolus': select('iv-bolus', 'interval'), 'iv-infusion': select('iv-infusion', 'interval') },
};

/** The rows a profile of this route and scope reports, in report order. */
export function parameterRows(route: Route, scope: Scope = 'single'): readonly ParameterRow<Pptestcd>[] {
  return ROWS[scope][route];
}

const CODES: Record<Scope, Record<Route, readonly Pptestcd[]>> = {
  single: {
    extravascular: ROWS.single.extravascular.map((p) => p.code),
    'iv-bolus': ROWS.single['iv-bolus'].map((p) => p.code),
    'iv-infusion': ROWS.single['iv-infusion'].map((p) => p.code),
  },
  interval: {
    extravascular: ROWS.interval.extravascular.map((p) => p.code),
    'iv-bolus': ROWS.interval['iv-bolus'].map((p) => p.code),
    'iv-infusion': ROWS.interval['iv-infusion'].map((p) => p.code),
  },
};

/** The codes a profile of this route reports (single dose: the CSV columns of `pkdb nca`). */
export function codesForRoute(route: Route, scope: Scope = 'single'): readonly Pptestcd[] {
  return CODES[scope][route];
}
