/**
 * One finding as a card on its study's page: what is wrong (severity,
 * measurement type, check, message), about whom (the subject by name and n),
 * which records (exact ids, each linked to a local `pkdb serve`), which one
 * to fix first (culprit), the values in readable units beside the normed
 * ones, the review state, and its chart (timecourse or reference range).
 */
import type { Dataset } from '../data/dataset.js';
import type { FindingReview, ReviewState } from '../qa/accepted.js';
import type { Finding } from '../qa/finding.js';
import { displayText } from './display-units.js';
import { escapeHtml } from './escape.js';
import { formatCell } from './html.js';
import { culpritText, localRecordUrl, recordsOf, subjectText } from './records.js';

export interface CardContext {
  dataset?: Dataset;
  /** Base URL of a local `pkdb serve`, e.g. http://127.0.0.1:8000/. */
  serveUrl: string;
  review?: FindingReview;
}

/** What a card shows below its fields: a chart (by spec id) or a link to the card that has its timecourse's chart. */
export type CardChart = { chart: string } | { seeFinding: string; subset: number } | null;

export function reviewOf(f: Finding, review: FindingReview | undefined): ReviewState {
  return (f.id && review?.entries.get(f.id)?.state) || 'open';
}

function valueCell(value: number | null, unit: string | null): string {
  if (value === null) return '';
  const shown = displayText(value, unit);
  const normed = `${escapeHtml(formatCell('value', value))}${unit ? ` ${escapeHtml(unit)}` : ''}`;
  return shown ? `<b>${escapeHtml(shown)}</b> <span class="normed">(normed ${normed})</span>` : `<b>${normed}</b>`;
}

/** Details besides the records: scalars and short lists as text, records as their pk, the rest as cut JSON. */
function detailsText(details: Record<string, unknown> | undefined): string {
  if (!details) return '';
  const parts: string[] = [];
  for (const [key, value] of Object.entries(details)) {
    if (value === null || value === undefined || (Array.isArray(value) && value.length === 0)) continue;
    let text: string;
    if (typeof value === 'number') text = formatCell(key, value);
    else if (typeof value === 'string' || typeof value === 'boolean') text = String(value);
    else if (Array.isArray(value) && value.every((v) => typeof v === 'number' || typeof v === 'string')) {
      text = value.slice(0, 20).map((v) => formatCell(key, v)).join(', ') + (value.length > 20 ? ` … (${value.length})` : '');
    } else if (typeof value === 'object' && typeof (value as { pk?: unknown }).pk === 'number') text = `record ${(value as { pk: number }).pk}`;
    else {
      const json = JSON.stringify(value);
      text = json.length > 240 ? `${json.slice(0, 240)}…` : json;
    }
    parts.push(`<span class="detail"><i>${escapeHtml(key)}</i>: ${escapeHtml(text)}</span>`);
  }
  return parts.join('; ');
}

function reviewText(f: Finding, review: FindingReview | undefined): string {
  const r = f.id ? review?.entries.get(f.id) : undefined;
  if (!r) return '';
  const by = `${escapeHtml(r.entry.who)} on ${escapeHtml(r.entry.when)}: ${escapeHtml(r.entry.why)}`;
  if (r.state === 'accepted') return `<dt>review</dt><dd><span class="badge accepted">accepted</span> by ${by}</dd>`;
  const seen = Object.entries(r.entry.seen).map(([k, v]) => `${k} ${v === null ? '–' : formatCell(k, v)}`).join(', ');
  return `<dt>review</dt><dd><span class="badge reopened">re-opened</span> accepted by ${by}; values changed since (${escapeHtml(r.changed.join(', '))}; seen then: ${escapeHtml(seen)})</dd>`;
}

function recordsHtml(f: Finding, ctx: CardContext): string {
  return recordsOf(f)
    .map((r) => {
      const id = `<b>${r.pk}</b>`;
      const link = r.resource ? ` <a href="${escapeHtml(localRecordUrl(ctx.serveUrl, r.resource, r.pk))}" title="this record on a local pkdb serve">serve</a>` : '';
      return `<span class="rec" data-field="${escapeHtml(r.field)}" data-pk="${r.pk}">${escapeHtml(r.role)} ${id}${link}</span>`;
    })
    .join('');
}

export function findingCard(f: Finding, ctx: CardContext, chart: CardChart): string {
  const state = reviewOf(f, ctx.review);
  const id = f.id ?? '';
  const subject = subjectText(f.subject, ctx.dataset);
  const culprit = culpritText(f);
  const fields = [
    subject ? `<dt>subject</dt><dd>${escapeHtml(subject)}</dd>` : '',
    `<dt>records</dt><dd>${recordsHtml(f, ctx) || '–'}</dd>`,
    `<dt>fix first</dt><dd>${culprit ? `<span class="culprit">${escapeHtml(culprit)}</span>` : '<span class="normed">the checks cannot tell which record holds the slip</span>'}</dd>`,
    f.reported !== null ? `<dt>reported</dt><dd>${valueCell(f.reported, f.reported_unit)}</dd>` : '',
    f.recomputed !== null ? `<dt>recomputed</dt><dd>${valueCell(f.recomputed, f.recomputed_unit)}</dd>` : '',
    f.ratio !== null ? `<dt>ratio</dt><dd>${escapeHtml(formatCell('ratio', f.ratio))}</dd>` : '',
    f.suspected_cause ? `<dt>suspected cause</dt><dd>${escapeHtml(f.suspected_cause)}</dd>` : '',
    f.details && Object.keys(f.details).length > 0 ? `<dt>details</dt><dd>${detailsText(f.details)}</dd>` : '',
    reviewText(f, ctx.review),
  ].join('');
  const chartHtml =
    chart === null
      ? ''
      : 'chart' in chart
        ? `<div class="chart" data-chart="${escapeHtml(chart.chart)}"></div>`
        : `<p class="normed">plot of timecourse ${chart.subset}: with finding <a href="#${escapeHtml(chart.seeFinding)}">${escapeHtml(chart.seeFinding)}</a></p>`;
  const badge = state === 'open' ? '' : ` <span class="badge ${state}">${state === 'accepted' ? 'accepted' : 're-opened'}</span>`;
  return `<article class="finding sev-${f.severity}" id="${escapeHtml(id)}" data-finding-id="${escapeHtml(id)}" data-severity="${f.severity}" data-review="${state}">
<header><span class="badge ${f.severity}">${f.severity}</span> <b>${escapeHtml(f.measurement_type ?? '')}</b> <span>${escapeHtml(f.kind)}${f.check ? ` · ${escapeHtml(f.check)}` : ''}</span>${badge}<span class="fid">${escapeHtml(id)}</span></header>
<p class="msg">${escapeHtml(f.message)}</p>
<dl>${fields}</dl>
${chartHtml}</article>`;
}
