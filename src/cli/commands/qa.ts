/**
 * `pkdb qa`: runs every QA check over a source and writes findings.json,
 * findings.csv, summary.json, calculated.csv, plots/*.vl.json (+ PNG) and the
 * report (report/index.html + one page per study) to --out. Exit 1 when a
 * finding reaches --fail-on; findings accepted in `--accepted FILE`
 * (qa/accepted.ts) do not count unless their values changed.
 * `--accept-all-to FILE` writes the findings at or above --fail-on as a
 * starting accepted file.
 *
 * Output handling: --out is written through a temporary sibling folder that
 * replaces it when complete (report/output-dir.ts), so Ctrl-C (exit 130) or a
 * failure leaves the previous report intact; a folder that is not a previous
 * report is refused unless --force. `--format json|csv|summary` (`--json` =
 * json) prints the findings or the summary on stdout; phases show progress on
 * stderr when it is a terminal.
 */
import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { tuneForBatch } from '../batch-tuning.js';
import { credentialOptions, type CredentialOptions } from '../credentials.js';
import type { FindingReview } from '../../qa/accepted.js';
import type { Finding, Severity } from '../../qa/finding.js';
import { UsageError } from '../errors.js';
import { createProgress, type Progress } from '../progress.js';

const FAIL_ON = ['major', 'minor', 'never'] as const;
type FailOn = (typeof FAIL_ON)[number];

interface QaCliOptions extends CredentialOptions {
  export?: string;
  baseUrl?: string;
  study?: string[];
  reference?: string;
  out: string;
  failOn: string;
  html: boolean;
  png?: boolean;
  json?: boolean;
  format?: string;
  serveUrl: string;
  accepted?: string;
  acceptAllTo?: string;
  force?: boolean;
  who?: string;
  why: string;
}

function checkedFailOn(value: string): FailOn {
  if (!(FAIL_ON as readonly string[]).includes(value)) throw new UsageError(`--fail-on must be one of ${FAIL_ON.join(', ')}, got "${value}"`);
  return value as FailOn;
}

/** Exit code for the severities found: 1 when any reaches the threshold. */
export function exitCodeForFindings(bySeverity: Record<string, number>, failOn: FailOn): number {
  if (failOn === 'never') return 0;
  const reached = failOn === 'major' ? bySeverity.major ?? 0 : (bySeverity.major ?? 0) + (bySeverity.minor ?? 0);
  return reached > 0 ? 1 : 0;
}

const FORMATS = ['json', 'csv', 'summary'] as const;
type Format = (typeof FORMATS)[number];

/** --format, or json for --json; undefined: the human summary lines. */
function checkedFormat(opts: QaCliOptions): Format | undefined {
  if (opts.format !== undefined && !(FORMATS as readonly string[]).includes(opts.format)) {
    throw new UsageError(`--format must be one of ${FORMATS.join(', ')}, got "${opts.format}"`);
  }
  if (opts.json && opts.format !== undefined && opts.format !== 'json') throw new UsageError(`--json is --format json; it cannot be combined with --format ${opts.format}`);
  return opts.json ? 'json' : (opts.format as Format | undefined);
}

function checkedServeUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`--serve-url must be an http(s) URL, got "${text}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--serve-url must be an http(s) URL, got "${text}"`);
  return url.href;
}

/** Ctrl-C while writing: the first aborts the run (the previous report stays), a second exits at once. */
class Interrupted extends Error {
  override name = 'Interrupted';
}

function onInterrupt(controller: AbortController): () => void {
  const handler = () => {
    if (controller.signal.aborted) process.exit(130);
    process.stderr.write('\npkdb qa: interrupted, stopping (Ctrl-C again to quit at once)…\n');
    controller.abort(new Interrupted('interrupted'));
  };
  process.on('SIGINT', handler);
  return () => process.off('SIGINT', handler);
}

/** Maps the writer's phases onto the progress line. */
function writeProgress(progress: Progress) {
  let current: string | null = null;
  return (phase: string, done: number, total: number) => {
    if (phase !== current) {
      progress.start(phase === 'PNG' ? 'PNG (one at a time)' : phase);
      current = phase;
    }
    progress.update(done, total);
  };
}

/** The accepted file, or a UsageError naming the file, entry and field. */
async function readAccepted(file: string) {
  const { readAcceptedFile, AcceptedFileError } = await import('../../qa/accepted-file.js');
  try {
    return { file, entries: await readAcceptedFile(file) };
  } catch (error) {
    if (error instanceof AcceptedFileError) throw new UsageError(error.message);
    throw error;
  }
}

