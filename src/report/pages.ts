/**
 * The report as a worklist: report/index.html (a summary, every study with
 * its counts by severity — sortable, searchable, each linked to its page —
 * and the major findings across studies) and report/studies/<sid>.html (the
 * study's findings as cards: to review first, then info and accepted ones
 * folded away; its charts drawn lazily).
 */
import type { TopLevelSpec } from 'vega-lite';
import type { Dataset } from '../data/dataset.js';
import type { FindingReview } from '../qa/accepted.js';
import { SEVERITY_RANK, type Finding } from '../qa/finding.js';
import type { QaSummary } from '../qa/summary.js';
import type { ReportCharts } from './charts.js';
import { escapeHtml, jsonForScript } from './escape.js';
import { findingCard, reviewOf, type CardChart, type CardContext } from './finding-card.js';
import { countsTable, filterBox, page, sortableTable } from './html.js';
import { localRecordUrl, pkdbStudyUrl } from './records.js';

export interface StudyFindings {
  /** null for findings about no single study (a unit spelled oddly across the export). */
  sid: string | null;
  name: string;
  /** Page file name under report/studies/. */
  file: string;
  findings: Finding[];
}

const SAFE_SID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;
export const NO_STUDY_FILE = '_no-study.html';

/** A study's page name: the sid when it is a safe file name, else a sanitised one with a hash of the sid (never starting with `_`). */
export function studyFileName(sid: string | null): string {
  if (sid === null) return NO_STUDY_FILE;
  if (SAFE_SID.test(sid)) return `${sid}.html`;
  let h = 0x811c9dc5;
  for (let i = 0; i < sid.length; i++) h = Math.imul(h ^ sid.charCodeAt(i), 0x01000193) >>> 0;
  return `s-${sid.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 60)}-${h.toString(16)}.html`;
}

/** Findings by study, in the order of the findings (most severe first). */
export function groupByStudy(findings: readonly Finding[]): StudyFindings[] {
  const bySid = new Map<string | null, StudyFindings>();
  for (const f of findings) {
    const sid = f.study_sid;
    let s = bySid.get(sid);
    if (!s) bySid.set(sid, (s = { sid, name: f.study_name ?? sid ?? 'findings without a study', file: studyFileName(sid), findings: [] }));
    s.findings.push(f);
  }
  return [...bySid.values()];
}

type Counts = { major: number; minor: number; info: number; review: number; accepted: number };

function countsOf(findings: readonly Finding[], review: FindingReview | undefined): Counts {
  const c: Counts = { major: 0, minor: 0, info: 0, review: 0, accepted: 0 };
  for (const f of findings) {
    c[f.severity]++;
    const state = reviewOf(f, review);
    if (state === 'accepted') c.accepted++;
    else if (f.severity !== 'info') c.review++;
  }
  return c;
}

const bySeverity = (a: Finding, b: Finding) => SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity];

export interface StudyPageContext extends CardContext {
  charts: ReportCharts;
}

