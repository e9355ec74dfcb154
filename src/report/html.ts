/**
 * Shared pieces of the report's pages (report/index.html and one page per
 * study under report/studies/): the page frame with its Content-Security-
 * Policy, and how numbers are written. Pages load report/assets/report.css,
 * report.js and (on demand) vendor.js by relative path; chart specs travel
 * as JSON in a <script type="application/json">. The CSP allows scripts and
 * styles from the report's own folder only and forbids every network fetch;
 * vega needs 'unsafe-eval' for its expression language.
 */
import { escapeHtml } from './escape.js';

/** `'self'` covers a report served over http; `file:` a report opened from disk in browsers that give each file its own origin. */
export const CSP = "default-src 'none'; script-src 'self' file: 'unsafe-eval'; style-src 'self' file: 'unsafe-inline'; img-src data:; font-src data:";

/** Columns that hold record identifiers: shown exactly, never rounded (output 143002 must not read as 143000). */
const IDENTIFIER_COLUMNS: ReadonlySet<string> = new Set(['subset_pk', 'output_pk', 'intervention_pk']);

/** A cell's text: identifiers exactly, values to 6 significant digits (enough to see any slip factor). */
export function formatCell(column: string, value: unknown): string {
  if (typeof value === 'number') {
    if (IDENTIFIER_COLUMNS.has(column) || /_pks?$/.test(column) || !Number.isFinite(value)) return String(value);
    return String(+value.toPrecision(6));
  }
  return value == null ? '' : String(value);
}

/** A whole page; `assets` is the relative path to report/assets/ ('assets/' or '../assets/'). */
export function page(options: { title: string; assets: string; body: string; specs?: Record<string, unknown>; specsJson?: string }): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(options.title)}</title>
<link rel="stylesheet" href="${options.assets}report.css">
</head>
<body>
${options.body}
${options.specsJson !== undefined ? `<script type="application/json" id="qa-specs">${options.specsJson}</script>\n` : ''}<script src="${options.assets}report.js"></script>
</body>
</html>
`;
}

/** A table whose headers sort it and whose filter box (`filterId`) searches its rows. */
export function sortableTable(id: string, headers: readonly { label: string; numeric?: boolean }[], rows: readonly string[]): string {
  const head = headers.map((h) => `<th tabindex="0"${h.numeric ? ' data-numeric="1"' : ''}>${escapeHtml(h.label)}</th>`).join('');
  return `<table class="sortable" id="${id}"><thead><tr>${head}</tr></thead><tbody>\n${rows.join('\n')}\n</tbody></table>`;
}

export function filterBox(target: string, noun: string, placeholder: string): string {
  return `<div class="tools"><input type="search" class="filter" data-target="${target}" data-noun="${noun}" placeholder="${escapeHtml(placeholder)}" aria-label="${escapeHtml(placeholder)}"> <span class="shown" data-target="${target}"></span></div>`;
}

export function countsTable(title: string, counts: Record<string, unknown>): string {
  const rows = Object.entries(counts)
    .map(([k, v]) => `<tr><td>${escapeHtml(k)}</td><td>${escapeHtml(typeof v === 'number' ? v : JSON.stringify(v))}</td></tr>`)
    .join('');
  return `<table class="counts"><caption>${escapeHtml(title)}</caption><tbody>${rows}</tbody></table>`;
}