/** --accept-all-to: the still-valid accepted entries plus every other finding at or above --fail-on. */
async function writeAcceptAll(findings: Finding[], file: string, failOn: FailOn, opts: QaCliOptions, review: FindingReview | undefined) {
  const { acceptAll } = await import('../../qa/accepted.js');
  const minSeverity: Severity = failOn === 'never' ? 'info' : failOn;
  const who = opts.who ?? safeUserName();
  const when = new Date().toISOString().slice(0, 10);
  const content = acceptAll(findings, { who, when, why: opts.why, minSeverity, review });
  // 'wx' refuses to replace a file created since the check above, unless --force.
  await writeFile(file, `${JSON.stringify(content, null, 2)}\n`, { flag: opts.force ? 'w' : 'wx' });
}

function safeUserName(): string {
  try {
    return userInfo().username || 'unknown';
  } catch {
    return 'unknown';
  }
}

export function register(program: Command, setExit: (code: number) => void): void {
  credentialOptions(program.command('qa'), '--base-url')
    .description('compare stored, recomputed and reported PK parameters; write findings, plots and an HTML report')
    .option('--export <file>', 'a PK-DB export zip (default: the bundled fixtures)')
    .option('--base-url <url>', 'a PK-DB API base URL, e.g. http://127.0.0.1:8000/api/v1/')
    .option('--study <sid-or-name...>', 'report only these studies (sids or names, e.g. SYN0002 or Synthetic2020b), checked against every other study of the source (an export; a server is crawled for these only)')
    .option('--out <dir>', 'output directory', 'qa-report')
    .option('--fail-on <level>', 'exit 1 when a finding is at or above: major, minor or never', 'major')
    .option('--reference <file>', "an export zip (a release) whose other studies the source's studies are checked against, reported on only through them; a study in both is the source's")
    .option('--no-html', 'skip the HTML report (report/)')
    .option('--png', 'also render every plot as PNG')
    .option('--format <format>', 'print on stdout: json (the findings, as findings.json), csv (as findings.csv) or summary (summary.json)')
    .option('--json', 'print the findings as JSON on stdout (= --format json)')
    .option('--serve-url <url>', 'base URL of a local pkdb serve that the report links records to', 'http://127.0.0.1:8000/')
    .option('--accepted <file>', 'JSON file of accepted findings (id, who, when, why, seen values): shown apart, not counted for --fail-on')
    .option('--accept-all-to <file>', 'write the findings at or above --fail-on (all with never) as an accepted-findings file to edit')
    .option('--who <name>', 'who accepts, for --accept-all-to (default: the login name)')
    .option('--why <text>', 'why, for --accept-all-to', 'baseline: accepted with --accept-all-to, to review')
    .option('--force', "let --accept-all-to overwrite its file; write into an --out folder that holds other files (only the report's own files are replaced)")
    .action(async (opts: QaCliOptions) => {
      const failOn = checkedFailOn(opts.failOn);
      const format = checkedFormat(opts);
      const serveUrl = checkedServeUrl(opts.serveUrl);
      const acceptTo = opts.acceptAllTo;
      if (acceptTo && !opts.force && existsSync(acceptTo)) throw new UsageError(`${acceptTo} exists; give --force to overwrite it`);
      // A one-shot process: V8 tuned for a batch run before the QA's modules load (batch-tuning.ts).
      tuneForBatch();
      const [{ loadSourceAndStudies, withReference }, { runQa }, { writeQaOutputs }, { checkTarget, OutputDirError }, { Dataset }, { filterStudies }] = await Promise.all([
        import('../source.js'),
        import('../../qa/run.js'),
        import('../../report/write.js'),
        import('../../report/output-dir.js'),
        import('../../data/dataset.js'),
        import('../../data/select.js'),
      ]);
      // Refuse a foreign --out before any work.
      const outBefore = (() => {
        try {
          return checkTarget(opts.out, Boolean(opts.force));
        } catch (error) {
          if (error instanceof OutputDirError) throw new UsageError(error.message);
          throw error;
        }
      })();
      const accepted = opts.accepted ? await readAccepted(opts.accepted) : undefined;
      const progress = createProgress({ enabled: Boolean(process.stderr.isTTY) });
      const controller = new AbortController();
      const release = onInterrupt(controller);
      const kept = outBefore === 'absent' ? 'nothing was written' : `${opts.out} is left as it was`;
      try {
        progress.start(`loading ${opts.export ?? opts.baseUrl ?? 'the bundled fixtures'}`);
        // --study names the studies reported on; the source's others are checked alongside as their reference
        // (a study's values against every other study's), and a server is crawled for the named ones only.
        // --reference joins another release's studies as reference only.
        const loaded = await loadSourceAndStudies({ export: opts.export, baseUrl: opts.baseUrl, user: opts.user, password: opts.password, token: opts.token, study: opts.study });
        const source = opts.reference ? await withReference(loaded, opts.reference) : loaded;
        const all = source.dataset;
        const studies = source.studies;
        const dataset = studies ? Dataset.fromTables(filterStudies(all.tables, studies), all.source) : all;
        const others = all.tables.studies.length - dataset.tables.studies.length;
        if (opts.baseUrl && studies && !opts.reference && others === 0) {
          // Said, not silent: the cross-study checks see these studies alone.
          process.stderr.write('pkdb qa: note: --study crawls only those studies from the server; give --reference RELEASE.zip to check them against other studies\n');
        }
        progress.end(studies ? `${studies.length} studies, ${others} other studies as reference` : `${all.tables.studies.length} studies`);
        controller.signal.throwIfAborted();
        progress.start('checks');
        const result = runQa(all, { studies, onProgress: (done, total) => progress.update(done, total) });
        progress.end(`${result.findings.length} findings`);
        controller.signal.throwIfAborted();
        const { reviewFindings, reviewSummary, openBySeverity } = await import('../../qa/accepted.js');
        const findings = result.findings;
        // With --study, entries of studies not checked are not stale.
        const checked = studies ? new Set(studies) : undefined;
        const review = accepted ? { file: accepted.file, review: reviewFindings(findings, accepted.entries, checked) } : undefined;
        let pngTime: number | null = null;
        const onPhase = writeProgress(progress);
        const files = await writeQaOutputs(result, opts.out, {
          html: opts.html,
          png: Boolean(opts.png),
          review,
          dataset,
          serveUrl,
          force: opts.force,
          signal: controller.signal,
          onProgress: (phase, done, total) => {
            if (phase === 'PNG' && pngTime === null) pngTime = performance.now();
            onPhase(phase, done, total);
          },
        });
        progress.end();
        const pngs = files.filter((f) => f.endsWith('.png')).length;
        const pngSeconds = pngTime !== null ? (performance.now() - pngTime) / 1000 : null;
        const s = result.summary;
        const reviewed = review ? reviewSummary(findings, review.review, review.file) : undefined;
        if (acceptTo) await writeAcceptAll(findings, acceptTo, failOn, opts, review?.review);
        if (format === 'json' || format === 'csv') {
          // The file just written holds exactly what is asked for: read back rather than serialised twice.
          const { readFile } = await import('node:fs/promises');
          process.stdout.write(await readFile(join(opts.out, format === 'json' ? 'findings.json' : 'findings.csv'), 'utf8'));
        } else if (format === 'summary') {
          process.stdout.write(`${JSON.stringify(reviewed ? { ...s, review: reviewed } : s, null, 2)}\n`);
        } else {
          const counts = (c: Record<string, number>) => `${c.major} major, ${c.minor} minor, ${c.info} info`;
          process.stdout.write(
            `${s.studies} studies${s.reference_studies ? ` (set against ${s.reference_studies} other studies)` : ''}, ${s.timecourses} concentration timecourses: ${counts(s.by_severity)} findings\n` +
              (reviewed
                ? `accepted in ${reviewed.accepted_file}: ${reviewed.accepted}; re-opened (values changed): ${reviewed.reopened}; open: ${counts(reviewed.open_by_severity)}\n` +
                  (reviewed.stale.length > 0 ? `stale accepted entries (id no longer found): ${reviewed.stale.map((e) => e.id).join(', ')}\n` : '')
                : '') +
              (acceptTo ? `wrote accepted findings to ${acceptTo}: edit who/why, then use --accepted ${acceptTo}\n` : '') +
              (pngSeconds !== null ? `rendered ${pngs} PNGs in ${pngSeconds.toFixed(1)} s\n` : '') +
              `wrote ${files.length} files to ${opts.out}${opts.html ? ` (open ${join(opts.out, 'report', 'index.html')})` : ''}\n`,
          );
        }
        setExit(exitCodeForFindings(openBySeverity(findings, review?.review), failOn));
      } catch (error) {
        progress.end('stopped');
        if (controller.signal.aborted) {
          process.stderr.write(`pkdb qa: interrupted before the report was complete; ${kept}\n`);
          setExit(130);
          return;
        }
        if (error instanceof OutputDirError) throw new UsageError(error.message);
        if (error instanceof UsageError) throw error;
        throw new Error(`${(error as Error).message ?? String(error)} (the run failed; ${kept})`, { cause: error });
      } finally {
        release();
      }
    });
}
