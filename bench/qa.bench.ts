/**
 * `pkdb qa` on the shared export, with and without HTML.
 * 1. The CLI as a child process under `/usr/bin/time -v` (wall and CPU time
 *    and peak RSS of the whole command, tsx start-up, module loading and
 *    export loading included), median of 3 runs each.
 * 2. The phases in this process (load, runQa, writing without and with HTML),
 *    median of 5 runs after one warm-up, as wall and CPU time: on a shared
 *    2-core machine the CPU figure is the one that does not count other
 *    processes' turns.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Dataset } from '../src/data/dataset.js';
import { readExport } from '../src/data/export/read.js';
import { runQa } from '../src/qa/run.js';
import { writeQaOutputs } from '../src/report/write.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SHARED_EXPORT = join(process.env.PKDB_SHARED_DIR ?? resolve(ROOT, '..', 'shared'), 'data', 'pkdb-export-2020-10-16-shared.zip');

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Wall and CPU seconds and peak RSS (MB) of one CLI run, from GNU time's verbose report. */
function timedCli(args: string[]): { wall: number; cpu: number; rssMb: number; status: number | null } {
  const run = spawnSync('/usr/bin/time', ['-v', process.execPath, '--import', 'tsx', join(ROOT, 'src/cli/main.ts'), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  const elapsed = /Elapsed \(wall clock\) time.*: (?:(\d+):)?(\d+):([\d.]+)/.exec(run.stderr);
  const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(run.stderr);
  const user = /User time \(seconds\): ([\d.]+)/.exec(run.stderr);
  const system = /System time \(seconds\): ([\d.]+)/.exec(run.stderr);
  if (!elapsed || !rss || !user || !system) throw new Error(`could not read /usr/bin/time output:\n${run.stderr.slice(-2000)}`);
  const wall = Number(elapsed[1] ?? 0) * 3600 + Number(elapsed[2]) * 60 + Number(elapsed[3]);
  return { wall, cpu: Number(user[1]) + Number(system[1]), rssMb: Number(rss[1]) / 1024, status: run.status };
}

async function timed<T>(fn: () => Promise<T> | T): Promise<{ value: T; wallMs: number; cpuMs: number }> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const value = await fn();
  const used = process.cpuUsage(cpu);
  return { value, wallMs: performance.now() - start, cpuMs: (used.user + used.system) / 1000 };
}

export async function run(): Promise<void> {
  if (!existsSync(SHARED_EXPORT)) {
    console.log(`skipped: ${SHARED_EXPORT} not found`);
    return;
  }
  const out = mkdtempSync(join(tmpdir(), 'pkdb-qa-bench-'));
  try {
    console.log('CLI (child process, /usr/bin/time -v), median of 3:');
    for (const html of [false, true]) {
      const args = ['qa', '--export', SHARED_EXPORT, '--out', out, '--fail-on', 'never', '--json', ...(html ? [] : ['--no-html'])];
      const runs = [0, 1, 2].map(() => timedCli(args));
      if (runs.some((r) => r.status !== 0)) throw new Error(`pkdb ${args.join(' ')} exited ${runs.map((r) => r.status).join(', ')}`);
      console.log(
        `  pkdb qa --export <shared>${html ? '' : ' --no-html'}: wall ${median(runs.map((r) => r.wall)).toFixed(2)} s, CPU ${median(runs.map((r) => r.cpu)).toFixed(2)} s, peak RSS ${median(runs.map((r) => r.rssMb)).toFixed(0)} MB`,
      );
    }

    console.log('In-process phases, median of 5 after a warm-up (wall / CPU):');
    const phases: Record<string, { wall: number[]; cpu: number[] }> = {};
    const record = (name: string, t: { wallMs: number; cpuMs: number }) => {
      phases[name] ??= { wall: [], cpu: [] };
      phases[name].wall.push(t.wallMs);
      phases[name].cpu.push(t.cpuMs);
    };
    for (let i = 0; i < 6; i++) {
      const load = await timed(() => readExport(SHARED_EXPORT));
      const dataset = Dataset.fromTables(load.value.tables, { kind: 'export', location: SHARED_EXPORT });
      const qa = await timed(() => runQa(dataset));
      const files = await timed(() => writeQaOutputs(qa.value, out, { html: false, png: false }));
      const html = await timed(() => writeQaOutputs(qa.value, out, { html: true, png: false }));
      if (i === 0) continue;
      record('load export', load);
      record('runQa', qa);
      record('write without HTML', files);
      record('write with HTML', html);
    }
    for (const [name, { wall, cpu }] of Object.entries(phases)) {
      console.log(`  ${name.padEnd(20)} ${median(wall).toFixed(0).padStart(5)} ms / ${median(cpu).toFixed(0).padStart(5)} ms`);
    }
    console.log(`  peak RSS of this process: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
