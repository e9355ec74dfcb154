/**
 * The write views over HTTP: Basic auth against a users file (scrypt hashes),
 * field errors, body limit, multipart data files, and durability across a
 * restart of the server on the same data directory.
 */
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PkdbClient } from '../../src/api/client.js';
import { DataFile, WriteStudy } from '../../src/api/schemas/index.js';
import { startServer, type RunningServer } from '../../src/server/app.js';
import { hashPassword, UserTable } from '../../src/server/auth.js';
import { DATABASE_FILE } from '../../src/server/store.js';
import { tinyDataset } from './tiny-dataset.js';

const USER = 'curator';
const PASSWORD = 'correct horse battery staple';
let dataDir: string;
let usersFile: string;
let server: RunningServer;
let logged: string[] = [];

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

async function start(): Promise<RunningServer> {
  return startServer({ dataset: tinyDataset(), port: 0, dataDir, users: usersFile, bodyLimitBytes: 64 * 1024, log: (line) => logged.push(line) });
}

/** JSON bodies of these tests: envelopes and `{detail}` errors. */
type Body = { detail?: string; data: { count: number; data: { sid: string }[] } };
const bodyOf = async (response: Response): Promise<Body> => (await response.json()) as Body;

function post(path: string, body: unknown, authorization?: string): Promise<Response> {
  return fetch(new URL(path, server.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'pkdb-serve-'));
  usersFile = join(dataDir, 'users.json');
  await writeFile(usersFile, JSON.stringify({ users: [{ username: USER, hash: await hashPassword(PASSWORD) }] }));
  server = await start();
});
afterAll(async () => {
  await server.close();
  await rm(dataDir, { recursive: true, force: true });
});

const study = { sid: 'NEW0001', name: 'New2024', date: '2024-03-01', creator: USER, licence: 'open', access: 'public' };

describe('authentication', () => {
  it('hashes are salted scrypt and verify only the right password', async () => {
    const a = await hashPassword('secret');
    expect(a).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(a).not.toBe(await hashPassword('secret'));
    const users = new UserTable({ users: [{ username: 'u', hash: a }] });
    expect(await users.verify('u', 'secret')).toBe('u');
    expect(await users.verify('u', 'Secret')).toBeNull();
    expect(await users.verify('nobody', 'secret')).toBeNull();
  });

  it('no or bad credentials give 401 with a Basic challenge, and nothing is stored', async () => {
    // A bad `Token` header is refused with a Token challenge instead (tokens.test.ts).
    const attempts: (string | undefined)[] = [undefined, basic(USER, 'wrong'), basic('nobody', PASSWORD)];
    for (const authorization of attempts) {
      const response = await post('_studies/', study, authorization);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Basic realm="pkdb"');
      expect(Object.keys(await bodyOf(response))).toEqual(['detail']);
    }
    const listed = await bodyOf(await fetch(new URL('_studies/?sid=NEW0001', server.url)));
    expect(listed.data.count).toBe(0);
  });
});

describe('writes', () => {
  it('a valid study is created (201) and listed by GET /_studies/', async () => {
    const response = await post('_studies/', study, basic(USER, PASSWORD));
    expect(response.status).toBe(201);
    expect(WriteStudy.parse(await response.json())).toMatchObject(study);
    const client = new PkdbClient({ baseUrl: server.url, retries: 0 });
    const items = await client.list('_studies');
    await client.close();
    expect(items.map((s) => s.sid)).toContain('NEW0001');
    expect(items.filter((s) => s.sid === 'NEW0001')).toHaveLength(1);
  });

  it('the client writes with Basic auth too', async () => {
    const client = new PkdbClient({ baseUrl: server.url, username: USER, password: PASSWORD, retries: 0 });
    const created = await client.createReference({ sid: '999', name: 'Ref1999', title: 'A title', date: '1999-01-01' });
    expect(created.sid).toBe('999');
    const file = await client.uploadDataFile({ filename: 'curve.csv', data: new TextEncoder().encode('t,c\n0,1\n'), filetype: 'csv' });
    expect(DataFile.parse(file)).toMatchObject({ filetype: 'csv' });
    expect((await client.list('_datafiles')).map((f) => f.id)).toEqual([file.id]);
    const download = await fetch(file.file, { headers: { authorization: basic(USER, PASSWORD) } });
    expect(await download.text()).toBe('t,c\n0,1\n');
    expect((await fetch(file.file)).status).toBe(401);
    await client.close();
  });

  it('invalid bodies give 400 with field errors', async () => {
    const auth = basic(USER, PASSWORD);
    const missing = await post('_studies/', { name: 'x', date: 'yesterday' }, auth);
    expect(missing.status).toBe(400);
    const errors = (await missing.json()) as Record<string, string[]>;
    expect(Object.keys(errors).sort()).toEqual(['date', 'sid']);
    expect(errors.date[0]).toMatch(/YYYY-MM-DD/);
    const duplicate = await post('_studies/', { ...study, sid: 'SYN0001' }, auth);
    expect(await duplicate.json()).toEqual({ sid: ['study with this sid already exists.'] });
    const again = await post('_studies/', study, auth);
    expect(again.status).toBe(400);
    const broken = await post('_studies/', '{"sid": ', auth);
    expect(broken.status).toBe(400);
    expect((await bodyOf(broken)).detail).toMatch(/^JSON parse error/);
    const noFile = await fetch(new URL('_datafiles/', server.url), { method: 'POST', headers: { authorization: auth }, body: new FormData() });
    expect(await noFile.json()).toEqual({ file: ['No file was submitted.'] });
  });

  it('bodies over the limit give 413', async () => {
    const response = await post('_studies/', { ...study, sid: 'BIG', name: 'x'.repeat(100 * 1024) }, basic(USER, PASSWORD));
    expect(response.status).toBe(413);
    expect((await bodyOf(response)).detail).toMatch(/too large/);
  });

  it('POST is refused on read-only lists and there is no anonymous write route', async () => {
    expect((await post('studies/', study, basic(USER, PASSWORD))).status).toBe(405);
    for (const method of ['PUT', 'PATCH', 'DELETE']) {
      const response = await fetch(new URL('_studies/', server.url), { method, headers: { authorization: basic(USER, PASSWORD) } });
      expect(response.status, method).toBe(405);
    }
    expect((await post('update_index/', { sid: 'SYN0001', action: 'delete' })).status).toBe(404);
  });

  it('writes and filter results survive a restart; credentials are never logged', async () => {
    const { uuid } = (await (await fetch(new URL('filter/?studies__sid=SYN0002', server.url))).json()) as { uuid: string };
    await server.close();
    expect((await readdir(dataDir)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect(await readdir(dataDir)).toContain(DATABASE_FILE);
    server = await start();
    const sids = ((await (await fetch(new URL('_studies/?sid=NEW0001', server.url))).json()) as { data: { data: { sid: string }[] } }).data.data;
    expect(sids.map((s) => s.sid)).toEqual(['NEW0001']);
    const references = (await (await fetch(new URL('_references/?sid=999', server.url))).json()) as { data: { count: number } };
    expect(references.data.count).toBe(1);
    expect(((await (await fetch(new URL(`outputs/?uuid=${uuid}`, server.url))).json()) as { data: { count: number } }).data.count).toBe(2);
    expect(logged.join('\n')).not.toContain(PASSWORD);
  });
});
