import { beforeAll, expect, it } from 'vitest';
import { Dataset } from '../../src/data/dataset.js';
import { readExport } from '../../src/data/export/read.js';
import { filterStudies } from '../../src/data/select.js';
import { joinReference, largestPk, shiftPks } from '../../src/data/join-reference.js';
import type { DatasetTables } from '../../src/data/model.js';
import type { Finding } from '../../src/qa/finding.js';
import { runQa, type QaResult } from '../../src/qa/run.js';
import { describeShared, SHARED_EXPORT } from '../helpers/shared.js';

const near = (a: number, b: number) => Math.abs(Math.log(a / b)) <= Math.log(1.05);
const TIME_DEPENDENT = new Set(['tmax', 'thalf', 'kel', 'auc_end', 'auc_inf', 'clearance']);

describeShared('pkdb qa on the shared export', SHARED_EXPORT, () => {
  let result: QaResult;
  let tables: DatasetTables;
  beforeAll(async () => {
    tables = (await readExport(SHARED_EXPORT)).tables;
    result = runQa(Dataset.fromTables(tables, { kind: 'export', location: SHARED_EXPORT }));
  });

  it('reproduces all 9,800 stored calculated outputs and produces none extra', () => {
    const stored = result.calculated.filter((r) => r.output_pk !== null);
    expect(stored).toHaveLength(9800);
    expect(stored.every((r) => r.status === 'match')).toBe(true);
    expect(result.calculated.filter((r) => r.status === 'extra')).toHaveLength(0);
    expect(result.findings.filter((f) => f.kind === 'calculated')).toHaveLength(0);
  });

  it('reports unit slips (×1000, ×60 and inverses) as major with the factor', () => {
    const slips = result.findings.filter((f) => {
      if (f.kind !== 'reported-vs-recomputed' || f.ratio === null) return false;
      const factors = [1000, 1 / 1000, ...(TIME_DEPENDENT.has(f.measurement_type ?? '') ? [60, 1 / 60] : [])];
      return factors.some((k) => near(f.ratio as number, k));
    });
    expect(slips.length).toBeGreaterThan(0);
    for (const f of slips) {
      expect(f.severity, f.message).toBe('major');
      const factors = (f.details?.cause_factors ?? []) as number[];
      expect(factors.some((k) => near(k, f.ratio as number)), f.message).toBe(true);
      expect(f.suspected_cause).toMatch(/×(1\/)?(1000|60)\b|dose/);
    }
  });

  it('compares reported values with timecourses and keeps most disagreements below major', () => {
    const { agree, minor, major } = result.summary.comparisons;
    expect(agree + minor + major).toBeGreaterThan(1000);
    expect(major).toBeLessThan(0.1 * (agree + minor + major));
    expect(result.summary.timecourses).toBe(2142);
  });

  it('gives 30 studies checked against the release from another database (pks colliding) the whole run’s findings', () => {
    // Every 12th study, as a curation server would hold them: their own records and pks.
    const sids = tables.studies.filter((_, k) => k % 12 === 0).map((st) => st.sid);
    expect(sids).toHaveLength(30);
    // The release numbered by another database: every pk moved down so that they collide with the checked ones'.
    const release = shiftPks(tables, -Math.floor(largestPk(tables) / 2));
    const { tables: joined, referenceStudies } = joinReference(filterStudies(tables, sids), release);
    expect(referenceStudies).toHaveLength(330);
    const checked = runQa(Dataset.fromTables(joined, { kind: 'export', location: 'joined' }), { studies: sids });
    const wanted = new Set(sids);
    const said = (fs: readonly Finding[]) => fs.map((f) => `${f.id} ${f.severity} ${f.suspected_cause}`).sort();
    expect(said(checked.findings)).toEqual(said(result.findings.filter((f) => f.study_sid !== null && wanted.has(f.study_sid))));
  });
});
