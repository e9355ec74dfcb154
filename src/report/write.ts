/**
 * Writes the outputs of a QA run into a folder: findings.json, findings.csv,
 * summary.json, calculated.csv, plots/*.vl.json (and .png), and the report
 * (report/index.html, report/studies/<sid>.html, report/assets/). Everything
 * is written into a temporary sibling folder that replaces `dir` only when
 * complete (output-dir.ts): an abort (`signal`) or a failure leaves the
 * previous report as it was. The temporary folder is the report before last
 * when there is one, its files overwritten (output-dir.ts: cheaper than new files).
 *
 * Data files go to libuv's thread pool while this thread builds the next one
 * (creating a file costs the kernel 0.1–0.25 ms, ~200 ms for the plots of the
 * shared export); the event loop turns every PLOTS_PER_TURN plots so that each
 * file's write and close follow its open meanwhile. PNGs are rendered one at a time and each is written before
 * the next is drawn, so memory stays that of one chart.
 */
import { mkdirSync, writeFile as writeFileWithCallback } from 'node:fs';
import { join } from 'node:path';
import type { Dataset } from '../data/dataset.js';
import { reviewState, reviewSummary, reviewedFinding, type FindingReview } from '../qa/accepted.js';
import { FINDING_COLUMNS } from '../qa/finding.js';
import { withFindingIds } from '../qa/finding-id.js';
import type { QaResult } from '../qa/run.js';
import { CALCULATED_COLUMNS } from '../qa/to-findings.js';
import { buildReportCharts, chartPlots, reportPlots } from './charts.js';
import { toCsv } from './csv.js';
import { checkTarget, commitTemp, discardTemp, makeTempSibling, pruneTemp } from './output-dir.js';
import { DEFAULT_SERVE_URL } from './records.js';

export type WritePhase = 'data files' | 'plots' | 'pages' | 'PNG';

export interface WriteOptions {
  html: boolean;
  png: boolean;
  /** Accepted findings (qa/accepted.ts): marked in findings.json/csv and the pages, counted in summary.json's `review`. */
  review?: { file: string; review: FindingReview };
  /** The checked dataset: subjects by name and size in the pages ("group 'healthy' (n=12)"), studies without findings in the index. */
  dataset?: Dataset;
  /** Base URL of a local `pkdb serve` the pages link records to (default http://127.0.0.1:8000/). */
  serveUrl?: string;
  /** Replace the report's own files in a folder that holds other files too. */
  force?: boolean;
  /** Stops between files; the previous report stays. */
  signal?: AbortSignal;
  onProgress?: (phase: WritePhase, done: number, total: number) => void;
}

/**
 * fs.writeFile with a callback, as a promise: the same open, write and close on libuv's threads, at ~40 % less
 * of this thread's CPU than fs/promises' writeFile (which makes a FileHandle and runs an async chain per file):
 * ~110 -> ~70 ms for 960 files of 9 KB.
 */
function writeFile(path: string, content: string | Buffer): Promise<void> {
  return new Promise((resolve, reject) => writeFileWithCallback(path, content, (error) => (error ? reject(error) : resolve())));
}

/** Plots built between two turns of the event loop (see writeInto). */
export const PLOTS_PER_TURN = 8;

/** Resolves after the event loop's I/O callbacks have run (setImmediate: after the poll phase). */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** findings.csv: the finding columns, then `review` (open, accepted or reopened). */
export const FINDINGS_CSV_COLUMNS = [...FINDING_COLUMNS, 'review'] as const;

/** Paths written, relative to `dir`. */
export async function writeQaOutputs(result: QaResult, dir: string, options: WriteOptions): Promise<string[]> {
  const force = Boolean(options.force);
  checkTarget(dir, force);
  options.signal?.throwIfAborted();
  const tmp = makeTempSibling(dir);
  try {
    const written = await writeInto(result, tmp, options);
    options.signal?.throwIfAborted();
    pruneTemp(tmp, written);
    commitTemp(tmp, dir, force);
    return written;
  } catch (error) {
    discardTemp(tmp);
    throw error;
  }
}

/**
 * Writes the report into `dir`. On an abort or a failure it first waits for the writes already handed to libuv:
 * removing the folder while one is in flight raced it (a file created between the removal's listing and its rmdir
 * left the temporary folder behind, ENOTEMPTY).
 */
