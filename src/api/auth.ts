/**
 * The client's credentials: where they come from (options or the base URL),
 * how they travel (HTTP Basic, or a token, PK-DB API notes §3), which cache scope they
 * select, and how they are kept out of every message.
 *
 * `http://alice:pw@host/api/v1/` is the same as `username: 'alice', password: 'pw'`:
 * the user info is taken out of the base URL before anything else sees it.
 */
import { createHash } from 'node:crypto';

/** How username/password are sent: as Basic auth on every request, or exchanged once for a token. */
export type AuthMode = 'basic' | 'token';

export type Credentials =
  | { kind: 'anonymous' }
  | { kind: 'basic'; username: string; password: string }
  /** POST {username, password} to `<root>/api-token-auth/` once, then `Authorization: Token <key>`. */
  | { kind: 'token-exchange'; username: string; password: string }
  | { kind: 'token'; token: string };

export interface CredentialOptions {
  baseUrl: string;
  username?: string;
  password?: string;
  token?: string;
  auth?: AuthMode;
}

/** A base URL as messages may show it: `scheme://user:pw@` loses its user info (up to the last `@` of the word, to be safe). */
export function redactUrlText(text: string): string {
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/)\S*@/gi, '$1');
}

/** Every occurrence of a secret replaced by `***` (longest first, so a secret inside another goes too). */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    if (secret !== '') out = out.split(secret).join('***');
  }
  return out;
}

function parseUrl(baseUrl: string): URL {
  try {
    return new URL(baseUrl);
  } catch {
    // The TypeError of `new URL` carries the input (password included) on `.input`: not rethrown.
    throw new TypeError(`invalid base URL "${redactUrlText(baseUrl)}"`);
  }
}

/** `http://host:8000` -> `http://host:8000/api/v1/`; credentials, query and fragment removed. */
export function normaliseBaseUrl(baseUrl: string): URL {
  const url = parseUrl(baseUrl);
  url.username = '';
  url.password = '';
  url.search = '';
  url.hash = '';
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  if (!url.pathname.endsWith('/api/v1/')) url.pathname += 'api/v1/';
  return url;
}

/**
 * The credentials of a client: options win over the user info of the base
 * URL; a token excludes username/password. Throws TypeError (without the
 * secret) on a contradiction.
 */
export function resolveCredentials(options: CredentialOptions): Credentials {
  const inUrl = parseUrl(options.baseUrl);
  const username = options.username ?? (inUrl.username ? decodeURIComponent(inUrl.username) : undefined);
  const password = options.password ?? (inUrl.password ? decodeURIComponent(inUrl.password) : undefined);
  if (options.token !== undefined) {
    if (username !== undefined) throw new TypeError('give either a token or username/password, not both');
    if (!/^[\x21-\x7e]+$/.test(options.token)) throw new TypeError('the token must be printable ASCII without spaces');
    return { kind: 'token', token: options.token };
  }
  if (username === undefined) {
    if (password !== undefined) throw new TypeError('a password needs a username');
    return { kind: 'anonymous' };
  }
  return { kind: options.auth === 'token' ? 'token-exchange' : 'basic', username, password: password ?? '' };
}

/** The strings that must never appear in a message: passwords and tokens. */
export function secretsOf(credentials: Credentials): string[] {
  switch (credentials.kind) {
    case 'anonymous':
      return [];
    case 'token':
      return [credentials.token];
    default: {
      const { username, password } = credentials;
      // The Basic header's base64 also gives the password away.
      return password === '' ? [] : [password, encodeURIComponent(password), Buffer.from(`${username}:${password}`, 'utf8').toString('base64')];
    }
  }
}

/**
 * The cache scope of the responses fetched with `credentials`. PK-DB shows
 * each user a different set of studies, so a page fetched as one user must
 * never be served to another, or to an anonymous client. Users are scoped by
 * name (a token exchanged from username/password belongs to that user); a
 * bare token by a digest of it, since the client cannot know whose it is.
 */
export function cacheScope(credentials: Credentials): string {
  switch (credentials.kind) {
    case 'anonymous':
      return 'anonymous';
    case 'token':
      return `token:${createHash('sha256').update(credentials.token).digest('hex')}`;
    default:
      return `user:${credentials.username}`;
  }
}

/** `Basic base64(user:password)` (RFC 7617). */
export function basicAuthorization(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`;
}

/** DRF's TokenAuthentication header (PK-DB API notes §3). */
export function tokenAuthorization(token: string): string {
  return `Token ${token}`;
}

/** `<root>/api-token-auth/`, the root being the base URL without its `api/v1/` (the origin for the usual `/api/v1/`). */
export function tokenExchangeUrl(base: URL): URL {
  return new URL('../../api-token-auth/', base);
}
