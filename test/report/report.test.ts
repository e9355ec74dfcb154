import { beforeAll, describe, expect, it } from 'vitest';
import { Dataset } from '../../src/data/dataset.js';
import { loadFixtures } from '../../src/data/fixtures.js';
import type { DatasetTables } from '../../src/data/model.js';
import { reviewFindings, acceptedEntryFor } from '../../src/qa/accepted.js';
import { finding } from '../../src/qa/finding.js';
import { withFindingIds } from '../../src/qa/finding-id.js';
import { runQa, type QaResult } from '../../src/qa/run.js';
import { buildReportCharts, findingRange } from '../../src/report/charts.js';
import { csvField, toCsv } from '../../src/report/csv.js';
import { escapeHtml, jsonForScript } from '../../src/report/escape.js';
import { groupByStudy, renderIndexPage, renderStudyPage, studyFileName } from '../../src/report/pages.js';

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

const SERVE = 'http://127.0.0.1:8000/';

/** The JSON of a page's chart specs. */
function pageSpecs(html: string): Record<string, { title?: unknown }> {
  const json = html.match(/<script type="application\/json" id="qa-specs">([\s\S]*?)<\/script>/);
  expect(json).not.toBeNull();
  return JSON.parse((json as RegExpMatchArray)[1]) as Record<string, { title?: unknown }>;
}

/** The <article> of one finding. */
function card(html: string, id: string): string {
  const start = html.indexOf(`<article class="finding`, html.indexOf(`data-finding-id="${id}"`) - 200);
  expect(start).toBeGreaterThanOrEqual(0);
  return html.slice(start, html.indexOf('</article>', start));
}

