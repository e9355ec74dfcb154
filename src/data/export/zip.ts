/**
 * Zip archives for exports. Reading parses the central directory itself and
 * checks every entry before anything is inflated: an archive with too many
 * entries, an unsafe name (zip slip), a member declaring more than the
 * per-file budget, declared sizes summing past the total budget, or an absurd
 * compression ratio is refused (zip bombs), naming the member. Members are
 * then inflated one at a time, on demand, with Node's native zlib capped at
 * their declared size: zlib stops as soon as its output passes the cap, so a
 * member that lies about its size is refused while inflating, having
 * allocated at most its declared size and a byte (itself within the budget).
 *
 * Writing deflates with native zlib too, through fflate's documented
 * extension point (a ZipPassThrough subclass with its own `process`), several
 * times faster than fflate's JavaScript deflate on the 20 MB of an export.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { Zip, ZipPassThrough } from 'fflate';
import { ExportError } from './cells.js';

export interface ZipLimits {
  maxEntries: number;
  /** Uncompressed size of any one member. */
  maxFileBytes: number;
  /** Sum of the declared uncompressed sizes. */
  maxTotalBytes: number;
  /** Uncompressed/compressed above this is suspicious ... */
  maxRatio: number;
  /** ... for an entry larger than this (small, highly repetitive files are normal). */
  ratioFloorBytes: number;
}

/**
 * The real 2020 export is 20 MB in 9 entries (the largest, outputs.csv, 13 MB)
 * at a ratio of about 6:1; these limits leave room for a PK-DB dump many times
 * that. A member also has to fit one JavaScript string once decoded (V8's
 * limit is 2^29 - 24 characters, 512 MiB), hence 256 MiB per file; members
 * are inflated one at a time, so the total bounds time more than memory.
 */
export const DEFAULT_ZIP_LIMITS: ZipLimits = {
  maxEntries: 10_000,
  maxFileBytes: 256 * 1024 ** 2,
  maxTotalBytes: 2 * 1024 ** 3,
  maxRatio: 1000,
  ratioFloorBytes: 100 * 1024 ** 2,
};

function mib(bytes: number): string {
  return `${(bytes / 1024 ** 2).toFixed(0)} MiB`;
}

interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflated. */
  method: number;
  compressedSize: number;
  size: number;
  /** Offset of the entry's local header. */
  headerOffset: number;
}

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;

/** The central directory (APPNOTE.TXT 4.3.12, 4.3.16); throws on anything malformed or over `maxEntries`. */
function readDirectory(bytes: Uint8Array, maxEntries: number): ZipEntry[] {
  if (bytes.length < 22) throw new Error(`${bytes.length} bytes, too short for a zip`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // The end record is 22 bytes plus a comment of at most 65535.
  let end = bytes.length - 22;
  const stop = Math.max(0, end - 65535);
  while (end >= stop && view.getUint32(end, true) !== END_OF_DIRECTORY) end--;
  if (end < stop) throw new Error('no end-of-central-directory record (truncated, or not a zip)');
  const count = view.getUint16(end + 10, true);
  if (count > maxEntries) throw new RefusedError(`looks like a zip bomb: more than ${maxEntries} entries (${count})`);
  let at = view.getUint32(end + 16, true);
  const utf8 = new TextDecoder();
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== DIRECTORY_ENTRY) throw new Error(`directory entry ${i + 1} is damaged`);
    const nameLength = view.getUint16(at + 28, true);
    if (at + 46 + nameLength > bytes.length) throw new Error(`directory entry ${i + 1} is damaged`);
    entries.push({
      name: utf8.decode(bytes.subarray(at + 46, at + 46 + nameLength)),
      method: view.getUint16(at + 10, true),
      compressedSize: view.getUint32(at + 20, true),
      size: view.getUint32(at + 24, true),
      headerOffset: view.getUint32(at + 42, true),
    });
    at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
  return entries;
}

/** A refusal of the archive as a whole (as opposed to damage). */
class RefusedError extends Error {}

/**
 * A name that would escape the directory it is extracted to (zip slip:
 * absolute, a drive letter, a `..` segment, a backslash or a NUL), or null.
 * The reader extracts nothing to disk, but such a name marks a hostile archive.
 */
function unsafeName(name: string): string | null {
  if (name.includes('\0') || name.includes('\\')) return 'a backslash or NUL in the name';
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) return 'an absolute path';
  if (name.split('/').includes('..')) return 'a ".." segment';
  return null;
}

/** The reason to refuse the archive, or null when its directory is plausible. */
function refusal(entries: readonly ZipEntry[], limits: ZipLimits): string | null {
  const bomb = 'looks like a zip bomb: ';
  const seen = new Set<string>();
  let total = 0;
  for (const entry of entries) {
    const unsafe = unsafeName(entry.name);
    if (unsafe !== null) return `member ${JSON.stringify(entry.name)} has ${unsafe} (zip slip)`;
    if (seen.has(entry.name)) return `member ${entry.name} appears twice`;
    seen.add(entry.name);
    total += entry.size;
    if (total > limits.maxTotalBytes) {
      return `${bomb}uncompressed size exceeds ${mib(limits.maxTotalBytes)} in total at member ${entry.name}`;
    }
    if (entry.size > limits.maxFileBytes) {
      return `${bomb}${entry.name} declares ${mib(entry.size)} uncompressed, over the ${mib(limits.maxFileBytes)} per-file budget`;
    }
    const ratio = entry.size / Math.max(entry.compressedSize, 1);
    if (entry.size > limits.ratioFloorBytes && ratio > limits.maxRatio) {
      return `${bomb}${entry.name} expands ${Math.round(ratio)}:1 to ${mib(entry.size)}`;
    }
  }
  return null;
}

