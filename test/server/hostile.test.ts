/**
 * Hostile input to `pkdb serve` (issue 10), each case over real HTTP to a
 * started server: the answer is a clear status with a JSON body, and the same
 * server still answers a normal request afterwards.
 */
import { randomBytes, scryptSync } from 'node:crypto';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFixtures } from '../../src/data/fixtures.js';
import { STUDY_SIDS } from '../../fixtures/generator/studies.js';
import { startServer, type RunningServer } from '../../src/server/app.js';
import { UserTable } from '../../src/server/auth.js';
import { tinyDataset } from './tiny-dataset.js';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request with a verbatim target and headers (fetch would normalise both). */
function raw(
  server: RunningServer,
  target: string,
  headers: Record<string, string> = {},
  method = 'GET',
  body?: Buffer | string,
  localAddress?: string,
): Promise<Answer> {
  const base = new URL(server.url);
  return new Promise((resolve, reject) => {
    const options = { host: base.hostname, port: base.port, path: target, method, headers, setHost: !('Host' in headers), localAddress };
    const req = request(options, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

const detailOf = (answer: Answer): unknown => (JSON.parse(answer.body) as { detail?: unknown }).detail;
const countOf = (answer: Answer): number => (JSON.parse(answer.body) as { data: { count: number } }).data.count;

/** The server still answers a normal list request with the full study list. */
async function expectStillServing(server: RunningServer, studies: number): Promise<void> {
  const answer = await raw(server, '/api/v1/studies/');
  expect(answer.status).toBe(200);
  expect(countOf(answer)).toBe(studies);
}

describe('pkdb serve under hostile input', () => {
  let server: RunningServer;
  const logged: string[] = [];
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);

  beforeAll(async () => {
    process.on('unhandledRejection', onUnhandled);
    server = await startServer({ dataset: await loadFixtures(), port: 0, log: (line) => logged.push(line) });
  });
  afterAll(async () => {
    process.off('unhandledRejection', onUnhandled);
    await server?.close();
  });

  it('a bad Host header or request target is a 400 JSON answer, never a crash', async () => {
    const cases: [string, Record<string, string>][] = [
      ['/api/v1/studies/', { Host: '[' }],
      ['/api/v1/studies/', { Host: 'x:99999' }],
      ['/api/v1/studies/', { Host: 'a/b' }],
      ['//[', {}],
      ['http://[/api/v1/', {}],
      ['/api/v1/[/', {}],
    ];
    for (const [target, headers] of cases) {
      const answer = await raw(server, target, headers);
      expect(answer.status, `${target} ${JSON.stringify(headers)}`).toBe(400);
      expect(answer.headers['content-type']).toBe('application/json');
      expect(detailOf(answer)).toMatch(/^Bad Request: invalid (Host header|request target)\.$/);
    }
    // A valid Host with a port, an IPv6 literal, and an absolute-form target still work.
    expect((await raw(server, '/api/v1/studies/', { Host: 'example.org:8443' })).status).toBe(200);
    expect((await raw(server, '/api/v1/studies/', { Host: '[::1]:80' })).status).toBe(200);
    expect((await raw(server, 'http://example.org/api/v1/studies/')).status).toBe(200);
    expect(unhandled).toEqual([]);
    await expectStillServing(server, STUDY_SIDS.length);
  });

  it('links come from the bound address, never from the Host header', async () => {
    const answer = await raw(server, '/api/v1/studies/?page_size=2&format=json', { Host: 'evil.example' });
    const page = JSON.parse(answer.body) as { next_page_url: string };
    expect(page.next_page_url).toBe(`${server.url}studies/?page_size=2&format=json&page=2`);
    const root = JSON.parse((await raw(server, '/api/v1/', { Host: 'evil.example' })).body) as Record<string, string>;
    expect(root.studies).toBe(`${server.url}studies/`);
    expect(Object.values(root).every((link) => link.startsWith(server.url))).toBe(true);
    await expectStillServing(server, STUDY_SIDS.length);
  });

  it('a key of many `__` or `_` segments is ignored in milliseconds, not parsed quadratically', async () => {
    // 4.5 kB keys: the old split was quadratic per item (seconds on the 408 fixture outputs).
    for (const key of [`${'a__'.repeat(1500)}in`, `${'a_'.repeat(2200)}a`, `outputs__${'a__'.repeat(1400)}in`]) {
      const path = key.startsWith('outputs__') ? '/api/v1/filter/' : '/api/v1/outputs/';
      const started = performance.now();
      const answer = await raw(server, `${path}?${key}=1`);
      expect(performance.now() - started, key.slice(0, 12)).toBeLessThan(2000);
      expect(answer.status).toBe(200);
    }
    const all = countOf(await raw(server, '/api/v1/outputs/'));
    expect(countOf(await raw(server, `/api/v1/outputs/?${'a__'.repeat(1500)}in=1`))).toBe(all);
    await expectStillServing(server, STUDY_SIDS.length);
  });

  it('the query string is capped in length and parameter count, and wildcard/search stay bounded', async () => {
    const long = await raw(server, `/api/v1/outputs/?name=${'x'.repeat(9000)}`);
    expect(long.status).toBe(414);
    expect(detailOf(long)).toMatch(/Query string too long: the limit is 8192 bytes/);
    const many = await raw(server, `/api/v1/outputs/?${Array.from({ length: 101 }, (_, i) => `f${i}=1`).join('&')}`);
    expect(many.status).toBe(400);
    expect(detailOf(many)).toMatch(/Too many query parameters: the limit is 100/);
    const started = performance.now();
    const stars = await raw(server, `/api/v1/outputs/?study_name__wildcard=${'*a'.repeat(120)}*Z`);
    expect(stars.status).toBe(200);
    expect(countOf(stars)).toBe(0);
    expect(performance.now() - started).toBeLessThan(2000);
    expect((await raw(server, `/api/v1/outputs/?study_name__wildcard=${'*'.repeat(300)}`)).status).toBe(400);
    expect((await raw(server, `/api/v1/outputs/?search_multi_match=${Array.from({ length: 20 }, (_, i) => `w${i}`).join('+')}`)).status).toBe(400);
    await expectStillServing(server, STUDY_SIDS.length);
  });

  it('fields named after Object.prototype members are unknown fields (ignored), never a 500', async () => {
    const all = countOf(await raw(server, '/api/v1/outputs/'));
    for (const query of ['constructor=x', 'toString=x', '__proto__=x', 'hasOwnProperty=x', 'valueOf__in=x', 'ordering=__proto__', 'ordering=-constructor']) {
      for (const list of ['studies', 'outputs', 'pkdata/studies']) {
        const answer = await raw(server, `/api/v1/${list}/?${query}`);
        expect(answer.status, `${list}/?${query}`).toBe(200);
      }
      expect(countOf(await raw(server, `/api/v1/outputs/?${query}`)), query).toBe(all);
    }
    const unfiltered = JSON.parse((await raw(server, '/api/v1/filter/')).body) as Record<string, unknown>;
    for (const query of ['studies__constructor=x', 'studies__toString=x', 'outputs____proto__=x', 'groups__hasOwnProperty=x']) {
      const answer = await raw(server, `/api/v1/filter/?${query}`);
      expect(answer.status, query).toBe(200);
      expect({ ...(JSON.parse(answer.body) as object), uuid: '' }, query).toEqual({ ...unfiltered, uuid: '' });
    }
    expect(logged).toEqual([]);
    await expectStillServing(server, STUDY_SIDS.length);
  });

  it('/pkdata/studies/ filters by study_name and study_sid like the other pkdata lists (name/sid still work)', async () => {
    // One page for every study (more than the default page of 20).
    const sids = (query: string) => raw(server, `/api/v1/pkdata/studies/?page_size=100&${query}`).then((a) => (JSON.parse(a.body) as { data: { data: { sid: string }[] } }).data.data.map((s) => s.sid));
    const studies = (JSON.parse((await raw(server, '/api/v1/pkdata/studies/?page_size=100')).body) as { data: { data: { sid: string; name: string }[] } }).data.data;
    const [a, b] = studies;
    expect(await sids(`study_name__in=${a.name}__${b.name}`)).toEqual([a.sid, b.sid]);
    expect(await sids(`study_name=${a.name}`)).toEqual([a.sid]);
    expect(await sids(`study_sid=${b.sid}`)).toEqual([b.sid]);
    expect(await sids(`study_sid__in=${b.sid}`)).toEqual([b.sid]);
    expect(await sids(`study_sid__exclude=${a.sid}`)).toEqual(studies.slice(1).map((s) => s.sid));
    expect(await sids(`study_name__exclude=${a.name}__${b.name}`)).toEqual(studies.slice(2).map((s) => s.sid));
    expect(await sids(`name=${a.name}`)).toEqual([a.sid]);
    expect(await sids(`sid__in=${b.sid}`)).toEqual([b.sid]);
    await expectStillServing(server, STUDY_SIDS.length);
  });
});

describe('links with --public-url', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ dataset: tinyDataset(), port: 0, publicUrl: 'https://pkdb.example.org/mirror' });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('next/previous pages and the root link to the public URL whatever the Host header says', async () => {
    const page = JSON.parse((await raw(server, '/api/v1/studies/?page_size=1&page=2', { Host: 'evil.example' })).body) as {
      next_page_url: string | null;
      prev_page_url: string;
    };
    expect(page.prev_page_url).toBe('https://pkdb.example.org/mirror/api/v1/studies/?page_size=1');
    const first = JSON.parse((await raw(server, '/api/v1/studies/?page_size=1')).body) as { next_page_url: string };
    expect(first.next_page_url).toBe('https://pkdb.example.org/mirror/api/v1/studies/?page_size=1&page=2');
    const root = JSON.parse((await raw(server, '/api/v1/?format=json', { Host: 'evil.example' })).body) as Record<string, string>;
    expect(root['pkdata/studies']).toBe('https://pkdb.example.org/mirror/api/v1/pkdata/studies/?format=json');
    await expectStillServing(server, 2);
  });

  it('a public URL with a query or another scheme is refused at start', async () => {
    await expect(startServer({ dataset: tinyDataset(), port: 0, publicUrl: 'ftp://x/' })).rejects.toThrow(/http or https/);
    await expect(startServer({ dataset: tinyDataset(), port: 0, publicUrl: 'https://x/?a=1' })).rejects.toThrow(/query/);
  });
});