/** A study's page and the chart specs it embeds. */
export function renderStudyPage(study: StudyFindings, ctx: StudyPageContext): string {
  const open = study.findings.filter((f) => reviewOf(f, ctx.review) !== 'accepted');
  const toReview = open.filter((f) => f.severity !== 'info').sort(bySeverity);
  const info = open.filter((f) => f.severity === 'info');
  const accepted = study.findings.filter((f) => reviewOf(f, ctx.review) === 'accepted').sort(bySeverity);
  const specs: Record<string, TopLevelSpec> = {};
  const chartOfSubset = new Map<number, string>();
  const card = (f: Finding) => {
    let chart: CardChart = null;
    const range = f.id ? ctx.charts.ranges.get(f.id) : undefined;
    if (range && f.id) {
      chart = { chart: `range-${f.id}` };
      specs[chart.chart] = range;
    } else if (f.subset_pk !== null && ctx.charts.timecourses.has(f.subset_pk)) {
      const first = chartOfSubset.get(f.subset_pk);
      if (first) chart = { seeFinding: first, subset: f.subset_pk };
      else {
        chartOfSubset.set(f.subset_pk, f.id ?? '');
        chart = { chart: `tc-${f.subset_pk}` };
        specs[chart.chart] = ctx.charts.timecourses.get(f.subset_pk) as TopLevelSpec;
      }
    }
    return findingCard(f, ctx, chart);
  };
  const section = (title: string, list: Finding[], folded: boolean) =>
    list.length === 0
      ? ''
      : folded
        ? `<details class="group"><summary>${escapeHtml(title)} (${list.length})</summary>\n${list.map(card).join('\n')}\n</details>`
        : `<h2>${escapeHtml(title)} (${list.length})</h2>\n${list.map(card).join('\n')}`;
  const c = countsOf(study.findings, ctx.review);
  const links = study.sid
    ? `<p class="links"><a href="${escapeHtml(pkdbStudyUrl(study.sid))}">${escapeHtml(study.sid)} on pk-db.com</a><a href="${escapeHtml(localRecordUrl(ctx.serveUrl, 'studies', study.sid))}">on a local pkdb serve</a></p>`
    : '';
  const body = `<nav class="crumbs"><a href="../index.html">← all studies</a></nav>
<h1>${escapeHtml(study.name)} <small>${escapeHtml(study.sid ?? '')}</small></h1>
${links}
<p><span class="badge major">${c.major} major</span><span class="badge minor">${c.minor} minor</span><span class="badge">${c.info} info</span>${c.accepted ? `<span class="badge accepted">${c.accepted} accepted</span>` : ''} · ${c.review} to review</p>
${filterBox('findings', 'findings', 'filter findings (type, record id, cause…)')}
<div id="findings">
${toReview.length === 0 ? '<p>Nothing to review: every minor or major finding of this study is accepted.</p>' : ''}
${section('To review', toReview, false)}
${section('Info', info, true)}
${section('Accepted', accepted, true)}
</div>`;
  return page({ title: `${study.name} · PK-DB QA`, assets: '../assets/', body, specsJson: jsonForScript(specs) });
}

export interface IndexContext {
  summary: QaSummary & { review?: unknown; coverage?: unknown };
  studies: StudyFindings[];
  dataset?: Dataset;
  review?: FindingReview;
  charts: ReportCharts;
}

/** summary.coverage (when a run has it): examined of total per record kind. */
function coverageHtml(coverage: unknown): string {
  if (coverage === null || typeof coverage !== 'object') return '';
  const rows: string[] = [];
  for (const [kind, v] of Object.entries(coverage as Record<string, unknown>)) {
    if (v === null || typeof v !== 'object') continue;
    const { total, examined } = v as { total?: unknown; examined?: unknown };
    if (typeof total !== 'number' || typeof examined !== 'number') continue;
    const pct = total > 0 ? ` (${((100 * examined) / total).toFixed(0)} %)` : '';
    rows.push(`<tr><td>${escapeHtml(kind)}</td><td>${examined}</td><td>${total}</td><td>${pct}</td></tr>`);
  }
  if (rows.length === 0) return '';
  const definition = (coverage as { definition?: unknown }).definition;
  return `<table class="counts" id="coverage"><caption>coverage: records examined by some comparison</caption><thead><tr><th></th><th>examined</th><th>of</th><th></th></tr></thead><tbody>${rows.join('')}</tbody></table>${
    typeof definition === 'string' ? `<p class="normed">${escapeHtml(definition)}</p>` : ''
  }`;
}

const num = (n: number) => `<td class="num" data-sort="${n}">${n}</td>`;

