/**
 * The outputs of `pkdb diff`: diff.json (the whole ReleaseDiff), diff.csv (one
 * row per change: a study added or removed, a changed field of a record, a
 * record added or removed, a finding resolved, introduced or changed) and
 * diff.html (self-contained, every text escaped, no script, no network).
 */
import { mkdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DiffFinding, ReleaseDiff } from '../qa/release-diff.js';
import { toCsv } from './csv.js';
import { escapeHtml } from './escape.js';

export const DIFF_COLUMNS = [
  'section',
  'change',
  'table',
  'study_sid',
  'key',
  'old_pk',
  'new_pk',
  'field',
  'old',
  'new',
  'factor',
  'factor_label',
  'finding_id',
  'severity',
  'old_severity',
  'kind',
  'measurement_type',
  'message',
] as const;
export type DiffRow = Partial<Record<(typeof DIFF_COLUMNS)[number], unknown>>;

/** Values as CSV cells: lists and objects as JSON. */
const cell = (v: unknown) => (v !== null && typeof v === 'object' ? JSON.stringify(v) : v);

function findingRow(change: string, f: DiffFinding, old?: DiffFinding): DiffRow {
  return {
    section: 'finding', change, study_sid: f.study_sid, old_pk: old?.output_pk ?? null, new_pk: f.output_pk, finding_id: f.id,
    severity: f.severity, old_severity: old?.severity ?? null, kind: f.kind, measurement_type: f.measurement_type, message: f.message,
    old: old ? old.reported : null, new: f.reported,
  };
}

/** diff.csv's rows, in the order studies, records, findings. */
export function diffRows(diff: ReleaseDiff): DiffRow[] {
  const rows: DiffRow[] = [];
  for (const sid of diff.studies.added) rows.push({ section: 'study', change: 'added', table: 'studies', study_sid: sid, key: sid });
  for (const sid of diff.studies.removed) rows.push({ section: 'study', change: 'removed', table: 'studies', study_sid: sid, key: sid });
  for (const r of diff.records) {
    const base = { section: 'record', change: r.change, table: r.table, study_sid: r.study_sid, key: r.key, old_pk: r.old_pk, new_pk: r.new_pk };
    if (r.fields.length === 0) rows.push(base);
    for (const f of r.fields) rows.push({ ...base, field: f.field, old: cell(f.old), new: cell(f.new), factor: f.factor, factor_label: f.factor_label });
  }
  if (diff.findings) {
    for (const f of diff.findings.resolved) rows.push({ ...findingRow('resolved', f), old_severity: f.severity, severity: null, old: f.reported, new: null });
    for (const f of diff.findings.introduced) rows.push(findingRow('introduced', f));
    for (const c of diff.findings.changed) rows.push({ ...findingRow('changed', c.new, c.old), field: c.changed.join(' ') });
  }
  return rows;
}

/** Rows shown per HTML table; the rest are in diff.csv (a whole-database diff stays a page a browser opens). */
export const HTML_ROW_LIMIT = 2000;
/** Lists (timecourse values) are cut in the page. */
const HTML_VALUE_CHARS = 160;

function shown(v: unknown): string {
  if (v === null || v === undefined) return '';
  const text = typeof v === 'number' ? String(v) : typeof v === 'object' ? JSON.stringify(v) : String(v);
  return text.length > HTML_VALUE_CHARS ? `${text.slice(0, HTML_VALUE_CHARS)}…` : text;
}

function table(caption: string, columns: readonly (typeof DIFF_COLUMNS)[number][], rows: readonly DiffRow[]): string {
  if (rows.length === 0) return `<h2>${escapeHtml(caption)}</h2><p>none</p>`;
  const head = columns.map((c) => `<th>${escapeHtml(c)}</th>`).join('');
  const body = rows
    .slice(0, HTML_ROW_LIMIT)
    .map((r) => `<tr>${columns.map((c) => `<td>${escapeHtml(shown(r[c]))}</td>`).join('')}</tr>`)
    .join('\n');
  const more = rows.length > HTML_ROW_LIMIT ? `<p>${rows.length - HTML_ROW_LIMIT} more rows in diff.csv</p>` : '';
  return `<h2>${escapeHtml(caption)} (${rows.length})</h2><table><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table>${more}`;
}

