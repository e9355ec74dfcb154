/**
 * `ncaInput(dataset, timecourse)`: the standard-profile input of a PK-DB
 * concentration timecourse, with every choice it makes written into `notes`
 * (never silently):
 * - series: `mean`, else `median`, else `value` (a group timecourse is a
 *   mean curve; individuals have values);
 * - times relative to the dose (the dose's time in the timecourse's time unit
 *   is subtracted);
 * - dose: the normed `dosing` intervention of the measured substance; for a
 *   metabolite (no dosing of it) the single dosing of another substance — the
 *   parent — with a note that dose-based parameters (CL/F, Vz/F, CMAXD…) are
 *   then per parent dose; several dosings of the substance or a dosing pattern
 *   leave the dose out (note), use ncaIntervals for repeated doses;
 * - route (PK-DB `route`, `application`): `iv` + `constant infusion` (or an
 *   `iv` dose with a time_end after its time) → `iv-infusion` with that
 *   duration; other `iv` → `iv-bolus`; oral, buccal, rectal, intramuscular,
 *   subcutaneous, inhalation and any other route → `extravascular`.
 */
import { conversionFactor } from '../units/convert.js';
import { UnitError } from '../units/errors.js';
import type { Dataset } from '../data/dataset.js';
import type { InterventionRecord, TimecourseRecord } from '../data/model.js';
import type { Route } from './codes.js';
import type { NcaInput } from './nca.js';

export interface PkdbNcaInput {
  input: NcaInput;
  /** Which series was read. */
  series: 'mean' | 'median' | 'value';
  substance: string | null;
  /** The dosing used (null: none), and whether it is of another substance than the measured one. */
  dosing: InterventionRecord | null;
  parentDose: boolean;
  notes: string[];
}

/** PK-DB route and application → NCA route (see the header). */
export function ncaRoute(route: string | null, application: string | null, hasEnd: boolean): Route {
  if (route !== 'iv' && route !== 'intravenous') return 'extravascular';
  return application === 'constant infusion' || hasEnd ? 'iv-infusion' : 'iv-bolus';
}

function timeIn(text: string | null, from: string | null, to: string): number | null {
  if (text === null) return null;
  const t = Number(text);
  if (text.trim() === '' || !Number.isFinite(t)) return null;
  try {
    return t * conversionFactor(from ?? to, to);
  } catch (e) {
    if (e instanceof UnitError) return null;
    throw e;
  }
}

/** Picks the dosing for `substance` among the timecourse's dosings (see the header). */
function pickDosing(dosings: readonly InterventionRecord[], substance: string | null, notes: string[]): { dosing: InterventionRecord | null; parent: boolean } {
  const own = dosings.filter((d) => d.substance === substance);
  if (own.length === 1) return { dosing: own[0], parent: false };
  if (own.length > 1) {
    notes.push(`${own.length} dosings of ${substance}: no single dose (use ncaIntervals with the dose times)`);
    return { dosing: null, parent: false };
  }
  if (dosings.length === 1) {
    const d = dosings[0];
    notes.push(`no dosing of the measured ${substance}: the dose of ${d.substance} is used (metabolite of the dosed parent?); dose-based parameters are per ${d.substance} dose`);
    return { dosing: d, parent: true };
  }
  notes.push(dosings.length === 0 ? 'no dosing intervention: dose-based parameters are missing' : `no dosing of ${substance} among ${dosings.length} dosings of other substances: no dose`);
  return { dosing: null, parent: false };
}

export function ncaInput(dataset: Dataset, tc: TimecourseRecord): PkdbNcaInput {
  const notes: string[] = [];
  const field = (['mean', 'median', 'value'] as const).find((f) => Array.isArray(tc[f]));
  if (!field) throw new Error(`timecourse ${tc.subset_pk} has no mean, median or value series`);
  if (!tc.time_unit) throw new Error(`timecourse ${tc.subset_pk} has no time unit`);
  if (field !== 'value') notes.push(`the ${field} curve is analysed (parameters of the ${field} curve, not the ${field} of individual parameters)`);
  const { substance } = dataset.curveNames(tc);
  const { dosing, parent } = pickDosing(dataset.dosingOf(tc), substance, notes);
  const conc = tc[field] as (number | null)[];
  let time = tc.time;
  const input: NcaInput = { time, conc, timeUnit: tc.time_unit, ...(tc.unit ? { concUnit: tc.unit } : {}) };
  if (dosing) {
    const start = timeIn(dosing.time, dosing.time_unit, tc.time_unit);
    const end = timeIn(dosing.time_end, dosing.time_unit, tc.time_unit);
    if (dosing.time !== null && start === null) notes.push(`dosing time "${dosing.time}" is not a single time (a dosing pattern?): times used as given`);
    if (start) time = time.map((t) => (t === null ? null : t - start));
    const route = ncaRoute(dosing.route, dosing.application, end !== null && start !== null && end > start);
    input.time = time;
    input.route = route;
    if (route === 'iv-infusion') {
      if (end !== null && start !== null && end > start) input.duration = end - start;
      else {
        input.route = 'iv-bolus';
        notes.push('constant infusion without an end time: treated as a bolus');
      }
    }
    // PK-DB's own rule reads the value, never the mean (reference PK-DB calculation); a dosing curated as a mean or
    // median alone still gives the standard profile its dose.
    const amount = dosing.value ?? dosing.mean ?? dosing.median;
    if (amount !== null && amount > 0 && dosing.unit) {
      input.dose = amount;
      input.doseUnit = dosing.unit;
    } else notes.push('the dosing has no positive amount with a unit: dose-based parameters are missing');
    if (dosing.route && !['oral', 'iv', 'intravenous'].includes(dosing.route)) notes.push(`route ${dosing.route} analysed as extravascular`);
  }
  return { input, series: field, substance, dosing, parentDose: parent, notes };
}
