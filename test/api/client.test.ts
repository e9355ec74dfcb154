import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpError, NetworkError, PkdbClient, ROOT_RESOURCE_NAMES, SchemaError, type PkdbClientOptions } from '../../src/api/index.js';
import { SAMPLE_ITEMS } from './items.js';
import { envelope, sendJson, startServer, type Handler, type TestServer } from './test-server.js';

const open: { server?: TestServer; clients: PkdbClient[] } = { clients: [] };
afterEach(async () => {
  await Promise.all(open.clients.map((client) => client.close()));
  open.clients = [];
  await open.server?.close();
  open.server = undefined;
});

async function setup(handler: Handler, options: Partial<PkdbClientOptions> = {}) {
  const server = await startServer(handler);
  open.server = server;
  const client = new PkdbClient({ baseUrl: server.baseUrl, retryBaseDelayMs: 5, retryMaxDelayMs: 20, ...options });
  open.clients.push(client);
  return { server, client };
}

/** n distinct interventions, pk 1..n. */
const interventions = (n: number) => Array.from({ length: n }, (_, index) => ({ ...SAMPLE_ITEMS.interventions, pk: index + 1, name: `dose${index + 1}` }));

/** Serves `items` as a paginated list; `page_size` honoured, pages out of range 404 as PK-DB does. */
function listHandler(items: unknown[], hooks: { delayForPage?: (page: number) => number } = {}): Handler {
  return (request, response) => {
    const pageSize = Number(request.query.get('page_size') ?? 20);
    const page = Number(request.query.get('page') ?? 1);
    const lastPage = Math.max(1, Math.ceil(items.length / pageSize));
    if (!Number.isInteger(page) || page < 1 || page > lastPage) return sendJson(response, 404, { detail: 'Invalid page.' });
    setTimeout(() => sendJson(response, 200, envelope(items, page, pageSize, `http://127.0.0.1${request.path}`)), hooks.delayForPage?.(page) ?? 0);
  };
}

