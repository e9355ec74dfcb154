/**
 * `pkdb qa` on the shared export, with and without HTML.
 * 1. The built CLI (`tsc -p tsconfig.build.json`, then `node dist/cli/main.js`)
 *    as a child process under `/usr/bin/time -v`: wall and CPU time and peak
 *    RSS of the whole command, median of 3 runs each; the figure issue 6 asks
 *    about (under 1 s wall without HTML). Also the checkout's `bin/pkdb.js`
 *    once, which runs the sources through tsx (transpiling on the fly).
 *    `PKDB_BENCH_NO_BUILD=1` measures the existing dist/ without rebuilding.
 * 2. The phases in one fresh process of the built code (imports, load, runQa,
 *    writing without HTML), median of 3 processes: what the CLI pays, JIT
 *    warm-up and all.
 * 3. The phases in this process (load, runQa, writing without and with HTML),
 *    median of 5 runs after one warm-up, as wall and CPU time: on a shared
 *    2-core machine the CPU figure is the one that does not count other
 *    processes' turns.
 * `--base <checkout>` (or PKDB_BENCH_BASE) also builds that checkout (into a
 * temporary directory; a built package with its own node_modules is run as
 * it is) and runs its CLI's `qa --no-html` alternately with this one's,
 * median of 5 each: a before/after pair under the same load.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Dataset } from '../src/data/dataset.js';
import { readExport } from '../src/data/export/read.js';
import { runQa } from '../src/qa/run.js';
import { writeQaOutputs } from '../src/report/write.js';
import { parseBenchArgs } from './lib/args.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SHARED_EXPORT = join(process.env.PKDB_SHARED_DIR ?? resolve(ROOT, '..', 'shared'), 'data', 'pkdb-export-2020-10-16-shared.zip');
const BUILT_CLI = join(ROOT, 'dist', 'cli', 'main.js');

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

interface TimedRun {
  wall: number;
  cpu: number;
  rssMb: number;
  status: number | null;
}

/** Wall and CPU seconds and peak RSS (MB) of one command, from GNU time's verbose report. */
function timedCommand(command: string[]): TimedRun {
  // stdout ignored: `--json` prints every finding (megabytes), past spawnSync's buffer.
  const run = spawnSync('/usr/bin/time', ['-v', ...command], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] });
  const elapsed = /Elapsed \(wall clock\) time.*: (?:(\d+):)?(\d+):([\d.]+)/.exec(run.stderr);
  const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(run.stderr);
  const user = /User time \(seconds\): ([\d.]+)/.exec(run.stderr);
  const system = /System time \(seconds\): ([\d.]+)/.exec(run.stderr);
  if (!elapsed || !rss || !user || !system) throw new Error(`could not read /usr/bin/time output:\n${run.stderr.slice(-2000)}`);
  const wall = Number(elapsed[1] ?? 0) * 3600 + Number(elapsed[2]) * 60 + Number(elapsed[3]);
  return { wall, cpu: Number(user[1]) + Number(system[1]), rssMb: Number(rss[1]) / 1024, status: run.status };
}

function describe(label: string, runs: TimedRun[], command: string[]): void {
  if (runs.some((r) => r.status !== 0)) throw new Error(`${command.join(' ')} exited ${runs.map((r) => r.status).join(', ')}`);
  const figures = `wall ${median(runs.map((r) => r.wall)).toFixed(2)} s, CPU ${median(runs.map((r) => r.cpu)).toFixed(2)} s, peak RSS ${median(runs.map((r) => r.rssMb)).toFixed(0)} MB`;
  console.log(`  ${label.padEnd(50)} ${figures}`);
}

/** Compiles src/ to dist/ as `npm run build` does, so that the CLI measured is the current source. */
function build(checkout = ROOT, outDir?: string): void {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const args = [tsc, '-p', join(checkout, 'tsconfig.build.json'), ...(outDir === undefined ? [] : ['--outDir', outDir])];
  const result = spawnSync(process.execPath, args, { cwd: checkout, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`build failed:\n${result.stdout}${result.stderr}`);
}

/**
 * Builds another checkout into `dir`/dist (with this checkout's node_modules) and returns its CLI; a built package
 * (dist/cli/main.js and no tsconfig.build.json: an old release whose dependencies this checkout no longer has) is run
 * as it is.
 */
function buildBase(checkout: string, dir: string): string {
  const prebuilt = join(resolve(checkout), 'dist', 'cli', 'main.js');
  if (!existsSync(join(checkout, 'tsconfig.build.json')) && existsSync(prebuilt)) return prebuilt;
  build(resolve(checkout), join(dir, 'dist'));
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}\n');
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  return join(dir, 'dist', 'cli', 'main.js');
}

