/**
 * Durable state of `pkdb serve`: records POSTed to the write views, uploaded
 * files, API tokens and filter results (uuid -> selected keys), in an embedded
 * SQLite database (libsql, a SQLite fork with a synchronous better-sqlite3 API
 * and a prebuilt binary). Without a data directory the database is `:memory:`.
 *
 * The file is in WAL mode, so a write appends its pages to the log instead of
 * rewriting the database: the cost of a write does not grow with the database,
 * and neither does memory (SQLite's page cache is bounded).
 *
 * Durability: `synchronous = NORMAL`. In WAL mode a commit has written its
 * frames to the log file (write(2), into the OS page cache) before the
 * statement returns, and only then is the request answered; the OS keeps those
 * pages when the process dies, so kill -9, a crash or the OOM killer lose no
 * acknowledged write (test/server/crash.test.ts). What NORMAL gives up against
 * FULL is an fsync per commit: a power failure or kernel crash may roll back
 * the last commits (never corrupt the file; checkpoints do fsync). FULL costs
 * ~4 ms per commit on an ordinary disk, capping sequential writes near 250/s.
 */
import Database from 'libsql';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';

export const DATABASE_FILE = 'pkdb-serve.sqlite';
export const WRITE_RESOURCES = ['_studies', '_references', '_datafiles'] as const;
export type WriteResource = (typeof WRITE_RESOURCES)[number];

