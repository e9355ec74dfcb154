/**
 * NCA throughput, single thread.
 * 1. Standard profile, best-fit λz, linear and lin-up/log-down: 10,000 synthetic
 *    15-point oral profiles (Bateman curves with ±5 % deterministic noise).
 * 2. Multiple dosing: 1,000 synthetic oral q12h profiles over 7 doses (sampled
 *    at 0, 0.5, 1, 2, 4, 8, 12 h after each dose), ncaIntervals with one
 *    dosing interval per dose.
 * 3. pkdb profile over the shared export: recomputeCalculated (profile + linking)
 *    over every concentration timecourse.
 * Figures: median of 7 timed runs after 3 warm-up runs, as wall-clock and as
 * this process's CPU time (the CPU figure is the one to quote on a shared,
 * oversubscribed machine: wall time then also counts other processes' turns).
 */
import { existsSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nca } from '../src/nca/nca.js';
import type { AucMethod } from '../src/nca/codes.js';
import { ncaIntervals } from '../src/nca/intervals.js';

const TIMES = [0, 0.25, 0.5, 1, 1.5, 2, 3, 4, 6, 8, 10, 12, 16, 24, 36];
const PROFILES = 10_000;

function syntheticProfiles(): number[][] {
  return Array.from({ length: PROFILES }, (_, i) => {
    const k = 0.08 + (i % 11) * 0.015;
    const ka = 0.8 + (i % 7) * 0.3;
    return TIMES.map((t) => (100 / 20) * (ka / (ka - k)) * (Math.exp(-k * t) - Math.exp(-ka * t)) * (1 + 0.05 * Math.sin(i * 7.1 + t * 13.3)));
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Median wall and CPU milliseconds of `runs` runs after `warmups` untimed ones. */
function timeRuns(work: () => void, warmups = 3, runs = 7): { wall: number; cpu: number } {
  for (let i = 0; i < warmups; i++) work();
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    const cpuStart = process.cpuUsage();
    work();
    const used = process.cpuUsage(cpuStart);
    wall.push(performance.now() - start);
    cpu.push((used.user + used.system) / 1000);
  }
  return { wall: median(wall), cpu: median(cpu) };
}

const perSecond = (n: number, ms: number) => Math.round((n / ms) * 1000).toLocaleString('en');

function standardProfile(): void {
  const profiles = syntheticProfiles();
  for (const aucMethod of ['linear', 'lin-up-log-down'] as AucMethod[]) {
    let sink = 0;
    const { wall, cpu } = timeRuns(() => {
      for (const conc of profiles) sink += nca({ time: TIMES, conc, dose: 100 }, { aucMethod }).parameters.LAMZ?.value ?? 0;
    });
    console.log(
      `standard profile, best-fit λz, ${aucMethod}: ${perSecond(PROFILES, cpu)} profiles/s of CPU time, ` +
        `${perSecond(PROFILES, wall)} profiles/s wall (${PROFILES.toLocaleString('en')} 15-point profiles; checksum ${sink.toFixed(3)})`,
    );
  }
}

function multipleDose(): void {
  const tau = 12;
  const doses = Array.from({ length: 7 }, (_, i) => ({ time: i * tau, amount: 100 }));
  const time = [...new Set(doses.flatMap((d) => [0, 0.5, 1, 2, 4, 8, 12].map((t) => d.time + t)))];
  const n = 1_000;
  const profiles = Array.from({ length: n }, (_, i) => {
    const k = 0.08 + (i % 11) * 0.015;
    const ka = 0.8 + (i % 7) * 0.3;
    return time.map((t) => doses.reduce((c, d) => (t > d.time ? c + 5 * (ka / (ka - k)) * (Math.exp(-k * (t - d.time)) - Math.exp(-ka * (t - d.time))) : c), 0));
  });
  let sink = 0;
  const { wall, cpu } = timeRuns(() => {
    for (const conc of profiles) sink += ncaIntervals({ time, conc }, { doses, tau }).intervals[6].parameters.AUCTAU?.value ?? 0;
  });
  console.log(
    `multiple dose, 7 dosing intervals per profile: ${perSecond(n, cpu)} profiles/s of CPU time (${perSecond(n * 7, cpu)} intervals/s), ` +
      `${perSecond(n, wall)} profiles/s wall (${n.toLocaleString('en')} ${time.length}-point profiles; checksum ${sink.toFixed(3)})`,
  );
}

async function pkdbProfile(): Promise<void> {
  const here = dirname(fileURLToPath(import.meta.url));
  const zip = join(process.env.PKDB_SHARED_DIR ?? resolve(here, '..', '..', 'shared'), 'data', 'pkdb-export-2020-10-16-shared.zip');
  if (!existsSync(zip)) {
    console.log(`pkdb profile: skipped (${zip} not found)`);
    return;
  }
  const { readExport } = await import('../src/data/export/read.js');
  const { recomputeCalculated } = await import('../src/qa/calculated.js');
  const { tables } = await readExport(zip);
  const count = tables.timecourses.filter((tc) => tc.measurement_type === 'concentration').length;
  let matched = 0;
  const { wall, cpu } = timeRuns(() => {
    matched = recomputeCalculated(tables).filter((r) => r.status === 'match').length;
  }, 1, 5);
  console.log(
    `pkdb profile + linking over the export: ${perSecond(count, cpu)} timecourses/s of CPU time, ${perSecond(count, wall)} wall ` +
      `(${cpu.toFixed(0)} ms CPU for ${count.toLocaleString('en')} concentration timecourses; ${matched.toLocaleString('en')} outputs match)`,
  );
}

export async function run(): Promise<void> {
  standardProfile();
  multipleDose();
  await pkdbProfile();
  console.log(`peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
}
