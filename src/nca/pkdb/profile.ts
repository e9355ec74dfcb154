/**
 * The `pkdb` NCA profile: PK-DB's 2020 computation of "calculated" outputs,
 * rule for rule as PK-DB calculation §3–§4 describes it
 * (backend outputs/pk_calculation.py of Sept./Oct. 2020 with pkdb_analysis
 * 0.1.5/0.1.6). This is deliberately *not* textbook NCA: points stay in
 * output-pk order, NaN propagates through the AUC, the regression starts after
 * the maximum, and results of exactly 0 are dropped.
 */
import type { RepresentativeField } from '../../data/records.js';
import { aucUnit, hoursPer, isRestrictedDosingUnit, volumeUnits } from './units.js';

/** The series a timecourse's concentrations come from (mean, else median, else value: `representativeSeries`, src/data/records.ts). */
export type SeriesField = RepresentativeField;

/** The timecourse's single `dosing` intervention (the caller resolves "exactly one", §3.3). */
export interface PkdbDosing {
  value: number | null;
  unit: string | null;
  time: number | null;
  timeUnit: string | null;
  application: string | null;
  substance: string | null;
}

export interface PkdbInput {
  outputPk: readonly number[];
  time: readonly (number | null)[];
  conc: readonly (number | null)[];
  timeUnit: string;
  concUnit: string;
  /** null: no-dose mode from the start. */
  dosing: PkdbDosing | null;
  substance: string | null;
  seriesField: SeriesField;
}

/** PK-DB's creation order of calculated outputs (§3.12). */
export const PKDB_PARAMETERS = ['auc_end', 'auc_inf', 'clearance', 'cmax', 'kel', 'thalf', 'tmax', 'vd', 'vd_ss'] as const;
export type PkdbParameter = (typeof PKDB_PARAMETERS)[number];

export interface PkdbOutput {
  measurement_type: PkdbParameter;
  value: number;
  unit: string;
  field: SeriesField;
  time?: number;
  time_unit?: string;
}

/** Raised where PK-DB's own computation failed (no outputs were stored then). */
export class PkdbProfileError extends Error {
  override name = 'PkdbProfileError';
}

/** §3.1: the point order is ascending output pk, whatever the order of the lists. */
export function outputPkOrder(outputPk: readonly number[]): number[] {
  return outputPk.map((_, i) => i).sort((a, b) => outputPk[a] - outputPk[b] || a - b);
}

/**
 * §3.4: dose and time shift. PK mode needs a `single dose` of the measured
 * substance; its unit must pass the restricted-dosing check, else the dose is
 * NaN and the shift is skipped too. No-dose mode: dose NaN, no shift.
 */
export function doseAndShift(dosing: PkdbDosing | null, substance: string | null, timeUnit: string): { dose: number; tOff: number } {
  if (!dosing || dosing.application !== 'single dose' || dosing.substance !== substance) return { dose: NaN, tOff: 0 };
  if (dosing.unit === null || !isRestrictedDosingUnit(dosing.unit)) return { dose: NaN, tOff: 0 };
  const dose = dosing.value ?? NaN;
  if (dosing.time === null) return { dose, tOff: 0 };
  if (dosing.timeUnit === null) throw new PkdbProfileError(`dosing time ${dosing.time} has no time unit`);
  return { dose, tOff: (dosing.time * hoursPer(dosing.timeUnit)) / hoursPer(timeUnit) };
}

/**
 * §3.5: when the smallest non-zero value is below cmax/1e6, every value below
 * cmax/1e6 (zeros included) becomes NaN; otherwise nothing changes.
 */
export function dropVerySmall(c: number[]): void {
  let cmaxAll = -Infinity;
  let cmin = Infinity;
  for (const v of c) {
    if (Number.isNaN(v)) continue;
    if (v > cmaxAll) cmaxAll = v;
    if (v !== 0 && v < cmin) cmin = v;
  }
  if (cmin === Infinity) throw new PkdbProfileError('every concentration is 0 or missing');
  if (!(1e6 * cmin < cmaxAll)) return;
  for (let i = 0; i < c.length; i++) if (1e6 * c[i] < cmaxAll) c[i] = NaN;
}

/** §3.7: Σ (t[i+1] − t[i])·(c[i+1] + c[i])/2 in array order; one NaN makes it NaN. */
export function pkdbAuc(t: readonly number[], c: readonly number[]): number {
  let auc = 0;
  for (let i = 0; i + 1 < t.length; i++) auc += ((t[i + 1] - t[i]) * (c[i + 1] + c[i])) / 2;
  return auc;
}

/** §3.8: index of the first maximum among the non-NaN values. */
export function firstMaxNonNaN(c: readonly number[]): number {
  let idx = -1;
  for (let i = 0; i < c.length; i++) if (!Number.isNaN(c[i]) && (idx < 0 || c[i] > c[idx])) idx = i;
  return idx;
}