async function writeInto(result: QaResult, dir: string, options: WriteOptions): Promise<string[]> {
  const pending: Promise<void>[] = [];
  try {
    return await writeAll(result, dir, options, pending);
  } catch (error) {
    await Promise.allSettled(pending);
    throw error;
  }
}

async function writeAll(result: QaResult, dir: string, options: WriteOptions, pending: Promise<void>[]): Promise<string[]> {
  const { signal, onProgress } = options;
  mkdirSync(join(dir, 'plots'), { recursive: true });
  const written: string[] = [];
  const write = (name: string, content: string | Buffer) => {
    const done = writeFile(join(dir, name), content);
    // Handled here (the outcome is read after the loop): a failure met while the loop yields is no unhandled rejection.
    done.catch(() => undefined);
    pending.push(done);
    written.push(name);
  };
  // Every written finding carries its stable id (finding-id.ts); the pages show it too.
  const findings = withFindingIds(result.findings);
  result = { ...result, findings };
  const review = options.review;
  write('findings.json', `${JSON.stringify(findings.map((f) => reviewedFinding(f, review?.review)), null, 1)}\n`);
  write('findings.csv', toCsv(FINDINGS_CSV_COLUMNS, findings, (f, c) => (c === 'review' ? reviewState(f, review?.review) : f[c])));
  const summary = review ? { ...result.summary, review: reviewSummary(findings, review.review, review.file) } : result.summary;
  write('summary.json', `${JSON.stringify(summary, null, 2)}\n`);
  write('calculated.csv', toCsv(CALCULATED_COLUMNS, result.calculated));
  onProgress?.('data files', 4, 4);

  // The pages need every chart at once; without them each plot is built, written and dropped in turn.
  const charts = options.html ? buildReportCharts(result) : null;
  const plots = charts ? chartPlots(charts) : reportPlots(result);
  for (let i = 0; i < plots.length; i++) {
    write(join('plots', `${plots[i].name}.vl.json`), `${plots[i].json()}\n`);
    onProgress?.('plots', i + 1, plots.length);
    // A writeFile is an open, a write and a close, each handed to libuv's threads from this one: without a turn of the
    // event loop only the opens progress while the specs are built, and the ~950 writes and closes of the shared
    // export's plots all waited for the end (~150 ms). A turn every few plots lets them follow.
    if (i % PLOTS_PER_TURN === PLOTS_PER_TURN - 1) await nextTurn();
  }

  if (charts) {
    // Only with options.html. The page modules load only for HTML: a --no-html run does without them.
    const [{ REPORT_SCRIPT, REPORT_STYLE }, { groupByStudy, renderIndexPage, renderStudyPage }, { vendorBundle }] = await Promise.all([
      import('./page-assets.js'),
      import('./pages.js'),
      import('./vendor.js'),
    ]);
    const studies = groupByStudy(findings);
    mkdirSync(join(dir, 'report', 'studies'), { recursive: true });
    mkdirSync(join(dir, 'report', 'assets'), { recursive: true });
    write(join('report', 'assets', 'vendor.js'), vendorBundle());
    write(join('report', 'assets', 'report.js'), REPORT_SCRIPT);
    write(join('report', 'assets', 'report.css'), REPORT_STYLE);
    const ctx = { dataset: options.dataset, serveUrl: options.serveUrl ?? DEFAULT_SERVE_URL, review: review?.review, charts };
    write(join('report', 'index.html'), renderIndexPage({ summary, studies, dataset: options.dataset, review: review?.review, charts }));
    for (let i = 0; i < studies.length; i++) {
      signal?.throwIfAborted();
      write(join('report', 'studies', studies[i].file), renderStudyPage(studies[i], ctx));
      onProgress?.('pages', i + 1, studies.length);
    }
  }
  // Every write is waited for; the first failure in writing order is the one reported.
  const failure = (await Promise.allSettled(pending)).find((outcome) => outcome.status === 'rejected');
  if (failure) throw failure.reason;

  if (options.png) {
    // vega and resvg cost ~0.5 s to load: only when PNGs are asked for.
    const { renderPng } = await import('../plots/render.js');
    for (let i = 0; i < plots.length; i++) {
      signal?.throwIfAborted();
      // Without pages, the spec is built again here (one at a time, as for the JSON).
      const file = join('plots', `${plots[i].name}.png`);
      await writeFile(join(dir, file), await renderPng(plots[i].spec()));
      written.push(file);
      onProgress?.('PNG', i + 1, plots.length);
    }
  }
  return written;
}
