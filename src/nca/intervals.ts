/**
 * NCA over intervals of a multiple-dose profile, as a PKNCA user sets up
 * `intervals` (start, end, which parameters): doses at any times, one result
 * per interval, parameters from the `interval` rows of ./parameters.ts.
 *
 * Conventions (README, "Intervals and multiple dosing"):
 * - Times are absolute; each interval is read relative to its dose, the
 *   latest dose at or before its start (TMAX, TMIN, TLST, LAMZLL… are times
 *   after that dose; AUMC is the moment about it).
 * - An interval starting at a dose is a dosing interval with τ = end − start
 *   (PKNCA: Cav = AUC/(end − start)); τ-parameters (AUCTAU, CAVG, FLUCP,
 *   CLTAU/CLFTAU = Dose/AUCτ, VZTAU/VZFTAU = Dose/(λz·AUCτ), steady-state MRT,
 *   AILAMZ = 1/(1 − e^(−λz·τ))) need one; ARAUC and ARCMAX compare with the
 *   first dosing interval of the list.
 * - Samples in [start, end] belong to the interval, pre-dose ones included: a
 *   sample at a dose time is that dose's pre-dose (trough) value, so it ends
 *   the previous interval and starts the next. Cmin and Tmin are over them.
 * - The concentration at the dose time is the sample there; for an IV bolus it
 *   is C0 back-extrapolated from the first two post-dose samples (the
 *   pre-dose sample is the trough, not C0); without a sample, 0 for the first
 *   dose when nothing before it is positive, otherwise unknown (the areas are
 *   then missing with a note: add the pre-dose sample).
 * - CTROUGH is the observed sample at the interval end, the next pre-dose
 *   value, as PKNCA (`trough: 'start'` takes the pre-dose sample at the
 *   start instead); no interpolation.
 * - AUCINT over [start, end]: ./partial-auc.ts on each dosing period the
 *   interval covers (an interval over two doses, e.g. AUC0–24 of a twice-daily
 *   regimen, is the sum of its pieces), linear down to trailing zeros within the
 *   data and λz-extrapolated (λz of that period) past its last sample.
 * - λz: best fit (or the `lambdaZ` selection) on the interval's own samples
 *   after its Cmax, or a number given per interval.
 */
import type { AucMethod, Route } from './codes.js';
import type { Pptestcd } from './parameters.js';
import { cleanProfile, NcaInputError, type CleanProfile } from './clean.js';
import {
  checkedDuration, checkedRoute, emptyQuantities, lambdaZPoints, profileQuantities,
  type LambdaZPoints, type NcaInput, type NcaOptions, type ProfileSettings,
} from './nca.js';
import { backExtrapolatedC0 } from './observed.js';
import { partialAreas } from './partial-auc.js';
import { parameterRows, type Quantities } from './parameters.js';
import { evaluate, type Notes, type Parameters } from './sheet.js';
import type { LambdaZSelection } from './select-lambda-z.js';
import { DEFAULT_UNITS, parameterUnits } from './units.js';

export interface Dose {
  time: number;
  /** Amount; defaults to the input's `dose`. */
  amount?: number;
  /** Infusion duration; defaults to the input's `duration`. */
  duration?: number;
}

export interface IntervalSpec {
  start: number;
  end: number;
  /** Codes to report (default: every interval code of the route). */
  parameters?: readonly Pptestcd[];
  /** λz for this interval: a selection, or a known value (e.g. from a single-dose profile). */
  lambdaZ?: LambdaZSelection | number;
}

export interface IntervalOptions extends NcaOptions {
  doses: readonly Dose[];
  /** Default: each dose to the next, the last dose over `tau` (or the last spacing). */
  intervals?: readonly IntervalSpec[];
  tau?: number;
  /** Where Ctrough is read: the interval end (default, PKNCA) or its start (the pre-dose sample). */
  trough?: 'end' | 'start';
}

export interface IntervalResult {
  start: number;
  end: number;
  /** Time of the dose the interval is read from (null: before the first dose). */
  doseTime: number | null;
  dose: number | null;
  parameters: Parameters;
  notes: Notes;
  /** The λz points; `indices` are positions among the interval's samples, `times` are after the dose. */
  lambdaZ: LambdaZPoints | null;
}

