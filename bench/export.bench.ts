/**
 * Export reader and writer on the shared 2020-10-16 export (20 MB of CSV):
 * load time (median of 5 after a warm-up), write time (median of 3), and the
 * peak RSS of a fresh process that loads the export once, next to that of a
 * fresh process that only imports the reader. The load is also given as MB/s
 * of CSV (the members' uncompressed bytes over the wall and the CPU time).
 *
 * `--base <checkout>` (or PKDB_BENCH_BASE) loads the export with another
 * checkout's reader as well, alternating the two, so that a before/after pair
 * is measured under the same machine load.
 *
 *   npm run bench -- export [--base ../other-checkout]
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { readExport } from '../src/data/export/read.js';
import { writeExport } from '../src/data/export/write.js';
import { SHARED_EXPORT } from '../test/helpers/shared.js';
import { parseBenchArgs } from './lib/args.js';

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

/** The uncompressed bytes of the archive's CSV members, from its central directory (APPNOTE.TXT 4.3.12, 4.3.16). */
function csvSize(zip: Uint8Array): number {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  let end = zip.length - 22;
  while (end > 0 && view.getUint32(end, true) !== 0x06054b50) end--;
  let at = view.getUint32(end + 16, true);
  let total = 0;
  for (let i = view.getUint16(end + 10, true); i > 0; i--) {
    const nameLength = view.getUint16(at + 28, true);
    const name = new TextDecoder().decode(zip.subarray(at + 46, at + 46 + nameLength));
    if (name.endsWith('.csv')) total += view.getUint32(at + 24, true);
    at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
  return total;
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
  const csvBytes = csvSize(new Uint8Array(await readFile(SHARED_EXPORT)));
  const base = parseBenchArgs(process.argv.slice(2)).options.get('base') ?? process.env.PKDB_BENCH_BASE;
  const readers: [string, typeof readExport][] = [['this checkout', readExport]];
  if (base !== undefined) {
    const module = (await import(pathToFileURL(resolve(base, 'src/data/export/read.ts')).href)) as { readExport: typeof readExport };
    await module.readExport(SHARED_EXPORT);
    readers.push([`base ${base}`, module.readExport]);
  }
  // Alternating the readers spreads the machine's load over both.
  const loads = readers.map(() => ({ wall: [] as number[], cpu: [] as number[] }));
  for (let i = 0; i < 7; i++) {
    for (const [k, [, read]] of readers.entries()) {
      const one = await timed(1, () => read(SHARED_EXPORT));
      loads[k].wall.push(one.wall[0]);
      loads[k].cpu.push(one.cpu[0]);
    }
  }
  const rate = (ms: number) => `${(csvBytes / 1e6 / (ms / 1000)).toFixed(0)} MB/s`;
  console.log(`${(csvBytes / 1e6).toFixed(1)} MB of CSV; ${tables.outputs.length} outputs, ${tables.timecourses.length} timecourses, ${first.problems.length} problems`);
  for (const [k, [label]] of readers.entries()) {
    const { wall, cpu } = loads[k];
    console.log(
      `readExport (${label}): median ${median(wall).toFixed(0)} ms wall (${rate(median(wall))}), CPU ${median(cpu).toFixed(0)} ms (${rate(median(cpu))}); ` +
        `min ${Math.min(...wall).toFixed(0)} ms wall, ${Math.min(...cpu).toFixed(0)} ms CPU over 7 loads`,
    );
  }
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
