import { describe, expect, it } from 'vitest';
import type { DatasetTables, OutputRecord } from '../../src/data/model.js';
import { CoverageLog, coverageSummary, NO_COMPARISON } from '../../src/qa/coverage.js';

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
});
