/**
 * The client against hostile or broken servers (issue 10, "Hostile input"):
 * every case ends in bounded time with a clear error naming the URL, and the
 * client still serves a normal request afterwards. The servers carry a
 * safety cap of their own so that an unbounded client fails the test instead
 * of hanging it.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpError, LimitError, NetworkError, PkdbClient, SchemaError, type PkdbClientOptions } from '../../src/api/index.js';
import { SAMPLE_ITEMS } from './items.js';
import { envelope, sendJson, startServer, type Handler, type TestServer } from './test-server.js';

const servers: TestServer[] = [];
const clients: PkdbClient[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await Promise.all(servers.splice(0).map((server) => server.close()));
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function serve(handler: Handler): Promise<TestServer> {
  const server = await startServer(handler);
  servers.push(server);
  return server;
}

function client(options: PkdbClientOptions): PkdbClient {
  const created = new PkdbClient({ retryBaseDelayMs: 5, retryMaxDelayMs: 20, ...options });
  clients.push(created);
  return created;
}

async function cacheDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'pkdb-hostile-'));
  dirs.push(dir);
  return dir;
}

const cachedFiles = async (dir: string) => (await readdir(dir, { recursive: true })).filter((name) => name.endsWith('.json'));

const interventions = (n: number) => Array.from({ length: n }, (_, index) => ({ ...SAMPLE_ITEMS.interventions, pk: index + 1, name: `dose${index + 1}` }));

/** A well-behaved paginated list (pages of `page_size`, default 20). */
function listPage(items: unknown[], request: { query: URLSearchParams; path: string }, response: ServerResponse): void {
  const pageSize = Number(request.query.get('page_size') ?? 20);
  const page = Number(request.query.get('page') ?? 1);
  const lastPage = Math.max(1, Math.ceil(items.length / pageSize));
  if (!Number.isInteger(page) || page < 1 || page > lastPage) return sendJson(response, 404, { detail: 'Invalid page.' });
  sendJson(response, 200, envelope(items, page, pageSize, `http://127.0.0.1${request.path}`));
}

/**
 * Writes `chunk` again and again, every `intervalMs` (0: as fast as the socket takes it),
 * until the client hangs up or `capBytes` are sent. Returns a counter of the bytes written.
 */
function endless(response: ServerResponse, chunk: Buffer, capBytes: number, intervalMs = 0): { written: number } {
  const sent = { written: 0 };
  let closed = false;
  response.on('close', () => (closed = true));
  const next = () => {
    while (!closed && sent.written < capBytes) {
      sent.written += chunk.length;
      const more = response.write(chunk);
      if (intervalMs > 0) return void setTimeout(next, intervalMs);
      if (!more) return void response.once('drain', next);
    }
    if (!closed) response.end();
  };
  next();
  return sent;
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  const outcome = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!(outcome instanceof Error)) throw new Error(`expected a rejection, got ${String(outcome)}`);
  return outcome;
}

