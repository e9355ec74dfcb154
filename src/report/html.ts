/**
 * report.html: one self-contained file. vega, vega-lite and vega-embed are
 * inlined, the chart specs travel as JSON in a <script type="application/json">
 * element, tables are rendered here (escaped) and made sortable/filterable by
 * a few lines of vanilla JS. The CSP forbids every network fetch; vega needs
 * 'unsafe-eval' for its expression language.
 */
import type { TopLevelSpec } from 'vega-lite';
import { FINDING_COLUMNS, type Finding } from '../qa/finding.js';
import type { QaResult } from '../qa/run.js';
import type { ReportCharts } from './charts.js';
import { escapeHtml, inlineScript, jsonForScript } from './escape.js';
import { REPORT_SCRIPT, REPORT_STYLE } from './page-assets.js';
import { vendorScripts } from './vendor.js';

const CSP = "default-src 'none'; script-src 'unsafe-inline' 'unsafe-eval'; style-src 'unsafe-inline'; img-src data:; font-src data:";

/** Columns of a study's table: the finding's columns minus those the study heading already says. */
const STUDY_COLUMNS = FINDING_COLUMNS.filter((c) => c !== 'study_sid' && c !== 'study_name');
/** Columns of the overview's table of major findings, which spans studies. */
const MAJOR_COLUMNS = FINDING_COLUMNS.filter((c) => c !== 'study_sid');

/** Above this many charts they render when scrolled into view, so a large report stays responsive. */
export const EAGER_CHART_LIMIT = 200;

/** Columns that hold record identifiers: shown exactly, never rounded (output 143002 must not read as 143000). */
const IDENTIFIER_COLUMNS: ReadonlySet<string> = new Set(['subset_pk', 'output_pk']);

/** A cell's text: identifiers exactly, values to 6 significant digits (enough to see any slip factor). */
export function formatCell(column: string, value: unknown): string {
  if (typeof value === 'number') {
    if (IDENTIFIER_COLUMNS.has(column) || !Number.isFinite(value)) return String(value);
    return String(+value.toPrecision(6));
  }
  return value == null ? '' : String(value);
}

function findingsTable(findings: readonly Finding[], id: string, columns: readonly (typeof FINDING_COLUMNS)[number][] = STUDY_COLUMNS): string {
  const head = columns.map((c) => `<th data-col="${c}" tabindex="0">${escapeHtml(c)}</th>`).join('');
  const rows = findings
    .map((f) => {
      const cells = columns.map((c) => {
        const v = f[c];
        const sortKey = typeof v === 'number' ? ` data-sort="${v}"` : c === 'severity' ? ` data-sort="${{ info: 0, minor: 1, major: 2 }[f.severity]}"` : '';
        return `<td${sortKey}>${escapeHtml(formatCell(c, v))}</td>`;
      }).join('');
      return `<tr class="sev-${f.severity}">${cells}</tr>`;
    })
    .join('\n');
  return `<div class="table-tools"><input type="search" class="filter" data-table="${id}" placeholder="filter findings…" aria-label="filter findings"> <span class="shown" data-table="${id}"></span></div>
<table class="findings" id="${id}"><thead><tr>${head}</tr></thead><tbody>
${rows}
</tbody></table>`;
}

function countsTable(title: string, counts: Record<string, number | string | object>): string {
  const rows = Object.entries(counts)
    .map(([k, v]) => `<tr><td>${escapeHtml(k)}</td><td>${escapeHtml(typeof v === 'number' || typeof v === 'string' ? v : JSON.stringify(v))}</td></tr>`)
    .join('');
  return `<table class="counts"><caption>${escapeHtml(title)}</caption><tbody>${rows}</tbody></table>`;
}

/** Coverage: records examined by some comparison, per kind, and the commonest reasons for the rest. */
function coverageTables(coverage: NonNullable<QaResult['summary']['coverage']>): string {
  const kinds = { 'reported outputs': coverage.outputs, timecourses: coverage.timecourses, dosings: coverage.dosings };
  const examined = Object.fromEntries(
    Object.entries(kinds).map(([k, c]) => [k, `${c.examined} of ${c.total} (${c.total ? Math.round((100 * c.examined) / c.total) : 0} %)`]),
  );
  const reasons = Object.fromEntries(Object.entries(coverage.outputs.unexamined_reasons).slice(0, 8));
  return `${countsTable('examined by a comparison', examined)}
${countsTable('reported outputs not examined: why', reasons)}`;
}

