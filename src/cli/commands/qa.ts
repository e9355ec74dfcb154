/**
 * `pkdb qa`: runs every QA check over a source and writes findings.json,
 * findings.csv, summary.json, calculated.csv, plots/*.vl.json (+ PNG) and
 * report.html to --out. Exit 1 when a finding reaches --fail-on; findings
 * accepted in `--accepted FILE` (qa/accepted.ts) do not count unless their
 * values changed. `--accept-all-to FILE` writes the findings at or above
 * --fail-on as a starting accepted file.
 */
import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { userInfo } from 'node:os';
import type { FindingReview } from '../../qa/accepted.js';
import type { Finding, Severity } from '../../qa/finding.js';
import { UsageError } from '../errors.js';

const FAIL_ON = ['major', 'minor', 'never'] as const;
type FailOn = (typeof FAIL_ON)[number];

interface QaCliOptions {
  export?: string;
  baseUrl?: string;
  user?: string;
  password?: string;
  study?: string[];
  out: string;
  failOn: string;
  html: boolean;
  png?: boolean;
  json?: boolean;
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

async function progressBar(enabled: boolean) {
  if (!enabled) return { update: (_done: number, _total: number) => {}, stop: () => {} };
  const { SingleBar, Presets } = await import('cli-progress');
  const bar = new SingleBar({ format: 'qa {bar} {value}/{total} timecourses', stream: process.stderr, clearOnComplete: true }, Presets.shades_classic);
  let started = false;
  return {
    update(done: number, total: number) {
      if (!started) {
        bar.start(total, 0);
        started = true;
      }
      bar.update(done);
    },
    stop: () => started && bar.stop(),
  };
}

/** The accepted file, or a UsageError naming the file, entry and field. */
async function readAccepted(file: string) {
  const { readAcceptedFile, AcceptedFileError } = await import('../../qa/accepted.js');
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
  program
    .command('qa')
    .description('compare stored, recomputed and reported PK parameters; write findings, plots and an HTML report')
    .option('--export <file>', 'a PK-DB export zip (default: the bundled fixtures)')
    .option('--base-url <url>', 'a PK-DB API base URL, e.g. http://127.0.0.1:8000/api/v1/')
    .option('--user <name>', 'API user (with --base-url)')
    .option('--password <password>', 'API password (with --base-url)')
    .option('--study <sid-or-name...>', 'check only these studies (sids or names, e.g. SYN0002 or Synthetic2020b)')
    .option('--out <dir>', 'output directory', 'qa-report')
    .option('--fail-on <level>', 'exit 1 when a finding is at or above: major, minor or never', 'major')
    .option('--no-html', 'skip report.html')
    .option('--png', 'also render every plot as PNG')
    .option('--json', 'print the summary as JSON on stdout')
    .option('--accepted <file>', 'JSON file of accepted findings (id, who, when, why, seen values): shown apart, not counted for --fail-on')
    .option('--accept-all-to <file>', 'write the findings at or above --fail-on (all with never) as an accepted-findings file to edit')
    .option('--who <name>', 'who accepts, for --accept-all-to (default: the login name)')
    .option('--why <text>', 'why, for --accept-all-to', 'baseline: accepted with --accept-all-to, to review')
    .option('--force', 'let --accept-all-to overwrite an existing file')
    .action(async (opts: QaCliOptions) => {
      const failOn = checkedFailOn(opts.failOn);
      const acceptTo = opts.acceptAllTo;
      if (acceptTo && !opts.force && existsSync(acceptTo)) throw new UsageError(`${acceptTo} exists; give --force to overwrite it`);
      const accepted = opts.accepted ? await readAccepted(opts.accepted) : undefined;
      const [{ loadSource }, { runQa }, { writeQaOutputs }] = await Promise.all([
        import('../source.js'),
        import('../../qa/run.js'),
        import('../../report/write.js'),
      ]);
      // loadSource checks the source options and keeps only the --study studies.
      const dataset = await loadSource({ export: opts.export, baseUrl: opts.baseUrl, user: opts.user, password: opts.password, study: opts.study });
      const bar = await progressBar(Boolean(process.stderr.isTTY) && !opts.json);
      const result = runQa(dataset, { onProgress: bar.update });
      bar.stop();
      const { reviewFindings, reviewSummary, openBySeverity } = await import('../../qa/accepted.js');
      const { withFindingIds } = await import('../../qa/finding-id.js');
      const findings = withFindingIds(result.findings);
      // With --study, entries of studies not checked are not stale.
      const checked = opts.study?.length ? new Set(dataset.tables.studies.map((st) => st.sid)) : undefined;
      const review = accepted ? { file: accepted.file, review: reviewFindings(findings, accepted.entries, checked) } : undefined;
      const files = await writeQaOutputs({ ...result, findings }, opts.out, { html: opts.html, png: Boolean(opts.png), review });
      const s = result.summary;
      const reviewed = review ? reviewSummary(findings, review.review, review.file) : undefined;
      if (acceptTo) await writeAcceptAll(findings, acceptTo, failOn, opts, review?.review);
      if (opts.json) {
        process.stdout.write(`${JSON.stringify(reviewed ? { ...s, review: reviewed } : s, null, 2)}\n`);
      } else {
        const counts = (c: Record<string, number>) => `${c.major} major, ${c.minor} minor, ${c.info} info`;
        process.stdout.write(
          `${s.studies} studies, ${s.timecourses} concentration timecourses: ${counts(s.by_severity)} findings\n` +
            (reviewed
              ? `accepted in ${reviewed.accepted_file}: ${reviewed.accepted}; re-opened (values changed): ${reviewed.reopened}; open: ${counts(reviewed.open_by_severity)}\n` +
                (reviewed.stale.length > 0 ? `stale accepted entries (id no longer found): ${reviewed.stale.map((e) => e.id).join(', ')}\n` : '')
              : '') +
            (acceptTo ? `wrote accepted findings to ${acceptTo}: edit who/why, then use --accepted ${acceptTo}\n` : '') +
            `wrote ${files.length} files to ${opts.out}${opts.html ? ` (open ${opts.out}/report.html)` : ''}\n`,
        );
      }
      setExit(exitCodeForFindings(openBySeverity(findings, review?.review), failOn));
    });
}
