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
 * `windowSeconds` (a window starts at a key's first failure), at most
 * `maxInFlight` attempts of one key being checked at once (so a burst of
 * parallel guesses cannot all pass before the first one fails, while a client
 * with up to 64 parallel requests is never throttled for succeeding), and at
 * most `maxTracked` keys of each kind (memory stays bounded under a spray of
 * usernames or addresses: settled and expired keys go first, then the oldest).
 */
export const LOGIN_LIMIT = { failures: 10, windowSeconds: 15 * 60, maxInFlight: 64, maxTracked: 10_000 } as const;
export type LoginLimitOptions = { failures: number; windowSeconds: number; maxInFlight: number; maxTracked: number };

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

interface Attempts {
  failures: number;
  /** When the first failure of the current window happened. */
  start: number;
  inFlight: number;
}

/** Attempts per key; a Map in insertion order, so the first entry is the oldest. */
class AttemptCounter {
  private readonly entries = new Map<string, Attempts>();

  constructor(private readonly limit: LoginLimitOptions) {}

  private expired(entry: Attempts, now: number): boolean {
    return entry.failures > 0 && now - entry.start >= this.limit.windowSeconds * 1000;
  }

  /** Seconds until `key` may try again; 0 when it may now. */
  blockedFor(key: string, now: number): number {
    const entry = this.entries.get(key);
    if (!entry) return 0;
    if (this.expired(entry, now)) entry.failures = 0;
    if (entry.failures >= this.limit.failures) {
      return Math.max(1, Math.ceil((entry.start + this.limit.windowSeconds * 1000 - now) / 1000));
    }
    return entry.inFlight >= this.limit.maxInFlight ? 1 : 0;
  }

  begin(key: string, now: number): void {
    let entry = this.entries.get(key);
    if (!entry) {
      if (this.entries.size >= this.limit.maxTracked) this.evict(now);
      this.entries.set(key, (entry = { failures: 0, start: 0, inFlight: 0 }));
    }
    entry.inFlight++;
  }

  /** Ends an attempt: a failure counts in the window; `reset` clears the failures (a username's success). */
  end(key: string, now: number, outcome: 'failed' | 'succeeded' | 'reset'): void {
    let entry = this.entries.get(key);
    if (!entry) {
      if (outcome !== 'failed') return;
      if (this.entries.size >= this.limit.maxTracked) this.evict(now);
      this.entries.set(key, (entry = { failures: 0, start: 0, inFlight: 1 }));
    }
    entry.inFlight = Math.max(0, entry.inFlight - 1);
    if (this.expired(entry, now)) entry.failures = 0;
    if (outcome === 'reset') entry.failures = 0;
    if (outcome === 'failed' && entry.failures++ === 0) entry.start = now;
    if (entry.failures === 0 && entry.inFlight === 0) this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }

  /** Settled and expired keys first; if none, the oldest one. */
  private evict(now: number): void {
    for (const [key, entry] of this.entries) {
      if (entry.inFlight === 0 && (entry.failures === 0 || this.expired(entry, now))) this.entries.delete(key);
    }
    if (this.entries.size >= this.limit.maxTracked) this.entries.delete(this.entries.keys().next().value as string);
  }
}

/**
 * Login attempts per username and per client address. A success clears its
 * username's failures but not its address's, so interleaving a valid login
 * does not reset an address that keeps failing.
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
    this.byUser.begin(user, now);
    this.byClient.begin(client, now);
  }

  /** Ends an attempt `begin` let through. */
  end(username: string, client: string, succeeded: boolean): void {
    const now = this.now();
    this.byUser.end(LoginLimiter.userKey(username), now, succeeded ? 'reset' : 'failed');
    this.byClient.end(client, now, succeeded ? 'succeeded' : 'failed');
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
    let valid = false;
    try {
      const known = this.users.get(username);
      const entry = known ?? this.decoy;
      const derived = await derive(password, entry.salt, entry, entry.key.length);
      const equal = derived.length === entry.key.length && timingSafeEqual(derived, entry.key);
      valid = known !== undefined && equal;
    } finally {
      this.limiter.end(username, client, valid);
    }
    return valid ? username : null;
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