/** Upper bounds that keep the work O(intervals × samples) bounded on untrusted input. */
export const MAX_DOSES = 10_000;
export const MAX_INTERVALS = 10_000;

interface Profile {
  time: readonly number[];
  conc: readonly number[];
}

/** Clean rows (missing dropped, sorted, duplicates rejected), negative times kept. */
function cleanAbsolute(input: NcaInput): { profile: Profile; missing: number[] } {
  let shift = 0;
  for (const t of input.time) if (typeof t === 'number' && Number.isFinite(t) && t < shift) shift = t;
  const shifted = shift === 0 ? input.time : input.time.map((t) => (t === null ? null : t - shift));
  const c: CleanProfile = cleanProfile(shifted, input.conc);
  return { profile: { time: shift === 0 ? c.time : c.time.map((t) => t + shift), conc: c.conc }, missing: c.missing };
}

interface CheckedDose {
  time: number;
  amount: number | null;
  duration: number | undefined;
}

function checkedDoses(doses: readonly Dose[], fallbackAmount: number | undefined): CheckedDose[] {
  if (!Array.isArray(doses) || doses.length === 0) throw new NcaInputError('doses: give at least one { time, amount }');
  if (doses.length > MAX_DOSES) throw new NcaInputError(`doses: at most ${MAX_DOSES}, got ${doses.length}`);
  const out = doses.map((d, i) => {
    if (!Number.isFinite(d?.time)) throw new NcaInputError(`doses[${i}].time must be a finite number, got ${d?.time}`);
    const amount = d.amount ?? fallbackAmount ?? null;
    if (amount !== null && !(Number.isFinite(amount) && amount > 0)) throw new NcaInputError(`doses[${i}].amount must be a positive number, got ${amount}`);
    return { time: d.time, amount, duration: d.duration };
  });
  out.sort((a, b) => a.time - b.time);
  for (let i = 1; i < out.length; i++) {
    if (out[i].time === out[i - 1].time) throw new NcaInputError(`doses: two doses at time ${out[i].time}`);
  }
  return out;
}

function defaultIntervals(doseTimes: readonly number[], tau: number | undefined): IntervalSpec[] {
  const n = doseTimes.length;
  const last = tau ?? (n >= 2 ? doseTimes[n - 1] - doseTimes[n - 2] : undefined);
  if (last === undefined) throw new NcaInputError('one dose and no intervals: give `intervals` or `tau`');
  return doseTimes.map((t, i) => ({ start: t, end: i + 1 < n ? doseTimes[i + 1] : t + last }));
}

function checkedIntervals(specs: readonly IntervalSpec[], allowed: ReadonlySet<string>): void {
  if (specs.length > MAX_INTERVALS) throw new NcaInputError(`intervals: at most ${MAX_INTERVALS}, got ${specs.length}`);
  specs.forEach((s, i) => {
    if (!Number.isFinite(s?.start) || !(s.end > s.start) || !Number.isFinite(s.end)) {
      throw new NcaInputError(`intervals[${i}]: need finite start < end, got ${s?.start}, ${s?.end}`);
    }
    for (const code of s.parameters ?? []) {
      if (!allowed.has(code)) throw new NcaInputError(`intervals[${i}].parameters: "${code}" is not an interval parameter of this route`);
    }
  });
}

/** Index of the latest dose at or before t (-1 if none). */
function doseIndexAt(doseTimes: readonly number[], t: number): number {
  let k = -1;
  while (k + 1 < doseTimes.length && doseTimes[k + 1] <= t) k++;
  return k;
}

/** Samples with a ≤ t ≤ b, times relative to `origin`. */
function window(p: Profile, a: number, b: number, origin: number): { time: number[]; conc: number[] } {
  const time: number[] = [];
  const conc: number[] = [];
  for (let i = 0; i < p.time.length; i++) {
    if (p.time[i] >= a && p.time[i] <= b) {
      time.push(p.time[i] - origin);
      conc.push(p.conc[i]);
    }
  }
  return { time, conc };
}

/**
 * The samples of dosing period k (dose k to dose k+1, relative to dose k) with
 * the concentration at the dose time settled; a string says why it cannot be.
 */
