/**
 * `pkdb serve` throughput on loopback: page requests per second (through the
 * client's undici pool, with and without schema validation) and a full crawl
 * of /pkdata/outputs/ (items/s), with p50/p99 latency, then durable writes
 * (see benchWrites). Serves the shared export when ../shared is present, else
 * the bundled fixtures. Server and client share this process (and its one
 * event loop), so figures are a floor.
 *
 *   npm run bench -- server
 */
import { existsSync, statSync } from 'node:fs';
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
import { DATABASE_FILE, Store } from '../src/server/store.js';
import { SHARED_EXPORT } from '../test/helpers/shared.js';

const REQUESTS = 2000;
const TOKEN_WRITES = 2000;
const WARMUP_WRITES = 500;
const BASIC_WRITES = 40;
const FILTERS = 400;
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

const MB = 2 ** 20;
const rssMb = () => process.memoryUsage().rss / MB;
/** Size of the "big" data dir the write figures are also taken with (the issue measured sql.js at 371 MB). */
const BIG_DATA_DIR_MB = 300;

/** Fills a data dir to about `mb` MB fast: 10 MB uploads straight into the store. */
async function fillDataDir(dir: string, mb: number): Promise<void> {
  const store = await Store.open(dir);
  const blob = new Uint8Array(10 * MB).map((_, i) => (i * 2654435761) >>> 24);
  for (let i = 0; i < mb / 10; i++) await store.insertFile(`filler-${i}.bin`, null, blob, 'bench');
  await store.close();
}

/**
 * Durable writes (libsql, WAL, synchronous=NORMAL): small token-authenticated
 * POSTs end to end, sequential and 10 in parallel, and anonymous filters
 * (one small row each), on an empty data dir and on a ~300 MB one; RSS after
 * each phase shows whether memory follows the database size. Basic auth is
 * shown once for contrast (one scrypt derivation per request dominates).
 */
async function benchWrites(): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'pkdb-bench-'));
  try {
    const users = new UserTable({ users: [{ username: 'bench', hash: await hashPassword('pw') }] });
    const dataset = await loadFixtures();
    const body = { sid: 'X', name: 'Bench', date: '2024-01-01', creator: 'bench', licence: 'open', access: 'public' };
    for (const size of [0, BIG_DATA_DIR_MB]) {
      const dir = join(root, `data-${size}`);
      let t = performance.now();
      if (size > 0) await fillDataDir(dir, size);
      const fileMb = size > 0 ? statSync(join(dir, DATABASE_FILE)).size / MB : 0;
      const label = size > 0 ? `${fileMb.toFixed(0)} MB data dir, filled in ${((performance.now() - t) / 1000).toFixed(1)} s` : 'empty data dir';
      const server = await startServer({ dataset, port: 0, dataDir: dir, users });
      const base = server.url.replace(/api\/v1\/$/, '');
      const login = await fetch(`${base}api-token-auth/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'bench', password: 'pw' }),
      });
      const { token } = (await login.json()) as { token: string };
      const agent = new Agent({ connections: 10 });
      const post = async (sid: string, authorization: string) => {
        const response = await request(`${server.url}_studies/`, {
          method: 'POST',
          dispatcher: agent,
          headers: { authorization, 'content-type': 'application/json' },
          body: JSON.stringify({ ...body, sid }),
        });
        await response.body.arrayBuffer();
        if (response.statusCode !== 201) throw new Error(`POST answered ${response.statusCode}`);
      };
      // Warm-up (JIT, connections, the database's first pages), not counted.
      await load(WARMUP_WRITES, 10, (i) => post(`W${size}-${i}`, `Token ${token}`));
      console.log(`-- writes, ${label}; RSS before ${rssMb().toFixed(0)} MB`);
      const sequential = await load(TOKEN_WRITES, 1, (i) => post(`S${size}-${i}`, `Token ${token}`));
      report('POST /_studies/ with a token, sequential', TOKEN_WRITES, 'writes', sequential);
      const parallel = await load(TOKEN_WRITES, 10, (i) => post(`P${size}-${i}`, `Token ${token}`));
      report('POST /_studies/ with a token, 10 in parallel', TOKEN_WRITES, 'writes', parallel);
      const filters = await load(FILTERS, 20, async (i) => {
        const response = await request(`${server.url}filter/?studies__sid__in=${encodeURIComponent(dataset.tables.studies[i % 5].sid)}`, {
          dispatcher: agent,
        });
        await response.body.arrayBuffer();
        if (response.statusCode !== 200) throw new Error(`filter answered ${response.statusCode}`);
      });
      report('anonymous GET /filter/ (one stored result each), 20 in parallel', FILTERS, 'requests', filters);
      if (size === 0) {
        const basic = `Basic ${Buffer.from('bench:pw').toString('base64')}`;
        const posted = await load(BASIC_WRITES, 4, (i) => post(`B${i}`, basic));
        report('POST /_studies/ with Basic auth (scrypt N=2^14 per request, 4 in parallel)', BASIC_WRITES, 'writes', posted);
      }
      const grown = statSync(join(dir, DATABASE_FILE)).size / MB;
      console.log(`   RSS after ${rssMb().toFixed(0)} MB; database ${grown.toFixed(1)} MB`);
      await agent.close();
      await server.close();
    }
  } finally {
    await rm(root, { recursive: true, force: true });
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
