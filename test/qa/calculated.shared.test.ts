/**
 * The pkdb profile over the real 2020-10-16 export: every stored calculated
 * output is reproduced within relative 1e-9, with exactly the same set
 * (pkdb-calculation.md §1). Per-type counts are §1's table.
 */
import { beforeAll, expect, it } from 'vitest';
import { readExport } from '../../src/data/export/read.js';
import type { DatasetTables } from '../../src/data/model.js';
import { recomputeCalculated, type CalculatedRow } from '../../src/qa/calculated.js';
import { describeShared, SHARED_EXPORT } from '../helpers/shared.js';

/** §1 of pkdb-calculation.md: calculated outputs per measurement type in this export. */
const PKDB_CALCULATION_TABLE: Record<string, number> = {
  cmax: 1551, tmax: 1527, auc_end: 1431, auc_inf: 1055, thalf: 1167, kel: 1167, vd: 612, vd_ss: 678, clearance: 612,
};

describeShared('pkdb profile reproduces PK-DB 2020 calculated outputs', SHARED_EXPORT, () => {
  let tables: DatasetTables;
  let rows: CalculatedRow[];
  beforeAll(async () => {
    tables = (await readExport(SHARED_EXPORT)).tables;
    rows = recomputeCalculated(tables);
  });

  it('matches all 9,800 stored outputs within 1e-9: none missing, none extra, none mismatched', () => {
    const byStatus: Record<string, number> = {};
    for (const row of rows) byStatus[row.status] = (byStatus[row.status] ?? 0) + 1;
    const firstProblems = rows.filter((r) => r.status !== 'match').slice(0, 5);
    expect(byStatus, JSON.stringify(firstProblems)).toEqual({ match: 9800 });
    expect(Math.max(...rows.map((r) => r.rel_diff as number))).toBeLessThanOrEqual(1e-9);
  });

  it('covers every stored calculated output once, with the per-type counts of §1', () => {
    const stored = tables.outputs.filter((o) => o.calculated && o.normed);
    expect(new Set(rows.map((r) => r.output_pk))).toEqual(new Set(stored.map((o) => o.pk)));
    const byType: Record<string, number> = {};
    for (const row of rows) byType[row.measurement_type] = (byType[row.measurement_type] ?? 0) + 1;
    expect(byType).toEqual(PKDB_CALCULATION_TABLE);
  });

  it('pairs outputs with 1,551 producing timecourses', () => {
    expect(new Set(rows.map((r) => r.subset_pk)).size).toBe(1551);
  });
});
