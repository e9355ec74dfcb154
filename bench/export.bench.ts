/**
 * Export reader and writer on the shared 2020-10-16 export (20 MB of CSV):
 * load time (median of 5 after a warm-up), write time (median of 3), and the
 * peak RSS of a fresh process that loads the export once, next to that of a
 * fresh process that only imports the reader.
 *
 *   npm run bench -- export
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { readExport } from '../src/data/export/read.js';
import { writeExport } from '../src/data/export/write.js';
import { SHARED_EXPORT } from '../test/helpers/shared.js';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const mib = (bytes: number) => `${(bytes / 1024 ** 2).toFixed(0)} MiB`;

/** Wall-clock and CPU milliseconds of each run; CPU time is the steadier figure on a shared machine. */
async function timed(times: number, task: () => unknown): Promise<{ wall: number[]; cpu: number[] }> {
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < times; i++) {
    const start = performance.now();
    const cpuStart = process.cpuUsage();
    await task();
    const used = process.cpuUsage(cpuStart);
    wall.push(performance.now() - start);
    cpu.push((used.user + used.system) / 1000);
  }
  return { wall, cpu };
}

/** Peak RSS (bytes) of a child process running this file in `mode`. */
function childPeak(mode: 'load' | 'baseline'): number {
  const out = execFileSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), `--child=${mode}`], { encoding: 'utf8' });
  return Number(out.trim());
}

export async function run(): Promise<void> {
  if (!existsSync(SHARED_EXPORT)) {
    console.log(`skipped: ${SHARED_EXPORT} not found`);
    return;
  }
  const first = await readExport(SHARED_EXPORT);
  const { tables } = first;
  console.log(`load average ${loadavg().map((x) => x.toFixed(1)).join(' ')} on ${availableParallelism()} cores`);
  const load = await timed(5, () => readExport(SHARED_EXPORT));
  console.log(
    `readExport: median ${median(load.wall).toFixed(0)} ms (CPU ${median(load.cpu).toFixed(0)} ms), min ${Math.min(...load.wall).toFixed(0)} ms over 5 loads ` +
      `(${tables.outputs.length} outputs, ${tables.timecourses.length} timecourses, ${first.problems.length} problems)`,
  );
  const write = await timed(3, () => writeExport(tables));
  console.log(`writeExport: median ${median(write.wall).toFixed(0)} ms (CPU ${median(write.cpu).toFixed(0)} ms) over 3 writes`);
  const [loaded, baseline] = [childPeak('load'), childPeak('baseline')];
  console.log(`peak RSS: ${mib(loaded)} loading once in a fresh process (${mib(baseline)} for the process alone, +${mib(loaded - baseline)})`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const mode = process.argv.find((a) => a.startsWith('--child='))?.slice('--child='.length);
  if (mode === 'load') await readExport(SHARED_EXPORT);
  if (mode !== undefined) process.stdout.write(`${process.resourceUsage().maxRSS * 1024}\n`);
}