export function renderIndexPage(ctx: IndexContext): string {
  const s = ctx.summary;
  const withFindings = new Map(ctx.studies.map((st) => [st.sid, st]));
  const studyRows: string[] = [];
  const rowOf = (sid: string | null, name: string, st: StudyFindings | undefined) => {
    const c = countsOf(st?.findings ?? [], ctx.review);
    const title = st ? `<a href="studies/${escapeHtml(st.file)}">${escapeHtml(name)}</a>` : escapeHtml(name);
    return `<tr data-sid="${escapeHtml(sid ?? '')}"><td>${title}</td><td>${escapeHtml(sid ?? '')}</td>${num(c.major)}${num(c.minor)}${num(c.info)}${num(c.review)}${num(c.accepted)}</tr>`;
  };
  // Most major findings first (the table re-sorts by any column).
  const order = (st: StudyFindings) => countsOf(st.findings, ctx.review);
  const ranked = ctx.studies.map((st) => ({ st, c: order(st) }));
  ranked.sort((a, b) => b.c.major - a.c.major || b.c.minor - a.c.minor || b.c.info - a.c.info || (a.st.sid ?? '').localeCompare(b.st.sid ?? ''));
  for (const { st } of ranked) studyRows.push(rowOf(st.sid, st.name, st));
  // Studies without findings are listed too (no page), so the table answers "was X checked?".
  for (const st of ctx.dataset?.tables.studies ?? []) if (!withFindings.has(st.sid)) studyRows.push(rowOf(st.sid, st.name, undefined));
  const headers = [{ label: 'study' }, { label: 'sid' }, ...['major', 'minor', 'info', 'to review', 'accepted'].map((label) => ({ label, numeric: true }))];
  const majors = ctx.studies.flatMap((st) => st.findings.filter((f) => f.severity === 'major').map((f) => ({ f, st })));
  const majorRows = majors.map(({ f, st }) => {
    const state = reviewOf(f, ctx.review);
    return `<tr><td class="id"><a href="studies/${escapeHtml(st.file)}#${escapeHtml(f.id ?? '')}">${escapeHtml(f.id ?? '')}</a></td><td>${escapeHtml(st.name)}</td><td>${escapeHtml(f.measurement_type ?? '')}</td><td>${escapeHtml(f.kind)}</td><td>${escapeHtml(f.culprit ?? '')}</td><td>${state}</td><td class="msg">${escapeHtml(f.message.length > 220 ? `${f.message.slice(0, 220)}…` : f.message)}</td></tr>`;
  });
  const specs = Object.fromEntries(ctx.charts.overview.map((c) => [c.id, c.spec]));
  const review = s.review as { accepted?: number; reopened?: number; accepted_file?: string } | undefined;
  const body = `<header><h1>PK-DB QA report</h1>
<p>Source: ${escapeHtml(s.source.kind)} ${escapeHtml(s.source.location)} · ${s.studies} studies${s.reference_studies ? ` (set against ${s.reference_studies} other studies)` : ''} · ${s.timecourses} concentration timecourses · ${s.findings} findings
(<span class="sev-major">${s.by_severity.major ?? 0} major</span>, <span class="sev-minor">${s.by_severity.minor ?? 0} minor</span>, ${s.by_severity.info ?? 0} info)${
    review ? ` · ${review.accepted ?? 0} accepted and ${review.reopened ?? 0} re-opened in ${escapeHtml(review.accepted_file ?? '')}` : ''
  }</p>
<p class="normed">Files: <a href="../findings.csv">findings.csv</a> · <a href="../findings.json">findings.json</a> · <a href="../summary.json">summary.json</a> · <a href="../calculated.csv">calculated.csv</a></p></header>
<h2>Studies</h2>
${filterBox('studies', 'studies', 'search studies (name or sid)')}
${sortableTable('studies', headers, studyRows)}
<h2>Major findings (${majors.length})</h2>
${filterBox('majors', 'findings', 'filter major findings')}
${sortableTable('majors', [{ label: 'id' }, { label: 'study' }, { label: 'type' }, { label: 'kind' }, { label: 'fix first' }, { label: 'review' }, { label: 'message' }], majorRows)}
<h2>Summary</h2>
<div class="count-tables">
${coverageHtml(s.coverage)}
${countsTable('findings by kind', s.by_kind)}
${countsTable('findings by severity', s.by_severity)}
${s.majors_by_culprit ? countsTable('major findings by record to fix', s.majors_by_culprit) : ''}
${countsTable('findings by measurement type', s.by_measurement_type)}
${countsTable('reported vs recomputed', s.comparisons)}
${countsTable('stored calculated outputs', s.calculated)}
</div>
<h2>Overview</h2>
<div class="plots">${ctx.charts.overview.map((c) => `<div class="chart" data-chart="${escapeHtml(c.id)}"></div>`).join('\n')}</div>`;
  return page({ title: 'PK-DB QA report', assets: 'assets/', body, specsJson: jsonForScript(specs) });
}
