/**
 * HTTP Basic authentication for the write views against a users file:
 * `{"users": [{"username": "...", "hash": "scrypt$N$r$p$<salt>$<key>"}]}`
 * (base64 salt and derived key; create entries with `pkdb serve --hash-password`).
 *
 * Passwords are never stored or logged in clear. Every check derives a key,
 * even for an unknown user, and compares with crypto.timingSafeEqual, so the
 * answer time does not tell which usernames exist. Failed logins are limited
 * per username and per client address (`LoginLimiter`): past the limit the
 * answer is 429 with Retry-After, for known and unknown usernames alike.
 */
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { ApiError } from './errors.js';

/** scrypt cost parameters: N = 2^14, r = 8, p = 1 (the OWASP minimum for scrypt), 32-byte key. */
export const SCRYPT = { N: 16384, r: 8, p: 1, keyLength: 32 } as const;

const HASH_PATTERN = /^scrypt\$(\d+)\$(\d+)\$(\d+)\$([A-Za-z0-9+/=]+)\$([A-Za-z0-9+/=]+)$/;

export const UsersFile = z.object({
  users: z.array(
    z.object({
      username: z.string().min(1).regex(/^[^:]+$/, 'a username cannot contain ":"'),
      hash: z.string().regex(HASH_PATTERN, 'expected scrypt$N$r$p$salt$key (use pkdb serve --hash-password)'),
    }),
  ),
});
export type UsersFile = z.infer<typeof UsersFile>;

interface ParsedHash {
  N: number;
  r: number;
  p: number;
  salt: Buffer;
  key: Buffer;
}

function parseHash(hash: string): ParsedHash {
  const m = HASH_PATTERN.exec(hash);
  if (!m) throw new Error('malformed password hash');
  return { N: Number(m[1]), r: Number(m[2]), p: Number(m[3]), salt: Buffer.from(m[4], 'base64'), key: Buffer.from(m[5], 'base64') };
}

