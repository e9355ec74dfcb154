/**
 * Client credentials (src/api/auth.ts): token auth against an in-test server
 * that implements PK-DB's `POST /api-token-auth/` (NOTES §3), cache scopes,
 * and the pure helpers.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cacheScope, normaliseBaseUrl, redactUrlText, resolveCredentials, scrubSecrets, secretsOf, tokenExchangeUrl } from '../../src/api/auth.js';
import { HttpError, PkdbClient, SchemaError, type PkdbClientOptions } from '../../src/api/index.js';
import { SAMPLE_ITEMS } from './items.js';
import { envelope, sendJson, startServer, type RecordedRequest, type TestServer } from './test-server.js';

const USER = 'alice';
const PASSWORD = 'a1ice-Pa55';
const TOKEN = '9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b';

const interventions = (n: number) => Array.from({ length: n }, (_, index) => ({ ...SAMPLE_ITEMS.interventions, pk: index + 1, name: `dose${index + 1}` }));
const ALICES = interventions(45);
const PUBLIC = interventions(5);

const open: { servers: TestServer[]; clients: PkdbClient[]; dirs: string[] } = { servers: [], clients: [], dirs: [] };
afterEach(async () => {
  await Promise.all(open.clients.splice(0).map((client) => client.close()));
  await Promise.all(open.servers.splice(0).map((server) => server.close()));
  await Promise.all(open.dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/**
 * PK-DB's token auth in small: POST /api-token-auth/ {username, password} ->
 * {"token"} or 400; `Authorization: Token <key>` sees alice's list, a bad
 * token is 403 everywhere, no header the public list.
 */
async function tokenServer(options: { tokenBody?: unknown } = {}): Promise<TestServer> {
  const server = await startServer((request, response) => {
    if (request.path === '/api-token-auth/') {
      if (request.method !== 'POST') return sendJson(response, 405, { detail: `Method "${request.method}" not allowed.` });
      const body = JSON.parse(request.body.toString() || '{}') as { username?: string; password?: string };
      if (body.username === USER && body.password === PASSWORD) return sendJson(response, 200, options.tokenBody ?? { token: TOKEN });
      return sendJson(response, 400, { non_field_errors: ['Unable to log in with provided credentials.'] });
    }
    const authorization = request.headers.authorization;
    if (authorization !== undefined && authorization !== `Token ${TOKEN}`) return sendJson(response, 403, { detail: 'Invalid token.' });
    const items = authorization ? ALICES : PUBLIC;
    const page = Number(request.query.get('page') ?? 1);
    sendJson(response, 200, envelope(items, page, 20, `http://127.0.0.1${request.path}`));
  });
  open.servers.push(server);
  return server;
}

function client(options: PkdbClientOptions): PkdbClient {
  const created = new PkdbClient({ retryBaseDelayMs: 5, retryMaxDelayMs: 20, ...options });
  open.clients.push(created);
  return created;
}

const gets = (server: TestServer): RecordedRequest[] => server.requests.filter((request) => request.method === 'GET');

describe('token auth', () => {
  it("auth: 'token' exchanges username/password once at <root>/api-token-auth/, then sends Token on every request", async () => {
    const server = await tokenServer();
    const pkdb = client({ baseUrl: server.baseUrl, username: USER, password: PASSWORD, auth: 'token', concurrency: 3 });
    const [items, page] = await Promise.all([pkdb.list('interventions'), pkdb.page('interventions', { page: 2 })]);
    expect(items.map((item) => item.pk)).toEqual(ALICES.map((item) => item.pk));
    expect(page.data.data).toHaveLength(20);
    const posts = server.requests.filter((request) => request.method === 'POST');
    expect(posts).toHaveLength(1);
    expect(posts[0].path).toBe('/api-token-auth/');
    expect(posts[0].headers['content-type']).toBe('application/json');
    expect(posts[0].headers.authorization).toBeUndefined();
    expect(JSON.parse(posts[0].body.toString())).toEqual({ username: USER, password: PASSWORD });
    expect(gets(server)).toHaveLength(4);
    expect(gets(server).every((request) => request.headers.authorization === `Token ${TOKEN}`)).toBe(true);
  });

  it('token: sent as Authorization: Token <key>, no exchange', async () => {
    const server = await tokenServer();
    const pkdb = client({ baseUrl: server.baseUrl, token: TOKEN });
    expect(await pkdb.list('interventions')).toHaveLength(45);
    expect(server.requests.every((request) => request.method === 'GET' && request.headers.authorization === `Token ${TOKEN}`)).toBe(true);
  });

  it('credentials from the URL work with token auth too', async () => {
    const server = await tokenServer();
    const pkdb = client({ baseUrl: server.baseUrl.replace('http://', `http://${USER}:${encodeURIComponent(PASSWORD)}@`), auth: 'token' });
    expect(await pkdb.list('interventions')).toHaveLength(45);
    expect(JSON.parse(server.requests[0].body.toString())).toEqual({ username: USER, password: PASSWORD });
  });

  it('wrong credentials: HttpError 400 naming the exchange URL, without the password; the next call tries again', async () => {
    const server = await tokenServer();
    const pkdb = client({ baseUrl: server.baseUrl, username: USER, password: 'wrong-Pa55word', auth: 'token' });
    const error = (await pkdb.root().catch((caught: unknown) => caught)) as HttpError;
    expect(error).toBeInstanceOf(HttpError);
    expect(error.status).toBe(400);
    expect(error.message).toBe(`POST ${server.baseUrl.replace('api/v1/', '')}api-token-auth/: HTTP 400: {"non_field_errors":["Unable to log in with provided credentials."]}`);
    expect(error.message).not.toContain('wrong-Pa55word');
    await expect(pkdb.root()).rejects.toBeInstanceOf(HttpError);
    expect(server.requests.map((request) => request.path)).toEqual(['/api-token-auth/', '/api-token-auth/']);
  });

  it('a bad token answer is a SchemaError, and a token echoed by the server is scrubbed', async () => {
    const server = await tokenServer({ tokenBody: { token: 'two words' } });
    const error = await client({ baseUrl: server.baseUrl, username: USER, password: PASSWORD, auth: 'token' }).root().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SchemaError);
    expect((error as SchemaError).message).toMatch(/^POST http:\/\/127\.0\.0\.1:\d+\/api-token-auth\/: token: /);
    const echo = await startServer((request, response) => sendJson(response, 403, { detail: `bad ${request.headers.authorization}` }));
    open.servers.push(echo);
    const echoed = (await client({ baseUrl: echo.baseUrl, token: TOKEN }).root().catch((caught: unknown) => caught)) as HttpError;
    expect(echoed.message).toBe(`GET ${echo.baseUrl}: HTTP 403: {"detail":"bad Token ***"}`);
  });

  it('a token is a cache scope of its own: neither anonymous nor another token gets its pages', async () => {
    const cacheDir = await mkdtemp(join(tmpdir(), 'pkdb-auth-cache-'));
    open.dirs.push(cacheDir);
    const server = await tokenServer();
    expect(await client({ baseUrl: server.baseUrl, token: TOKEN, cacheDir }).list('interventions')).toHaveLength(45);
    expect(await client({ baseUrl: server.baseUrl, cacheDir }).list('interventions')).toHaveLength(5);
    await expect(client({ baseUrl: server.baseUrl, token: 'other-token', cacheDir }).list('interventions')).rejects.toThrow('HTTP 403: {"detail":"Invalid token."}');
    const before = gets(server).length;
    expect(await client({ baseUrl: server.baseUrl, token: TOKEN, cacheDir }).list('interventions')).toHaveLength(45);
    expect(gets(server)).toHaveLength(before);
    const files = (await readdir(cacheDir, { recursive: true })).filter((name) => name.endsWith('.json'));
    expect(files).toHaveLength(4);
  });
});

