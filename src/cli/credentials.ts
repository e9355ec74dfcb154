/**
 * The credentials of the commands that read a PK-DB API (`summary`, `qa`,
 * `diff`, `pull`): `--user`/`--password` (HTTP Basic) or an API token
 * (`--token`, or `PKDB_TOKEN` in the environment so that it stays out of the
 * shell history and `ps`; PK-DB's `POST /api-token-auth/` gives one). One home
 * for their options and their rules; none of them is ever printed
 * (`secretsInArgs` in errors.ts redacts `--password` and `--token`).
 */
import type { Command } from 'commander';
import { UsageError } from './errors.js';

/** The options as commander parses them. */
export interface CredentialOptions {
  user?: string;
  password?: string;
  token?: string;
}

/** What `PkdbClient` takes. */
export interface ClientCredentials {
  username?: string;
  password?: string;
  token?: string;
}

/** The environment variable read when `--token` is absent. */
export const TOKEN_ENV = 'PKDB_TOKEN';

/** Adds `--user`, `--password` and `--token` to a command reading an API given by `withWhat` (e.g. `--base-url`). */
export function credentialOptions(command: Command, withWhat: string): Command {
  return command
    .option('--user <name>', `API user (with ${withWhat}; HTTP Basic)`)
    .option('--password <password>', `API password (with ${withWhat}; never printed)`)
    .option('--token <token>', `API token, sent as "Authorization: Token …" (with ${withWhat}; default $${TOKEN_ENV}; never printed)`);
}

/**
 * The client's credentials from the options, the token falling back to the
 * environment: a token excludes user/password, a password needs a user, and
 * explicit credentials need an API (`hasApi`). An environment token without
 * an API is ignored: it is set for other commands too.
 */
export function clientCredentials(opts: CredentialOptions, hasApi: boolean, env: NodeJS.ProcessEnv = process.env): ClientCredentials {
  const explicit = opts.user !== undefined || opts.password !== undefined || opts.token !== undefined;
  if (explicit && !hasApi) throw new UsageError('--user, --password and --token need an API (--base-url)');
  if (opts.token !== undefined && (opts.user !== undefined || opts.password !== undefined)) throw new UsageError('give either --token or --user/--password, not both');
  if (opts.password !== undefined && opts.user === undefined) throw new UsageError('--password needs --user');
  if (opts.token === '') throw new UsageError('--token is empty');
  if (opts.user !== undefined) return { username: opts.user, password: opts.password };
  const token = opts.token ?? (env[TOKEN_ENV] || undefined);
  return token !== undefined && hasApi ? { token } : {};
}