/** scrypt of a password (also keys the sealed API tokens, tokens.ts). */
export function derive(password: string, salt: Buffer, params: { N: number; r: number; p: number }, keyLength: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, keyLength, { N: params.N, r: params.r, p: params.p, maxmem: 256 * params.N * params.r }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/** A users-file hash of a password, with a fresh 16-byte salt. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, SCRYPT, SCRYPT.keyLength);
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

/**
 * Failed-login limits: `failures` per username and per client address within
 * `windowSeconds` (a window starts at a key's first failure), tracking at most
 * `maxTracked` keys of each kind (memory stays bounded under a spray of
 * usernames or addresses: expired keys go first, then the oldest).
 */
export const LOGIN_LIMIT = { failures: 10, windowSeconds: 15 * 60, maxTracked: 10_000 } as const;
export type LoginLimitOptions = { failures: number; windowSeconds: number; maxTracked: number };

/** 429 for a login attempt over the limit; `Retry-After` in whole seconds (RFC 9110 §10.2.3). */
export class LoginThrottled extends ApiError {
  constructor(readonly retryAfterSeconds: number) {
    super(
      429,
      { detail: `Too many failed login attempts. Try again in ${retryAfterSeconds} seconds.` },
      { 'Retry-After': String(retryAfterSeconds) },
    );
  }
}

/** Attempts per key in fixed windows; a Map in insertion order, so the first entry is the oldest window. */
class AttemptCounter {
  private readonly entries = new Map<string, { count: number; start: number }>();

  constructor(private readonly limit: LoginLimitOptions) {}

  private live(key: string, now: number): { count: number; start: number } | undefined {
    const entry = this.entries.get(key);
    if (entry && now - entry.start >= this.limit.windowSeconds * 1000) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  /** Seconds until `key` may try again; 0 when it may now. */
  blockedFor(key: string, now: number): number {
    const entry = this.live(key, now);
    if (!entry || entry.count < this.limit.failures) return 0;
    return Math.max(1, Math.ceil((entry.start + this.limit.windowSeconds * 1000 - now) / 1000));
  }

  add(key: string, now: number, delta: number): void {
    const entry = this.live(key, now);
    if (entry) {
      entry.count = Math.max(0, entry.count + delta);
      return;
    }
    if (delta <= 0) return;
    if (this.entries.size >= this.limit.maxTracked) this.evict(now);
    this.entries.set(key, { count: delta, start: now });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }

  /** Expired windows first; if none, the oldest one. */
  private evict(now: number): void {
    for (const [key, entry] of this.entries) {
      if (now - entry.start >= this.limit.windowSeconds * 1000) this.entries.delete(key);
    }
    if (this.entries.size >= this.limit.maxTracked) this.entries.delete(this.entries.keys().next().value as string);
  }
}

/**
 * Login attempts per username and per client address. An attempt counts as a
 * failure from the moment it starts (so parallel guesses cannot all pass the
 * check before the first one fails); a success clears its username's count
 * and takes back only its own attempt from the address, so interleaving a
 * valid login does not reset an address that keeps failing.
 */
export class LoginLimiter {
  private readonly byUser: AttemptCounter;
  private readonly byClient: AttemptCounter;

  constructor(
    limit: LoginLimitOptions = LOGIN_LIMIT,
    private readonly now: () => number = Date.now,
  ) {
    this.byUser = new AttemptCounter(limit);
    this.byClient = new AttemptCounter(limit);
  }

  /** Usernames are keys up to 256 characters (longer ones cannot exist, and stay bounded in memory). */
  private static userKey(username: string): string {
    return username.slice(0, 256);
  }

  /** Starts an attempt; throws LoginThrottled when the username or the address is over the limit. */
  begin(username: string, client: string): void {
    const now = this.now();
    const user = LoginLimiter.userKey(username);
    const wait = Math.max(this.byUser.blockedFor(user, now), this.byClient.blockedFor(client, now));
    if (wait > 0) throw new LoginThrottled(wait);
    this.byUser.add(user, now, 1);
    this.byClient.add(client, now, 1);
  }

  succeeded(username: string, client: string): void {
    this.byUser.delete(LoginLimiter.userKey(username));
    this.byClient.add(client, this.now(), -1);
  }

  /** Keys tracked (usernames, addresses), for tests of the memory bound. */
  get tracked(): { users: number; clients: number } {
    return { users: this.byUser.size, clients: this.byClient.size };
  }
}

export class UserTable {
  private readonly users: Map<string, ParsedHash>;
  /** Compared against when the username is unknown, so that both paths cost one derivation. */
  private readonly decoy: ParsedHash;
  /** Failed logins against this table; one per server, as each server loads its own table. */
  readonly limiter: LoginLimiter;

  constructor(file: UsersFile, limiter = new LoginLimiter()) {
    this.users = new Map(file.users.map((u) => [u.username, parseHash(u.hash)]));
    this.decoy = { ...SCRYPT, salt: randomBytes(16), key: randomBytes(SCRYPT.keyLength) };
    this.limiter = limiter;
  }

  get usernames(): string[] {
    return [...this.users.keys()];
  }

  /**
   * The username when the credentials are valid, else null. `client` is the
   * caller's address for the per-address limit; throws LoginThrottled (429)
   * without deriving anything when the username or address is over it.
   */
  async verify(username: string, password: string, client = 'unknown'): Promise<string | null> {
    this.limiter.begin(username, client);
    const known = this.users.get(username);
    const entry = known ?? this.decoy;
    const derived = await derive(password, entry.salt, entry, entry.key.length);
    const equal = derived.length === entry.key.length && timingSafeEqual(derived, entry.key);
    if (!known || !equal) return null;
    this.limiter.succeeded(username, client);
    return username;
  }
}

/** Reads and validates a users file; errors name the file and the JSON path. */
export async function loadUsers(path: string): Promise<UserTable> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new Error(`${path}: cannot read users file (${(error as Error).message})`);
  }
  const parsed = UsersFile.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${path}: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  return new UserTable(parsed.data);
}

/** Username and password of an `Authorization: Basic …` header, or null when absent or malformed. */
export function basicCredentials(header: string | undefined): { username: string; password: string } | null {
  const m = header ? /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header) : null;
  if (!m) return null;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}