describe('report pages', () => {
  let dataset: Dataset;
  let result: QaResult;
  beforeAll(async () => {
    const fixtures = await loadFixtures();
    dataset = Dataset.fromTables(withStudyName(fixtures.tables, 'SYN0002', EVIL), fixtures.source);
    result = runQa(dataset);
  });

  it('escapes a study name with <script> in the index, the study page and the embedded specs', () => {
    const charts = buildReportCharts(result);
    const studies = groupByStudy(result.findings);
    const index = renderIndexPage({ summary: result.summary, studies, dataset, charts });
    const study = studies.find((s) => s.sid === 'SYN0002');
    expect(study?.name).toBe(EVIL);
    const page = renderStudyPage(study!, { dataset, serveUrl: SERVE, charts });
    for (const html of [index, page]) {
      expect(html).not.toContain('<script>alert');
      expect(html).not.toContain('alert("x")</script>');
      // Our own scripts only: the page script by relative path, and the specs as JSON.
      expect(html.match(/<script\b/g)).toHaveLength(2);
    }
    expect(page).toContain(escapeHtml(EVIL));
    expect(Object.values(pageSpecs(page)).some((s) => String(s.title).includes(EVIL))).toBe(true);
  });

  it('pages are offline: a CSP without network, scripts and styles from the report folder only', () => {
    const charts = buildReportCharts(result);
    const studies = groupByStudy(result.findings);
    const index = renderIndexPage({ summary: result.summary, studies, dataset, charts });
    const page = renderStudyPage(studies[0], { dataset, serveUrl: SERVE, charts });
    for (const html of [index, page]) {
      expect(html).toMatch(/Content-Security-Policy" content="default-src 'none'; script-src 'self' file: 'unsafe-eval'; style-src 'self' file: 'unsafe-inline'/);
      for (const src of html.match(/<(script|link)[^>]+(src|href)="[^"]*"/g) ?? []) expect(src).toMatch(/(src|href)="(\.\.\/)?assets\/report\.(js|css)"/);
    }
    expect(index).toContain('src="assets/report.js"');
    expect(page).toContain('src="../assets/report.js"');
  });

  it('the index lists every study with its counts, linked to its page, most major findings first', () => {
    const charts = buildReportCharts(result);
    const studies = groupByStudy(result.findings);
    const index = renderIndexPage({ summary: result.summary, studies, dataset, charts });
    const rows = [...index.matchAll(/<tr data-sid="([^"]*)">([\s\S]*?)<\/tr>/g)];
    expect(rows.map((r) => r[1]).sort()).toEqual(dataset.tables.studies.map((s) => s.sid).sort());
    const majors = rows.map((r) => Number(/<td class="num" data-sort="(\d+)">/.exec(r[2])![1]));
    expect(majors).toEqual([...majors].sort((a, b) => b - a));
    for (const st of studies) {
      const row = rows.find((r) => r[1] === st.sid)![2];
      expect(row).toContain(`href="studies/${st.file}"`);
      const n = st.findings.filter((f) => f.severity === 'major').length;
      expect(row).toContain(`<td class="num" data-sort="${n}">${n}</td>`);
    }
    // Every major finding links to its card.
    for (const f of result.findings.filter((x) => x.severity === 'major')) expect(index).toContain(`#${f.id}"`);
  });

  it('a card shows the exact record ids, readable values beside the normed ones, the subject by name, links to PK-DB and a local server', () => {
    const charts = buildReportCharts(result);
    const study = groupByStudy(result.findings).find((s) => s.sid === 'SYN0002')!;
    const html = renderStudyPage(study, { dataset, serveUrl: SERVE, charts });
    // Planted error A: cmax of output 139 entered in ng/mL instead of µg/mL.
    const f = result.findings.find((x) => x.output_pk === 139 && x.kind === 'reported-vs-recomputed')!;
    const c = card(html, f.id!);
    expect(c).toContain('data-field="output_pk" data-pk="139"');
    expect(c).toContain(`data-field="subset_pk" data-pk="${f.subset_pk}"`);
    expect(c).toContain(`href="${SERVE}api/v1/outputs/139/"`);
    expect(c).toContain(`href="${SERVE}api/v1/subsets/${f.subset_pk}/"`);
    expect(c).toContain('<b>8.9 ng/mL</b> <span class="normed">(normed 0.0000089 gram / liter)</span>');
    expect(c).toContain('<b>8.9 µg/mL</b>');
    const individual = dataset.individual(Number(f.subject!.split(':')[1]))!;
    const group = dataset.group(individual.group_pk!)!;
    expect(c).toContain(`individual &#39;${individual.name}&#39; of group &#39;${group.name}&#39;`);
    expect(c).toContain(`data-chart="tc-${f.subset_pk}"`);
    expect(html).toContain('href="https://pk-db.com/data/SYN0002"');
    expect(html).toContain(`href="${SERVE}api/v1/studies/SYN0002/"`);
  });

  it('draws each flagged timecourse once per page and points the other findings of it there', () => {
    const charts = buildReportCharts(result);
    const drawable = new Set(result.timecourses.map((rt) => rt.tc.subset_pk));
    for (const study of groupByStudy(result.findings)) {
      const html = renderStudyPage(study, { dataset, serveUrl: SERVE, charts });
      // Concentration timecourses (the report draws no urine timecourse: a urine finding's subset has no chart).
      const flagged = new Set(study.findings.filter((f) => f.severity !== 'info' && f.subset_pk !== null && drawable.has(f.subset_pk)).map((f) => f.subset_pk));
      for (const pk of flagged) expect(html.match(new RegExp(`data-chart="tc-${pk}"`, 'g'))).toHaveLength(1);
      expect(Object.keys(pageSpecs(html)).sort()).toEqual([...html.matchAll(/data-chart="([^"]+)"/g)].map((m) => m[1]).sort());
      // Every finding of the study has its card, once.
      for (const f of study.findings) expect(html.match(new RegExp(`data-finding-id="${f.id}"`, 'g'))).toHaveLength(1);
    }
  });

  it('shows accepted findings apart, with who, when and why', () => {
    const charts = buildReportCharts(result);
    const study = groupByStudy(result.findings).find((s) => s.sid === 'SYN0002')!;
    const accepted = study.findings.find((f) => f.severity === 'major')!;
    const review = reviewFindings(result.findings, [acceptedEntryFor(accepted, 'jdoe', '2024-05-02', 'authors report the mean curve')]);
    const html = renderStudyPage(study, { dataset, serveUrl: SERVE, charts, review });
    const toReview = html.slice(html.indexOf('<h2>To review'), html.indexOf('<details class="group"><summary>Accepted'));
    const acceptedPart = html.slice(html.indexOf('<details class="group"><summary>Accepted (1)'));
    expect(acceptedPart).toContain(`data-finding-id="${accepted.id}"`);
    expect(toReview).not.toContain(`data-finding-id="${accepted.id}"`);
    expect(card(html, accepted.id!)).toContain('accepted</span> by jdoe on 2024-05-02: authors report the mean curve');
  });

  it('draws a reference-range strip for a finding whose details carry a range', () => {
    const base = runQa(dataset);
    const ranged = finding({
      kind: 'plausibility',
      severity: 'major',
      check: 'range/test',
      study_sid: 'SYN0003',
      study_name: 'Synthetic2020c',
      output_pk: 999001,
      measurement_type: 'cmax',
      reported: 0.012,
      reported_unit: 'gram / liter',
      message: 'cmax ×1000 above the range of other studies',
      details: { range: { n_studies: 7, low: 0.000004, high: 0.00003 } },
    });
    const findings = withFindingIds([...base.findings, ranged]);
    const withRange = { ...base, findings };
    const id = findings[findings.length - 1].id!;
    expect(findingRange(findings[findings.length - 1])).toMatchObject({ low: 0.000004, high: 0.00003, n: 7, unit: 'gram / liter' });
    const charts = buildReportCharts(withRange);
    const spec = charts.ranges.get(id) as unknown as { layer: { data: { values: Record<string, unknown>[] } }[] };
    expect(spec).toBeDefined();
    // In the display unit of the range: 4–30 ng/mL, the reported value 12000 ng/mL.
    expect(spec.layer[0].data.values[0]).toMatchObject({ low: 4, high: 30 });
    expect(spec.layer[2].data.values).toEqual([{ label: 'reported', value: 12000 }]);
    const study = groupByStudy(findings).find((s) => s.sid === 'SYN0003')!;
    const html = renderStudyPage(study, { dataset, serveUrl: SERVE, charts });
    expect(card(html, id)).toContain(`data-chart="range-${id}"`);
    expect(Object.keys(pageSpecs(html))).toContain(`range-${id}`);
  });

  it('names study pages by sid, and safely when a sid is not a file name', () => {
    expect(studyFileName('PKDB00123')).toBe('PKDB00123.html');
    expect(studyFileName(null)).toBe('_no-study.html');
    const odd = studyFileName('../etc/passwd');
    expect(odd).toMatch(/^s-[A-Za-z0-9_.-]+-[0-9a-f]+\.html$/);
    expect(odd).not.toContain('/');
    expect(studyFileName('a b')).not.toBe(studyFileName('a_b'));
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

  it('CSV writes numbers as JavaScript prints them, non-finite ones and missing cells empty', () => {
    expect(csvField(-1.5e-7)).toBe('-1.5e-7');
    expect(csvField(1234.5)).toBe('1234.5');
    expect(csvField(Number.NaN)).toBe('');
    expect(csvField(Infinity)).toBe('');
    expect(csvField(false)).toBe('false');
    const rows = [{ x: 0.1 + 0.2, y: 'a' }, { x: null, y: undefined }];
    expect(toCsv(['x', 'y', 'z'] as const, rows)).toBe('x,y,z\n0.30000000000000004,a,\n,,\n');
    expect(toCsv(['x', 'n'] as const, rows, (row, c) => (c === 'n' ? `#${row.y ?? ''},` : row.x))).toBe('x,n\n0.30000000000000004,"#a,"\n,"#,"\n');
    expect(toCsv(['x'] as const, [])).toBe('x\n');
  });
});
