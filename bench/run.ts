/**
 * Runs the benchmarks: `npm run bench` runs every `bench/*.bench.ts`;
 * `npm run bench -- nca units` runs those whose file name contains a word.
 * `--name value` options are left to the benchmarks (bench/lib/args.ts).
 * Each benchmark prints its own figures.
 */
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseBenchArgs } from './lib/args.js';

const here = dirname(fileURLToPath(import.meta.url));
const wanted = parseBenchArgs(process.argv.slice(2)).words;
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.includes(w)))
  .sort();
if (files.length === 0) {
  console.error(`no benchmark matches ${wanted.join(' ')}`);
  process.exitCode = 2;
}
for (const file of files) {
  console.log(`\n## ${file}`);
  const mod = (await import(pathToFileURL(join(here, file)).href)) as { run?: () => Promise<void> | void };
  await mod.run?.();
}
