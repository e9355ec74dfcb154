/**
 * Runs the benchmarks: `npm run bench` runs every `bench/*.bench.ts`;
 * `npm run bench -- nca units` runs those a word names (`qa` is qa.bench.ts alone; `recall`
 * any file whose name contains it: bench/lib/args.ts `selectBenches`).
 * `--name value` options are left to the benchmarks (bench/lib/args.ts).
 * Each benchmark prints its own figures.
 */
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseBenchArgs, selectBenches } from './lib/args.js';

const here = dirname(fileURLToPath(import.meta.url));
const wanted = parseBenchArgs(process.argv.slice(2)).words;
const files = selectBenches(readdirSync(here), wanted);
if (files.length === 0) {
  console.error(`no benchmark matches ${wanted.join(' ')}`);
  process.exitCode = 2;
}
for (const file of files) {
  console.log(`\n## ${file}`);
  const mod = (await import(pathToFileURL(join(here, file)).href)) as { run?: () => Promise<void> | void };
  await mod.run?.();
}
