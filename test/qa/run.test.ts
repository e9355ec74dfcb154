import { describe, expect, it } from 'vitest';
import { finding, type Finding } from '../../src/qa/finding.js';
import { sortFindings } from '../../src/qa/run.js';

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
