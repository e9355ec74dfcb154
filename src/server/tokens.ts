/**
 * Token authentication as PK-DB does it (DRF TokenAuthentication, PK-DB API notes §3):
 * `POST /api-token-auth/` with `{username, password}` answers `{"token": key}`,
 * and `Authorization: Token <key>` then authenticates every request. A header
 * with a bad token fails every route, public GETs included, as in DRF.
 *
 * Keys are made like DRF's (20 random bytes as 40 hex digits) and, like DRF's
 * `get_or_create`, one per user: a repeated login returns the same key. Unlike
 * DRF the database never holds a key in clear: it holds its SHA-256 (what
 * requests are checked against; a 160-bit random key needs no slow hash) and
 * the key sealed with AES-256-GCM under a scrypt key of the user's password,
 * which is how a later login recovers it. A login whose password no longer
 * opens the seal (the password was changed) gets a new key, which revokes the
 * old one. `pkdb serve --revoke-token USER` deletes a user's key.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { derive, SCRYPT, type UserTable } from './auth.js';
import { ApiError, badRequest } from './errors.js';
import type { Store } from './store.js';

/** Where PK-DB serves it: beside `/api/v1/`, not under it (pkdb_analysis posts to `<API_BASE>/api-token-auth/`). */
export const TOKEN_PATH = '/api-token-auth/';
/** A login body is two short strings; anything longer is refused with 413. */
export const TOKEN_BODY_LIMIT_BYTES = 16 * 1024;

/** A new key as DRF's `Token.generate_key`: `binascii.hexlify(os.urandom(20))`. */
export function newTokenKey(): string {
  return randomBytes(20).toString('hex');
}

