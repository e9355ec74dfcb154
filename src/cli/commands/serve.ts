/**
 * `pkdb serve`: the PK-DB API v1 over the bundled fixtures or an export zip,
 * on 127.0.0.1 unless told otherwise. Prints the base URL once listening and
 * runs until SIGINT/SIGTERM. `--hash-password USER` prints a users-file entry;
 * `--revoke-token USER` deletes the API token of USER from `--data-dir`
 * (a running server on that directory refuses it from its next request).
 */
import type { Command } from 'commander';
import { UsageError } from '../errors.js';

interface ServeCliOptions {
  export?: string;
  host: string;
  port: string;
  dataDir?: string;
  users?: string;
  hashPassword?: string;
  revokeToken?: string;
  publicUrl?: string;
}

function portOf(text: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65535) throw new UsageError(`--port must be an integer from 0 to 65535, got "${text}"`);
  return port;
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host.startsWith('127.');
}

/** The first line of stdin: the password to hash (pipe it in, e.g. from a password manager). */
async function readPassword(): Promise<string> {
  if (process.stdin.isTTY) process.stderr.write('password (input is echoed; pipe it to avoid that): ');
  const { createInterface } = await import('node:readline');
  const lines = createInterface({ input: process.stdin, terminal: false });
  for await (const line of lines) {
    lines.close();
    return line;
  }
  throw new UsageError('--hash-password reads the password from stdin, but stdin was empty');
}

async function loadDataset(exportPath: string | undefined) {
  const { Dataset } = await import('../../data/dataset.js');
  if (!exportPath) {
    const { loadFixtures } = await import('../../data/fixtures.js');
    return loadFixtures();
  }
  const { readExport } = await import('../../data/export/read.js');
  try {
    const { tables, problemCount } = await readExport(exportPath);
    if (problemCount > 0) process.stderr.write(`pkdb serve: ${exportPath}: ${problemCount} malformed cells skipped\n`);
    return Dataset.fromTables(tables, { kind: 'export', location: exportPath });
  } catch (error) {
    throw new UsageError(`cannot read ${exportPath}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Deletes a user's API token; says whether there was one, never printing a token or a password. */
async function revokeToken(username: string, dataDir: string | undefined): Promise<void> {
  if (!dataDir) throw new UsageError('--revoke-token needs --data-dir (tokens are kept only in a data directory)');
  const { Store } = await import('../../server/store.js');
  const store = await Store.open(dataDir).catch((error: Error) => {
    throw new UsageError(error.message);
  });
  try {
    const revoked = store.revokeToken(username);
    process.stdout.write(revoked ? `pkdb serve: revoked the API token of ${username}\n` : `pkdb serve: ${username} has no API token\n`);
  } finally {
    await store.close();
  }
}

async function serve(options: ServeCliOptions): Promise<void> {
  const port = portOf(options.port);
  if (options.publicUrl !== undefined) {
    const { publicBaseOf } = await import('../../server/request.js');
    try {
      publicBaseOf(options.publicUrl);
    } catch (error) {
      throw new UsageError(`--public-url: ${(error as Error).message}`);
    }
  }
  const dataset = await loadDataset(options.export);
  const { startServer } = await import('../../server/app.js');
  const { loadUsers } = await import('../../server/auth.js');
  const users = options.users === undefined ? undefined : await loadUsers(options.users).catch((error: Error) => {
    throw new UsageError(error.message);
  });
  let server;
  try {
    server = await startServer({ dataset, host: options.host, port, dataDir: options.dataDir, users, publicUrl: options.publicUrl });
  } catch (error) {
    throw new UsageError(`cannot serve on ${options.host}:${port}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const t = dataset.tables;
  process.stderr.write(`pkdb serve: ${t.studies.length} studies, ${t.outputs.length} outputs, ${t.timecourses.length} timecourses\n`);
  if (users && !isLoopback(options.host)) {
    process.stderr.write('pkdb serve: HTTP Basic credentials cross the network unencrypted; put a TLS proxy in front\n');
  }
  if (!options.dataDir) process.stderr.write('pkdb serve: no --data-dir, so writes and filter results are kept in memory only\n');
  if (!options.users) process.stderr.write('pkdb serve: no --users, so every write and login is refused\n');
  else if (!options.dataDir) process.stderr.write('pkdb serve: no --data-dir, so API tokens last until the server stops\n');
  process.stdout.write(`${server.url}\n`);
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      void server.close().then(resolve);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

export function register(program: Command, setExit: (code: number) => void): void {
  program
    .command('serve')
    .description('serve the PK-DB API v1 locally over the bundled fixtures or an export zip')
    .option('--export <file>', 'a PK-DB export zip (default: the bundled fixtures)')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port (0 picks a free one)', '8000')
    .option('--data-dir <dir>', 'folder of the SQLite database for writes and filter results (default: memory only)')
    .option('--users <file>', 'users allowed to write: {"users": [{"username", "hash"}]}')
    .option('--public-url <url>', 'base URL of the links the server gives out, e.g. https://pkdb.example.org/ behind a proxy (default: the bound address)')
    .option('--hash-password <user>', 'read a password from stdin and print a users-file entry for <user>')
    .option('--revoke-token <user>', 'delete the API token of <user> (from POST /api-token-auth/) in --data-dir, then exit')
    .action(async (options: ServeCliOptions) => {
      if (options.revokeToken !== undefined) {
        await revokeToken(options.revokeToken, options.dataDir);
      } else if (options.hashPassword !== undefined) {
        const { hashPassword } = await import('../../server/auth.js');
        const hash = await hashPassword(await readPassword());
        process.stdout.write(`${JSON.stringify({ username: options.hashPassword, hash })}\n`);
      } else {
        await serve(options);
      }
      setExit(0);
    });
}
