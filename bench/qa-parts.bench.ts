/**
 * `pkdb qa` on parts of the shared export: how it behaves on data with thinner references than the whole, as a
 * curator's own export or another PK-DB release has. Draws `--parts` seeded parts of `--percent` of the studies
 * (bench/lib/parts.ts), runs `runQa` on the whole and on each part in this process, and prints per part its majors,
 * those the whole run does not call major (on a study the whole run flags major elsewhere, and on a study it does not
 * flag at all: false alarms) and the whole run's majors the part loses; `--list` prints each such major.
 *
 * Options (command line or environment, bench/lib/args.ts): `--parts N` (default 4), `--percent P` (default 25),
 * `--seed S` (default 1; part k uses seed S + k, and its complement is run too).
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Dataset, readExport, runQa, type DatasetTables, type Finding } from '../src/index.js';
import { filterStudies } from '../src/data/select.js';
import { intOption, parseBenchArgs } from './lib/args.js';
import { drawPart, partAlarms } from './lib/parts.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SHARED_EXPORT = join(process.env.PKDB_SHARED_DIR ?? resolve(ROOT, '..', 'shared'), 'data', 'pkdb-export-2020-10-16-shared.zip');

function qaFindings(tables: DatasetTables, location: string): Finding[] {
  return runQa(Dataset.fromTables(tables, { kind: 'export', location })).findings;
}

const describe = (f: Finding) => `${f.kind} ${f.study_name ?? f.study_sid} ${f.output_pk ?? f.subset_pk ?? f.intervention_pk ?? ''}: ${f.message.slice(0, 160)}`;

export async function run(): Promise<void> {
  if (!existsSync(SHARED_EXPORT)) {
    console.log(`skipped: ${SHARED_EXPORT} not found`);
    return;
  }
  const args = parseBenchArgs(process.argv.slice(2));
  const parts = intOption(args, 'parts', 4);
  const percent = intOption(args, 'percent', 25);
  const seed = intOption(args, 'seed', 1);
  const list = args.options.has('list');
  const start = performance.now();
  const { tables } = await readExport(SHARED_EXPORT, { worker: false });
  const whole = qaFindings(tables, 'whole');
  const sids = tables.studies.map((s) => s.sid);
  console.log(`whole export: ${sids.length} studies, ${whole.filter((f) => f.severity === 'major').length} majors; ${parts} part(s) of ~${percent} % and their complements`);
  console.log('  part                 studies  majors  not major in the whole: on flagged studies / on clean studies   whole majors lost');
  let clean = 0;
  let flagged = 0;
  let flaggedRecords = 0;
  for (let k = 0; k < parts; k++) {
    const part = drawPart(sids, percent / 100, seed + k);
    const complement = new Set(sids.filter((s) => !part.has(s)));
    for (const [label, studies] of [[`seed ${seed + k}`, part], [`seed ${seed + k} rest`, complement]] as const) {
      const alarms = partAlarms(whole, qaFindings(filterStudies(tables, studies), label), studies);
      clean += alarms.onCleanStudies.length;
      flagged += alarms.onFlaggedStudies.length;
      flaggedRecords += alarms.onFlaggedRecords;
      console.log(`  ${label.padEnd(20)} ${String(studies.size).padStart(7)} ${String(alarms.majors).padStart(7)}  ${String(alarms.onFlaggedStudies.length).padStart(38)} / ${String(alarms.onCleanStudies.length).padEnd(18)} ${String(alarms.lost).padStart(8)}`);
      if (list) for (const f of [...alarms.onCleanStudies, ...alarms.onFlaggedStudies]) console.log(`      ${alarms.onCleanStudies.includes(f) ? 'CLEAN  ' : 'flagged'} ${describe(f)}`);
    }
  }
  console.log(`majors not major in the whole run: ${flagged} on studies it flags major (${flaggedRecords} on records it flags too), ${clean} on studies it does not flag (false alarms)`);
  console.log(`wall ${((performance.now() - start) / 1000).toFixed(1)} s`);
}
