/**
 * `pkdb qa`: runs every QA check over a source and writes findings.json,
 * findings.csv, summary.json, calculated.csv, plots/*.vl.json (+ PNG) and
 * report.html to --out. Exit 1 when a finding reaches --fail-on.
 */
import type { Command } from 'commander';
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

export function register(program: Command, setExit: (code: number) => void): void {
  program
    .command('qa')
    .description('compare stored, recomputed and reported PK parameters; write findings, plots and an HTML report')
    .option('--export <file>', 'a PK-DB export zip (default: the bundled fixtures)')
    .option('--base-url <url>', 'a PK-DB API base URL, e.g. http://127.0.0.1:8000/api/v1/')
    .option('--user <name>', 'API user (with --base-url)')
    .option('--password <password>', 'API password (with --base-url)')
    .option('--study <sid...>', 'check only these studies')
    .option('--out <dir>', 'output directory', 'qa-report')
    .option('--fail-on <level>', 'exit 1 when a finding is at or above: major, minor or never', 'major')
    .option('--no-html', 'skip report.html')
    .option('--png', 'also render every plot as PNG')
    .option('--json', 'print the summary as JSON on stdout')
    .action(async (opts: QaCliOptions) => {
      const failOn = checkedFailOn(opts.failOn);
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
      const files = await writeQaOutputs(result, opts.out, { html: opts.html, png: Boolean(opts.png) });
      const s = result.summary;
      if (opts.json) {
        process.stdout.write(`${JSON.stringify(s, null, 2)}\n`);
      } else {
        process.stdout.write(
          `${s.studies} studies, ${s.timecourses} concentration timecourses: ${s.by_severity.major} major, ${s.by_severity.minor} minor, ${s.by_severity.info} info findings\n` +
            `wrote ${files.length} files to ${opts.out}${opts.html ? ` (open ${opts.out}/report.html)` : ''}\n`,
        );
      }
      setExit(exitCodeForFindings(s.by_severity, failOn));
    });
}
