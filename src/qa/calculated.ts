/**
 * Reproduction of PK-DB's stored "calculated" outputs (PK-DB calculation):
 * every normed concentration timecourse is run through the `pkdb` NCA profile
 * and the results are linked to the stored calculated outputs by link key and
 * consecutive-pk runs (§5), then compared value by value.
 */
import { Dataset, linkKey } from '../data/dataset.js';
import type { DatasetTables, InterventionRecord, OutputRecord, TimecourseRecord } from '../data/model.js';
import { pkdbNca, type PkdbDosing, type PkdbOutput } from '../nca/pkdb/profile.js';
import { pushTo, representativeSeries, representativeValue } from '../data/records.js';

/** §1: correct rules reproduce every value within 1e-9; every wrong rule gives ≥ 3e-7 or changes the set. */
export const CALCULATED_REL_TOLERANCE = 1e-9;

export type CalculatedStatus = 'match' | 'mismatch' | 'missing' | 'extra' | 'not-recomputable';

export interface CalculatedRow {
  study_sid: string;
  study_name: string;
  /** The timecourse the output was (re)computed from; null when no timecourse could be paired. */
  subset_pk: number | null;
  /** The stored output; null for an extra (recomputed but not stored) one. */
  output_pk: number | null;
  measurement_type: string;
  unit: string | null;
  stored: number | null;
  recomputed: number | null;
  rel_diff: number | null;
  status: CalculatedStatus;
  reason: string;
}

type Recomputation =
  | { tc: TimecourseRecord; key: string; outputs: PkdbOutput[]; error: null }
  | { tc: TimecourseRecord; key: string | null; outputs: null; error: string };


function dosingInput(d: InterventionRecord): PkdbDosing {
  const time = d.time === null || d.time.trim() === '' ? null : Number(d.time);
  if (time !== null && Number.isNaN(time)) throw new Error(`dosing intervention ${d.pk} has a non-numeric time "${d.time}"`);
  return { value: d.value, unit: d.unit, time, timeUnit: d.time_unit, application: d.application, substance: d.substance };
}

/** Runs the pkdb profile on one concentration timecourse; null when PK-DB computes nothing (§3.3). */
function recompute(ds: Dataset, tc: TimecourseRecord): Recomputation | null {
  const dosing = ds.dosingOf(tc);
  if (dosing.length !== 1) return null;
  const key = ds.timecourseKey(tc);
  const fail = (error: string): Recomputation => ({ tc, key, outputs: null, error });
  const field = representativeSeries(tc)?.field ?? null;
  if (key === null) return fail('no member output in outputs');
  if (field === null) return fail('no mean, median or value series');
  if (tc.time_unit === null || tc.unit === null) return fail('time unit or concentration unit missing');
  try {
    const outputs = pkdbNca({
      outputPk: tc.output_pk,
      time: tc.time,
      conc: tc[field] as (number | null)[],
      timeUnit: tc.time_unit,
      concUnit: tc.unit,
      dosing: dosingInput(dosing[0]),
      // The key is the first member output's: it exists.
      substance: (ds.firstMemberOutput(tc) as OutputRecord).substance,
      seriesField: field,
    });
    return outputs.length > 0 ? { tc, key, outputs, error: null } : null;
  } catch (error) {
    return fail((error as Error).message);
  }
}

/** §5: a study's calculated output pks split into runs of consecutive integers, one run per timecourse. */
function consecutiveRuns(outputs: OutputRecord[]): OutputRecord[][] {
  const sorted = [...outputs].sort((a, b) => a.pk - b.pk);
  const runs: OutputRecord[][] = [];
  for (const output of sorted) {
    const run = runs[runs.length - 1];
    if (run && output.pk === run[run.length - 1].pk + 1) run.push(output);
    else runs.push([output]);
  }
  return runs;
}

/** Stored calculated outputs: runs per link key, in ascending pk order. */
function storedRunsByKey(outputs: readonly OutputRecord[]): Map<string, OutputRecord[][]> {
  const byStudy = new Map<string, OutputRecord[]>();
  for (let i = 0; i < outputs.length; i++) if (outputs[i].calculated && outputs[i].normed) pushTo(byStudy, outputs[i].study_sid, outputs[i]);
  const byKey = new Map<string, OutputRecord[][]>();
  for (const studyOutputs of byStudy.values()) {
    for (const run of consecutiveRuns(studyOutputs)) pushTo(byKey, linkKey(run[0]), run);
  }
  for (const runs of byKey.values()) runs.sort((a, b) => a[0].pk - b[0].pk);
  return byKey;
}

