/**
 * `pkdb serve` throughput on loopback: page requests per second (through the
 * client's undici pool, with and without schema validation) and a full crawl
 * of /pkdata/outputs/ (items/s), with p50/p99 latency. Serves the shared
 * export when ../shared is present, else the bundled fixtures. Server and
 * client share this process (and its one event loop), so figures are a floor.
 *
 *   npm run bench -- server
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resourceUsage } from 'node:process';
import { Agent, request } from 'undici';
import { PkdbClient } from '../src/api/client.js';
import { Dataset } from '../src/data/dataset.js';
import { readExport } from '../src/data/export/read.js';
import { loadFixtures } from '../src/data/fixtures.js';
import { startServer } from '../src/server/app.js';
import { hashPassword, UserTable } from '../src/server/auth.js';
import { Store } from '../src/server/store.js';
import { SHARED_EXPORT } from '../test/helpers/shared.js';

const REQUESTS = 2000;
const WRITES = 100;
const CONCURRENCY = 8;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Runs `count` calls of `task(i)` with `concurrency` in flight; returns wall time and per-call latencies. */
async function load(count: number, concurrency: number, task: (i: number) => Promise<void>) {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        const t = performance.now();
        await task(i);
        latencies.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

function report(name: string, count: number, unit: string, r: { seconds: number; p50: number; p99: number }): void {
  console.log(
    `${name}: ${count} ${unit} in ${r.seconds.toFixed(2)} s = ${(count / r.seconds).toFixed(0)} ${unit}/s; ` +
      `p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms`,
  );
}

/**
 * Durable writes: the SQLite store alone (sql.js exports the whole database
 * and the file is replaced atomically with fsync), and authenticated POSTs
 * end to end (one scrypt derivation per request dominates).
 */
async function benchWrites(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'pkdb-bench-'));
  try {
    const store = await Store.open(join(dir, 'store'));
    const body = { sid: 'X', name: 'Bench', groupset: { groups: Array.from({ length: 20 }, (_, i) => ({ characteristica: [{ i }] })) } };
    const stored = await load(WRITES, 1, async (i) => {
      await store.insert('_studies', `S${i}`, body, 'bench');
    });
    report('store.insert (sql.js, atomic file replace with fsync, sequential)', WRITES, 'writes', stored);
    await store.close();

    const users = new UserTable({ users: [{ username: 'bench', hash: await hashPassword('pw') }] });
    const server = await startServer({ dataset: await loadFixtures(), port: 0, dataDir: join(dir, 'server'), users });
    const authorization = `Basic ${Buffer.from('bench:pw').toString('base64')}`;
    const posted = await load(WRITES, 4, async (i) => {
      const response = await fetch(`${server.url}_studies/`, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json' },
        body: JSON.stringify({ ...body, sid: `P${i}` }),
      });
      if (response.status !== 201) throw new Error(`POST answered ${response.status}`);
    });
    report('POST /_studies/ with Basic auth (scrypt N=2^14 per request, concurrency 4)', WRITES, 'writes', posted);
    await server.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function run(): Promise<void> {
  const shared = existsSync(SHARED_EXPORT);
  let t = performance.now();
  const dataset = shared
    ? Dataset.fromTables((await readExport(SHARED_EXPORT)).tables, { kind: 'export', location: SHARED_EXPORT })
    : await loadFixtures();
  console.log(`dataset: ${shared ? 'shared export' : 'bundled fixtures'} loaded in ${(performance.now() - t).toFixed(0)} ms`);
  t = performance.now();
  const server = await startServer({ dataset, port: 0 });
  console.log(`index built and listening in ${(performance.now() - t).toFixed(0)} ms (${server.url})`);
  const client = new PkdbClient({ baseUrl: server.url, concurrency: CONCURRENCY, retries: 0 });
  try {
    const lastPage = (await client.page('pkdata/outputs')).last_page;
    const pageOf = (i: number) => 1 + ((i * 7919) % lastPage);

    const validated = await load(REQUESTS, CONCURRENCY, async (i) => {
      await client.page('pkdata/outputs', { page: pageOf(i) });
    });
    report(`page requests via PkdbClient.page (20 items, zod-validated, concurrency ${CONCURRENCY})`, REQUESTS, 'requests', validated);

    const agent = new Agent({ connections: CONCURRENCY });
    const raw = await load(REQUESTS, CONCURRENCY, async (i) => {
      const response = await request(`${server.url}pkdata/outputs/?page=${pageOf(i)}`, { dispatcher: agent });
      await response.body.arrayBuffer();
    });
    report(`page requests via undici Agent (20 items, body read, no validation, concurrency ${CONCURRENCY})`, REQUESTS, 'requests', raw);
    await agent.close();

    for (const pageSize of [100, 1000]) {
      const first = await client.page('pkdata/outputs', { pageSize });
      let items = 0;
      const started = performance.now();
      for await (const item of client.all('pkdata/outputs', { pageSize })) items += item.output_pk > 0 ? 1 : 0;
      const seconds = (performance.now() - started) / 1000;
      const pages = await load(first.last_page, CONCURRENCY, async (i) => {
        await client.page('pkdata/outputs', { pageSize, page: i + 1 });
      });
      console.log(
        `crawl /pkdata/outputs/ with client.all (page_size ${pageSize}, ${first.last_page} pages): ${items} items in ${seconds.toFixed(2)} s = ` +
          `${(items / seconds).toFixed(0)} items/s; per page p50 ${pages.p50.toFixed(1)} ms, p99 ${pages.p99.toFixed(1)} ms`,
      );
    }
    await benchWrites();
    console.log(`peak RSS ${(resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
  } finally {
    await client.close();
    await server.close();
  }
}
