/**
 * The CLI never prints a password: `pkdb summary`, `pkdb qa` and `pkdb pull`
 * with credentials in --base-url (or --password) against a closed port, a
 * server that echoes them, and an invalid URL; plus the redaction helpers.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { redactMessage, secretsInArgs } from '../../src/cli/errors.js';
import { pkdb } from '../helpers/cli.js';
import { sendJson, startServer } from '../api/test-server.js';

const PASSWORD = 'Pw-7s3cr3t';
const BASE64 = Buffer.from(`alice:${PASSWORD}`).toString('base64');

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('the CLI never prints a password', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pkdb-cli-errors-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const commands = (baseUrl: string): [string, string[]][] => [
    ['summary', ['summary', '--base-url', baseUrl]],
    ['qa', ['qa', '--base-url', baseUrl, '--out', join(dir, 'qa')]],
    ['pull', ['pull', '--base-url', baseUrl, '--out', join(dir, 'pull.zip')]],
  ];

  const expectClean = (stderr: string) => {
    expect(stderr).not.toContain(PASSWORD);
    expect(stderr).not.toContain(encodeURIComponent(PASSWORD));
    expect(stderr).not.toContain(BASE64);
  };

  it('credentials in --base-url, closed port: exit 2, one line naming the URL without user info', async () => {
    const port = await closedPort();
    for (const [name, args] of commands(`http://alice:${PASSWORD}@127.0.0.1:${port}/api/v1/`)) {
      const { code, stderr } = await pkdb(args);
      expect(code, name).toBe(2);
      expect(stderr.trim().split('\n'), name).toHaveLength(1);
      expect(stderr, name).toContain(`http://127.0.0.1:${port}/api/v1/`);
      expect(stderr, name).toContain('ECONNREFUSED');
      expectClean(stderr);
    }
  });

  it('a server that echoes the credentials in its error body does not get them printed', async () => {
    const server = await startServer((request, response) => sendJson(response, 403, { detail: `${request.headers.authorization} ${PASSWORD}` }));
    try {
      for (const [name, args] of [
        ...commands(server.baseUrl.replace('http://', `http://alice:${PASSWORD}@`)),
        ['summary --password', ['summary', '--base-url', server.baseUrl, '--user', 'alice', '--password', PASSWORD]] as [string, string[]],
      ]) {
        const { code, stderr } = await pkdb(args);
        expect(code, name).toBe(2);
        expect(stderr, name).toContain('HTTP 403');
        expectClean(stderr);
      }
    } finally {
      await server.close();
    }
  });

  it('an invalid URL with credentials is reported without them', async () => {
    for (const [name, args] of commands(`http://alice:${PASSWORD}@127.0.0.1:99999/`)) {
      const { code, stderr } = await pkdb(args);
      expect(code, name).toBe(2);
      expect(stderr, name).toContain('invalid base URL "http://127.0.0.1:99999/"');
      expectClean(stderr);
    }
  });
});

describe('redaction helpers', () => {
  it('secretsInArgs finds --password, --token and URL passwords (raw and decoded)', () => {
    expect(secretsInArgs(['pull', '--password', 'a1', '--token=t0k', '--base-url', 'https://bob:p%40ss@h/api/v1/']).sort()).toEqual(['a1', 'p%40ss', 'p@ss', 't0k']);
    expect(secretsInArgs(['summary', '--base-url', 'http://h/api/v1/'])).toEqual([]);
  });

  it('redactMessage drops URL user info and masks secrets', () => {
    expect(redactMessage('cannot load http://bob:pw@h/x: HTTP 403: Basic Ym9iOnB3 pw', ['pw', 'Ym9iOnB3'])).toBe('cannot load http://h/x: HTTP 403: Basic *** ***');
  });
});