function compare(tc: TimecourseRecord | null, stored: OutputRecord | null, ours: PkdbOutput | null): CalculatedRow {
  const source = stored ?? (tc as TimecourseRecord);
  const row: CalculatedRow = {
    study_sid: source.study_sid,
    study_name: source.study_name,
    subset_pk: tc?.subset_pk ?? null,
    output_pk: stored?.pk ?? null,
    measurement_type: stored?.measurement_type ?? (ours as PkdbOutput).measurement_type,
    unit: stored?.unit ?? ours?.unit ?? null,
    stored: stored ? representativeValue(stored) : null,
    recomputed: ours?.value ?? null,
    rel_diff: null,
    status: 'match',
    reason: '',
  };
  if (!stored) return { ...row, status: 'extra', reason: 'recomputed, but PK-DB stored no such output' };
  if (!ours) return { ...row, status: 'missing', reason: 'stored, but the pkdb profile produces no such output' };
  const storedValue = stored[ours.field];
  if (storedValue === null) return { ...row, status: 'mismatch', reason: `stored outside the series field "${ours.field}"` };
  row.stored = storedValue;
  row.rel_diff = Math.abs(ours.value - storedValue) / Math.abs(storedValue);
  if (stored.unit !== ours.unit) return { ...row, status: 'mismatch', reason: `unit "${ours.unit}" recomputed, "${stored.unit}" stored` };
  if (!(row.rel_diff <= CALCULATED_REL_TOLERANCE)) {
    return { ...row, status: 'mismatch', reason: `relative difference ${row.rel_diff.toExponential(2)} > ${CALCULATED_REL_TOLERANCE}` };
  }
  return row;
}

/** Rows for one stored run paired with one recomputed timecourse, by measurement type. */
function compareRun(recomputed: Recomputation & { error: null }, run: OutputRecord[]): CalculatedRow[] {
  const rows: CalculatedRow[] = [];
  const ours = new Map(recomputed.outputs.map((o) => [o.measurement_type as string, o]));
  for (const stored of run) {
    rows.push(compare(recomputed.tc, stored, ours.get(stored.measurement_type) ?? null));
    ours.delete(stored.measurement_type);
  }
  for (const extra of ours.values()) rows.push(compare(recomputed.tc, null, extra));
  return rows;
}

/**
 * Recomputes PK-DB's calculated outputs from the dataset's concentration
 * timecourses and pairs them with the stored ones: within a link key, the k-th
 * stored run belongs to the k-th output-producing timecourse by subset pk.
 */
export function recomputeCalculated(source: DatasetTables | Dataset): CalculatedRow[] {
  // A Dataset brings the indexes a QA run has already built (outputs by pk, interventions by pk).
  const ds = source instanceof Dataset ? source : Dataset.fromTables(source, { kind: 'export', location: 'tables' });
  const tables = ds.tables;
  const timecourses = tables.timecourses
    .filter((tc) => tc.normed && tc.measurement_type === 'concentration')
    .sort((a, b) => a.subset_pk - b.subset_pk);
  const producedByKey = new Map<string, Recomputation[]>();
  const unkeyed: Recomputation[] = [];
  for (const tc of timecourses) {
    const result = recompute(ds, tc);
    if (!result) continue;
    if (result.key === null) unkeyed.push(result);
    else pushTo(producedByKey, result.key, result);
  }
  const rows: CalculatedRow[] = [];
  const storedByKey = storedRunsByKey(tables.outputs);
  for (const key of new Set([...storedByKey.keys(), ...producedByKey.keys()])) {
    const runs = storedByKey.get(key) ?? [];
    const all = producedByKey.get(key) ?? [];
    const produced = all.filter((r): r is Recomputation & { error: null } => r.error === null);
    const failures = all.filter((r) => r.error !== null);
    for (let k = 0; k < Math.max(runs.length, produced.length); k++) {
      if (k < runs.length && k < produced.length) rows.push(...compareRun(produced[k], runs[k]));
      else if (k < produced.length) rows.push(...produced[k].outputs.map((o) => compare(produced[k].tc, null, o)));
      else {
        const failure = failures[0];
        for (const stored of runs[k]) {
          const row = compare(failure?.tc ?? null, stored, null);
          rows.push(failure ? { ...row, status: 'not-recomputable', reason: failure.error as string } : row);
        }
      }
    }
  }
  for (const failure of unkeyed) {
    rows.push({
      study_sid: failure.tc.study_sid, study_name: failure.tc.study_name, subset_pk: failure.tc.subset_pk, output_pk: null,
      measurement_type: '', unit: null, stored: null, recomputed: null, rel_diff: null,
      status: 'not-recomputable', reason: failure.error ?? '',
    });
  }
  return rows;
}