const STYLE = `body{font:14px system-ui,sans-serif;margin:1.5em;color:#222}table{border-collapse:collapse;font-size:12px;margin-bottom:1em}
td,th{border-bottom:1px solid #ddd;padding:2px 6px;text-align:left;vertical-align:top}th{background:#f3f3f3}
.counts td:not(:first-child){text-align:right}code{background:#f6f6f6}`;

export function renderDiffHtml(diff: ReleaseDiff, rows: readonly DiffRow[] = diffRows(diff)): string {
  const countRows = Object.entries(diff.counts)
    .map(([t, c]) => `<tr><td>${escapeHtml(t)}</td><td>${c.added}</td><td>${c.removed}</td><td>${c.changed}</td><td>${c.unchanged}</td></tr>`)
    .join('');
  const f = diff.findings;
  const findingsLine = f
    ? `<p>QA findings (minor and major): ${f.resolved.length} resolved, ${f.introduced.length} introduced, ${f.changed.length} changed, ${f.unchanged} unchanged.</p>`
    : '<p>QA findings not compared (--no-qa).</p>';
  const studies = (label: string, sids: string[]) => `<li>${escapeHtml(label)}: ${sids.length ? sids.map((s) => `<code>${escapeHtml(s)}</code>`).join(', ') : 'none'}</li>`;
  const of = (section: string, change?: string) => rows.filter((r) => r.section === section && (!change || r.change === change));
  const recordColumns = ['change', 'table', 'study_sid', 'key', 'old_pk', 'new_pk', 'field', 'old', 'new', 'factor_label'] as const;
  const findingColumns = ['finding_id', 'old_severity', 'severity', 'study_sid', 'kind', 'measurement_type', 'field', 'message'] as const;
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>pkdb diff</title><style>${STYLE}</style></head><body>
<h1>pkdb diff</h1>
<p>old: <code>${escapeHtml(diff.old.location)}</code> (${escapeHtml(diff.old.kind)})<br>new: <code>${escapeHtml(diff.new.location)}</code> (${escapeHtml(diff.new.kind)})</p>
<p>${diff.differences ? 'The releases differ.' : 'No differences.'}</p>
<ul>${studies('studies added', diff.studies.added)}${studies('studies removed', diff.studies.removed)}${studies('studies changed', diff.studies.changed)}</ul>
<table class="counts"><thead><tr><th>records</th><th>added</th><th>removed</th><th>changed</th><th>unchanged</th></tr></thead><tbody>${countRows}</tbody></table>
${findingsLine}
${table('Records changed', recordColumns, of('record', 'changed'))}
${table('Records added', recordColumns, of('record', 'added'))}
${table('Records removed', recordColumns, of('record', 'removed'))}
${table('Findings resolved', findingColumns, of('finding', 'resolved'))}
${table('Findings introduced', findingColumns, of('finding', 'introduced'))}
${table('Findings changed', findingColumns, of('finding', 'changed'))}
</body></html>
`;
}

/** Writes diff.json, diff.csv and diff.html into `dir` (created); returns the names. */
export async function writeDiffOutputs(diff: ReleaseDiff, dir: string): Promise<string[]> {
  mkdirSync(dir, { recursive: true });
  const rows = diffRows(diff);
  await Promise.all([
    writeFile(join(dir, 'diff.json'), `${JSON.stringify(diff, null, 1)}\n`),
    writeFile(join(dir, 'diff.csv'), toCsv(DIFF_COLUMNS, rows)),
    writeFile(join(dir, 'diff.html'), renderDiffHtml(diff, rows)),
  ]);
  return ['diff.json', 'diff.csv', 'diff.html'];
}
