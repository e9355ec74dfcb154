/**
 * Unzipping an export with guards against zip bombs. The central directory is
 * read first (fflate's `filter` sees every entry's declared sizes before
 * anything is inflated); an archive whose entry count, total uncompressed size
 * or compression ratio is absurd is refused. fflate inflates into a buffer of
 * the declared size, so an entry that lies about its size cannot grow past it.
 *
 * Writing deflates with Node's native zlib through fflate's documented
 * extension point (a ZipPassThrough subclass with its own `process`), several
 * times faster than fflate's JavaScript deflate on the 20 MB of an export.
 */
import { deflateRawSync } from 'node:zlib';
import { Zip, ZipPassThrough, unzipSync } from 'fflate';
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

/** Checks the directory of `bytes`, then inflates the entries named in `wanted`. */
export function unzipGuarded(
  bytes: Uint8Array,
  archive: string,
  wanted: ReadonlySet<string>,
  limits: ZipLimits = DEFAULT_ZIP_LIMITS,
): Record<string, Uint8Array> {
  let entries = 0;
  let total = 0;
  const refuse = (why: string): never => {
    throw new ExportError(`${archive}: refused, looks like a zip bomb: ${why}`);
  };
  try {
    unzipSync(bytes, {
      filter(entry) {
        entries++;
        total += entry.originalSize;
        if (entries > limits.maxEntries) refuse(`more than ${limits.maxEntries} entries`);
        if (total > limits.maxTotalBytes) refuse(`uncompressed size exceeds ${mib(limits.maxTotalBytes)}`);
        const ratio = entry.originalSize / Math.max(entry.size, 1);
        if (entry.originalSize > limits.ratioFloorBytes && ratio > limits.maxRatio) {
          refuse(`${entry.name} expands ${Math.round(ratio)}:1 to ${mib(entry.originalSize)}`);
        }
        return false;
      },
    });
    return unzipSync(bytes, { filter: (entry) => wanted.has(entry.name) });
  } catch (error) {
    if (error instanceof ExportError) throw error;
    throw new ExportError(`${archive}: not a readable zip archive (${(error as Error).message})`);
  }
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