describe('response size', () => {
  const MiB = 1024 * 1024;

  it('an endless body is cut at maxResponseBytes with a LimitError naming the URL', async () => {
    let sent: { written: number } | undefined;
    const server = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      sent = endless(response, Buffer.alloc(64 * 1024, 0x20), 256 * MiB);
    });
    const pkdb = client({ baseUrl: server.baseUrl, maxResponseBytes: MiB, retries: 0 });
    const error = await failure(pkdb.page('studies'));
    expect(error).toBeInstanceOf(LimitError);
    expect((error as LimitError).limit).toBe('maxResponseBytes');
    expect(error.message).toBe(`GET ${server.baseUrl}studies/?page=1: response body larger than ${MiB} bytes (maxResponseBytes); not read further`);
    // The stream was cut, not drained: the server got far less than its 256 MiB out (socket buffers aside).
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sent!.written).toBeLessThan(32 * MiB);
  });

  it('a Content-Length past the bound fails before the body is read', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(10 * 1024 * MiB) });
      response.write('{"current_page":');
    });
    const pkdb = client({ baseUrl: server.baseUrl, maxResponseBytes: MiB, retries: 0, timeoutMs: 60_000 });
    const started = Date.now();
    const error = await failure(pkdb.root());
    expect(error).toBeInstanceOf(LimitError);
    expect(error.message).toContain(`GET ${server.baseUrl}: response body larger than ${MiB} bytes`);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('filterDownload: zip bytes are bounded by the same cap before the reader sees them', async () => {
    let sent: { written: number } | undefined;
    const server = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/x-zip-compressed' });
      response.write(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
      sent = endless(response, Buffer.alloc(64 * 1024, 0x41), 256 * MiB);
    });
    const pkdb = client({ baseUrl: server.baseUrl, maxResponseBytes: 2 * MiB, retries: 0 });
    const error = await failure(pkdb.filterDownload({ studies: { sid__in: ['PKDB00198'] } }));
    expect(error).toBeInstanceOf(LimitError);
    expect(error.message).toMatch(new RegExp(`^GET ${server.baseUrl}filter/\\?studies__sid__in=PKDB00198&download=true: response body larger than ${2 * MiB} bytes`));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sent!.written).toBeLessThan(32 * MiB);
  });

  it('an error page is read only as far as its excerpt needs', async () => {
    let sent: { written: number } | undefined;
    const server = await serve((_request, response) => {
      response.writeHead(500, { 'content-type': 'text/html' });
      sent = endless(response, Buffer.from('<p>broken</p>'.repeat(1000)), 128 * MiB);
    });
    const error = await failure(client({ baseUrl: server.baseUrl, maxResponseBytes: 256 * MiB, retries: 0 }).root());
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(500);
    expect((error as HttpError).bodyExcerpt).toMatch(/^<p>broken<\/p>/);
    expect((error as HttpError).bodyExcerpt.length).toBeLessThanOrEqual(300);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sent!.written).toBeLessThan(32 * MiB);
  });
});

describe('deadline', () => {
  it('a body trickling in faster than timeoutMs still ends at deadlineMs', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      // One byte every 50 ms: never idle for timeoutMs, so only a total deadline stops it. Server cap: 20 s.
      endless(response, Buffer.from(' '), 400, 50);
    });
    const pkdb = client({ baseUrl: server.baseUrl, timeoutMs: 1_000, deadlineMs: 600, retries: 2 });
    const started = Date.now();
    const error = await failure(pkdb.page('outputs'));
    const elapsed = Date.now() - started;
    expect(error).toBeInstanceOf(LimitError);
    expect((error as LimitError).limit).toBe('deadlineMs');
    expect(error.message).toBe(`GET ${server.baseUrl}outputs/?page=1: no complete response within the deadline of 600 ms (deadlineMs)`);
    expect(elapsed).toBeGreaterThanOrEqual(550);
    expect(elapsed).toBeLessThan(3_000);
    // The deadline is not retried: one request.
    expect(server.requests).toHaveLength(1);
  });

  it('a retry wait that would pass the deadline is not made: the last failure is reported at once', async () => {
    const server = await serve((_request, response) => sendJson(response, 503, { detail: 'busy' }, { 'retry-after': '5' }));
    const pkdb = client({ baseUrl: server.baseUrl, deadlineMs: 1_000, retries: 4 });
    const started = Date.now();
    const error = await failure(pkdb.root());
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(503);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(server.requests).toHaveLength(1);
  });
});

describe('network faults', () => {
  it('a dropped connection is retried with growing backoff, then reported with the attempts', async () => {
    const server = await serve((_request, _response, raw) => raw.socket.destroy());
    const retries: { attempt: number; reason: string; delayMs: number }[] = [];
    const pkdb = client({ baseUrl: server.baseUrl, retries: 3, retryBaseDelayMs: 40, retryMaxDelayMs: 1_000, onRetry: ({ attempt, reason, delayMs }) => retries.push({ attempt, reason, delayMs }) });
    const error = await failure(pkdb.page('studies'));
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).attempts).toBe(4);
    expect(error.message).toMatch(new RegExp(`^GET ${server.baseUrl}studies/\\?page=1: (ECONNRESET|UND_ERR_SOCKET) after 4 attempts$`));
    expect(server.requests).toHaveLength(4);
    expect(retries.map((retry) => retry.attempt)).toEqual([1, 2, 3]);
    // Full jitter under a doubling ceiling: 40, 80, 160 ms.
    retries.forEach((retry, index) => expect(retry.delayMs).toBeLessThan(40 * 2 ** index));
  });
});

