/**
 * Writes the outputs of a QA run into a directory: findings.json,
 * findings.csv, summary.json, calculated.csv, plots/*.vl.json (and .png),
 * report.html. Files are written whole; the directory is created.
 *
 * Writes go to libuv's thread pool while this thread builds the next file:
 * creating a file costs the kernel 0.1–0.25 ms, ~200 ms for a plot per
 * flagged timecourse of the shared export, which then overlaps with the
 * JSON and HTML work instead of adding to it.
 */
import { mkdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { reviewState, reviewSummary, reviewedFinding, type FindingReview } from '../qa/accepted.js';
import { FINDING_COLUMNS } from '../qa/finding.js';
import { withFindingIds } from '../qa/finding-id.js';
import type { QaResult } from '../qa/run.js';
import { CALCULATED_COLUMNS } from '../qa/to-findings.js';
import { buildReportCharts } from './charts.js';
import { toCsv } from './csv.js';
import { renderReport } from './html.js';

export interface WriteOptions {
  html: boolean;
  png: boolean;
  /** Accepted findings (qa/accepted.ts): marked in findings.json/csv, counted in summary.json's `review`. */
  review?: { file: string; review: FindingReview };
}

/** findings.csv: the finding columns, then `review` (open, accepted or reopened). */
export const FINDINGS_CSV_COLUMNS = [...FINDING_COLUMNS, 'review'] as const;

/** Paths written, relative to `dir`. */
export async function writeQaOutputs(result: QaResult, dir: string, options: WriteOptions): Promise<string[]> {
  mkdirSync(join(dir, 'plots'), { recursive: true });
  const written: string[] = [];
  const pending: Promise<void>[] = [];
  const write = (name: string, content: string | Buffer) => {
    pending.push(writeFile(join(dir, name), content));
    written.push(name);
  };
  // Every written finding carries its stable id (finding-id.ts); the report shows it too.
  const findings = withFindingIds(result.findings);
  result = { ...result, findings };
  const review = options.review;
  write('findings.json', `${JSON.stringify(findings.map((f) => reviewedFinding(f, review?.review)), null, 1)}\n`);
  write('findings.csv', toCsv(FINDINGS_CSV_COLUMNS, findings.map((f) => ({ ...f, review: reviewState(f, review?.review) }))));
  const summary = review ? { ...result.summary, review: reviewSummary(findings, review.review, review.file) } : result.summary;
  write('summary.json', `${JSON.stringify(summary, null, 2)}\n`);
  write('calculated.csv', toCsv(CALCULATED_COLUMNS, result.calculated));

  const charts = buildReportCharts(result);
  const plots = [...charts.overview.map((c) => [c.id, c.spec] as const), ...[...charts.timecourses].map(([pk, spec]) => [`timecourse-${pk}`, spec] as const)];
  // vega and resvg cost ~0.5 s to load: only when PNGs are asked for.
  const renderPng = options.png ? (await import('../plots/render.js')).renderPng : null;
  for (const [name, spec] of plots) {
    write(join('plots', `${name}.vl.json`), `${JSON.stringify(spec)}\n`);
    if (renderPng) write(join('plots', `${name}.png`), await renderPng(spec));
  }
  if (options.html) write('report.html', renderReport(result, charts));
  // Every write is waited for; the first failure in writing order is the one reported.
  const failure = (await Promise.allSettled(pending)).find((outcome) => outcome.status === 'rejected');
  if (failure) throw failure.reason;
  return written;
}