/**
 * A fresh process of the built code that times its own phases (CPU ms from
 * process.cpuUsage, all of the process's threads) and prints them as JSON.
 */
function coldPhases(out: string): Record<string, number> {
  const dist = (path: string) => JSON.stringify(pathToFileURL(join(ROOT, 'dist', path)).href);
  const script = `
    const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
    const phases = { 'node start': cpu() };
    let mark = cpu();
    const lap = (name) => { const now = cpu(); phases[name] = now - mark; mark = now; };
    const [{ Dataset }, { readExport }, { runQa }, { writeQaOutputs }] = await Promise.all([
      import(${dist('data/dataset.js')}), import(${dist('data/export/read.js')}), import(${dist('qa/run.js')}), import(${dist('report/write.js')}),
    ]);
    lap('imports');
    const { tables } = await readExport(${JSON.stringify(SHARED_EXPORT)});
    lap('load export');
    const result = runQa(Dataset.fromTables(tables, { kind: 'export', location: 'bench' }));
    lap('runQa');
    await writeQaOutputs(result, ${JSON.stringify(out)}, { html: false, png: false });
    lap('write without HTML');
    console.log(JSON.stringify(phases));`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`phase process failed:\n${run.stderr.slice(-2000)}`);
  return JSON.parse(run.stdout) as Record<string, number>;
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
    console.log(`load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} (2 cores: wall times above ~2 mean other work shares them)`);
    if (process.env.PKDB_BENCH_NO_BUILD !== '1') build();
    if (!existsSync(BUILT_CLI)) throw new Error(`${BUILT_CLI} missing: run npm run build`);

    const base = parseBenchArgs(process.argv.slice(2)).options.get('base') ?? process.env.PKDB_BENCH_BASE;
    if (base !== undefined) {
      const baseDir = mkdtempSync(join(tmpdir(), 'pkdb-qa-bench-base-'));
      try {
        const cli = { 'this checkout': BUILT_CLI, [`base ${base}`]: buildBase(base, baseDir) };
        const runs = new Map<string, TimedRun[]>(Object.keys(cli).map((label) => [label, []]));
        console.log('qa --no-html, this checkout and the base alternately (child process, /usr/bin/time -v), median of 5:');
        for (let i = 0; i < 5; i++) {
          for (const [label, main] of Object.entries(cli)) {
            const command = [process.execPath, main, 'qa', '--export', SHARED_EXPORT, '--out', out, '--fail-on', 'never', '--json', '--no-html'];
            runs.get(label)!.push(timedCommand(command));
          }
        }
        for (const [label, list] of runs) describe(`${label}: qa --no-html`, list, [label]);
      } finally {
        rmSync(baseDir, { recursive: true, force: true });
      }
    }

    console.log('CLI (child process, /usr/bin/time -v), median of 3:');
    for (const html of [false, true]) {
      const command = [process.execPath, BUILT_CLI, 'qa', '--export', SHARED_EXPORT, '--out', out, '--fail-on', 'never', '--json', ...(html ? [] : ['--no-html'])];
      describe(`node dist/cli/main.js qa${html ? '' : ' --no-html'}`, [0, 1, 2].map(() => timedCommand(command)), command);
    }
    const viaTsx = [process.execPath, join(ROOT, 'bin', 'pkdb.js'), 'qa', '--export', SHARED_EXPORT, '--out', out, '--fail-on', 'never', '--json', '--no-html'];
    describe('bin/pkdb.js qa --no-html (sources via tsx), once', [timedCommand(viaTsx)], viaTsx);

    console.log('Phases in a fresh process of the built code, CPU ms, median of 3:');
    const cold = [0, 1, 2].map(() => coldPhases(out));
    for (const name of Object.keys(cold[0])) {
      console.log(`  ${name.padEnd(20)} ${median(cold.map((c) => c[name])).toFixed(0).padStart(5)} ms`);
    }
    console.log(`  ${'total'.padEnd(20)} ${median(cold.map((c) => Object.values(c).reduce((a, b) => a + b, 0))).toFixed(0).padStart(5)} ms`);

    console.log('In-process phases (sources), median of 5 after a warm-up (wall / CPU):');
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