describe('pages', () => {
  it('last_page: 1e9 with a count of 45 is a SchemaError after one request, not a million', async () => {
    const server = await serve((request, response) => {
      if (server.requests.length > 200) return sendJson(response, 404, { detail: 'safety cap of the test server' });
      const page = Number(request.query.get('page'));
      sendJson(response, 200, { ...(envelope(interventions(45), Math.min(page, 3), 20, server.baseUrl) as object), current_page: page, last_page: 1e9 });
    });
    const error = await failure(client({ baseUrl: server.baseUrl }).list('interventions'));
    expect(error).toBeInstanceOf(SchemaError);
    expect(error.message).toBe(`GET ${server.baseUrl}interventions/?page=1: last_page: is 1000000000, but count 45 in pages of 20 items makes 3`);
    expect(server.requests).toHaveLength(1);
  });

  it('a last_page that disagrees with count / page size is a SchemaError naming the URL', async () => {
    const server = await serve((request, response) => {
      const page = Number(request.query.get('page'));
      sendJson(response, 200, { ...(envelope(interventions(45), page, 20, server.baseUrl) as object), last_page: 50 });
    });
    const error = await failure(client({ baseUrl: server.baseUrl }).list('interventions'));
    expect(error).toBeInstanceOf(SchemaError);
    expect(error.message).toBe(`GET ${server.baseUrl}interventions/?page=1: last_page: is 50, but count 45 in pages of 20 items makes 3`);
    expect(server.requests).toHaveLength(1);
  });

  it('a consistent list longer than maxPages is refused by all() before page 2; page() still reads one page of it', async () => {
    const server = await serve((request, response) => {
      const page = Number(request.query.get('page'));
      sendJson(response, 200, { current_page: page, last_page: 500, next_page_url: null, prev_page_url: null, data: { count: 10_000, data: interventions(20) } });
    });
    const pkdb = client({ baseUrl: server.baseUrl, maxPages: 100 });
    const error = await failure(pkdb.list('interventions'));
    expect(error).toBeInstanceOf(SchemaError);
    expect(error.message).toBe(`GET ${server.baseUrl}interventions/?page=1: last_page: is 500, more than the 100 pages the client fetches (maxPages)`);
    expect(server.requests).toHaveLength(1);
    expect((await pkdb.page('interventions', { page: 7 })).current_page).toBe(7);
  });

  it('a wrong current_page is a SchemaError and is not cached', async () => {
    const dir = await cacheDir();
    const items = interventions(45);
    // Every page answers as page 1.
    const server = await serve((_request, response) => sendJson(response, 200, envelope(items, 1, 20, server.baseUrl)));
    const pkdb = client({ baseUrl: server.baseUrl, cacheDir: dir, concurrency: 1 });
    const error = await failure(pkdb.list('interventions'));
    expect(error).toBeInstanceOf(SchemaError);
    expect(error.message).toBe(`GET ${server.baseUrl}interventions/?page=2: current_page: is 1, but page 2 was requested`);
    expect(await cachedFiles(dir)).toHaveLength(1);
    await expect(pkdb.page('interventions', { page: 3 })).rejects.toThrow('current_page: is 1, but page 3 was requested');
  });

  it('a page that changes its count mid-crawl is a SchemaError', async () => {
    const server = await serve((request, response) => listPage(interventions(request.query.get('page') === '3' ? 41 : 45), request, response));
    const error = await failure(client({ baseUrl: server.baseUrl, concurrency: 1 }).list('interventions'));
    expect(error).toBeInstanceOf(SchemaError);
    expect(error.message).toBe(`GET ${server.baseUrl}interventions/?page=3: data.count: is 41, but 45 on page 1: the list changed during the crawl`);
  });
});

