/**
 * Re-deriving PK-DB's stored calculated outputs after a slip, as PK-DB would
 * have stored them had the slipped data been uploaded: the library's pkdb
 * profile (`recomputeCalculated`, pkdb-calculation.md §3–§5) runs on the
 * studies before and after the slip. Every stored output it reproduced before
 * (status `match`) and that belongs to a slipped timecourse (or one given a
 * slipped dose) takes the value recomputed from the slipped data, exactly;
 * one the profile no longer produces is dropped; one it newly produces is
 * counted, not created (it would need a pk PK-DB never gave). Stored outputs
 * the profile did not reproduce before are left alone: they were not PK-DB's
 * own computation of this data.
 */
import { filterStudies, recomputeCalculated } from '../../src/index.js';
import type { CalculatedRow, DatasetTables, OutputRecord, TimecourseRecord } from '../../src/index.js';

type Field = 'mean' | 'median' | 'value';
const FIELDS: readonly Field[] = ['mean', 'median', 'value'];

export interface CalculatedUpdate {
  subset_pk: number;
  output_pk: number;
  /** The series field PK-DB stored the value in (pkdb-calculation.md §3.2). */
  field: Field;
  before: number;
  after: number;
  /** auc_end's `time` (the largest unshifted time, §3.12) from the slipped timecourse; null for other types. */
  time: number | null;
  /** The normed output with the recomputed value; its raw copy scaled by after/before (same conversion factor). */
  apply(o: OutputRecord): OutputRecord;
}

export interface Rederived {
  updates: CalculatedUpdate[];
  dropped: { subset_pk: number; output_pk: number }[];
  /** Per timecourse: outputs the profile now produces that were not stored before. */
  unstored: Map<number, number>;
}

/** §3.12: auc_end's time is the maximum of the timecourse's time list, missing points aside. */
function maxTime(tc: TimecourseRecord | undefined): number | null {
  const times = (tc?.time ?? []).filter((t): t is number => t !== null && !Number.isNaN(t));
  return times.length === 0 ? null : Math.max(...times);
}

function update(row: CalculatedRow, stored: OutputRecord, after: number, slippedTc: TimecourseRecord | undefined): CalculatedUpdate | null {
  const field = FIELDS.find((f) => stored[f] !== null && stored[f] === row.stored);
  if (field === undefined || row.stored === null || row.subset_pk === null) return null;
  const before = row.stored;
  const time = stored.measurement_type === 'auc_end' && stored.time !== null ? maxTime(slippedTc) : null;
  return {
    subset_pk: row.subset_pk,
    output_pk: stored.pk,
    field,
    before,
    after,
    time,
    apply(o: OutputRecord): OutputRecord {
      const next = { ...o };
      if (o.pk === stored.pk) next[field] = after;
      else if (o[field] !== null) next[field] = (o[field] as number) * (after / before);
      if (time !== null && o.time !== null) next.time = time;
      return next;
    },
  };
}

/**
 * What must change in the stored calculated outputs of `subsets` (timecourse
 * pks of `studies`) for them to be PK-DB's computation of `after` rather than of `before`.
 */
export function rederiveCalculated(before: DatasetTables, after: DatasetTables, studies: readonly string[], subsets: ReadonlySet<number>): Rederived {
  const inScope = (row: CalculatedRow) => row.subset_pk !== null && subsets.has(row.subset_pk);
  const beforeRows = recomputeCalculated(filterStudies(before, studies)).filter(inScope);
  const afterRows = recomputeCalculated(filterStudies(after, studies)).filter(inScope);
  const afterByOutput = new Map(afterRows.filter((r) => r.output_pk !== null).map((r) => [r.output_pk as number, r]));
  const outputs = new Map(after.outputs.map((o) => [o.pk, o]));
  const timecourses = new Map(after.timecourses.map((tc) => [tc.subset_pk, tc]));
  const result: Rederived = { updates: [], dropped: [], unstored: new Map() };

  for (const row of beforeRows) {
    if (row.status !== 'match' || row.output_pk === null) continue;
    const stored = outputs.get(row.output_pk);
    if (!stored) continue;
    const now = afterByOutput.get(row.output_pk);
    if (!now || now.recomputed === null || (now.status !== 'match' && now.status !== 'mismatch')) {
      result.dropped.push({ subset_pk: row.subset_pk as number, output_pk: row.output_pk });
      continue;
    }
    const u = update(row, stored, now.recomputed, timecourses.get(row.subset_pk as number));
    if (u) result.updates.push(u);
  }
  const extraKey = (r: CalculatedRow) => `${r.subset_pk}|${r.measurement_type}`;
  const extraBefore = new Set(beforeRows.filter((r) => r.status === 'extra').map(extraKey));
  for (const row of afterRows) {
    if (row.status !== 'extra' || extraBefore.has(extraKey(row))) continue;
    result.unstored.set(row.subset_pk as number, (result.unstored.get(row.subset_pk as number) ?? 0) + 1);
  }
  return result;
}
