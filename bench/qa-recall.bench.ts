/**
 * Recall of `pkdb qa` on planted curation slips (issue 13 §10).
 *
 * Plants seeded slips in copies of the shared export (bench/lib: one slip per
 * study, `--per-copy` studies per copy, the 15 classes rotating; PK-DB's
 * stored calculated outputs of a slipped timecourse or dose re-derived with
 * the pkdb profile), writes each copy as an export zip and reads it back,
 * runs `runQa` on the original and on each copy in this process, and prints
 * per class: slips, recall (the slipped study has a new major finding) and
 * pointed recall (a new major names a slipped record), named recall (such a
 * major also names the planted factor among its causes), blamed (such majors by
 * the record they name to fix: the slipped one / another / none), and the recall over the
 * `clean` slips only (those on records the original run does not already flag
 * major: a slip on a real error adds no new major); then the false alarms
 * (new majors in unslipped studies) and the wall time.
 *
 * Options (command line or environment): `--copies N` (PKDB_BENCH_COPIES,
 * default 12: ≥ 30 slips per class), `--per-copy N` (PKDB_BENCH_PER_COPY,
 * default 40), `--seed S` (PKDB_BENCH_SEED, default 1), `--json FILE`
 * (PKDB_BENCH_JSON): every slip with its records and score, and every false
 * alarm, for whoever improves the checks; `--classes WORDS` (PKDB_BENCH_CLASSES):
 * plant only the classes whose names hold one of the comma-separated words
 * (`--classes molar,'dose ×10'`), to study a weak class with more samples; the
 * opt-in classes are planted only so: a subject's body weight in pounds read as
 * kilograms, or ×10 (`--classes weight`), and the other direction of the
 * issue's classes (`--classes reverse`: an output ×1/10 or ×1/24, a curve ×1/10
 * or ×1/1000, its hours read as minutes, a dose ×1/10 or ×1/1000, an absolute
 * value or dose under a per-kg unit ×70); `--percent P` (PKDB_BENCH_PERCENT, default 100): run on a seeded part
 * of P % of the studies (drawn from the seed, bench/lib/parts.ts) instead of the whole export, to measure recall
 * and false alarms where references are thinner, as in a curator's own export or another release (the default copies
 * and studies per copy scale with P, so that the share of slipped studies per copy and the number of slips stay).
 */
import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Dataset, filterStudies, readExport, runQa, writeExport, type DatasetTables, type Finding } from '../src/index.js';
import { intOption, parseBenchArgs } from './lib/args.js';
import { drawPart } from './lib/parts.js';
import { planSlips } from './lib/plan.js';
import { newMajors, onFlaggedRecord, recallTable, scoreCopy, type SlipScore } from './lib/recall.js';
import { SLIP_CLASSES, selectSlipClasses, slipCandidates, slipClass } from './lib/slip-classes.js';
import { plantSlips } from './lib/slips.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SHARED_EXPORT = join(process.env.PKDB_SHARED_DIR ?? resolve(ROOT, '..', 'shared'), 'data', 'pkdb-export-2020-10-16-shared.zip');

const pct = (share: number | null) => (share === null ? '   –' : `${(100 * share).toFixed(0).padStart(3)} %`);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function qaFindings(tables: DatasetTables, location: string): Finding[] {
  return runQa(Dataset.fromTables(tables, { kind: 'export', location })).findings;
}

