/**
 * Recomputed parameters of one concentration timecourse, by both profiles:
 * - pkdb: what PK-DB's 2020 algorithm gives (PK-DB calculation §3), taken
 *   from the rows of the stored-calculated check (match, mismatch and extra
 *   rows carry the recomputed value in PK-DB's normalised unit);
 * - standard: textbook NCA (src/nca: lin-up/log-down AUC, best-fit λz), for
 *   reference and because authors compute that way.
 * Values keep their own unit; comparison converts them (compare.ts).
 */
import type { InterventionRecord, TimecourseRecord } from '../data/model.js';
import { nca, type NcaResult, type Route } from '../nca/index.js';
import type { Pptestcd } from '../nca/index.js';
import { conversionFactorOrNull } from '../units/convert.js';
import { representativeSeries } from '../data/records.js';
import { isReportedParameter, type ReportedParameter } from './tolerances.js';
import { dosesItself } from './substance-relations.js';

export interface RecomputedValue {
  value: number;
  unit: string;
}

export type ParameterValues = Partial<Record<ReportedParameter, RecomputedValue>>;

/** The fields of a stored-calculated row this module reads (src/qa/calculated.ts). */
export interface PkdbRowLike {
  subset_pk: number | null;
  measurement_type: string;
  unit: string | null;
  recomputed: number | null;
}

/** pkdb-profile values per subset_pk from the calculated rows (rows without a recomputed value are skipped). */
export function pkdbValuesBySubset(rows: readonly PkdbRowLike[]): Map<number, ParameterValues> {
  const bySubset = new Map<number, ParameterValues>();
  for (const row of rows) {
    if (row.subset_pk === null || row.recomputed === null || row.unit === null) continue;
    if (!isReportedParameter(row.measurement_type)) continue;
    let values = bySubset.get(row.subset_pk);
    if (!values) bySubset.set(row.subset_pk, (values = {}));
    values[row.measurement_type] = { value: row.recomputed, unit: row.unit };
  }
  return bySubset;
}

export interface StandardRecomputation {
  values: ParameterValues;
  /** The cleaned profile (time shifted to the dose) and λz, in the timecourse's units, for plots. */
  points: { time: number; conc: number }[];
  lambdaZ: NcaResult['lambdaZ'];
  /** Why the profile could not be computed at all. */
  error: string | null;
}

/** The single dosing the dose-based parameters use: one `dosing` of the timecourse's substance (§3.3–3.4). */
export interface DoseInfo {
  value: number;
  unit: string;
  route: Route;
  /** Infusion duration and dose time, in the timecourse's time unit. */
  duration: number;
  time: number;
  /**
   * Why the dose time (and infusion end) could not be used: its time unit does
   * not convert to the timecourse's. They count as 0 then (no shift, a bolus),
   * and the QA context reports this as a finding.
   */
  timeProblem?: string;
}

/**
 * The standard-profile dose from the timecourse's dosing: exactly one
 * `dosing` intervention, of the same substance — or of a salt of it whose
 * base's share of the mass `saltFraction` knows (codeine phosphate for a
 * codeine curve: 0.753 of the amount; substance-relations.ts `saltBase`).
 * Route from `route` and `application` (iv + constant infusion → infusion
 * with its time_end).
 */
export function doseInfo(
  dosings: readonly InterventionRecord[],
  substance: string | null,
  timeUnit: string,
  saltFraction: (dosed: string) => number | null = () => null,
): DoseInfo | null {
  if (dosings.length !== 1) return null;
  const d = dosings[0];
  if (d.value === null || !(d.value > 0) || !d.unit) return null;
  const fraction = d.substance === substance ? 1 : dosesItself(d.substance, substance) ? saltFraction(d.substance as string) : null;
  if (fraction === null) return null;
  const doseTimeUnit = d.time_unit ?? timeUnit;
  const factor = conversionFactorOrNull(doseTimeUnit, timeUnit);
  let timeProblem: string | undefined;
  const toTc = (text: string | null): number => {
    const t = text === null ? NaN : Number(text);
    if (!Number.isFinite(t)) return 0;
    if (factor === null) {
      timeProblem ??= `dose time ${text} '${doseTimeUnit}' does not convert to the timecourse's time unit '${timeUnit}'; the dose is taken at time 0`;
      return 0;
    }
    return t * factor;
  };
  const start = toTc(d.time);
  const iv = d.route === 'iv' || d.route === 'intravenous';
  const infusion = iv && d.application === 'constant infusion';
  const duration = infusion ? Math.max(0, toTc(d.time_end) - start) : 0;
  const route = infusion ? 'iv-infusion' : iv ? 'iv-bolus' : 'extravascular';
  return { value: d.value * fraction, unit: d.unit, route, duration, time: start, ...(timeProblem ? { timeProblem } : {}) };
}

