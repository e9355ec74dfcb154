/**
 * How many distinct entities a dataset holds, counted as PK-DB's own
 * statistics count them: where a table has raw and normed copies of the same
 * records, only the normed ones (each curated record once).
 */
import type { DatasetTables } from './model.js';

export interface DatasetCounts {
  studies: number;
  groups: number;
  individuals: number;
  interventions: number;
  /** Distinct outputs, reported and calculated. */
  outputs: number;
  /** Of those, the ones PK-DB calculated from timecourses. */
  calculated_outputs: number;
  timecourses: number;
  scatters: number;
}

/** The normed records when the table mixes raw and normed ones; otherwise all of them. */
export function countedRecords<R extends { normed: boolean }>(records: readonly R[]): readonly R[] {
  const normed = records.filter((r) => r.normed);
  return normed.length > 0 && normed.length < records.length ? normed : records;
}

function distinct<R>(records: readonly R[], key: (r: R) => number | string): number {
  return new Set(records.map(key)).size;
}

export function countTables(tables: DatasetTables): DatasetCounts {
  const outputs = countedRecords(tables.outputs);
  return {
    studies: distinct(tables.studies, (s) => s.sid),
    groups: distinct(tables.groups, (g) => g.pk),
    individuals: distinct(tables.individuals, (i) => i.pk),
    interventions: distinct(countedRecords(tables.interventions), (i) => i.pk),
    outputs: distinct(outputs, (o) => o.pk),
    calculated_outputs: distinct(
      outputs.filter((o) => o.calculated),
      (o) => o.pk,
    ),
    timecourses: distinct(countedRecords(tables.timecourses), (t) => t.subset_pk),
    scatters: distinct(tables.scatters, (s) => s.subset_pk),
  };
}
