/**
 * API credentials of the CLI (src/cli/credentials.ts): the rules of
 * --user/--password/--token/PKDB_TOKEN, and over HTTP: `pkdb summary --token`
 * against `pkdb serve` with a token it issued, the PKDB_TOKEN fallback, a bad
 * token refused (exit 2) without the token ever printed.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientCredentials, TOKEN_ENV } from '../../src/cli/credentials.js';
import { UsageError } from '../../src/cli/errors.js';
import { startServer, type RunningServer } from '../../src/server/app.js';
import { hashPassword, UserTable } from '../../src/server/auth.js';
import { pkdb } from '../helpers/cli.js';
import { tinyDataset } from '../server/tiny-dataset.js';

describe('clientCredentials', () => {
  const noEnv = {};
  it('user/password for HTTP Basic; a token from --token, else from PKDB_TOKEN', () => {
    expect(clientCredentials({ user: 'alice', password: 'pw' }, true, noEnv)).toEqual({ username: 'alice', password: 'pw' });
    expect(clientCredentials({ user: 'alice' }, true, noEnv)).toEqual({ username: 'alice', password: undefined });
    expect(clientCredentials({ token: 'abc' }, true, { [TOKEN_ENV]: 'env' })).toEqual({ token: 'abc' });
    expect(clientCredentials({}, true, { [TOKEN_ENV]: 'env' })).toEqual({ token: 'env' });
    expect(clientCredentials({}, true, { [TOKEN_ENV]: '' })).toEqual({});
    expect(clientCredentials({}, true, noEnv)).toEqual({});
  });

  it('explicit user/password win over PKDB_TOKEN; an environment token without an API is ignored', () => {
    expect(clientCredentials({ user: 'alice', password: 'pw' }, true, { [TOKEN_ENV]: 'env' })).toEqual({ username: 'alice', password: 'pw' });
    expect(clientCredentials({}, false, { [TOKEN_ENV]: 'env' })).toEqual({});
  });

  it('refuses what cannot work, with a usage error', () => {
    expect(() => clientCredentials({ token: 'abc', user: 'alice' }, true, noEnv)).toThrow(UsageError);
    expect(() => clientCredentials({ token: 'abc', user: 'alice' }, true, noEnv)).toThrow('either --token or --user/--password');
    expect(() => clientCredentials({ password: 'pw' }, true, noEnv)).toThrow('--password needs --user');
    expect(() => clientCredentials({ token: 'abc' }, false, noEnv)).toThrow('need an API');
    expect(() => clientCredentials({ token: '' }, true, noEnv)).toThrow('--token is empty');
  });
});

describe('pkdb summary --token against pkdb serve', () => {
  const USER = 'curator';
  const PASSWORD = 'correct horse battery staple';
  let dataDir: string;
  let server: RunningServer;
  let token: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'pkdb-cli-token-'));
    const users = new UserTable({ users: [{ username: USER, hash: await hashPassword(PASSWORD) }] });
    server = await startServer({ dataset: tinyDataset(), port: 0, dataDir, users });
    const response = await fetch(server.url.replace(/api\/v1\/$/, 'api-token-auth/'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: USER, password: PASSWORD }),
    });
    token = ((await response.json()) as { token: string }).token;
  });
  afterAll(async () => {
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('reads the API with the token given by --token or by PKDB_TOKEN, and prints no token', async () => {
    const anonymous = await pkdb(['summary', '--base-url', server.url, '--json']);
    expect(anonymous.code).toBe(0);
    const withToken = await pkdb(['summary', '--base-url', server.url, '--token', token, '--json']);
    expect(withToken.code).toBe(0);
    expect(JSON.parse(withToken.stdout)).toEqual(JSON.parse(anonymous.stdout));
    expect(withToken.stdout + withToken.stderr).not.toContain(token);
    process.env[TOKEN_ENV] = token;
    try {
      const fromEnv = await pkdb(['summary', '--base-url', server.url, '--json']);
      expect(fromEnv.code).toBe(0);
      expect(fromEnv.stdout + fromEnv.stderr).not.toContain(token);
    } finally {
      delete process.env[TOKEN_ENV];
    }
  });

  it('a token the server does not know: exit 2, HTTP 401 named, the token not printed', async () => {
    const bad = 'f'.repeat(40);
    const run = await pkdb(['summary', '--base-url', server.url, '--token', bad]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('401');
    expect(run.stderr).not.toContain(bad);
  });

  it('--token with --user is a usage error (exit 2)', async () => {
    const run = await pkdb(['summary', '--base-url', server.url, '--token', token, '--user', USER]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('either --token or --user/--password');
    expect(run.stderr).not.toContain(token);
  });
});