describe('redirects', () => {
  it('a redirect loop is a LimitError naming the loop, after two requests', async () => {
    const server = await serve((request, response) => {
      const target = request.query.has('x') ? `${server.baseUrl}studies/?page=1` : `${server.baseUrl}studies/?page=1&x=1`;
      response.writeHead(302, { location: target });
      response.end();
    });
    const error = await failure(client({ baseUrl: server.baseUrl }).page('studies'));
    expect(error).toBeInstanceOf(LimitError);
    expect((error as LimitError).limit).toBe('maxRedirects');
    const first = `${server.baseUrl}studies/?page=1`;
    expect(error.message).toBe(`GET ${first}: redirect loop: ${first} -> ${first}&x=1 -> ${first}`);
    expect(server.requests).toHaveLength(2);
  });

  it('an endless chain of new URLs stops after maxRedirects', async () => {
    const server = await serve((request, response) => {
      response.writeHead(307, { location: `${server.baseUrl}studies/?hop=${Number(request.query.get('hop') ?? 0) + 1}` });
      response.end();
    });
    const error = await failure(client({ baseUrl: server.baseUrl, maxRedirects: 3 }).root());
    expect(error).toBeInstanceOf(LimitError);
    expect(error.message).toMatch(/^GET http:\S+: more than 3 redirects \(maxRedirects\): \S+ -> \S+hop=1 -> \S+hop=2 -> \S+hop=3 -> \S+hop=4$/);
    expect(server.requests).toHaveLength(4);
  });

  it('page 2 redirected to page 1 fails and is never cached as page 2', async () => {
    const dir = await cacheDir();
    const items = interventions(45);
    const server = await serve((request, response) => {
      if (request.query.get('page') === '2') {
        response.writeHead(302, { location: `${request.path}?page=1` });
        return void response.end();
      }
      listPage(items, request, response);
    });
    const pkdb = client({ baseUrl: server.baseUrl, cacheDir: dir, concurrency: 1 });
    const error = await failure(pkdb.page('interventions', { page: 2 }));
    expect(error).toBeInstanceOf(SchemaError);
    expect(error.message).toBe(`GET ${server.baseUrl}interventions/?page=2: current_page: is 1, but page 2 was requested`);
    expect(await cachedFiles(dir)).toHaveLength(0);
    await expect(pkdb.list('interventions')).rejects.toThrow('but page 2 was requested');
    // Only page 1, fetched under its own URL.
    expect(await cachedFiles(dir)).toHaveLength(1);
  });

  it('a response redirected to another path is returned but not cached under the URL requested', async () => {
    const dir = await cacheDir();
    const server = await serve((request, response) => {
      if (request.path.endsWith('/OLD/')) {
        response.writeHead(301, { location: '../NEW/' });
        return void response.end();
      }
      sendJson(response, 200, { ...SAMPLE_ITEMS.studies, sid: 'NEW' });
    });
    const pkdb = client({ baseUrl: server.baseUrl, cacheDir: dir });
    expect((await pkdb.get('studies', 'OLD')).sid).toBe('NEW');
    expect((await pkdb.get('studies', 'OLD')).sid).toBe('NEW');
    expect(server.requests.map((request) => request.path)).toEqual(Array(2).fill(['/api/v1/studies/OLD/', '/api/v1/studies/NEW/']).flat());
    expect(await cachedFiles(dir)).toHaveLength(0);
  });

  it('credentials stay on their origin: a redirect to another origin drops Authorization', async () => {
    const other = await serve((_request, response) => sendJson(response, 200, { ...SAMPLE_ITEMS.studies, sid: 'ELSEWHERE' }));
    const server = await serve((_request, response) => {
      response.writeHead(302, { location: `${other.baseUrl}studies/ELSEWHERE/` });
      response.end();
    });
    const pkdb = client({ baseUrl: server.baseUrl, username: 'alice', password: 'pw-on-origin' });
    expect((await pkdb.get('studies', 'X')).sid).toBe('ELSEWHERE');
    expect(server.requests[0].headers.authorization).toMatch(/^Basic /);
    expect(other.requests[0].headers.authorization).toBeUndefined();
  });
});

