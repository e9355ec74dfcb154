/**
 * `pkdb pull` against `pkdb serve`: the pulled zip loads into tables equal to
 * the served export (bundled fixtures always, the shared export when present),
 * and a second pull from the cache needs no server at all.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { Dataset } from '../../src/data/dataset.js';
import { readExport } from '../../src/data/export/read.js';
import { FIXTURES_EXPORT } from '../../src/data/fixtures.js';
import { startServer } from '../../src/server/app.js';
import { describeShared, SHARED_EXPORT } from '../helpers/shared.js';
import { sortedTables } from './compare.js';

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'pkdb-pull-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** Serves an export, pulls it with the CLI, and returns the original and pulled tables. */
async function serveAndPull(exportPath: string, extraArgs: string[] = []) {
  const { tables } = await readExport(exportPath);
  const server = await startServer({ dataset: Dataset.fromTables(tables, { kind: 'export', location: exportPath }), port: 0 });
  const out = join(work, `pulled-${Math.random().toString(36).slice(2)}.zip`);
  try {
    const code = await main(['pull', '--base-url', server.url, '--out', out, '--concurrency', '4', ...extraArgs]);
    expect(code).toBe(0);
  } finally {
    await server.close();
  }
  return { tables, pulled: (await readExport(out)).tables, out, url: server.url };
}

describe('pkdb pull of a served export', () => {
  it('reproduces the bundled fixtures export, and resumes from its cache without the server', async () => {
    const cache = join(work, 'cache');
    const { tables, pulled, out, url } = await serveAndPull(FIXTURES_EXPORT, ['--cache', cache]);
    expect(sortedTables(pulled)).toEqual(sortedTables(tables));
    // The server is gone: every page must come from the cache.
    const again = join(work, 'again.zip');
    expect(await main(['pull', '--base-url', url, '--out', again, '--cache', cache])).toBe(0);
    expect(sortedTables((await readExport(again)).tables)).toEqual(sortedTables((await readExport(out)).tables));
    expect((await readFile(again)).byteLength).toBeGreaterThan(0);
  });

  it('fails with exit code 2 and one line for an unreachable server or bad options', async () => {
    expect(await main(['pull', '--base-url', 'http://127.0.0.1:9/api/v1/', '--out', join(work, 'x.zip'), '--concurrency', '1'])).toBe(2);
    expect(await main(['pull', '--base-url', 'http://127.0.0.1:9/', '--concurrency', '0'])).toBe(2);
    expect(await main(['pull', '--base-url', 'http://127.0.0.1:9/', '--password', 'p'])).toBe(2);
  });
});

describeShared('pkdb pull of the shared export', SHARED_EXPORT, () => {
  it('loads into a dataset equal to the original', async () => {
    const { tables, pulled } = await serveAndPull(SHARED_EXPORT);
    expect(sortedTables(pulled)).toEqual(sortedTables(tables));
  });
});
