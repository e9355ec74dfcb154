/**
 * Token authentication as PK-DB (DRF) does it: POST /api-token-auth/ issues one
 * key per user (the same on every login), `Authorization: Token <key>` works
 * beside Basic, a bad token is 401 everywhere, keys are stored only hashed and
 * sealed, and `pkdb serve --revoke-token` revokes one under a running server.
 */
import Database from 'libsql';
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { startServer, type RunningServer } from '../../src/server/app.js';
import { hashPassword, UserTable } from '../../src/server/auth.js';
import { DATABASE_FILE } from '../../src/server/store.js';
import { newTokenKey, sealToken, tokenHash, tokenKeyOf, unsealToken } from '../../src/server/tokens.js';
import { tinyDataset } from './tiny-dataset.js';

const USER = 'curator';
const PASSWORD = 'correct horse battery staple';

describe('token primitives', () => {
  it('keys are 40 hex digits from 20 random bytes, recognised by their SHA-256', () => {
    const keys = new Set(Array.from({ length: 50 }, newTokenKey));
    expect(keys.size).toBe(50);
    for (const key of keys) expect(key).toMatch(/^[0-9a-f]{40}$/);
    expect(tokenHash('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('a sealed key opens only with the same password and username', async () => {
    const key = newTokenKey();
    const sealed = await sealToken(key, 'pw', 'alice');
    expect(sealed).not.toContain(key);
    expect(await unsealToken(sealed, 'pw', 'alice')).toBe(key);
    expect(await unsealToken(sealed, 'PW', 'alice')).toBeNull();
    expect(await unsealToken(sealed, 'pw', 'bob')).toBeNull();
    expect(await unsealToken('v1$garbage', 'pw', 'alice')).toBeNull();
  });

  it('reads the Token header as DRF does', () => {
    expect(tokenKeyOf('Token abc')).toBe('abc');
    expect(tokenKeyOf('token abc')).toBe('abc');
    expect(tokenKeyOf(' TOKEN   abc ')).toBe('abc');
    expect(tokenKeyOf('Basic abc')).toBeNull();
    expect(tokenKeyOf(undefined)).toBeNull();
    expect(() => tokenKeyOf('Token')).toThrow('Invalid token header. No credentials provided.');
    expect(() => tokenKeyOf('Token a b')).toThrow('Invalid token header. Token string should not contain spaces.');
  });
});

describe('POST /api-token-auth/ and Authorization: Token', () => {
  let dataDir: string;
  let server: RunningServer;
  let root: string;
  let users: UserTable;

  const start = (table: UserTable | undefined = users) => startServer({ dataset: tinyDataset(), port: 0, dataDir, users: table });
  const login = (body: unknown, type = 'application/json') =>
    fetch(`${root}api-token-auth/`, { method: 'POST', headers: { 'content-type': type }, body: typeof body === 'string' ? body : JSON.stringify(body) });
  const tokenOf = async (response: Response) => {
    expect(response.status).toBe(200);
    const body = (await response.json()) as { token: string };
    expect(Object.keys(body)).toEqual(['token']);
    return body.token;
  };
  const newStudy = (sid: string, authorization: string) =>
    fetch(new URL('_studies/', server.url), {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify({ sid, name: sid, date: '2024-03-01', creator: USER, licence: 'open', access: 'public' }),
    });

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'pkdb-tokens-'));
    users = new UserTable({ users: [{ username: USER, hash: await hashPassword(PASSWORD) }, { username: 'other', hash: await hashPassword('pw2') }] });
    server = await start();
    root = server.url.replace(/api\/v1\/$/, '');
  });
  afterAll(async () => {
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('issues one 40-hex key per user, the same on every login, from JSON, form or multipart bodies', async () => {
    const token = await tokenOf(await login({ username: USER, password: PASSWORD }));
    expect(token).toMatch(/^[0-9a-f]{40}$/);
    expect(await tokenOf(await login({ username: USER, password: PASSWORD }))).toBe(token);
    const form = new URLSearchParams({ username: USER, password: PASSWORD }).toString();
    expect(await tokenOf(await login(form, 'application/x-www-form-urlencoded'))).toBe(token);
    const multipart = new FormData();
    multipart.set('username', USER);
    multipart.set('password', PASSWORD);
    expect(await tokenOf(await fetch(`${root}api-token-auth/`, { method: 'POST', body: multipart }))).toBe(token);
    const [a, b] = await Promise.all([login({ username: 'other', password: 'pw2' }), login({ username: 'other', password: 'pw2' })]);
    const other = await tokenOf(a);
    expect(await tokenOf(b)).toBe(other);
    expect(other).not.toBe(token);
  });

  it('answers bad logins as DRF: 400 with field or non-field errors, 405, 415, 404 under /api/v1/', async () => {
    const cannot = { non_field_errors: ['Unable to log in with provided credentials.'] };
    expect(await (await login({ username: USER, password: 'wrong' })).json()).toEqual(cannot);
    expect(await (await login({ username: 'nobody', password: PASSWORD })).json()).toEqual(cannot);
    const missing = await login({});
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({ username: ['This field is required.'], password: ['This field is required.'] });
    expect(await (await login({ username: '', password: ['x'] })).json()).toEqual({
      username: ['This field may not be blank.'],
      password: ['Not a valid string.'],
    });
    expect(await (await login([USER, PASSWORD])).json()).toEqual({ non_field_errors: ['Invalid data. Expected a dictionary, but got list.'] });
    expect((await login('{"username": ')).status).toBe(400);
    expect((await login(`${USER}:${PASSWORD}`, 'text/plain')).status).toBe(415);
    expect((await fetch(`${root}api-token-auth/`)).status).toBe(405);
    expect((await fetch(new URL('api-token-auth/', server.url), { method: 'POST' })).status).toBe(404);
    expect((await login({ username: USER, password: 'x'.repeat(20_000) })).status).toBe(413);
  });

  it('a token authenticates writes, admin lists and uploaded files beside Basic; its keyword is case-insensitive', async () => {
    const token = await tokenOf(await login({ username: USER, password: PASSWORD }));
    expect((await newStudy('TOK0001', `Token ${token}`)).status).toBe(201);
    expect((await newStudy('TOK0002', `token ${token}`)).status).toBe(201);
    const basic = `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`;
    expect((await newStudy('TOK0003', basic)).status).toBe(201);
    const listed = (await (await fetch(new URL('_users/', server.url), { headers: { authorization: `Token ${token}` } })).json()) as {
      data: { data: { username: string }[] };
    };
    expect(listed.data.data.map((u) => u.username)).toEqual([USER, 'other']);
    const upload = new FormData();
    upload.set('file', new Blob(['t,c\n']), 'a.csv');
    const created = await fetch(new URL('_datafiles/', server.url), { method: 'POST', headers: { authorization: `Token ${token}` }, body: upload });
    expect(created.status).toBe(201);
    const { file } = (await created.json()) as { file: string };
    expect(await (await fetch(file, { headers: { authorization: `Token ${token}` } })).text()).toBe('t,c\n');
    expect((await newStudy('TOK0004', 'Token')).status).toBe(401);
  });

  it('a bad token is 401 on every route, public GETs, OPTIONS, /filter/, /media/ and the login included', async () => {
    const bad = { authorization: `Token ${'0'.repeat(40)}` };
    for (const [path, method] of [
      ['', 'GET'],
      ['studies/', 'GET'],
      ['pkdata/outputs/?page_size=2000', 'GET'],
      ['filter/?download=true', 'GET'],
      ['studies/', 'OPTIONS'],
      ['studies/', 'POST'],
      ['_studies/', 'POST'],
    ] as const) {
      const response = await fetch(new URL(path, server.url), { method, headers: bad });
      expect(response.status, `${method} ${path}`).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Token');
      expect(await response.json()).toEqual({ detail: 'Invalid token.' });
    }
    expect((await fetch(`${root}media/datafiles/1/a.csv`, { headers: bad })).status).toBe(401);
    expect((await fetch(`${root}api-token-auth/`, { method: 'POST', headers: { ...bad, 'content-type': 'application/json' }, body: '{}' })).status).toBe(401);
    expect((await fetch(new URL('studies/', server.url))).status).toBe(200);
    expect((await fetch(new URL('no-such-list/', server.url), { headers: bad })).status).toBe(404);
  });

  it('stores only the SHA-256 and a sealed copy of a key, never the key itself', async () => {
    const token = await tokenOf(await login({ username: USER, password: PASSWORD }));
    const db = new Database(join(dataDir, DATABASE_FILE), { readonly: true });
    const rows = db.prepare('SELECT username, key_hash, sealed FROM tokens ORDER BY username').all() as Record<string, string>[];
    db.close();
    expect(rows.map((r) => r.username)).toEqual([USER, 'other']);
    expect(rows[0].key_hash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it('a token survives a restart; --revoke-token under the running server revokes it at once; a new login gets a new key', async () => {
    const token = await tokenOf(await login({ username: USER, password: PASSWORD }));
    await server.close();
    server = await start();
    root = server.url.replace(/api\/v1\/$/, '');
    expect((await newStudy('TOK0005', `Token ${token}`)).status).toBe(201);

    const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      expect(await main(['serve', '--data-dir', dataDir, '--revoke-token', USER])).toBe(0);
      expect(await main(['serve', '--data-dir', dataDir, '--revoke-token', USER])).toBe(0);
      expect(out.mock.calls.map(([text]) => String(text))).toEqual([
        `pkdb serve: revoked the API token of ${USER}\n`,
        `pkdb serve: ${USER} has no API token\n`,
      ]);
      expect(await main(['serve', '--revoke-token', USER])).toBe(2);
    } finally {
      out.mockRestore();
    }
    const refused = await newStudy('TOK0006', `Token ${token}`);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ detail: 'Invalid token.' });
    const fresh = await tokenOf(await login({ username: USER, password: PASSWORD }));
    expect(fresh).not.toBe(token);
    expect((await newStudy('TOK0006', `Token ${fresh}`)).status).toBe(201);
  });

  it('a changed password issues a new key (revoking the old); a user dropped from the users file is refused', async () => {
    const token = await tokenOf(await login({ username: USER, password: PASSWORD }));
    const otherToken = await tokenOf(await login({ username: 'other', password: 'pw2' }));
    await server.close();
    server = await start(new UserTable({ users: [{ username: USER, hash: await hashPassword('new password') }] }));
    root = server.url.replace(/api\/v1\/$/, '');
    expect((await login({ username: USER, password: PASSWORD })).status).toBe(400);
    const renewed = await tokenOf(await login({ username: USER, password: 'new password' }));
    expect(renewed).not.toBe(token);
    expect((await newStudy('TOK0007', `Token ${token}`)).status).toBe(401);
    expect((await newStudy('TOK0007', `Token ${renewed}`)).status).toBe(201);
    const dropped = await fetch(new URL('studies/', server.url), { headers: { authorization: `Token ${otherToken}` } });
    expect(dropped.status).toBe(401);
    expect(await dropped.json()).toEqual({ detail: 'User inactive or deleted.' });
  });
});

describe('failed logins at /api-token-auth/', () => {
  it('count toward the failed-login limit: 429 with Retry-After, the right password included', async () => {
    const server = await startServer({
      dataset: tinyDataset(),
      port: 0,
      users: new UserTable({ users: [{ username: USER, hash: await hashPassword(PASSWORD) }] }),
    });
    const login = (password: string) =>
      fetch(server.url.replace(/api\/v1\/$/, 'api-token-auth/'), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: USER, password }),
      });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++) statuses.push((await login(`wrong ${i}`)).status);
      expect(statuses.slice(0, 10)).toEqual(Array(10).fill(400));
      expect(statuses[10]).toBe(429);
      const throttled = await login(PASSWORD);
      expect(throttled.status).toBe(429);
      expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  });
});

describe('tokens without a users file', () => {
  it('every login is refused', async () => {
    const server = await startServer({ dataset: tinyDataset(), port: 0 });
    try {
      const response = await fetch(server.url.replace(/api\/v1\/$/, 'api-token-auth/'), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: USER, password: PASSWORD }),
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ non_field_errors: ['Unable to log in with provided credentials.'] });
    } finally {
      await server.close();
    }
  });
});