function periodGrid(p: Profile, doseTimes: readonly number[], k: number, route: Route): Profile | string {
  const d = doseTimes[k];
  const next = k + 1 < doseTimes.length ? doseTimes[k + 1] : Infinity;
  const w = window(p, d, next, d);
  if (route === 'iv-bolus') {
    const from = w.time[0] === 0 ? 1 : 0;
    const c0 = backExtrapolatedC0(w.time.slice(from), w.conc.slice(from));
    if (c0 === null) return `no positive sample after the bolus at ${d}`;
    return { time: [0, ...w.time.slice(from)], conc: [c0, ...w.conc.slice(from)] };
  }
  if (w.time[0] === 0) return w;
  const before = p.time.findIndex((t, i) => t < d && p.conc[i] > 0);
  if (k === 0 && before < 0) return { time: [0, ...w.time], conc: [0, ...w.conc] };
  return `no sample at the dose time ${d} (add the pre-dose sample)`;
}

function lambdaZOf(grid: Profile, settings: ProfileSettings): number | null {
  if (grid.time.length === 0) return null;
  const q = profileQuantities({ time: grid.time, conc: grid.conc, row: null, missing: [], predose: [] }, settings);
  return q.lamz;
}

/**
 * AUC and AUMC over [start, end] (AUMC about `origin`), the sum over the dosing
 * periods the interval covers; a string says why not.
 */
function intervalAreas(p: Profile, doseTimes: readonly number[], start: number, end: number, origin: number, settings: ProfileSettings, lambdaZ: number | null): { auc: number; aumc: number } | string {
  let auc = 0;
  let aumc = 0;
  let k = doseIndexAt(doseTimes, start);
  if (k < 0) return 'the interval starts before the first dose';
  for (let a = start; a < end; k++) {
    const b = Math.min(end, k + 1 < doseTimes.length ? doseTimes[k + 1] : Infinity);
    const grid = periodGrid(p, doseTimes, k, settings.route);
    if (typeof grid === 'string') return grid;
    const d = doseTimes[k];
    const last = grid.time[grid.time.length - 1];
    const inData = b - d <= last;
    // The interval's own λz serves its own period; other periods fit theirs.
    const lz = inData ? null : d === origin && lambdaZ !== null ? lambdaZ : lambdaZOf(grid, settings);
    if (!inData && lz === null) return `no sample at ${b} and no λz to extrapolate to it`;
    const areas = partialAreas(grid.time, grid.conc, a - d, b - d, { method: settings.method, type: inData ? 'all' : 'inf', lambdaZ: lz });
    if (typeof areas === 'string') return areas;
    auc += areas.auc;
    aumc += areas.aumc + (d - origin) * areas.auc;
    a = b;
  }
  return { auc, aumc };
}

/** First-occurrence minimum of the samples. */
function minimum(time: readonly number[], conc: readonly number[]): { c: number | null; t: number | null } {
  let best = -1;
  for (let i = 0; i < conc.length; i++) if (best < 0 || conc[i] < conc[best]) best = i;
  return best < 0 ? { c: null, t: null } : { c: conc[best], t: time[best] };
}

/**
 * NCA per interval of a multiple-dose profile (see the header for the
 * conventions). Throws NcaInputError for unusable input; every other problem
 * leaves parameters null with a note.
 */