/** Filter results expire a day after they were created (PK-DB intends 24 h; see PK-DB API notes §2 for its bug). */
export const FILTER_LIFETIME_MS = 24 * 60 * 60 * 1000;
/** At most this many filter results are kept; the oldest go first. */
export const FILTER_RESULTS_CAP = 10_000;
/** How long a statement waits for another process's write lock (e.g. `pkdb serve --revoke-token`). */
const BUSY_TIMEOUT_MS = 5000;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS records (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  resource TEXT NOT NULL,
  key TEXT,
  body TEXT NOT NULL,
  username TEXT NOT NULL,
  created TEXT NOT NULL,
  UNIQUE (resource, key)
);
CREATE TABLE IF NOT EXISTS files (
  id INTEGER PRIMARY KEY REFERENCES records (id),
  content BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS filter_results (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  uuid TEXT NOT NULL UNIQUE,
  selection BLOB NOT NULL,
  expires INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS filter_results_expires ON filter_results (expires);
CREATE TABLE IF NOT EXISTS tokens (
  username TEXT PRIMARY KEY,
  key_hash TEXT NOT NULL UNIQUE,
  sealed TEXT NOT NULL,
  created TEXT NOT NULL
);`;

export interface StoredRecord {
  id: number;
  body: Record<string, unknown>;
}

/** A user's API token as stored: its SHA-256 and the key sealed under the user's password (tokens.ts). */
export interface StoredToken {
  keyHash: string;
  sealed: string;
}

/**
 * Databases written by sql.js (before libsql) keyed filter_results by uuid
 * without an insertion id, which the cap needs; their rows are copied over in
 * expiry order, which is creation order.
 */
function migrateFilterResults(db: Database.Database): void {
  const columns = db.prepare('PRAGMA table_info(filter_results)').all() as { name: string }[];
  if (columns.length === 0 || columns.some((c) => c.name === 'id')) return;
  db.transaction(() => {
    db.exec('ALTER TABLE filter_results RENAME TO filter_results_v1');
    db.exec(SCHEMA);
    db.exec('INSERT INTO filter_results (uuid, selection, expires) SELECT uuid, selection, expires FROM filter_results_v1 ORDER BY expires');
    db.exec('DROP TABLE filter_results_v1');
  })();
}

export class Store {
  /** Prepared once per SQL text: parsing a statement costs more than running these small ones. */
  private readonly statements = new Map<string, Database.Statement>();

  private constructor(
    private readonly db: Database.Database,
    private readonly file: string | null,
  ) {}

  private sql(source: string): Database.Statement {
    let statement = this.statements.get(source);
    if (!statement) this.statements.set(source, (statement = this.db.prepare(source)));
    return statement;
  }

  /** Opens (or creates) the database in `dataDir`, or an in-memory one without it. */
  static async open(dataDir?: string): Promise<Store> {
    let file: string | null = null;
    if (dataDir) {
      await mkdir(dataDir, { recursive: true });
      file = join(dataDir, DATABASE_FILE);
    }
    const db = new Database(file ?? ':memory:', { timeout: BUSY_TIMEOUT_MS });
    try {
      if (file) {
        db.exec('PRAGMA journal_mode = WAL');
        db.exec('PRAGMA synchronous = NORMAL');
      }
      migrateFilterResults(db);
      db.exec(SCHEMA);
    } catch (error) {
      db.close();
      throw new Error(`${file ?? ':memory:'}: cannot open the database (${(error as Error).message})`);
    }
    return new Store(db, file);
  }

  get path(): string | null {
    return this.file;
  }

  /** True when a record of `resource` with this key exists. */
  has(resource: WriteResource, key: string): boolean {
    return this.sql('SELECT 1 FROM records WHERE resource = ? AND key = ?').get(resource, key) !== undefined;
  }

  /** Stores a record durably (see the header); resolves to its id once committed. */
  async insert(resource: WriteResource, key: string | null, body: Record<string, unknown>, username: string): Promise<number> {
    const result = this.sql('INSERT INTO records (resource, key, body, username, created) VALUES (?, ?, ?, ?, ?)')
      .run(resource, key, JSON.stringify(body), username, new Date().toISOString());
    return Number(result.lastInsertRowid);
  }

  /** Stores an uploaded data file (its metadata as a `_datafiles` record) in one transaction; resolves to its id. */
  async insertFile(filename: string, filetype: string | null, content: Uint8Array, username: string): Promise<number> {
    const body = filetype === null ? { filename } : { filename, filetype };
    return this.db.transaction(() => {
      const result = this.sql('INSERT INTO records (resource, key, body, username, created) VALUES (?, NULL, ?, ?, ?)')
        .run('_datafiles', JSON.stringify(body), username, new Date().toISOString());
      const id = Number(result.lastInsertRowid);
      this.sql('INSERT INTO files (id, content) VALUES (?, ?)').run(id, Buffer.from(content.buffer, content.byteOffset, content.byteLength));
      return id;
    })();
  }

  /** The bytes of an uploaded file, or null. */
  fileContent(id: number): Uint8Array | null {
    const row = this.sql('SELECT content FROM files WHERE id = ?').get(id) as { content: Uint8Array } | undefined;
    return row ? row.content : null;
  }

  /** Records of a write view in creation order. */
  list(resource: WriteResource): StoredRecord[] {
    const rows = this.sql('SELECT id, body FROM records WHERE resource = ? ORDER BY id').all(resource) as { id: number; body: string }[];
    return rows.map(({ id, body }) => ({ id, body: JSON.parse(body) as Record<string, unknown> }));
  }

  /**
   * Stores a filter result: one small row. Expired rows and those beyond the
   * cap (by insertion id, which only grows) are deleted in the same transaction.
   */
  async saveFilterResult(uuid: string, selection: Uint8Array, now = Date.now()): Promise<void> {
    this.db.transaction(() => {
      this.sql('DELETE FROM filter_results WHERE expires <= ?').run(now);
      const { lastInsertRowid } = this.sql('INSERT OR REPLACE INTO filter_results (uuid, selection, expires) VALUES (?, ?, ?)')
        .run(uuid, Buffer.from(selection.buffer, selection.byteOffset, selection.byteLength), now + FILTER_LIFETIME_MS);
      this.sql('DELETE FROM filter_results WHERE id <= ?').run(Number(lastInsertRowid) - FILTER_RESULTS_CAP);
    })();
  }

  /** The stored selection of a uuid, or null when unknown or expired. */
  filterResult(uuid: string, now = Date.now()): Uint8Array | null {
    const row = this.sql('SELECT selection FROM filter_results WHERE uuid = ? AND expires > ?').get(uuid, now) as
      | { selection: Uint8Array }
      | undefined;
    return row ? row.selection : null;
  }

  /** How many filter results are stored (expired ones not yet purged included). */
  filterResultCount(): number {
    return (this.sql('SELECT count(*) AS n FROM filter_results').get() as { n: number }).n;
  }

  /** The stored token of a user, or null. */
  token(username: string): StoredToken | null {
    const row = this.sql('SELECT key_hash, sealed FROM tokens WHERE username = ?').get(username) as
      | { key_hash: string; sealed: string }
      | undefined;
    return row ? { keyHash: row.key_hash, sealed: row.sealed } : null;
  }

  /** Stores (or replaces) a user's token. */
  saveToken(username: string, token: StoredToken): void {
    this.sql('INSERT OR REPLACE INTO tokens (username, key_hash, sealed, created) VALUES (?, ?, ?, ?)')
      .run(username, token.keyHash, token.sealed, new Date().toISOString());
  }

  /** The user a token hash belongs to, or null. */
  tokenUser(keyHash: string): string | null {
    const row = this.sql('SELECT username FROM tokens WHERE key_hash = ?').get(keyHash) as { username: string } | undefined;
    return row ? row.username : null;
  }

  /** Deletes a user's token; true when there was one. */
  revokeToken(username: string): boolean {
    return this.sql('DELETE FROM tokens WHERE username = ?').run(username).changes > 0;
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
