import { describe, expect, it } from 'vitest';
import type { DatasetTables, OutputRecord } from '../../src/data/model.js';
import { CoverageLog, coverageSummary, examinedMasks, NO_COMPARISON } from '../../src/qa/coverage.js';

const out = (pk: number, measurement_type: string, extra: Partial<OutputRecord> = {}) =>
  ({ pk, measurement_type, normed: true, calculated: false, output_type: 'output', ...extra }) as OutputRecord;

describe('coverage', () => {
  it('counts examined records by kind, type and check, and the reasons given for the rest', () => {
    const tables = {
      outputs: [out(1, 'clearance'), out(2, 'clearance'), out(3, 'recovery'), out(4, 'cmax', { calculated: true }), out(5, 'concentration', { output_type: 'timecourse' })],
      timecourses: [], interventions: [],
    } as unknown as DatasetTables;
    const log = new CoverageLog();
    log.examined('output', 1, 'reported-vs-recomputed');
    log.examined('output', 1, 'reference-range');
    log.examined('output', 1, 'reference-range');
    log.notExamined('output', 2, 'reported-vs-recomputed', 'no timecourse');
    log.notExamined('output', 2, 'reference-range', 'too few studies');
    log.notExamined('output', 2, 'reference-range', 'a later reason is not kept');
    const c = coverageSummary(tables, log).outputs;
    // Calculated outputs and timecourse points are not reported single values.
    expect(c).toMatchObject({ total: 3, examined: 1, by_check: { 'reported-vs-recomputed': 1, 'reference-range': 1 } });
    expect(c.by_measurement_type).toEqual({ clearance: { total: 2, examined: 1 }, recovery: { total: 1, examined: 0 } });
    expect(c.unexamined_reasons).toEqual({ 'reported-vs-recomputed: no timecourse': 1, 'reference-range: too few studies': 1, [NO_COMPARISON]: 1 });
  });

  it('masks the checks that examined each pk: bit c for the c-th set', () => {
    const masks = examinedMasks([new Set([1, 2]), new Set([2]), new Set([3, 1])]);
    // pk 1: sets 0 and 2 (1 + 4), pk 2: sets 0 and 1 (1 + 2), pk 3: set 2 (4).
    expect([...masks]).toEqual([[1, 5], [2, 3], [3, 4]]);
  });

  it('counts the same with more checks than a mask holds (every set asked)', () => {
    const tables = { outputs: [out(1, 'cmax'), out(2, 'cmax')], timecourses: [], interventions: [] } as unknown as DatasetTables;
    const log = new CoverageLog();
    // 31 checks examine pk 1, in order; pk 2 none.
    for (let c = 0; c < 31; c++) log.examined('output', 1, `check-${c}`);
    const c = coverageSummary(tables, log).outputs;
    expect(c.examined).toBe(1);
    expect(Object.keys(c.by_check)).toEqual(Array.from({ length: 31 }, (_, k) => `check-${k}`));
    expect(c.unexamined_reasons).toEqual({ [NO_COMPARISON]: 1 });
  });
});