const USER = 'curator';
const PASSWORD = 'correct horse battery staple';
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
/** A users-file hash at scrypt N = 2^10: these tests authenticate ~30 times, the cost parameter is not what they test. */
function cheapHash(password: string): string {
  const salt = randomBytes(16);
  return `scrypt$1024$8$1$${salt.toString('base64')}$${scryptSync(password, salt, 32, { N: 1024, r: 8, p: 1 }).toString('base64')}`;
}
const usersTable = () => new UserTable({ users: [{ username: USER, hash: cheapHash(PASSWORD) }] });

describe('write bodies', () => {
  let server: RunningServer;
  const auth = basic(USER, PASSWORD);
  const json = { 'Content-Type': 'application/json', Authorization: auth };
  const post = (body: Buffer | string, headers: Record<string, string> = json) => raw(server, '/api/v1/_studies/', headers, 'POST', body);
  const study = { sid: 'HOSTILE1', name: 'Hostile2024', date: '2024-02-29' };

  beforeAll(async () => {
    server = await startServer({ dataset: tinyDataset(), port: 0, users: usersTable() });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('a body nested 10^5 levels is a 400 before parsing, inside a study or alone', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    // Inside a valid study the old server answered 500 (the stack overflowed while storing it).
    const inStudy = JSON.stringify({ ...study, sid: 'DEEP1', groupset: { groups: [{ characteristica: [{ x: 'DEEP' }] }] } }).replace('"DEEP"', deep);
    const unknownKey = JSON.stringify({ ...study, sid: 'DEEP2', x: 'DEEP' }).replace('"DEEP"', deep);
    for (const body of [inStudy, unknownKey, deep]) {
      const answer = await post(body);
      expect(answer.status).toBe(400);
      expect(detailOf(answer)).toBe('JSON parse error - nested deeper than 64 levels.');
    }
    const fine = JSON.stringify({ ...study, sid: 'DEEP60', groupset: { groups: [{ characteristica: [{ x: JSON.parse(`${'['.repeat(50)}${']'.repeat(50)}`) }] }] } });
    expect((await post(fine)).status).toBe(201);
    await expectStillServing(server, 2);
  });

  it('writes need Content-Type: application/json in UTF-8 (415 otherwise); multipart stays for data files', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1', 'application/jsonx']) {
      const answer = await post(JSON.stringify(study), { 'Content-Type': type, Authorization: auth });
      expect(answer.status, type).toBe(415);
      expect(detailOf(answer)).toBe(`Unsupported media type "${type}" in request.`);
    }
    expect((await post(JSON.stringify(study), { Authorization: auth })).status).toBe(415);
    const form = new FormData();
    form.append('file', new Blob(['t,c\n0,1\n']), 'curve.csv');
    const upload = await fetch(new URL('_datafiles/', server.url), { method: 'POST', headers: { authorization: auth }, body: form });
    expect(upload.status).toBe(201);
    expect((await post(JSON.stringify(study), { 'Content-Type': 'Application/JSON; charset="UTF-8"', Authorization: auth })).status).toBe(201);
    await expectStillServing(server, 2);
  });

  it('dates must be calendar dates and text must be printable UTF-8, each 400 naming the field', async () => {
    const errors = async (body: Buffer | string) => {
      const answer = await post(body);
      expect(answer.status).toBe(400);
      return JSON.parse(answer.body) as Record<string, string[]>;
    };
    expect(await errors(JSON.stringify({ ...study, sid: 'DATE1', date: '2020-13-45' }))).toEqual({ date: ['"2020-13-45" is not a calendar date.'] });
    expect(Object.keys(await errors(JSON.stringify({ ...study, sid: 'DATE2', date: '2023-02-29' })))).toEqual(['date']);
    const refDate = await raw(server, '/api/v1/_references/', json, 'POST', JSON.stringify({ sid: 'R1', date: '2020-00-10' }));
    expect(JSON.parse(refDate.body)).toEqual({ date: ['"2020-00-10" is not a calendar date.'] });
    const badUtf8 = Buffer.concat([Buffer.from('{"sid": "BAD'), Buffer.from([0xff, 0xfe]), Buffer.from('", "name": "x"}')]);
    const decoded = await post(badUtf8);
    expect(decoded.status).toBe(400);
    expect(detailOf(decoded)).toBe('JSON parse error - the body is not valid UTF-8.');
    const unprintable = 'contains a control character, an invalid code point or U+FFFD.';
    expect(await errors(JSON.stringify({ ...study, sid: 'A\u0001B' }))).toEqual({ sid: [unprintable] });
    expect(await errors(JSON.stringify({ ...study, sid: 'A\tB' }))).toEqual({ sid: [unprintable] });
    expect(await errors(JSON.stringify({ ...study, sid: 'TEXT2', name: 'Bad\uFFFDname' }))).toEqual({ name: [unprintable] });
    expect(await errors('{"sid": "S\\ud800", "name": "x"}')).toEqual({ sid: [unprintable] });
    expect(await errors(JSON.stringify({ ...study, sid: 'TEXT3', descriptions: ['ok', 'nul\u0000'] }))).toEqual({ 'descriptions.1': [unprintable] });
    // Paths named after Object.prototype members are field names like any other.
    expect(await errors('{"sid": "PROTO1", "name": "x", "constructor": "\\u0001"}')).toEqual({ constructor: [unprintable] });
    expect(await errors('{"sid": "PROTO2", "name": "x", "hasOwnProperty": {"__proto__": "\\u0001"}}')).toEqual({ 'hasOwnProperty.__proto__': [unprintable] });
    // Tabs and newlines are fine in free text.
    expect((await post(JSON.stringify({ ...study, sid: 'TEXT1', descriptions: ['line 1\n\tline 2'] }))).status).toBe(201);
    const stored = JSON.parse((await raw(server, '/api/v1/_studies/?page_size=100')).body) as { data: { data: { sid: string }[] } };
    expect(stored.data.data.map((s) => s.sid).filter((sid) => !sid.startsWith('SYN')).sort()).toEqual(['DEEP60', 'HOSTILE1', 'TEXT1']);
    await expectStillServing(server, 2);
  });
});