export function ncaIntervals(input: NcaInput, options: IntervalOptions): { intervals: IntervalResult[]; excluded: { missing: number[] } } {
  const route = checkedRoute(input.route);
  const doses = checkedDoses(options.doses, input.dose);
  const doseTimes = doses.map((d) => d.time);
  const rows = parameterRows(route, 'interval');
  const allowed = new Set<string>(rows.map((r) => r.code));
  const specs = options.intervals ?? defaultIntervals(doseTimes, options.tau);
  checkedIntervals(specs, allowed);
  const { units, volumeFactor } = parameterUnits({
    time: input.timeUnit ?? DEFAULT_UNITS.time,
    conc: input.concUnit ?? DEFAULT_UNITS.conc,
    dose: input.doseUnit ?? DEFAULT_UNITS.dose,
    volume: input.volumeUnit ?? DEFAULT_UNITS.volume,
  });
  const { profile, missing } = cleanAbsolute(input);
  const method: AucMethod = options.aucMethod ?? 'linear';
  let first: { auctau: number | null; cmax: number | null } | null = null;
  const results: IntervalResult[] = [];
  for (const spec of specs) {
    const k = doseIndexAt(doseTimes, spec.start);
    const dose = k < 0 ? null : doses[k];
    const origin = dose ? dose.time : spec.start;
    const duration = route === 'iv-infusion' ? checkedDuration(route, dose?.duration ?? input.duration) : 0;
    const selection = typeof spec.lambdaZ === 'object' || typeof spec.lambdaZ === 'string' ? spec.lambdaZ : options.lambdaZ ?? 'best-fit';
    const settings: ProfileSettings = { route, dose: dose?.amount ?? null, duration, method, lambdaZ: selection, volumeFactor, controls: options.lambdaZControls };
    const atDose = dose !== null && dose.time === spec.start;
    const w = window(profile, spec.start, spec.end, origin);
    const q = intervalQuantities(profile, doseTimes, w, k, atDose, settings, spec, origin, options.trough ?? 'end');
    if (q.tau !== null && first === null) first = { auctau: q.aucint, cmax: q.cmax };
    q.firstAuctau = first?.auctau ?? null;
    q.firstCmax = first?.cmax ?? null;
    const wanted = spec.parameters ? new Set<string>(spec.parameters) : undefined;
    const { parameters, notes } = evaluate(rows, q, units, wanted);
    const own = route === 'iv-bolus' && atDose && w.time[0] === 0 && w.time.length > 1 ? 1 : 0;
    const fitted = { time: w.time.slice(own), conc: w.conc.slice(own), row: null, missing: [], predose: [] };
    const points = q.fit ? lambdaZPoints(fitted, q.fit.points, q.fit.intercept, q.fit.slope) : null;
    results.push({ start: spec.start, end: spec.end, doseTime: dose?.time ?? null, dose: dose?.amount ?? null, parameters, notes, lambdaZ: points });
  }
  return { intervals: results, excluded: { missing } };
}

function intervalQuantities(
  profile: Profile,
  doseTimes: readonly number[],
  w: { time: number[]; conc: number[] },
  k: number,
  atDose: boolean,
  settings: ProfileSettings,
  spec: IntervalSpec,
  origin: number,
  trough: 'end' | 'start',
): Quantities {
  const route = settings.route;
  if (w.time.length === 0) {
    return { ...emptyQuantities(route, settings.dose, settings.volumeFactor, 'no sample in the interval'), aucintReason: 'no sample in the interval' };
  }
  // A bolus's pre-dose sample is the trough, not C0: leave it out so that C0 is back-extrapolated.
  const dropTrough = route === 'iv-bolus' && atDose && w.time[0] === 0 && w.time.length > 1;
  const own: CleanProfile = dropTrough
    ? { time: w.time.slice(1), conc: w.conc.slice(1), row: null, missing: [], predose: [] }
    : { time: w.time, conc: w.conc, row: null, missing: [], predose: [] };
  const q = profileQuantities(own, settings);
  if (typeof spec.lambdaZ === 'number') {
    q.lamz = spec.lambdaZ > 0 ? spec.lambdaZ : null;
    q.fit = null;
    q.fitReason = q.lamz === null ? `λz must be positive, got ${spec.lambdaZ}` : '';
    q.lamzFirst = null;
    q.lamzLast = null;
  }
  // Areas from the dose: only when the interval starts at it and C at the dose time is known.
  const start = atDose ? periodGrid(profile, doseTimes, k, route) : 'the interval does not start at a dose';
  if (typeof start === 'string') Object.assign(q, { auclst: null, aumclst: null, aucall: null, areaReason: start, c0: null });
  const min = minimum(w.time, w.conc);
  q.cmin = min.c;
  q.tmin = min.t;
  const at = (trough === 'end' ? spec.end : spec.start) - origin;
  const iTrough = w.time.indexOf(at);
  q.ctrough = iTrough < 0 ? null : w.conc[iTrough];
  q.troughReason = iTrough < 0 ? `no sample at the interval ${trough} (${at + origin})` : '';
  q.tau = atDose ? spec.end - spec.start : null;
  const areas = intervalAreas(profile, doseTimes, spec.start, spec.end, origin, settings, q.lamz);
  q.aucint = typeof areas === 'string' ? null : areas.auc;
  q.aumcint = typeof areas === 'string' ? null : areas.aumc;
  q.aucintReason = typeof areas === 'string' ? areas : '';
  return q;
}