function countBy<T>(items: readonly T[], key: (item: T) => string): string {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`).join(', ') || '–';
}

export async function run(): Promise<void> {
  if (!existsSync(SHARED_EXPORT)) {
    console.log(`skipped: ${SHARED_EXPORT} not found`);
    return;
  }
  const args = parseBenchArgs(process.argv.slice(2));
  const classWords = args.options.get('classes') ?? process.env.PKDB_BENCH_CLASSES;
  const classes = classWords ? selectSlipClasses(classWords) : undefined;
  // On a part, as many studies slipped per copy in proportion (40 of 360 is one in nine), over proportionally more
  // copies: a slip density of four in nine would leave some references with more slipped studies than real ones.
  const percent = intOption(args, 'percent', 100);
  const share = Math.min(1, Math.max(percent, 1) / 100);
  const options = {
    copies: intOption(args, 'copies', Math.round(12 / share)),
    perCopy: intOption(args, 'per-copy', Math.max(1, Math.round(40 * share))),
    seed: intOption(args, 'seed', 1),
    classes,
  };
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  const phase = { plant: 0, write: 0, read: 0, qa: 0 };
  const lap = <T>(name: keyof typeof phase, fn: () => T): T => {
    const t = performance.now();
    const value = fn();
    phase[name] += performance.now() - t;
    return value;
  };

  const whole = await readExport(SHARED_EXPORT);
  if (whole.problems.length > 0) console.log(`  note: the original export read with ${whole.problems.length} skipped row(s)`);
  const tables = percent >= 100 ? whole.tables : filterStudies(whole.tables, drawPart(whole.tables.studies.map((s) => s.sid), percent / 100, options.seed));
  if (percent < 100) console.log(`a part of ~${percent} % of the studies (seed ${options.seed}): ${tables.studies.length} of ${whole.tables.studies.length}`);
  const original = lap('qa', () => qaFindings(tables, SHARED_EXPORT));
  const candidates = slipCandidates(tables);
  const plan = planSlips(candidates, options);
  console.log(`copies ${options.copies}, ${options.perCopy} studies slipped per copy, seed ${options.seed}${classes ? `, classes ${classes.join(', ')}` : ''}; ${tables.studies.length} studies, ${original.filter((f) => f.severity === 'major').length} majors in the original run`);
  console.log(`eligible studies per class: ${SLIP_CLASSES.map((c) => `${c.name} ${candidates.get(c.name)?.size ?? 0}`).join(', ')}`);

  const scores: SlipScore[] = [];
  const falseAlarms: Finding[][] = [];
  let dropped = 0;
  let unstored = 0;
  for (const [copy, planned] of plan.entries()) {
    const planted = lap('plant', () => plantSlips(tables, planned));
    const zip = lap('write', () => writeExport(planted.tables));
    const t = performance.now();
    const back = await readExport(zip, { name: `slipped copy ${copy}` });
    phase.read += performance.now() - t;
    if (back.problems.length > 0) throw new Error(`slipped copy ${copy} read back with ${back.problems.length} skipped row(s): the writer or the planter broke the format`);
    const fresh = newMajors(original, lap('qa', () => qaFindings(back.tables, `slipped copy ${copy}`)));
    const score = scoreCopy(planted.slips, fresh, original);
    scores.push(...score.scores);
    falseAlarms.push(score.falseAlarms);
    for (const s of planted.slips) {
      dropped += s.records.dropped.length;
      unstored += s.records.unstored;
    }
  }

  console.log('');
  console.log(`  ${'class'.padEnd(26)} ${'n'.padStart(4)} ${'recall'.padStart(7)} ${'pointed'.padStart(8)} ${'named'.padStart(6)} ${'blamed r/w/-'.padStart(13)} ${'clean'.padStart(11)}   new-major kinds in found slips`);
  for (const row of recallTable(scores)) {
    if (row.label === 'all reported-output slips') console.log(`  ${'-'.repeat(26)}`);
    const kinds = [...row.kinds].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`).join(', ');
    const clean = `${pct(row.cleanRecall)} (${row.cleanN})`;
    const blamed = `${row.blamed.right}/${row.blamed.wrong}/${row.blamed.none}`;
    console.log(`  ${row.label.padEnd(26)} ${String(row.n).padStart(4)} ${pct(row.recall).padStart(7)} ${pct(row.pointedRecall).padStart(8)} ${pct(row.namedRecall).padStart(6)} ${blamed.padStart(13)} ${clean.padStart(11)}   ${kinds}`);
  }
  const outputSlips = scores.filter((s) => slipClass(s.slip.slipClass).target === 'output');
  const typeOf = new Map(tables.outputs.map((o) => [o.pk, o.measurement_type]));
  const byType = new Map<string, { n: number; found: number }>();
  for (const s of outputSlips) {
    const type = typeOf.get(s.slip.target) ?? '?';
    const entry = byType.get(type) ?? { n: 0, found: 0 };
    entry.n++;
    if (s.found) entry.found++;
    byType.set(type, entry);
  }
  console.log(`  reported-output slips found / planted, by measurement type: ${[...byType].sort((a, b) => b[1].n - a[1].n).map(([t, e]) => `${t} ${e.found}/${e.n}`).join(', ')}`);
  const alarms = falseAlarms.flat();
  const alarmStudies = new Set(alarms.map((f) => f.study_sid ?? '(no study)'));
  console.log('');
  const flagged = alarms.filter((f) => onFlaggedRecord(f, original)).length;
  console.log(`  false alarms (new majors in unslipped studies): ${alarms.length} in ${alarmStudies.size} studies; per copy ${falseAlarms.map((a) => a.length).join(', ')}; on records the original run already flags: ${flagged}, on clean records: ${alarms.length - flagged}`);
  if (alarms.length > 0) console.log(`    by kind: ${countBy(alarms, (f) => f.kind)}`);
  console.log(`  planter: ${dropped} stored calculated output(s) dropped, ${unstored} newly produced left unstored (re-derivation edge cases)`);
  const jsonPath = args.options.get('json') ?? process.env.PKDB_BENCH_JSON;
  if (jsonPath) {
    const slips = scores.map(({ slip, found, pointed, named, blamed, namedFactors, kinds, preflagged }) => ({ ...slip, measurement_type: slipClass(slip.slipClass).target === 'output' ? typeOf.get(slip.target) : undefined, found, pointed, named, blamed, namedFactors, kinds, preflagged }));
    writeFileSync(jsonPath, JSON.stringify({ options, slips, falseAlarms: falseAlarms.map((list, copy) => list.map((f) => ({ copy, ...f, details: undefined }))).flat() }, null, 1));
    console.log(`  slips and false alarms written to ${jsonPath}`);
  }
  const cpu = process.cpuUsage(cpuStart);
  // On a shared machine the CPU time is the figure other processes do not inflate.
  console.log(`  wall ${seconds(performance.now() - start)}, CPU ${seconds((cpu.user + cpu.system) / 1000)} (wall: plant ${seconds(phase.plant)}, write ${seconds(phase.write)}, read back ${seconds(phase.read)}, runQa ${seconds(phase.qa)} for ${options.copies + 1} runs)`);
}
