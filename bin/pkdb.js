#!/usr/bin/env node
// Entry point of the `pkdb` command. In a checkout (src/ present, tsx installed) it runs the
// TypeScript sources directly, so `npx pkdb` works right after `npm ci`; in an installed package
// it runs the compiled dist/.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const source = join(root, 'src', 'cli', 'main.ts');
const compiled = join(root, 'dist', 'cli', 'main.js');

let entry = compiled;
if (existsSync(source)) {
  try {
    const { register } = await import('tsx/esm/api');
    register();
    entry = source;
  } catch {
    // tsx is a dev dependency; without it fall back to the build.
  }
}
if (!existsSync(entry)) {
  process.stderr.write('pkdb: no build found; run `npm run build` first\n');
  process.exit(2);
}
const { main, oneShotProcess, ignoreClosedPipes } = await import(pathToFileURL(entry).href);
// This process runs one command and exits: batch commands may tune V8 for that (src/cli/batch-tuning.ts).
oneShotProcess();
// `pkdb qa --json | head`: a reader that stops early is no crash (src/cli/main.ts).
ignoreClosedPipes(process.stdout);
ignoreClosedPipes(process.stderr);
process.exitCode = await main(process.argv.slice(2));
