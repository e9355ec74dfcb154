import { describe, expect, it } from 'vitest';
import type { ReleaseDiff } from '../../src/qa/release-diff.js';
import { DIFF_COLUMNS, HTML_ROW_LIMIT, diffRows, renderDiffHtml } from '../../src/report/diff.js';

const EVIL = '<img src=x onerror=alert(1)>"\'&';
const counts = { added: 0, removed: 0, changed: 0, unchanged: 0 };

function releaseDiff(over: Partial<ReleaseDiff> = {}): ReleaseDiff {
  return {
    old: { kind: 'export', location: 'old.zip' },
    new: { kind: 'export', location: `new${EVIL}.zip` },
    studies: { added: ['S9'], removed: [], changed: ['S1'] },
    counts: { studies: { ...counts, added: 1 }, groups: counts, individuals: counts, interventions: counts, outputs: { ...counts, changed: 1 }, timecourses: counts },
    records: [
      { table: 'outputs', change: 'changed', study_sid: 'S1', key: `S1|normed|${EVIL}`, old_pk: 1, new_pk: 1, fields: [{ field: 'value', old: 0.0000089, new: 0.0089, factor: 1000, factor_label: '×1000 (milli/micro prefix slip)' }] },
      { table: 'outputs', change: 'removed', study_sid: 'S1', key: 'S1|x', old_pk: 2, new_pk: null, fields: [] },
    ],
    findings: {
      resolved: [{ id: 'F-0123456789ab', kind: 'reported-vs-recomputed', severity: 'major', study_sid: 'S1', study_name: 'n', subset_pk: 3, output_pk: 1, measurement_type: 'cmax', subject: null, reported: 0.0000089, reported_unit: 'g/l', recomputed: 0.0089, recomputed_unit: 'g/l', ratio: 0.001, suspected_cause: null, message: EVIL, check: undefined } as never],
      introduced: [],
      changed: [],
      unchanged: 4,
      renamed: [],
    },
    differences: true,
    ...over,
  };
}

describe('diff outputs', () => {
  it('have one CSV row per change: added study, changed field, removed record, resolved finding', () => {
    const rows = diffRows(releaseDiff());
    expect(rows.map((r) => [r.section, r.change])).toEqual([
      ['study', 'added'],
      ['record', 'changed'],
      ['record', 'removed'],
      ['finding', 'resolved'],
    ]);
    expect(rows[1]).toMatchObject({ field: 'value', old: 0.0000089, new: 0.0089, factor: 1000, factor_label: '×1000 (milli/micro prefix slip)' });
    expect(rows[3]).toMatchObject({ finding_id: 'F-0123456789ab', old_severity: 'major', severity: null });
    for (const r of rows) for (const k of Object.keys(r)) expect(DIFF_COLUMNS).toContain(k);
  });

  it('render a self-contained page with every curated text escaped', () => {
    const html = renderDiffHtml(releaseDiff());
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;&quot;&#39;&amp;');
    expect(html).not.toMatch(/<script|https?:\/\//);
    expect(html).toContain("default-src 'none'");
    expect(html).toContain('×1000 (milli/micro prefix slip)');
    expect(html).toContain('1 resolved, 0 introduced, 0 changed, 4 unchanged');
  });

  it('cut long tables in the page (the CSV keeps every row)', () => {
    const many = Array.from({ length: HTML_ROW_LIMIT + 5 }, (_, i) => ({ table: 'outputs' as const, change: 'added' as const, study_sid: 'S', key: `k${i}`, old_pk: null, new_pk: i, fields: [] }));
    const diff = releaseDiff({ records: many });
    expect(diffRows(diff).filter((r) => r.section === 'record')).toHaveLength(HTML_ROW_LIMIT + 5);
    expect(renderDiffHtml(diff)).toContain('5 more rows in diff.csv');
  });
});
