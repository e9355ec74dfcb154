/**
 * Durable state of `pkdb serve`: records POSTed to the write views and filter
 * results (uuid -> selected keys), in an embedded SQLite database (sql.js:
 * WebAssembly, no native build). sql.js keeps the database in memory, so every
 * change is persisted by writing the whole file atomically (temporary file,
 * fsync, rename): a crash leaves either the old or the new database, never a
 * torn one. Without a data directory the state lives in memory only.
 */
import { mkdir, open, readFile, rename } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import initSqlJs from 'sql.js';
import type { Database } from 'sql.js';

export const DATABASE_FILE = 'pkdb-serve.sqlite';
export const WRITE_RESOURCES = ['_studies', '_references', '_datafiles'] as const;
export type WriteResource = (typeof WRITE_RESOURCES)[number];

/** Filter results expire a day after they were created (PK-DB intends 24 h; see NOTES.md §2 for its bug). */
export const FILTER_LIFETIME_MS = 24 * 60 * 60 * 1000;

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
  uuid TEXT PRIMARY KEY,
  selection BLOB NOT NULL,
  expires INTEGER NOT NULL
);`;

export interface StoredRecord {
  id: number;
  body: Record<string, unknown>;
}

async function writeAtomically(path: string, bytes: Uint8Array): Promise<void> {
  const tmp = `${path}.${process.pid}.tmp`;
  const handle = await open(tmp, 'w');
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(tmp, path);
}

export class Store {
  /** Persisting runs one at a time, in order of the changes. */
  private persisting: Promise<void> = Promise.resolve();

  private constructor(
    private readonly db: Database,
    private readonly file: string | null,
  ) {}

  static async open(dataDir?: string): Promise<Store> {
    const SQL = await initSqlJs();
    let file: string | null = null;
    let bytes: Uint8Array | undefined;
    if (dataDir) {
      await mkdir(dataDir, { recursive: true });
      file = join(dataDir, DATABASE_FILE);
      if (existsSync(file)) bytes = await readFile(file);
    }
    const db = new SQL.Database(bytes);
    db.run(SCHEMA);
    return new Store(db, file);
  }

  get path(): string | null {
    return this.file;
  }

  private persist(): Promise<void> {
    const file = this.file;
    if (!file) return Promise.resolve();
    const bytes = this.db.export();
    // A failed write (disk full) fails its own request; the next change tries again with the whole database.
    const write = this.persisting.catch(() => undefined).then(() => writeAtomically(file, bytes));
    this.persisting = write;
    return write;
  }

  /** True when a record of `resource` with this key exists. */
  has(resource: WriteResource, key: string): boolean {
    const rows = this.db.exec('SELECT 1 FROM records WHERE resource = ? AND key = ?', [resource, key]);
    return rows.length > 0 && rows[0].values.length > 0;
  }

  /** Stores a record durably; resolves once it is on disk. */
  async insert(resource: WriteResource, key: string | null, body: Record<string, unknown>, username: string): Promise<number> {
    this.db.run('INSERT INTO records (resource, key, body, username, created) VALUES (?, ?, ?, ?, ?)', [
      resource,
      key,
      JSON.stringify(body),
      username,
      new Date().toISOString(),
    ]);
    const id = this.db.exec('SELECT last_insert_rowid()')[0].values[0][0] as number;
    await this.persist();
    return id;
  }

  /** Stores an uploaded data file (its metadata as a `_datafiles` record); resolves to its id once on disk. */
  async insertFile(filename: string, filetype: string | null, content: Uint8Array, username: string): Promise<number> {
    const body = filetype === null ? { filename } : { filename, filetype };
    this.db.run('INSERT INTO records (resource, key, body, username, created) VALUES (?, NULL, ?, ?, ?)', [
      '_datafiles',
      JSON.stringify(body),
      username,
      new Date().toISOString(),
    ]);
    const id = this.db.exec('SELECT last_insert_rowid()')[0].values[0][0] as number;
    this.db.run('INSERT INTO files (id, content) VALUES (?, ?)', [id, content]);
    await this.persist();
    return id;
  }

  /** The bytes of an uploaded file, or null. */
  fileContent(id: number): Uint8Array | null {
    const rows = this.db.exec('SELECT content FROM files WHERE id = ?', [id]);
    return rows.length > 0 && rows[0].values.length > 0 ? (rows[0].values[0][0] as Uint8Array) : null;
  }

  /** Records of a write view in creation order. */
  list(resource: WriteResource): StoredRecord[] {
    const rows = this.db.exec('SELECT id, body FROM records WHERE resource = ? ORDER BY id', [resource]);
    if (rows.length === 0) return [];
    return rows[0].values.map(([id, body]) => ({ id: id as number, body: JSON.parse(body as string) as Record<string, unknown> }));
  }

  async saveFilterResult(uuid: string, selection: Uint8Array, now = Date.now()): Promise<void> {
    this.db.run('DELETE FROM filter_results WHERE expires <= ?', [now]);
    this.db.run('INSERT OR REPLACE INTO filter_results (uuid, selection, expires) VALUES (?, ?, ?)', [
      uuid,
      selection,
      now + FILTER_LIFETIME_MS,
    ]);
    await this.persist();
  }

  /** The stored selection of a uuid, or null when unknown or expired. */
  filterResult(uuid: string, now = Date.now()): Uint8Array | null {
    const rows = this.db.exec('SELECT selection FROM filter_results WHERE uuid = ? AND expires > ?', [uuid, now]);
    return rows.length > 0 && rows[0].values.length > 0 ? (rows[0].values[0][0] as Uint8Array) : null;
  }

  async close(): Promise<void> {
    await this.persisting.catch(() => undefined);
    this.db.close();
  }
}
