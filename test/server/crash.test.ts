/**
 * kill -9 during a write burst loses no acknowledged write: `pkdb serve` runs
 * as a child process, ten clients POST studies with a token as fast as it
 * answers, the child is SIGKILLed mid-burst, and every study that got its 201
 * is in the database afterwards, which passes SQLite's integrity check.
 */
import Database from 'libsql';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/server/auth.js';
import { DATABASE_FILE, Store } from '../../src/server/store.js';
import { PROJECT_ROOT } from '../helpers/shared.js';

const BIN = join(PROJECT_ROOT, 'bin', 'pkdb.js');
const CLIENTS = 10;
/** Kill once this many writes are acknowledged (so the burst is in full swing), or after the deadline. */
const KILL_AFTER_ACKS = 300;
const DEADLINE_MS = 20_000;

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'pkdb-crash-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('kill -9 during a write burst', () => {
  it('loses no acknowledged write', { timeout: 60_000 }, async () => {
    const dataDir = join(work, 'data');
    const usersFile = join(work, 'users.json');
    await writeFile(usersFile, JSON.stringify({ users: [{ username: 'w', hash: await hashPassword('pw') }] }));
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--data-dir', dataDir, '--users', usersFile], {
      cwd: PROJECT_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = once(child, 'exit');
    const url = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout }).once('line', resolve);
      child.once('exit', (code) => reject(new Error(`pkdb serve exited early with ${code}`)));
    });
    const root = url.replace(/api\/v1\/$/, '');
    const login = await fetch(`${root}api-token-auth/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'w', password: 'pw' }),
    });
    const { token } = (await login.json()) as { token: string };

    const acknowledged: string[] = [];
    let sent = 0;
    let failures = 0;
    let killed = false;
    const started = Date.now();
    const kill = () => {
      if (!killed) child.kill('SIGKILL');
      killed = true;
    };
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, client) => {
        // Each client keeps sending until its connection fails, so requests are in flight when the kill lands.
        for (let i = 0, alive = true; alive; i++) {
          const sid = `C${client}N${i}`;
          sent++;
          try {
            const response = await fetch(`${url}_studies/`, {
              method: 'POST',
              headers: { authorization: `Token ${token}`, 'content-type': 'application/json' },
              body: JSON.stringify({ sid, name: sid, date: '2024-01-01', creator: 'w', licence: 'open', access: 'public' }),
            });
            if (response.status === 201) acknowledged.push(sid);
            else failures++;
            await response.arrayBuffer();
          } catch {
            // The connection died with the server: this write was never acknowledged.
            alive = false;
          }
          if (acknowledged.length >= KILL_AFTER_ACKS || Date.now() - started > DEADLINE_MS) kill();
        }
      }),
    );
    const [, signal] = await exited;
    expect(signal).toBe('SIGKILL');
    expect(failures).toBe(0);
    expect(acknowledged.length).toBeGreaterThanOrEqual(KILL_AFTER_ACKS);
    expect(sent).toBeGreaterThanOrEqual(acknowledged.length + CLIENTS);

    const db = new Database(join(dataDir, DATABASE_FILE));
    expect(db.prepare('PRAGMA integrity_check').get()).toMatchObject({ integrity_check: 'ok' });
    db.close();
    const store = await Store.open(dataDir);
    try {
      const missing = acknowledged.filter((sid) => !store.has('_studies', sid));
      expect(missing).toEqual([]);
      expect(store.list('_studies').length).toBeGreaterThanOrEqual(acknowledged.length);
    } finally {
      await store.close();
    }
  });
});
