import { describe, expect, it } from 'vitest';
import { finding, type Finding } from '../../src/qa/finding.js';
import { Dataset } from '../../src/data/dataset.js';
import { loadFixtures } from '../../src/data/fixtures.js';
import { filterStudies } from '../../src/data/select.js';
import { runQa, sortFindings } from '../../src/qa/run.js';

const byLocale = new Intl.Collator().compare;

/** The order sortFindings defines, as one comparison per pair (the reference it must match). */
function reference(findings: Finding[]): Finding[] {
  const rank = { info: 0, minor: 1, major: 2 } as const;
  return [...findings].sort(
    (a, b) =>
      rank[b.severity] - rank[a.severity] ||
      byLocale(a.study_sid ?? '', b.study_sid ?? '') ||
      (a.subset_pk ?? 0) - (b.subset_pk ?? 0) ||
      (a.output_pk ?? 0) - (b.output_pk ?? 0),
  );
}

describe('sortFindings', () => {
  it('orders by severity, study (localeCompare), subset and output; equal ones keep their order', () => {
    const f = (severity: Finding['severity'], study_sid: string | null, subset_pk: number | null, output_pk: number | null, message: string) =>
      finding({ kind: 'input', severity, study_sid, subset_pk, output_pk, message });
    const findings = [
      f('minor', 'b2', 1, null, 'a'),
      f('major', 'B1', null, 7, 'b'),
      f('major', 'a10', 3, null, 'c'),
      f('major', 'a9', 3, null, 'd'),
      f('info', null, null, null, 'e'),
      f('major', 'a10', 3, null, 'f'),
      f('major', 'a10', null, 2, 'g'),
      f('minor', 'b1', 1, null, 'h'),
    ];
    const sorted = sortFindings([...findings]);
    expect(sorted.map((x) => x.message)).toEqual(reference(findings).map((x) => x.message));
    // a10 < a9 < B1 in localeCompare's order (digits compared as characters, case a tie-break); c before f as given.
    expect(sorted.map((x) => x.message)).toEqual(['g', 'c', 'f', 'd', 'b', 'h', 'a', 'e']);
  });

  it('sorts in place and returns the same array', () => {
    const list = [finding({ kind: 'input', severity: 'info', message: 'x' }), finding({ kind: 'input', severity: 'major', message: 'y' })];
    expect(sortFindings(list)).toBe(list);
    expect(list.map((x) => x.message)).toEqual(['y', 'x']);
  });
});

describe('runQa with `studies`: those studies reported, every other one their reference', () => {
  it('gives a study checked alone the findings of a whole run, which the study on its own would not get', async () => {
    const all = await loadFixtures();
    const whole = runQa(all);
    const scoped = runQa(all, { studies: ['SYN0012'] });
    const ofStudy = whole.findings.filter((f) => f.study_sid === 'SYN0012');
    expect(scoped.findings.map((f) => [f.id, f.severity])).toEqual(ofStudy.map((f) => [f.id, f.severity]));
    // Its caffeine curve's Cmax per dose is judged against the five other studies' (the fixtures' planted error)…
    expect(scoped.findings).toContainEqual(expect.objectContaining({ kind: 'reference-range', severity: 'major' }));
    // …which the study alone has none of.
    const alone = runQa(Dataset.fromTables(filterStudies(all.tables, ['SYN0012']), all.source));
    expect(alone.findings.filter((f) => f.kind === 'reference-range' && f.severity === 'major')).toEqual([]);
    // Records, counts and coverage are the study's own.
    expect(scoped.summary.studies).toBe(1);
    expect(scoped.summary.reference_studies).toBe(all.tables.studies.length - 1);
    expect(whole.summary.reference_studies).toBeUndefined();
    expect(scoped.summary.by_severity).toEqual(whole.summary.by_study.SYN0012);
    expect(scoped.timecourses.every((t) => t.tc.study_sid === 'SYN0012')).toBe(true);
    expect(scoped.calculated.every((r) => r.study_sid === 'SYN0012')).toBe(true);
    expect(scoped.summary.coverage?.outputs.total).toBe(all.tables.outputs.filter((o) => o.study_sid === 'SYN0012' && o.normed).length);
  });
});
