/**
 * The `pkdb serve` command as a user runs it: prints the base URL once it
 * answers, stops cleanly on SIGTERM; `--hash-password` prints a users-file
 * entry; bad options and unreadable sources exit 2 with one line.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main.js';
import { UsersFile, UserTable } from '../../../src/server/auth.js';
import { PROJECT_ROOT } from '../../helpers/shared.js';

const BIN = join(PROJECT_ROOT, 'bin', 'pkdb.js');
let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'pkdb-serve-cli-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

function pkdb(args: string[]) {
  return spawn(process.execPath, [BIN, ...args], { cwd: PROJECT_ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
}

describe('pkdb serve', () => {
  it('prints the base URL once serving, answers on it, and exits 0 on SIGTERM', async () => {
    const child = pkdb(['serve', '--port', '0', '--data-dir', join(work, 'data'), '--public-url', 'https://pkdb.example.org/']);
    const firstLine = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout }).once('line', resolve);
      child.once('exit', (code) => reject(new Error(`pkdb serve exited early with ${code}`)));
    });
    expect(firstLine).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1\/$/);
    const response = await fetch(new URL('pkdata/studies/', firstLine));
    expect(response.status).toBe(200);
    const root = (await (await fetch(firstLine)).json()) as Record<string, string>;
    expect(root.studies).toBe('https://pkdb.example.org/api/v1/studies/');
    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
  });

  it('--hash-password reads stdin and prints an entry the users file accepts', async () => {
    const child = pkdb(['serve', '--hash-password', 'alice']);
    child.stdin.end('s3cret\n');
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
    expect(out).not.toContain('s3cret');
    const file = UsersFile.parse({ users: [JSON.parse(out)] });
    expect(await new UserTable(file).verify('alice', 's3cret')).toBe('alice');
  });

  it('exits 2 for a bad port, an unreadable export or a broken users file', async () => {
    expect(await main(['serve', '--port', 'eighty'])).toBe(2);
    expect(await main(['serve', '--export', join(work, 'missing.zip'), '--port', '0'])).toBe(2);
    const users = join(work, 'users.json');
    await writeFile(users, JSON.stringify({ users: [{ username: 'bob', hash: 'plaintext' }] }));
    expect(await main(['serve', '--users', users, '--port', '0'])).toBe(2);
    expect(await main(['serve', '--public-url', 'ftp://pkdb.example.org/', '--port', '0'])).toBe(2);
  });
});
