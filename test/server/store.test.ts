/**
 * The libsql store: WAL mode on disk, ':memory:' without a data dir, records and
 * files across reopen, filter results with expiry and a cap, tokens, and the
 * migration of a database written by the former sql.js store.
 */
import Database from 'libsql';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DATABASE_FILE, FILTER_LIFETIME_MS, FILTER_RESULTS_CAP, Store } from '../../src/server/store.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pkdb-store-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const bytes = (...values: number[]) => new Uint8Array(values);

describe('Store', () => {
  it('keeps records, files and tokens across a reopen, in a WAL-mode file', async () => {
    const store = await Store.open(dir);
    expect(store.path).toBe(join(dir, DATABASE_FILE));
    expect(await store.insert('_studies', 'S1', { sid: 'S1', n: 1 }, 'alice')).toBe(1);
    const fileId = await store.insertFile('a.csv', 'csv', bytes(1, 2, 3), 'alice');
    store.saveToken('alice', { keyHash: 'h1', sealed: 's1' });
    expect(await readdir(dir)).toContain(`${DATABASE_FILE}-wal`);
    await store.close();

    const again = await Store.open(dir);
    expect(again.has('_studies', 'S1')).toBe(true);
    expect(again.has('_references', 'S1')).toBe(false);
    expect(again.list('_studies')).toEqual([{ id: 1, body: { sid: 'S1', n: 1 } }]);
    expect(again.list('_datafiles')).toEqual([{ id: fileId, body: { filename: 'a.csv', filetype: 'csv' } }]);
    expect([...(again.fileContent(fileId) ?? [])]).toEqual([1, 2, 3]);
    expect(again.fileContent(999)).toBeNull();
    expect(again.token('alice')).toEqual({ keyHash: 'h1', sealed: 's1' });
    expect(again.tokenUser('h1')).toBe('alice');
    expect(again.revokeToken('alice')).toBe(true);
    expect(again.revokeToken('alice')).toBe(false);
    expect(again.tokenUser('h1')).toBeNull();
    await again.close();
    const db = new Database(join(dir, DATABASE_FILE));
    expect(db.prepare('PRAGMA journal_mode').get()).toMatchObject({ journal_mode: 'wal' });
    db.close();
  });

  it('refuses a second record with the same resource and key', async () => {
    const store = await Store.open(dir);
    await store.insert('_studies', 'S1', { sid: 'S1' }, 'alice');
    await expect(store.insert('_studies', 'S1', { sid: 'S1' }, 'bob')).rejects.toThrow(/UNIQUE/);
    await store.insert('_references', 'S1', { sid: 'S1' }, 'bob');
    expect(store.list('_studies')).toHaveLength(1);
    await store.close();
  });

  it('lives in memory without a data dir', async () => {
    const store = await Store.open();
    expect(store.path).toBeNull();
    await store.insert('_studies', 'S1', {}, 'alice');
    expect(store.has('_studies', 'S1')).toBe(true);
    await store.close();
    expect(await readdir(dir)).toEqual([]);
  });

  it('expires filter results after 24 h and purges expired ones on insert', async () => {
    const store = await Store.open(dir);
    const t0 = 1_700_000_000_000;
    await store.saveFilterResult('a', bytes(1), t0);
    expect([...(store.filterResult('a', t0 + FILTER_LIFETIME_MS - 1) ?? [])]).toEqual([1]);
    expect(store.filterResult('a', t0 + FILTER_LIFETIME_MS)).toBeNull();
    expect(store.filterResultCount()).toBe(1);
    await store.saveFilterResult('b', bytes(2), t0 + FILTER_LIFETIME_MS);
    expect(store.filterResultCount()).toBe(1);
    expect(store.filterResult('unknown')).toBeNull();
    await store.close();
  });

  it('keeps at most FILTER_RESULTS_CAP filter results, evicting the oldest', async () => {
    const store = await Store.open();
    const now = Date.now();
    for (let i = 0; i < FILTER_RESULTS_CAP + 25; i++) await store.saveFilterResult(`u${i}`, bytes(i % 256), now);
    expect(store.filterResultCount()).toBe(FILTER_RESULTS_CAP);
    expect(store.filterResult('u24', now)).toBeNull();
    expect([...(store.filterResult('u25', now) ?? [])]).toEqual([25]);
    expect(store.filterResult(`u${FILTER_RESULTS_CAP + 24}`, now)).not.toBeNull();
    await store.close();
  });

  it('migrates the filter results of a database written by the sql.js store', async () => {
    const db = new Database(join(dir, DATABASE_FILE));
    db.exec(`CREATE TABLE records (id INTEGER PRIMARY KEY AUTOINCREMENT, resource TEXT NOT NULL, key TEXT, body TEXT NOT NULL,
               username TEXT NOT NULL, created TEXT NOT NULL, UNIQUE (resource, key));
             CREATE TABLE filter_results (uuid TEXT PRIMARY KEY, selection BLOB NOT NULL, expires INTEGER NOT NULL);`);
    const later = Date.now() + 1000;
    db.prepare('INSERT INTO filter_results VALUES (?, ?, ?)').run('old', Buffer.from([7]), later);
    db.prepare('INSERT INTO records (resource, key, body, username, created) VALUES (?, ?, ?, ?, ?)').run('_studies', 'S9', '{"sid":"S9"}', 'a', 'x');
    db.close();
    const store = await Store.open(dir);
    expect([...(store.filterResult('old') ?? [])]).toEqual([7]);
    expect(store.has('_studies', 'S9')).toBe(true);
    await store.saveFilterResult('new', bytes(8));
    expect(store.filterResultCount()).toBe(2);
    await store.close();
  });
});
