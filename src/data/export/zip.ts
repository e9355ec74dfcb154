/**
 * Zip archives for exports. Reading parses the central directory itself and
 * checks every entry's declared sizes before anything is inflated: an archive
 * whose entry count, total uncompressed size or compression ratio is absurd is
 * refused (zip bombs). Entries inflate with Node's native zlib, capped at their
 * declared size, so an entry that lies about its size cannot grow past it.
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
  /** Sum of the declared uncompressed sizes. */
  maxTotalBytes: number;
  /** Uncompressed/compressed above this is suspicious ... */
  maxRatio: number;
  /** ... for an entry larger than this (small, highly repetitive files are normal). */
  ratioFloorBytes: number;
}

/** The real export is 20 MB in 9 entries at a ratio of about 6:1; these limits leave room for a full PK-DB dump. */
export const DEFAULT_ZIP_LIMITS: ZipLimits = {
  maxEntries: 10_000,
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

/** The central directory (APPNOTE.TXT 4.3.12, 4.3.16); throws on anything malformed. */
function readDirectory(bytes: Uint8Array): ZipEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // The end record is 22 bytes plus a comment of at most 65535.
  let end = bytes.length - 22;
  const stop = Math.max(0, end - 65535);
  while (end >= stop && view.getUint32(end, true) !== END_OF_DIRECTORY) end--;
  if (end < stop) throw new Error('no end-of-central-directory record');
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  const utf8 = new TextDecoder();
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== DIRECTORY_ENTRY) throw new Error(`directory entry ${i + 1} is damaged`);
    const nameLength = view.getUint16(at + 28, true);
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

/** The reason to refuse the archive, or null when its directory is plausible. */
function bombReason(entries: readonly ZipEntry[], limits: ZipLimits): string | null {
  if (entries.length > limits.maxEntries) return `more than ${limits.maxEntries} entries`;
  let total = 0;
  for (const entry of entries) {
    total += entry.size;
    if (total > limits.maxTotalBytes) return `uncompressed size exceeds ${mib(limits.maxTotalBytes)}`;
    const ratio = entry.size / Math.max(entry.compressedSize, 1);
    if (entry.size > limits.ratioFloorBytes && ratio > limits.maxRatio) {
      return `${entry.name} expands ${Math.round(ratio)}:1 to ${mib(entry.size)}`;
    }
  }
  return null;
}

function inflateEntry(bytes: Uint8Array, entry: ZipEntry): Uint8Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = entry.headerOffset;
  if (at + 30 > bytes.length || view.getUint32(at, true) !== LOCAL_HEADER) throw new Error(`${entry.name}: local header is damaged`);
  const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
  const data = bytes.subarray(start, start + entry.compressedSize);
  if (entry.method === 0) return data.slice(0, entry.size);
  if (entry.method !== 8) throw new Error(`${entry.name}: unsupported compression method ${entry.method}`);
  if (entry.size === 0) return new Uint8Array(0);
  return inflateRawSync(data, { maxOutputLength: entry.size });
}

/** Checks the directory of `bytes`, then inflates the entries named in `wanted`. */
export function unzipGuarded(
  bytes: Uint8Array,
  archive: string,
  wanted: ReadonlySet<string>,
  limits: ZipLimits = DEFAULT_ZIP_LIMITS,
): Record<string, Uint8Array> {
  let entries: ZipEntry[];
  try {
    entries = readDirectory(bytes);
  } catch (error) {
    throw new ExportError(`${archive}: not a readable zip archive (${(error as Error).message})`);
  }
  const reason = bombReason(entries, limits);
  if (reason !== null) throw new ExportError(`${archive}: refused, looks like a zip bomb: ${reason}`);
  const members: Record<string, Uint8Array> = {};
  for (const entry of entries) {
    if (!wanted.has(entry.name)) continue;
    try {
      members[entry.name] = inflateEntry(bytes, entry);
    } catch (error) {
      throw new ExportError(`${archive}: cannot inflate ${entry.name} (${(error as Error).message})`);
    }
  }
  return members;
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