describe('credentials in the base URL', () => {
  const password = 'pw-Secret-77';

  it('are Basic auth and part of the cache scope: an anonymous client on the same cache dir never gets them', async () => {
    const dir = await cacheDir();
    const alicesItems = interventions(45);
    const publicItems = interventions(5);
    const server = await serve((request, response) => listPage(request.headers.authorization ? alicesItems : publicItems, request, response));
    const alice = client({ baseUrl: server.baseUrl.replace('http://', `http://alice:${password}@`), cacheDir: dir });
    expect(alice.baseUrl).toBe(server.baseUrl);
    expect(await alice.list('interventions')).toHaveLength(45);
    expect(server.requests[0].headers.authorization).toBe(`Basic ${Buffer.from(`alice:${password}`).toString('base64')}`);
    const anonymous = client({ baseUrl: server.baseUrl, cacheDir: dir });
    expect(await anonymous.list('interventions')).toHaveLength(5);
    expect(server.requests.at(-1)!.headers.authorization).toBeUndefined();
    // And alice given as options shares alice's scope: no new request.
    const before = server.requests.length;
    const aliceAgain = client({ baseUrl: server.baseUrl, username: 'alice', password, cacheDir: dir });
    expect(await aliceAgain.list('interventions')).toHaveLength(45);
    expect(server.requests).toHaveLength(before);
  });

  it('never appear in a message: HTTP error, echoed body, schema error, network error, limits, bad URL', async () => {
    const base64 = Buffer.from(`alice:${password}`).toString('base64');
    const server = await serve((request, response) => {
      const echo = `${request.headers.authorization} ${password}`;
      if (request.path.endsWith('/studies/')) return sendJson(response, 403, { detail: echo });
      if (request.path.endsWith('/outputs/')) return sendJson(response, 200, { current_page: echo });
      if (request.path.endsWith('/groups/')) return sendJson(response, 200, `{"echo": "${echo}" oops`);
      response.writeHead(302, { location: request.path });
      response.end();
    });
    const withPassword = server.baseUrl.replace('http://', `http://alice:${password}@`);
    const pkdb = client({ baseUrl: withPassword, retries: 0 });
    const closedPort = new PkdbClient({ baseUrl: 'http://alice:' + password + '@127.0.0.1:1/', retries: 0 });
    clients.push(closedPort);
    const errors = [
      await failure(pkdb.page('studies')),
      await failure(pkdb.page('outputs')),
      await failure(pkdb.page('groups')),
      await failure(pkdb.root()),
      await failure(closedPort.root()),
      await failure(Promise.resolve().then(() => new PkdbClient({ baseUrl: `http://alice:${password}@127.0.0.1:99999/` }))),
    ];
    expect(errors.map((error) => error.constructor)).toEqual([HttpError, SchemaError, SchemaError, LimitError, NetworkError, TypeError]);
    for (const error of errors) {
      expect(error.message).not.toContain(password);
      expect(error.message).not.toContain(base64);
    }
    expect(errors[0].message).toContain('***');
    expect(errors[5].message).toBe('invalid base URL "http://127.0.0.1:99999/"');
  });
});

describe('after a hostile server, the client still works', () => {
  it('a normal request succeeds on the same client after each bound was hit', async () => {
    let mode = 'endless';
    const server = await serve((request, response) => {
      if (mode === 'endless') {
        response.writeHead(200);
        return void endless(response, Buffer.alloc(16 * 1024, 0x20), 64 * 1024 * 1024);
      }
      if (mode === 'slow') {
        response.writeHead(200);
        return void endless(response, Buffer.from(' '), 100, 50);
      }
      listPage(interventions(45), request, response);
    });
    const pkdb = client({ baseUrl: server.baseUrl, maxResponseBytes: 256 * 1024, deadlineMs: 400, retries: 0 });
    await expect(pkdb.page('interventions')).rejects.toBeInstanceOf(LimitError);
    mode = 'slow';
    await expect(pkdb.page('interventions')).rejects.toBeInstanceOf(LimitError);
    mode = 'normal';
    expect(await pkdb.list('interventions')).toHaveLength(45);
  });
});