function chartDiv(id: string): string {
  return `<div class="chart" id="${id}" data-chart="${id}"></div>`;
}

interface StudySection {
  sid: string;
  name: string;
  findings: Finding[];
}

function studySections(findings: readonly Finding[]): StudySection[] {
  const bySid = new Map<string, StudySection>();
  for (const f of findings) {
    const sid = f.study_sid ?? '(no study)';
    let section = bySid.get(sid);
    if (!section) bySid.set(sid, (section = { sid, name: f.study_name ?? sid, findings: [] }));
    section.findings.push(f);
  }
  const worst = (s: StudySection) => s.findings.filter((f) => f.severity === 'major').length;
  return [...bySid.values()].sort((a, b) => worst(b) - worst(a) || a.sid.localeCompare(b.sid));
}

export function renderReport(result: QaResult, charts: ReportCharts): string {
  const specs: Record<string, TopLevelSpec> = {};
  for (const { id, spec } of charts.overview) specs[id] = spec;
  const sections = studySections(result.findings).map((section, index) => {
    const tableId = `findings-${index}`;
    const subsets = [...new Set(section.findings.map((f) => f.subset_pk).filter((pk): pk is number => pk !== null && charts.timecourses.has(pk)))];
    const plots = subsets
      .map((pk) => {
        const id = `tc-${pk}`;
        specs[id] = charts.timecourses.get(pk) as TopLevelSpec;
        return chartDiv(id);
      })
      .join('\n');
    const { major = 0, minor = 0, info = 0 } = result.summary.by_study[section.sid] ?? {};
    return `<section class="study" id="study-${index}">
<h2>${escapeHtml(section.name)} <small>${escapeHtml(section.sid)}</small></h2>
<p class="badges"><span class="sev-major">${major} major</span> <span class="sev-minor">${minor} minor</span> <span class="sev-info">${info} info</span></p>
${findingsTable(section.findings, tableId)}
${plots ? `<h3>Timecourses with minor or major findings</h3>\n<div class="plots">${plots}</div>` : ''}
</section>`;
  });
  const s = result.summary;
  const vendor = vendorScripts()
    .map((v) => `<script data-lib="${v.name}">${inlineScript(v.source)}</script>`)
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>PK-DB QA report</title>
<style>${REPORT_STYLE}</style>
</head>
<body>
<header><h1>PK-DB QA report</h1>
<p>Source: ${escapeHtml(s.source.kind)} ${escapeHtml(s.source.location)} · ${s.studies} studies · ${s.timecourses} concentration timecourses · ${s.findings} findings
(<span class="sev-major">${s.by_severity.major ?? 0} major</span>, <span class="sev-minor">${s.by_severity.minor ?? 0} minor</span>, ${s.by_severity.info ?? 0} info)</p></header>
<section id="overview"><h2>Overview</h2>
<div class="plots">${charts.overview.map((c) => chartDiv(c.id)).join('\n')}</div>
<div class="count-tables">
${countsTable('findings by kind', s.by_kind)}
${countsTable('findings by severity', s.by_severity)}
${countsTable('findings by measurement type', s.by_measurement_type)}
${countsTable('reported vs recomputed', s.comparisons)}
${countsTable('stored calculated outputs', s.calculated)}
${s.coverage ? coverageTables(s.coverage) : ''}
</div>
<h3>All major findings</h3>
${findingsTable(
  result.findings.filter((f) => f.severity === 'major'),
  'findings-major',
  MAJOR_COLUMNS,
)}
</section>
${sections.join('\n')}
<script type="application/json" id="qa-specs">${jsonForScript(specs)}</script>
${vendor}
<script>const EAGER_CHART_LIMIT = ${EAGER_CHART_LIMIT};\n${REPORT_SCRIPT}</script>
</body>
</html>
`;
}
