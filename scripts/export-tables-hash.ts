/**
 * The SHA-256 of the tables `readExport` makes of an export, serialised as
 * JSON with -0, NaN, infinities and undefined spelled out (JSON would fold
 * them into 0, null or nothing), per table and for the whole: two checkouts'
 * readers give identical tables when they print the same digests.
 *
 *   npx tsx scripts/export-tables-hash.ts [export.zip] [--worker=false|true|always]
 */
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith('--')) ?? resolve(import.meta.dirname, '../../shared/data/pkdb-export-2020-10-16-shared.zip');
const workerArg = args.find((a) => a.startsWith('--worker='))?.slice('--worker='.length);
const worker = workerArg === undefined ? false : workerArg === 'always' ? 'always' : workerArg === 'true';
const checkout = args.find((a) => a.startsWith('--checkout='))?.slice('--checkout='.length) ?? resolve(import.meta.dirname, '..');
const { readExport } = (await import(pathToFileURL(resolve(checkout, 'src/data/export/read.ts')).href)) as typeof import('../src/data/export/read.js');

const spelled = (_key: string, value: unknown) => {
  if (typeof value === 'number' && (Object.is(value, -0) || !Number.isFinite(value))) return `<number ${Object.is(value, -0) ? '-0' : String(value)}>`;
  if (value === undefined) return '<undefined>';
  return value;
};

const { tables, problems, problemCount } = await readExport(file, { worker });
const whole = createHash('sha256');
for (const [name, rows] of Object.entries(tables)) {
  const json = JSON.stringify(rows, spelled);
  whole.update(`${name}\n${json}\n`);
  console.log(`${name.padEnd(14)} ${String((rows as unknown[]).length).padStart(6)} ${createHash('sha256').update(json).digest('hex').slice(0, 16)}`);
}
const problemJson = JSON.stringify({ problems, problemCount });
whole.update(problemJson);
console.log(`problems       ${String(problemCount).padStart(6)} ${createHash('sha256').update(problemJson).digest('hex').slice(0, 16)}`);
console.log(`all tables     ${whole.digest('hex')}`);