describe('credential helpers', () => {
  it('the token endpoint is at the root: the base URL without api/v1/', () => {
    expect(tokenExchangeUrl(normaliseBaseUrl('https://pk-db.com/api/v1/')).href).toBe('https://pk-db.com/api-token-auth/');
    expect(tokenExchangeUrl(normaliseBaseUrl('http://u:p@127.0.0.1:8000')).href).toBe('http://127.0.0.1:8000/api-token-auth/');
    expect(tokenExchangeUrl(normaliseBaseUrl('https://example.org/pkdb/api/v1')).href).toBe('https://example.org/pkdb/api-token-auth/');
  });

  it('resolveCredentials: options win over the URL; contradictions are TypeErrors without the secret', () => {
    expect(resolveCredentials({ baseUrl: 'http://bob:p%40ss@h/' })).toEqual({ kind: 'basic', username: 'bob', password: 'p@ss' });
    expect(resolveCredentials({ baseUrl: 'http://bob:x@h/', username: 'carol', password: 'y', auth: 'token' })).toEqual({ kind: 'token-exchange', username: 'carol', password: 'y' });
    expect(resolveCredentials({ baseUrl: 'http://h/' })).toEqual({ kind: 'anonymous' });
    expect(resolveCredentials({ baseUrl: 'http://h/', token: 'k' })).toEqual({ kind: 'token', token: 'k' });
    expect(() => resolveCredentials({ baseUrl: 'http://h/', token: 'k', username: 'u' })).toThrow('give either a token or username/password, not both');
    expect(() => resolveCredentials({ baseUrl: 'http://h/', token: 'sec ret\n' })).toThrow(/^the token must be printable ASCII without spaces$/);
    expect(() => resolveCredentials({ baseUrl: 'http://h/', password: 'pw' })).toThrow('a password needs a username');
  });

  it('cache scopes: anonymous, user:<name> for Basic and exchanged tokens alike, token:<sha256>', () => {
    expect(cacheScope({ kind: 'anonymous' })).toBe('anonymous');
    expect(cacheScope({ kind: 'basic', username: 'a', password: 'x' })).toBe('user:a');
    expect(cacheScope({ kind: 'token-exchange', username: 'a', password: 'y' })).toBe('user:a');
    const scope = cacheScope({ kind: 'token', token: TOKEN });
    expect(scope).toMatch(/^token:[0-9a-f]{64}$/);
    expect(scope).not.toContain(TOKEN);
  });

  it('secrets and redaction', () => {
    expect(secretsOf({ kind: 'basic', username: 'a', password: 'p w' })).toEqual(['p w', 'p%20w', Buffer.from('a:p w').toString('base64')]);
    expect(scrubSecrets('x p w y p%20w', ['p w', 'p%20w'])).toBe('x *** y ***');
    expect(redactUrlText('GET http://a:b@h/x and https://c@d/ and ftp://e:f@g')).toBe('GET http://h/x and https://d/ and ftp://g');
    expect(redactUrlText('no urls here: a@b')).toBe('no urls here: a@b');
  });
});