/**
 * §3.9–3.10: scipy 1.5 `linregress` of ln c on t over the points after the
 * maximum (NaN pairs dropped, −∞ kept so a zero gives NaN). Centred sums:
 * slope = Σ(x−x̄)(y−ȳ)/Σ(x−x̄)², intercept = ȳ − slope·x̄. A positive slope
 * is discarded. Fewer than 3 array elements after the maximum: no regression.
 */
export function pkdbRegression(t: readonly number[], c: readonly number[], idx: number): { slope: number; intercept: number } {
  const n = t.length;
  if (idx > n - 4) return { slope: NaN, intercept: NaN };
  const x: number[] = [];
  const y: number[] = [];
  for (let i = idx + 1; i < n; i++) {
    const ly = Math.log(c[i]);
    if (Number.isNaN(t[i]) || Number.isNaN(ly)) continue;
    x.push(t[i]);
    y.push(ly);
  }
  if (x.length === 0) throw new PkdbProfileError('no regression point left after dropping NaN');
  const xm = x.reduce((s, v) => s + v, 0) / x.length;
  const ym = y.reduce((s, v) => s + v, 0) / y.length;
  let ssxm = 0;
  let ssxym = 0;
  for (let k = 0; k < x.length; k++) {
    ssxm += (x[k] - xm) * (x[k] - xm);
    ssxym += (x[k] - xm) * (y[k] - ym);
  }
  const slope = ssxym / x.length / (ssxm / x.length);
  if (slope > 0) return { slope: NaN, intercept: NaN };
  return { slope, intercept: ym - slope * xm };
}

/** §3: all calculated outputs of one concentration timecourse, in creation order, converted per §4. */
export function pkdbNca(input: PkdbInput): PkdbOutput[] {
  const order = outputPkOrder(input.outputPk);
  const c = order.map((i) => input.conc[i] ?? NaN);
  const rawTime = order.map((i) => input.time[i] ?? NaN);
  const { dose, tOff } = doseAndShift(input.dosing, input.substance, input.timeUnit);
  dropVerySmall(c);
  const t = rawTime.map((v) => v - tOff);

  const aucEnd = pkdbAuc(t, c);
  const idx = firstMaxNonNaN(c);
  const { slope, intercept } = pkdbRegression(t, c, idx);
  const kel = -slope;
  const aucInf = aucEnd + -c[c.length - 1] / slope;
  const values: Record<PkdbParameter, number> = {
    auc_end: aucEnd,
    auc_inf: aucInf,
    clearance: NaN,
    cmax: c[idx],
    kel,
    thalf: Math.LN2 / kel,
    tmax: t[idx],
    vd: NaN,
    vd_ss: NaN,
  };
  if (!Number.isNaN(dose)) {
    values.vd_ss = dose / Math.exp(intercept);
    values.vd = dose / (aucInf * kel);
    values.clearance = kel * values.vd;
  }
  return emit(values, input, rawTime);
}

/** §3.12 and §4: skip NaN and exact 0, convert into the stored units. */
function emit(values: Record<PkdbParameter, number>, input: PkdbInput, rawTime: number[]): PkdbOutput[] {
  const hours = hoursPer(input.timeUnit);
  const stored: Record<PkdbParameter, () => { unit: string; factor: number }> = {
    auc_end: () => ({ unit: aucUnit(input.concUnit), factor: hours }),
    auc_inf: () => ({ unit: aucUnit(input.concUnit), factor: hours }),
    clearance: () => volumeUnits(input.dosing?.unit ?? '', input.concUnit, input.timeUnit).clearance,
    cmax: () => ({ unit: input.concUnit, factor: 1 }),
    kel: () => ({ unit: '1 / minute', factor: 1 / (hours * 60) }),
    thalf: () => ({ unit: 'hour', factor: hours }),
    tmax: () => ({ unit: 'hour', factor: hours }),
    vd: () => volumeUnits(input.dosing?.unit ?? '', input.concUnit, input.timeUnit).volume,
    vd_ss: () => volumeUnits(input.dosing?.unit ?? '', input.concUnit, input.timeUnit).volume,
  };
  const outputs: PkdbOutput[] = [];
  for (const type of PKDB_PARAMETERS) {
    const value = values[type];
    if (Number.isNaN(value) || value === 0) continue;
    const { unit, factor } = stored[type]();
    const output: PkdbOutput = { measurement_type: type, value: value * factor, unit, field: input.seriesField };
    if (type === 'auc_end') {
      output.time = Math.max(...rawTime.filter((v) => !Number.isNaN(v)));
      output.time_unit = input.timeUnit;
    }
    outputs.push(output);
  }
  return outputs;
}
