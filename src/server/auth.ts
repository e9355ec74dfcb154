/**
 * HTTP Basic authentication for the write views against a users file:
 * `{"users": [{"username": "...", "hash": "scrypt$N$r$p$<salt>$<key>"}]}`
 * (base64 salt and derived key; create entries with `pkdb serve --hash-password`).
 *
 * Passwords are never stored or logged in clear. Every check derives a key,
 * even for an unknown user, and compares with crypto.timingSafeEqual, so the
 * answer time does not tell which usernames exist.
 */
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { z } from 'zod';

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

export class UserTable {
  private readonly users: Map<string, ParsedHash>;
  /** Compared against when the username is unknown, so that both paths cost one derivation. */
  private readonly decoy: ParsedHash;

  constructor(file: UsersFile) {
    this.users = new Map(file.users.map((u) => [u.username, parseHash(u.hash)]));
    this.decoy = { ...SCRYPT, salt: randomBytes(16), key: randomBytes(SCRYPT.keyLength) };
  }

  get usernames(): string[] {
    return [...this.users.keys()];
  }

  /** The username when the credentials are valid, else null. */
  async verify(username: string, password: string): Promise<string | null> {
    const known = this.users.get(username);
    const entry = known ?? this.decoy;
    const derived = await derive(password, entry.salt, entry, entry.key.length);
    const equal = derived.length === entry.key.length && timingSafeEqual(derived, entry.key);
    return known && equal ? username : null;
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