describe('failed logins', () => {
  let server: RunningServer;
  const attempt = (user: string, password: string, from: string) =>
    raw(server, '/api/v1/_studies/', { 'Content-Type': 'application/json', Authorization: basic(user, password) }, 'POST', '{}', from);

  beforeAll(async () => {
    server = await startServer({ dataset: tinyDataset(), port: 0, users: usersTable() });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('10 failures lock the username (from any address) and the address (for any username): 429 with Retry-After', async () => {
    // A client with many parallel authenticated requests is not throttled for succeeding.
    const parallel = await Promise.all(
      Array.from({ length: 20 }, () => raw(server, '/api/v1/_users/', { Authorization: basic(USER, PASSWORD) }, 'GET', undefined, '127.0.0.5')),
    );
    expect(parallel.map((a) => a.status)).toEqual(Array(20).fill(200));
    for (let i = 0; i < 10; i++) expect((await attempt(USER, `guess ${i}`, '127.0.0.2')).status).toBe(401);
    const locked = await attempt(USER, 'guess 10', '127.0.0.2');
    expect(locked.status).toBe(429);
    const retryAfter = Number(locked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(800);
    expect(retryAfter).toBeLessThanOrEqual(900);
    expect(detailOf(locked)).toBe(`Too many failed login attempts. Try again in ${retryAfter} seconds.`);
    // The right password from a fresh address: the username is locked.
    expect((await attempt(USER, PASSWORD, '127.0.0.3')).status).toBe(429);
    // Another username from the locked address: the address is locked.
    expect((await attempt('someone', 'x', '127.0.0.2')).status).toBe(429);
    // Another username from another address is judged on its own.
    expect((await attempt('someone', 'x', '127.0.0.4')).status).toBe(401);
    await expectStillServing(server, 2);
  });
});