describe('pagination', () => {
  it('page(): one typed page, last page partial', async () => {
    const { client } = await setup(listHandler(interventions(45)));
    const last = await client.page('interventions', { page: 3 });
    expect(last.current_page).toBe(3);
    expect(last.last_page).toBe(3);
    expect(last.data.count).toBe(45);
    expect(last.data.data.map((item) => item.pk)).toEqual([41, 42, 43, 44, 45]);
  });

  it('all() yields every item once, in order, although later pages answer first', async () => {
    const items = interventions(45);
    const { client, server } = await setup(listHandler(items, { delayForPage: (page) => (page === 2 ? 80 : 0) }), { concurrency: 3 });
    const seen: number[] = [];
    for await (const item of client.all('interventions')) seen.push(item.pk);
    expect(seen).toEqual(items.map((item) => item.pk));
    expect(server.requests.map((request) => request.query.get('page')).sort()).toEqual(['1', '2', '3']);
  });

  it('all() over many pages keeps at most `concurrency` requests open', async () => {
    let active = 0;
    let peak = 0;
    const inner = listHandler(interventions(200));
    const { client } = await setup(
      (request, response) => {
        active++;
        peak = Math.max(peak, active);
        response.on('finish', () => active--);
        setTimeout(() => inner(request, response, undefined as never), 10);
      },
      { concurrency: 3 },
    );
    const items = await client.list('interventions');
    expect(items).toHaveLength(200);
    expect(new Set(items.map((item) => item.pk)).size).toBe(200);
    expect(peak).toBeLessThanOrEqual(3);
  });

  it('an empty result is one page with no items', async () => {
    const { client, server } = await setup(listHandler([]));
    const page = await client.page('outputs');
    expect(page).toMatchObject({ current_page: 1, last_page: 1, data: { count: 0, data: [] } });
    const seen = [];
    for await (const item of client.all('outputs')) seen.push(item);
    expect(seen).toEqual([]);
    expect(server.requests).toHaveLength(2);
  });

  it('pageSize becomes page_size; ordering repeats, ids join with __, other parameters pass through', async () => {
    const { client, server } = await setup(listHandler(interventions(45)));
    const items = await client.list('interventions', { pageSize: 1000, normed: true, ordering: ['name', '-value'], ids: [1, 2, 3], search_multi_match: 'caf' });
    expect(items).toHaveLength(45);
    expect(server.requests).toHaveLength(1);
    const query = server.requests[0].query;
    expect(query.get('page_size')).toBe('1000');
    expect(query.get('normed')).toBe('true');
    expect(query.getAll('ordering')).toEqual(['name', '-value']);
    expect(query.get('ids')).toBe('1__2__3');
    expect(query.get('search_multi_match')).toBe('caf');
  });

  it('onPage reports pages done out of last_page', async () => {
    const progress: [number, number][] = [];
    const { client } = await setup(listHandler(interventions(50)), { onPage: ({ pagesDone, pagesTotal }) => progress.push([pagesDone, pagesTotal]) });
    await client.list('interventions');
    expect(progress).toEqual([
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
  });
});

describe('retries', () => {
  it('503 then success', async () => {
    let calls = 0;
    const ok = listHandler(interventions(3));
    const { client, server } = await setup((request, response) => (++calls === 1 ? sendJson(response, 503, { detail: 'busy' }) : ok(request, response, undefined as never)));
    expect((await client.page('interventions')).data.count).toBe(3);
    expect(server.requests).toHaveLength(2);
  });

  it('honours Retry-After in seconds', async () => {
    let calls = 0;
    const ok = listHandler(interventions(3));
    const delays: number[] = [];
    const { client, server } = await setup(
      (request, response) => (++calls === 1 ? sendJson(response, 429, { detail: 'slow down' }, { 'retry-after': '1' }) : ok(request, response, undefined as never)),
      { onRetry: ({ delayMs }) => delays.push(delayMs) },
    );
    await client.page('interventions');
    expect(delays).toHaveLength(1);
    expect(delays[0]).toBeGreaterThanOrEqual(1000);
    const [first, second] = server.requests;
    expect(second.receivedAt - first.receivedAt).toBeGreaterThanOrEqual(1000 - 5);
  });

  it('a connection reset is retried', async () => {
    let calls = 0;
    const ok = listHandler(interventions(3));
    const retries: string[] = [];
    const { client } = await setup(
      (request, response, raw) => (++calls === 1 ? raw.socket.destroy() : ok(request, response, raw)),
      { onRetry: ({ reason }) => retries.push(reason) },
    );
    expect((await client.page('interventions')).data.count).toBe(3);
    expect(retries).toHaveLength(1);
    expect(retries[0]).toMatch(/ECONNRESET|UND_ERR_SOCKET/);
  });

  it('gives up after `retries` and throws HttpError with status', async () => {
    const { client, server } = await setup((_request, response) => sendJson(response, 502, { detail: 'bad gateway' }), { retries: 2 });
    const error = await client.page('groups').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(502);
    expect(server.requests).toHaveLength(3);
  });

  it('a 404 is not retried', async () => {
    const { client, server } = await setup((_request, response) => sendJson(response, 404, { detail: 'Invalid page.' }));
    await expect(client.page('groups', { page: 9 })).rejects.toThrow(/HTTP 404: \{"detail":"Invalid page\."\}/);
    expect(server.requests).toHaveLength(1);
  });
});

describe('errors name the URL', () => {
  it('a server that never answers gives NetworkError after the retries', async () => {
    const { client, server } = await setup(() => undefined, { timeoutMs: 150, retries: 1 });
    const error = (await client.page('outputs').catch((caught: unknown) => caught)) as NetworkError;
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.code).toBe('UND_ERR_HEADERS_TIMEOUT');
    expect(error.attempts).toBe(2);
    expect(error.message).toContain(`GET ${server.baseUrl}outputs/?page=1`);
    expect(server.requests).toHaveLength(2);
  });

  it('a 500 HTML page gives HttpError with a body excerpt of at most 300 characters', async () => {
    const html = `<!doctype html><html><head><title>Server Error (500)</title></head><body><h1>Server Error (500)</h1>${'<p>trace</p>'.repeat(100)}</body></html>`;
    const { client, server } = await setup((_request, response) => {
      response.writeHead(500, { 'content-type': 'text/html' });
      response.end(html);
    });
    const error = (await client.page('studies').catch((caught: unknown) => caught)) as HttpError;
    expect(error).toBeInstanceOf(HttpError);
    expect(error.status).toBe(500);
    expect(error.bodyExcerpt.length).toBeLessThanOrEqual(300);
    expect(error.bodyExcerpt).toContain('Server Error (500)');
    expect(error.message).toContain(`${server.baseUrl}studies/?page=1`);
    expect(server.requests).toHaveLength(1);
  });

  it('invalid JSON gives SchemaError with the URL and the parse position', async () => {
    const { client, server } = await setup((_request, response) => sendJson(response, 200, '{"current_page": 1, "last_page": oops}'));
    const error = (await client.page('studies').catch((caught: unknown) => caught)) as SchemaError;
    expect(error).toBeInstanceOf(SchemaError);
    expect(error.message).toContain(`GET ${server.baseUrl}studies/?page=1: invalid JSON`);
    expect(error.message).toMatch(/position \d+/);
  });

  it('a schema violation names URL, page and JSON path', async () => {
    const outputs = Array.from({ length: 8 }, (_, index) => ({ ...SAMPLE_ITEMS.outputs, pk: index + 1 }));
    (outputs[7] as Record<string, unknown>).unit = 12;
    const { client, server } = await setup((request, response) =>
      sendJson(response, 200, { ...(envelope(outputs, 1, 20, server.baseUrl) as object), current_page: Number(request.query.get('page')) }),
    );
    await expect(client.page('outputs', { page: 3 })).rejects.toThrow(
      `GET ${server.baseUrl}outputs/?page=3: data.data[7].unit: expected string or null, got number`,
    );
  });
});

describe('writes and credentials', () => {
  const username = 'curator';
  const password = 's3cret-Pa55';

  it('POST sends HTTP Basic auth and the JSON body; the answer is validated', async () => {
    const { client, server } = await setup((request, response) => sendJson(response, 201, JSON.parse(request.body.toString())), { username, password });
    const created = await client.createReference(SAMPLE_ITEMS._references);
    expect(created.sid).toBe(SAMPLE_ITEMS._references.sid);
    const [request] = server.requests;
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/api/v1/_references/');
    expect(request.headers.authorization).toBe(`Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`);
    expect(request.headers['content-type']).toBe('application/json');
  });

  it('uploadDataFile posts multipart form data', async () => {
    const { client, server } = await setup((_request, response) => sendJson(response, 201, { file: 'http://x/media/f.tsv', filetype: 'tsv', id: 9 }), { username, password });
    const stored = await client.uploadDataFile({ filename: 'f.tsv', data: new TextEncoder().encode('a\tb\n1\t2\n'), filetype: 'tsv' });
    expect(stored.id).toBe(9);
    const [request] = server.requests;
    expect(request.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(request.body.toString()).toContain('filename="f.tsv"');
    expect(request.body.toString()).toContain('a\tb\n1\t2\n');
  });

  it('credentials never appear in error messages, also when given in the URL', async () => {
    const server = await startServer((_request, response) => sendJson(response, 403, { detail: 'You do not have permission to perform this action.' }));
    open.server = server;
    const withUserInfo = server.baseUrl.replace('http://', `http://${username}:${password}@`);
    const client = new PkdbClient({ baseUrl: withUserInfo, retries: 0 });
    open.clients.push(client);
    const error = (await client.createStudy(SAMPLE_ITEMS._studies as never).catch((caught: unknown) => caught)) as HttpError;
    expect(error).toBeInstanceOf(HttpError);
    expect(error.status).toBe(403);
    expect(error.message).not.toContain(password);
    expect(error.message).not.toContain(Buffer.from(`${username}:${password}`).toString('base64'));
    expect(client.baseUrl).toBe(server.baseUrl);
    expect(server.requests[0].headers.authorization).toMatch(/^Basic /);
  });

  it('POST is not retried after a dropped connection (it could create the record twice)', async () => {
    const { client, server } = await setup((_request, _response, raw) => raw.socket.destroy(), { username, password });
    await expect(client.createReference(SAMPLE_ITEMS._references)).rejects.toBeInstanceOf(NetworkError);
    expect(server.requests).toHaveLength(1);
  });
});

describe('detail routes and the root listing', () => {
  it('get() by sid or id validates the item; root() lists resource URLs', async () => {
    const { client, server } = await setup((request, response) => {
      if (request.path === '/api/v1/info_nodes/caf/') return sendJson(response, 200, SAMPLE_ITEMS.info_nodes);
      if (request.path === '/api/v1/outputs/21/') return sendJson(response, 200, SAMPLE_ITEMS.outputs);
      if (request.path === '/api/v1/') return sendJson(response, 200, Object.fromEntries(ROOT_RESOURCE_NAMES.map((name) => [name, `${server.baseUrl}${name}/`])));
      sendJson(response, 404, { detail: 'Not found.' });
    });
    expect((await client.get('info_nodes', 'caf')).substance?.mass).toBe(194.19076);
    expect((await client.get('outputs', 21)).interventions).toEqual([{ pk: 2, name: 'caf100' }]);
    expect((await client.root())['pkdata/timecourses']).toBe(`${server.baseUrl}pkdata/timecourses/`);
    await expect(client.get('studies', 'NOPE')).rejects.toThrow(`GET ${server.baseUrl}studies/NOPE/: HTTP 404`);
  });
});

describe('statistics and filter', () => {
  it('statistics() and statistics.substances() (bare array)', async () => {
    const substances = [{ info_node__label: 'caffeine', output_count: 10, intervention_count: 2 }];
    const overview = { version: '0.9.6', study_count: 1, reference_count: 1, group_count: 1, individual_count: 0, intervention_count: 2, output_count: 10, output_calculated_count: 1, timecourse_count: 1, scatter_count: 0 };
    const { client } = await setup((request, response) => sendJson(response, 200, request.path.endsWith('/substances/') ? substances : overview));
    expect(await client.statistics.substances()).toEqual(substances);
    expect((await client.statistics()).study_count).toBe(1);
    expect((await client.statistics.overview()).version).toBe('0.9.6');
  });

  it('filter(): prefixed parameters, __in lists joined, uuid reuse, concise=false', async () => {
    const summary = { uuid: '0c178b63-6a93-4d75-92b0-e2f42372b0ea', studies: 1, groups: 4, individuals: 46, interventions: 1, outputs: 147, timecourses: 4, scatter: 0 };
    const { client, server } = await setup((_request, response) => sendJson(response, 200, summary));
    const result = await client.filter({
      studies: { name: 'Abernethy1982' },
      outputs: { measurement_type_sid__in: ['auc_inf', 'cmax'], normed: true },
      uuid: summary.uuid,
      concise: false,
    });
    expect(result.scatters).toBe(0);
    const query = server.requests[0].query;
    expect(server.requests[0].path).toBe('/api/v1/filter/');
    expect(query.get('studies__name')).toBe('Abernethy1982');
    expect(query.get('outputs__measurement_type_sid__in')).toBe('auc_inf__cmax');
    expect(query.get('outputs__normed')).toBe('true');
    expect(query.get('groups__uuid')).toBe(summary.uuid);
    expect(query.get('concise')).toBe('false');
    expect(query.has('download')).toBe(false);
  });
});

describe('cache', () => {
  it('a cached page is not fetched again, also by a new client; the key holds no credentials and separates users', async () => {
    const cacheDir = await mkdtemp(join(tmpdir(), 'pkdb-cache-'));
    try {
      const { client, server } = await setup(listHandler(interventions(45)), { cacheDir, username: 'u', password: 'pw-not-in-cache' });
      const first = await client.list('interventions');
      expect(server.requests).toHaveLength(3);
      const again = new PkdbClient({ baseUrl: server.baseUrl, cacheDir, username: 'u', password: 'pw-not-in-cache' });
      open.clients.push(again);
      const second: unknown[] = [];
      for await (const item of again.all('interventions')) second.push(item);
      expect(second).toEqual(first);
      expect(server.requests).toHaveLength(3);
      // Another user (here: anonymous) may see other studies, so it never gets this user's pages.
      const anonymous = new PkdbClient({ baseUrl: server.baseUrl, cacheDir });
      open.clients.push(anonymous);
      expect(await anonymous.list('interventions')).toEqual(first);
      expect(server.requests).toHaveLength(6);
      const files = (await readdir(cacheDir, { recursive: true })).filter((name) => name.endsWith('.json'));
      expect(files).toHaveLength(6);
      expect(files.every((name) => /^[0-9a-f]{2}\/[0-9a-f]{64}\.json$/.test(name))).toBe(true);
      const contents = await Promise.all(files.map((name) => readFile(join(cacheDir, name), 'utf8')));
      expect(contents.map((text) => JSON.parse(text).current_page).sort()).toEqual([1, 1, 2, 2, 3, 3]);
      expect(contents.join('')).not.toContain('pw-not-in-cache');
    } finally {
      await rm(cacheDir, { recursive: true, force: true });
    }
  });

  it('an interrupted crawl resumes: finished pages come from the cache', async () => {
    const cacheDir = await mkdtemp(join(tmpdir(), 'pkdb-cache-'));
    try {
      const items = interventions(60);
      let failPage3 = true;
      const ok = listHandler(items);
      const { client, server } = await setup(
        (request, response) => (failPage3 && request.query.get('page') === '3' ? sendJson(response, 404, { detail: 'Not found.' }) : ok(request, response, undefined as never)),
        { cacheDir, concurrency: 1 },
      );
      await expect(client.list('interventions')).rejects.toBeInstanceOf(HttpError);
      failPage3 = false;
      const pagesFromCache: boolean[] = [];
      const resumed = new PkdbClient({ baseUrl: server.baseUrl, cacheDir, onPage: ({ fromCache }) => pagesFromCache.push(fromCache) });
      open.clients.push(resumed);
      const before = server.requests.length;
      expect((await resumed.list('interventions')).map((item) => item.pk)).toEqual(items.map((item) => item.pk));
      expect(pagesFromCache).toEqual([true, true, false]);
      expect(server.requests.slice(before).map((request) => request.query.get('page'))).toEqual(['3']);
    } finally {
      await rm(cacheDir, { recursive: true, force: true });
    }
  });
});
