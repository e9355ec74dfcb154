import { beforeAll, describe, expect, it } from 'vitest';
import { Dataset } from '../../src/data/dataset.js';
import { loadFixtures } from '../../src/data/fixtures.js';
import type { DatasetTables } from '../../src/data/model.js';
import { runQa, type QaResult } from '../../src/qa/run.js';
import { buildReportCharts } from '../../src/report/charts.js';
import { csvField, toCsv } from '../../src/report/csv.js';
import { escapeHtml, jsonForScript } from '../../src/report/escape.js';
import { renderReport } from '../../src/report/html.js';

const EVIL = '</script><script>alert("x")</script><!--';

/** The fixtures with one study's name replaced everywhere it is copied. */
function withStudyName(tables: DatasetTables, sid: string, name: string): DatasetTables {
  const rename = <T extends { study_sid: string; study_name: string }>(rows: T[]) => rows.map((r) => (r.study_sid === sid ? { ...r, study_name: name } : r));
  return {
    ...tables,
    studies: tables.studies.map((s) => (s.sid === sid ? { ...s, name } : s)),
    groups: rename(tables.groups),
    individuals: rename(tables.individuals),
    interventions: rename(tables.interventions),
    outputs: rename(tables.outputs),
    timecourses: rename(tables.timecourses),
  };
}

describe('renderReport', () => {
  let result: QaResult;
  let html: string;
  beforeAll(async () => {
    const fixtures = await loadFixtures();
    const dataset = Dataset.fromTables(withStudyName(fixtures.tables, 'SYN0002', EVIL), fixtures.source);
    result = runQa(dataset);
    html = renderReport(result, buildReportCharts(result));
  });

  it('escapes a study name with <script> in tables, headings and embedded JSON', () => {
    expect(result.findings.some((f) => f.study_name === EVIL)).toBe(true);
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('alert("x")</script>');
    expect(html).toContain(escapeHtml(EVIL));
    // Every <script> element is ours: the inlined libraries, the specs and the page script.
    expect(html.match(/<script\b/g)).toHaveLength(5);
    const json = html.match(/<script type="application\/json" id="qa-specs">([\s\S]*?)<\/script>/);
    expect(json).not.toBeNull();
    const specs = JSON.parse((json as RegExpMatchArray)[1]) as Record<string, { title?: unknown }>;
    expect(Object.values(specs).some((s) => String(s.title).includes(EVIL))).toBe(true);
  });

  it('is self-contained: libraries inlined, no external references, CSP without network', () => {
    expect(html).toMatch(/Content-Security-Policy" content="default-src 'none'/);
    expect(html).not.toMatch(/<script[^>]+src=/);
    expect(html).not.toMatch(/<link[^>]+href=/);
    for (const lib of ['vega', 'vega-lite', 'vega-embed']) expect(html).toContain(`data-lib="${lib}"`);
  });

  it('has one findings table per study and a plot for every flagged timecourse', () => {
    const studies = new Set(result.findings.map((f) => f.study_sid));
    // One per study plus the overview's table of major findings.
    expect(html.match(/<table class="findings"/g)).toHaveLength(studies.size + 1);
    const majors = result.findings.filter((f) => f.severity === 'major').length;
    const overviewTable = html.slice(html.indexOf('id="findings-major"'), html.indexOf('</table>', html.indexOf('id="findings-major"')));
    expect(overviewTable.match(/<tr class="sev-major">/g)).toHaveLength(majors);
    const flagged = new Set(result.findings.filter((f) => f.severity !== 'info' && f.subset_pk !== null).map((f) => f.subset_pk));
    for (const pk of flagged) expect(html).toContain(`data-chart="tc-${pk}"`);
    expect(html).toContain('data-chart="overview-scatter"');
    expect(html).toContain('data-chart="overview-histogram"');
  });
});

describe('escaping helpers', () => {
  it('JSON for a script element has no < > &', () => {
    const text = jsonForScript({ a: EVIL, b: 'x & y > z' });
    expect(text).not.toMatch(/[<>&]/);
    expect(JSON.parse(text)).toEqual({ a: EVIL, b: 'x & y > z' });
  });

  it('CSV quotes commas, quotes and newlines', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField(null)).toBe('');
    expect(toCsv(['x', 'y'] as const, [{ x: 1, y: 'a\nb' }])).toBe('x,y\n1,"a\nb"\n');
  });
});