/**
 * One member's compressed bytes, with what inflating them needs: a checked
 * entry (see `refusal`) whose local header has been read, which can be
 * inflated apart from its archive (in another thread, say).
 */
export interface StoredMember {
  name: string;
  /** 0 stored, 8 deflated. */
  method: number;
  /** Declared uncompressed size (within the budgets). */
  size: number;
  data: Uint8Array;
}

/** The member's data, located through its local header (APPNOTE.TXT 4.3.7). */
function locate(bytes: Uint8Array, entry: ZipEntry): StoredMember {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = entry.headerOffset;
  if (at + 30 > bytes.length || view.getUint32(at, true) !== LOCAL_HEADER) throw new Error('local header is damaged');
  const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
  if (start + entry.compressedSize > bytes.length) throw new Error('data runs past the end of the archive (truncated?)');
  return { name: entry.name, method: entry.method, size: entry.size, data: bytes.subarray(start, start + entry.compressedSize) };
}

/** The member's bytes, inflating at most its declared size. */
function inflate({ method, size, data }: StoredMember): Uint8Array {
  if (method === 0) {
    if (data.length !== size) throw new Error(`stored with ${data.length} bytes but declares ${size}`);
    return data.slice();
  }
  if (method !== 8) throw new Error(`unsupported compression method ${method}`);
  if (size === 0) return new Uint8Array(0);
  let out: Uint8Array;
  try {
    // zlib checks the cap after each chunk of output and stops there. One chunk one byte larger than the
    // declared size (zlib's minimum is 64): a member that keeps its word is inflated into one buffer, without
    // the 16 KiB chunks being gathered and copied into one at the end (a third of the time of outputs.csv);
    // one that inflates past it stops at the end of that chunk.
    out = inflateRawSync(data, { maxOutputLength: size, chunkSize: Math.max(64, size + 1) });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new Error(`inflates past its declared ${size} bytes (refused while inflating)`);
    }
    throw error;
  }
  if (out.length !== size) throw new Error(`inflates to ${out.length} bytes but declares ${size} (truncated?)`);
  return out;
}

/** What a member that cannot be read or inflated is reported as. */
function inflateError(archive: string, name: string, error: unknown): ExportError {
  return new ExportError(`${archive}: cannot inflate ${name} (${(error as Error).message})`);
}

/** The bytes of a stored member; throws ExportError naming it when it cannot be inflated. */
export function inflateStored(member: StoredMember, archive: string): Uint8Array {
  try {
    return inflate(member);
  } catch (error) {
    throw inflateError(archive, member.name, error);
  }
}

/** The members of a checked archive, inflated on demand (one at a time keeps peak memory to one member). */
export interface ZipMembers {
  has(name: string): boolean;
  /** The bytes of member `name`; throws ExportError naming it when it cannot be inflated. */
  read(name: string): Uint8Array;
  /** Member `name` still compressed (a view of the archive's bytes); throws as `read` does when its header is damaged. */
  stored(name: string): StoredMember;
}

/** Checks the directory of `bytes` (see the module comment); throws ExportError when the archive is refused. */
export function openZip(bytes: Uint8Array, archive: string, limits: ZipLimits = DEFAULT_ZIP_LIMITS): ZipMembers {
  let entries: ZipEntry[];
  try {
    entries = readDirectory(bytes, limits.maxEntries);
  } catch (error) {
    if (error instanceof RefusedError) throw new ExportError(`${archive}: refused, ${error.message}`);
    throw new ExportError(`${archive}: not a readable zip archive (${(error as Error).message})`);
  }
  const reason = refusal(entries, limits);
  if (reason !== null) throw new ExportError(`${archive}: refused, ${reason}`);
  const byName = new Map(entries.map((entry) => [entry.name, entry] as const));
  const stored = (name: string): StoredMember => {
    const entry = byName.get(name);
    if (entry === undefined) throw new ExportError(`${archive}: no member ${name}`);
    try {
      return locate(bytes, entry);
    } catch (error) {
      throw inflateError(archive, name, error);
    }
  };
  return {
    has: (name) => byName.has(name),
    read: (name) => inflateStored(stored(name), archive),
    stored,
  };
}

/** A zip entry deflated in one piece by native zlib; push its data exactly once, with `final`. */
class NativeDeflateEntry extends ZipPassThrough {
  constructor(name: string, mtime: Date) {
    super(name);
    this.compression = 8;
    this.mtime = mtime;
  }

  protected override process(chunk: Uint8Array<ArrayBuffer>, final: boolean): void {
    this.ondata(null, deflateRawSync(chunk), final);
  }
}

/** A zip of `members` in the given order, every entry stamped `mtime` (so equal input gives equal bytes). */
export function zipMembers(members: readonly (readonly [string, Uint8Array])[], mtime: Date): Uint8Array {
  const parts: Uint8Array[] = [];
  let failure: Error | null = null;
  const zip = new Zip((error, chunk) => {
    if (error) failure = error;
    else parts.push(chunk);
  });
  for (const [name, bytes] of members) {
    const entry = new NativeDeflateEntry(name, mtime);
    zip.add(entry);
    entry.push(bytes as Uint8Array<ArrayBuffer>, true);
  }
  zip.end();
  if (failure) throw failure;
  const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