/** Which standard code answers each reported parameter, for each route family. */
const STANDARD_CODES: Record<ReportedParameter, { ev: Pptestcd; iv: Pptestcd }> = {
  cmax: { ev: 'CMAX', iv: 'CMAX' },
  tmax: { ev: 'TMAX', iv: 'TMAX' },
  auc_end: { ev: 'AUCLST', iv: 'AUCLST' },
  auc_inf: { ev: 'AUCIFO', iv: 'AUCIFO' },
  thalf: { ev: 'LAMZHL', iv: 'LAMZHL' },
  kel: { ev: 'LAMZ', iv: 'LAMZ' },
  vd: { ev: 'VZFO', iv: 'VZO' },
  vd_ss: { ev: 'VSSO', iv: 'VSSO' },
  clearance: { ev: 'CLFO', iv: 'CLO' },
};

/**
 * The standard profile of a timecourse: linear-up/log-down AUC, best-fit λz,
 * times shifted to the dose. Never throws: input the NCA rejects (duplicate
 * times, no usable point) is returned as `error`.
 */
export function standardRecomputation(tc: TimecourseRecord, dose: DoseInfo | null): StandardRecomputation {
  const series = representativeSeries(tc);
  const empty = (error: string): StandardRecomputation => ({ values: {}, points: [], lambdaZ: null, error });
  if (!series || !tc.time_unit || !tc.unit) return empty('no concentration series, time unit or unit');
  if (series.values.length !== tc.time.length) return empty('time and concentration lists differ in length');
  const shift = dose?.time ?? 0;
  const time = tc.time.map((t) => (t === null ? null : t - shift));
  let result: NcaResult;
  try {
    result = nca(
      {
        time,
        conc: series.values,
        ...(dose ? { dose: dose.value, doseUnit: dose.unit, route: dose.route, duration: dose.duration } : {}),
        timeUnit: tc.time_unit,
        concUnit: tc.unit,
      },
      { aucMethod: 'lin-up-log-down', lambdaZ: 'best-fit' },
    );
  } catch (error) {
    return empty(error instanceof Error ? error.message : String(error));
  }
  const family = dose && dose.route !== 'extravascular' ? 'iv' : 'ev';
  const values: ParameterValues = {};
  for (const [parameter, codes] of Object.entries(STANDARD_CODES) as [ReportedParameter, { ev: Pptestcd; iv: Pptestcd }][]) {
    // The unit the NCA labelled its value with: volumes and clearances come back already scaled to L and L/T
    // (src/nca/units.ts), so composing dose/(conc) here would convert them a second time.
    const computed = result.parameters[codes[family]];
    const value = computed?.value;
    if (value != null && Number.isFinite(value) && value !== 0 && computed?.unit) values[parameter] = { value, unit: computed.unit };
  }
  const points: { time: number; conc: number }[] = [];
  time.forEach((t, i) => {
    const c = series.values[i];
    if (t !== null && c !== null && Number.isFinite(t) && Number.isFinite(c)) points.push({ time: t, conc: c });
  });
  points.sort((a, b) => a.time - b.time);
  return { values, points, lambdaZ: result.lambdaZ, error: null };
}

/** A concentration timecourse with everything recomputed from it. */
export interface RecomputedTimecourse {
  tc: TimecourseRecord;
  /** The matching key (`matchKey`) of its subject, intervention set, substance and tissue; null without member outputs. */
  key: string | null;
  /**
   * The substance as outputs and dosings name it (its member outputs' substance): an export's timecourses.csv may
   * write the sid instead (`caf` for caffeine, `apap` for paracetamol); else `tc.substance`.
   */
  substance: string | null;
  pkdb: ParameterValues;
  /** The standard profile; computed on first read. */
  standard: StandardRecomputation;
  dose: DoseInfo | null;
  dosingPks: number[];
}