/** What the database keeps to recognise a key: its SHA-256 in hex. */
export function tokenHash(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

const SEAL_PATTERN = /^v1\$([A-Za-z0-9+/=]+)\$([A-Za-z0-9+/=]+)\$([A-Za-z0-9+/=]+)\$([A-Za-z0-9+/=]+)$/;

/** `key` encrypted under scrypt(password, fresh salt), bound to `username`: `v1$salt$iv$tag$ciphertext` (base64). */
export async function sealToken(key: string, password: string, username: string): Promise<string> {
  const salt = randomBytes(16);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', await derive(password, salt, SCRYPT, 32), iv);
  cipher.setAAD(Buffer.from(username, 'utf8'));
  const sealed = Buffer.concat([cipher.update(key, 'utf8'), cipher.final()]);
  return ['v1', salt, iv, cipher.getAuthTag(), sealed].map((part) => (typeof part === 'string' ? part : part.toString('base64'))).join('$');
}

/** The key of a seal, or null when the password (or username) does not open it. */
export async function unsealToken(sealed: string, password: string, username: string): Promise<string | null> {
  const m = SEAL_PATTERN.exec(sealed);
  if (!m) return null;
  const [salt, iv, tag, data] = m.slice(1).map((part) => Buffer.from(part, 'base64'));
  try {
    const decipher = createDecipheriv('aes-256-gcm', await derive(password, salt, SCRYPT, 32), iv);
    decipher.setAAD(Buffer.from(username, 'utf8'));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

/** 401 with DRF's token messages and its `WWW-Authenticate: Token` challenge. */
const tokenFailure = (detail: string): ApiError => new ApiError(401, { detail }, { 'WWW-Authenticate': 'Token' });

/** The key of an `Authorization: Token <key>` header (keyword in any case, as DRF); null for other schemes. */
export function tokenKeyOf(header: string | undefined): string | null {
  const parts = header?.trim().split(/\s+/) ?? [];
  if (parts[0]?.toLowerCase() !== 'token') return null;
  if (parts.length === 1) throw tokenFailure('Invalid token header. No credentials provided.');
  if (parts.length > 2) throw tokenFailure('Invalid token header. Token string should not contain spaces.');
  return parts[1];
}

export class Tokens {
  /** Logins of one user run one at a time, so two first logins cannot issue two keys. */
  private readonly issuing = new Map<string, Promise<string>>();

  constructor(
    private readonly store: Store,
    private readonly users: UserTable | undefined,
  ) {}

  /**
   * The user a request's token authenticates; null when it carries no token
   * header; 401 for a malformed, unknown or revoked token or a user no longer
   * in the users file. Looked up on every request, so a revocation from
   * another process takes effect at once.
   */
  userOf(request: IncomingMessage): string | null {
    const key = tokenKeyOf(request.headers.authorization);
    if (key === null) return null;
    const username = this.store.tokenUser(tokenHash(key));
    if (username === null) throw tokenFailure('Invalid token.');
    if (!this.users?.usernames.includes(username)) throw tokenFailure('User inactive or deleted.');
    return username;
  }

  /** The key of a user whose password was just verified: the stored one, or a new one. */
  issue(username: string, password: string): Promise<string> {
    const previous = this.issuing.get(username) ?? Promise.resolve('');
    const next = previous.catch(() => '').then(() => this.issueNow(username, password));
    this.issuing.set(username, next);
    const forget = () => {
      if (this.issuing.get(username) === next) this.issuing.delete(username);
    };
    next.then(forget, forget);
    return next;
  }

  private async issueNow(username: string, password: string): Promise<string> {
    const stored = this.store.token(username);
    if (stored) {
      const key = await unsealToken(stored.sealed, password, username);
      if (key !== null && tokenHash(key) === stored.keyHash) return key;
    }
    const key = newTokenKey();
    this.store.saveToken(username, { keyHash: tokenHash(key), sealed: await sealToken(key, password, username) });
    return key;
  }
}

/** DRF's AuthTokenSerializer field check: present, a string (numbers are taken as text), not blank. */
function credentialField(form: Record<string, unknown>, name: string, errors: Record<string, string[]>): string {
  const value = form[name];
  if (value === undefined || value === null) errors[name] = ['This field is required.'];
  else if (typeof value !== 'string' && typeof value !== 'number') errors[name] = ['Not a valid string.'];
  else if (String(value) === '') errors[name] = ['This field may not be blank.'];
  else return String(value);
  return '';
}

/** The fields of a login body: JSON, form-urlencoded or multipart, as DRF's parsers accept. */
async function loginFields(contentType: string, body: Buffer): Promise<Record<string, unknown>> {
  if (/^application\/json\b/i.test(contentType)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString('utf8'));
    } catch (error) {
      throw new ApiError(400, { detail: `JSON parse error - ${(error as Error).message}` });
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      const got = Array.isArray(parsed) ? 'list' : parsed === null ? 'null' : typeof parsed;
      throw badRequest({ non_field_errors: [`Invalid data. Expected a dictionary, but got ${got}.`] });
    }
    return parsed as Record<string, unknown>;
  }
  if (/^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i.test(contentType)) {
    let form: FormData;
    try {
      form = await new Request('http://login.invalid/', { method: 'POST', headers: { 'content-type': contentType }, body }).formData();
    } catch (error) {
      throw new ApiError(400, { detail: `Form parse error - ${(error as Error).message}` });
    }
    const fields: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    for (const name of ['username', 'password']) {
      const value = form.get(name);
      if (typeof value === 'string') fields[name] = value;
    }
    return fields;
  }
  throw new ApiError(415, { detail: `Unsupported media type "${contentType}" in request.` });
}

/**
 * POST /api-token-auth/: `{"token": key}` for valid credentials of the users
 * file, else DRF's 400 `Unable to log in with provided credentials.`
 */
export async function obtainToken(request: IncomingMessage, body: Buffer, users: UserTable | undefined, tokens: Tokens): Promise<{ token: string }> {
  const form = await loginFields(request.headers['content-type'] ?? '', body);
  const errors: Record<string, string[]> = {};
  const username = credentialField(form, 'username', errors);
  const password = credentialField(form, 'password', errors);
  if (Object.keys(errors).length > 0) throw badRequest(errors);
  // The failed-login limit (auth.ts) counts these attempts like Basic ones, per username and address.
  const verified = users ? await users.verify(username, password, request.socket.remoteAddress) : null;
  if (verified === null) throw badRequest({ non_field_errors: ['Unable to log in with provided credentials.'] });
  return { token: await tokens.issue(verified, password) };
}
