import { beforeAll, describe, expect, it } from 'vitest';
import { expectedFixtureFindings, loadFixtures, type ExpectedFinding } from '../../src/data/fixtures.js';
import type { Finding } from '../../src/qa/finding.js';
import { runQa, type QaResult } from '../../src/qa/run.js';

/** Within 5 % on the fold scale. */
const near = (a: number, b: number) => Math.abs(Math.log(a / b)) <= Math.log(1.05);

function sameTarget(f: Finding, e: ExpectedFinding): boolean {
  if (f.kind !== e.kind || f.study_sid !== e.study_sid || f.measurement_type !== e.measurement_type) return false;
  return e.output_pk !== null ? f.output_pk === e.output_pk : f.subset_pk === e.subset_pk;
}

function hasCause(f: Finding, e: ExpectedFinding): boolean {
  const kinds = (f.details?.cause_kinds ?? []) as string[];
  const factors = (f.details?.cause_factors ?? []) as number[];
  switch (e.cause) {
    case 'unit-factor':
      return kinds.includes('unit-factor') && factors.some((x) => near(x, e.factor as number));
    case 'dose':
      return kinds.includes('dose') && factors.some((x) => Math.abs(Math.log(x / (e.factor as number))) < Math.log(1.25));
    case 'normed-conversion':
      return f.ratio !== null && near(f.ratio, e.factor as number) && /1\/1000/.test(f.suspected_cause ?? '');
    case 'duplicate-time':
      return /duplicate time/.test(f.message);
    case 'after-last-sample':
      return f.details?.rule === 'tmax-after-last-sample' && /×60/.test(f.suspected_cause ?? '');
    case 'stats-order':
      // A record's own statistics out of order: the check's code, and the field beyond its bound.
      return f.check === 'input/statistics' && /lies (above|below) its own (maximum|minimum)/.test(f.message);
    case 'negative':
      return f.details?.rule === 'negative' && (f.reported as number) < 0;
    case 'slip-factor':
      // A check that names the factor without a kind (urine): the factor, and a cause in words.
      return factors.some((x) => near(x, e.factor as number)) && f.suspected_cause !== null;
    case 'swap':
      // The swap finding names both outputs; each output's own comparison is major by its ratio, with no slip factor.
      return f.kind === 'swap'
        ? ((f.details?.output_pks ?? []) as number[]).length === 2 && /swap with output/.test(f.suspected_cause ?? '')
        : kinds.length === 0 && f.ratio !== null && near(f.ratio, e.ratio as number);
  }
}

describe('pkdb qa on the bundled fixtures', () => {
  let result: QaResult;
  let expected: ExpectedFinding[];
  beforeAll(async () => {
    result = runQa(await loadFixtures());
    expected = await expectedFixtureFindings();
  });

  it('finds every planted error as major with its suspected cause', () => {
    expect(expected.length).toBeGreaterThan(0);
    for (const e of expected) {
      const found = result.findings.filter((f) => sameTarget(f, e));
      expect(found, `error ${e.error_id} (${e.kind} ${e.measurement_type} output ${e.output_pk})`).toHaveLength(1);
      expect(found[0].severity).toBe('major');
      expect(hasCause(found[0], e), `cause of ${e.error_id}: ${found[0].suspected_cause} / ${found[0].message}`).toBe(true);
      // Where the planted error lets the checks tell which record to fix, the finding names it.
      if (e.culprit !== undefined) expect(found[0].culprit, `record to fix of ${e.error_id} (${e.kind} ${e.measurement_type})`).toBe(e.culprit);
    }
  });

  it('reports nothing else as major', () => {
    const unexpected = result.findings.filter((f) => f.severity === 'major' && !expected.some((e) => sameTarget(f, e)));
    expect(unexpected.map((f) => f.message)).toEqual([]);
  });

  it('reproduces every stored calculated output and compares reported values', () => {
    expect(result.calculated.length).toBeGreaterThan(0);
    expect(result.calculated.every((r) => r.status === 'match')).toBe(true);
    expect(result.summary.comparisons.agree).toBeGreaterThan(0);
    expect(result.summary.findings).toBe(result.findings.length);
    const bySeverity = result.summary.by_severity;
    expect(bySeverity.major + bySeverity.minor + bySeverity.info).toBe(result.findings.length);
  });

  it('restricts the run to the studies asked for', async () => {
    const one = runQa(await loadFixtures(), { studies: ['SYN0002'] });
    expect(one.summary.studies).toBe(1);
    expect(new Set(one.findings.map((f) => f.study_sid))).toEqual(new Set(['SYN0002']));
  });
});
