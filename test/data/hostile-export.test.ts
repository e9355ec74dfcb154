/**
 * The export reader on hostile archives (issue 10): each case gets a clear
 * error or problems naming file, line and column, in bounded time and memory.
 * The archives are built here at run time from the bundled fixtures, with
 * fflate at level 9 (or, for members of hundreds of MB, one deflated block
 * repeated, so that no test compresses gigabytes).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants, deflateRawSync } from 'node:zlib';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { formatProblem, readExport, type ExportReadResult } from '../../src/data/export/read.js';
import { PROJECT_ROOT } from '../helpers/shared.js';

const fixture = unzipSync(readFileSync(join(PROJECT_ROOT, 'fixtures', 'pkdb-fixtures.zip')));
const MiB = 1024 ** 2;

function rezip(replace: Record<string, Uint8Array>): Uint8Array {
  return zipSync({ ...fixture, ...replace }, { level: 9 });
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** Member `file` of the fixtures with the first `from` replaced by `to`, and the 1-based line it is on. */
function edited(file: string, from: string, to: Uint8Array | string): { bytes: Uint8Array; line: number } {
  const text = strFromU8(fixture[file]);
  const at = text.indexOf(from);
  expect(at).toBeGreaterThan(0);
  const bytes = concat(strToU8(text.slice(0, at)), typeof to === 'string' ? strToU8(to) : to, strToU8(text.slice(at + from.length)));
  return { bytes, line: text.slice(0, at).split('\n').length };
}

/**
 * The study name on the last row of the fixtures' studies.csv and its 1-based line. The row must hold no quote
 * (one substance, no comma in the title: fixtures/generator/studies.ts keeps such a study last).
 */
function lastStudyRow(): { name: string; line: number } {
  const rows = strFromU8(fixture['studies.csv']).trimEnd().split('\n');
  const row = rows[rows.length - 1];
  expect(row).not.toContain('"');
  return { name: row.split(',')[2], line: rows.length };
}

async function timed<T>(task: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await task();
  return { value, ms: performance.now() - start };
}

/** Raw deflate of `copies` repetitions of `block`, without deflating them all: one sync-flushed (byte-aligned) deflate of the block, repeated, then an empty final block. */
function repeatedDeflate(block: Uint8Array, copies: number): Uint8Array {
  const one = deflateRawSync(block, { level: 9, finishFlush: constants.Z_SYNC_FLUSH });
  return concat(...Array.from({ length: copies }, () => one), deflateRawSync(new Uint8Array(0)));
}

interface RawMember {
  name: string;
  /** Raw deflate data. */
  data: Uint8Array;
  /** Uncompressed size as declared in the headers (true or not). */
  size: number;
  /** Compressed size as declared in the central directory, when not `data.length`. */
  compressed?: number;
}

/** A zip of already-deflated members (APPNOTE.TXT 4.3); CRCs are left 0, which the reader does not check. */
function rawZip(members: readonly RawMember[]): Uint8Array {
  const parts: Uint8Array[] = [];
  const directory: Uint8Array[] = [];
  let offset = 0;
  const header = (signature: number, fixed: number, m: RawMember, central: boolean, at: number): Uint8Array => {
    const name = strToU8(m.name);
    const out = new Uint8Array(fixed + name.length);
    const v = new DataView(out.buffer);
    v.setUint32(0, signature, true);
    const base = central ? 2 : 0;
    if (central) v.setUint16(4, 20, true);
    v.setUint16(4 + base, 20, true);
    v.setUint16(8 + base, 8, true);
    v.setUint32(18 + base, central ? (m.compressed ?? m.data.length) : m.data.length, true);
    v.setUint32(22 + base, m.size, true);
    v.setUint16(26 + base, name.length, true);
    if (central) v.setUint32(42, at, true);
    out.set(name, fixed);
    return out;
  };
  for (const m of members) {
    const local = header(0x04034b50, 30, m, false, 0);
    directory.push(header(0x02014b50, 46, m, true, offset));
    parts.push(local, m.data);
    offset += local.length + m.data.length;
  }
  const dir = concat(...directory);
  const end = new Uint8Array(22);
  const v = new DataView(end.buffer);
  v.setUint32(0, 0x06054b50, true);
  v.setUint16(8, members.length, true);
  v.setUint16(10, members.length, true);
  v.setUint32(12, dir.length, true);
  v.setUint32(16, offset, true);
  return concat(...parts, dir, end);
}

/** 1 MiB of CSV-like lines with some variety: it deflates about 400:1, like the bomb (6.7 MB for 7 × 285 MB). */
const BOMB_BLOCK = strToU8(
  Array.from({ length: MiB / 4096 }, (_, i) => `${String(i % 97).padStart(2, '0')},${'x'.repeat(4090)},${i % 7}\n`).join(''),
);

describe('readExport on hostile archives', () => {
  it('keeps the first 1000 of a million malformed rows and counts them all, in seconds', async () => {
    const header = strFromU8(fixture['studies.csv']).split('\n')[0];
    const lines = 1_000_000;
    const zip = rezip({ 'studies.csv': strToU8(`${header}\n${'x\n'.repeat(lines)}`) });
    expect(zip.length).toBeLessThan(1 * MiB);
    const { value, ms } = await timed(() => readExport(zip, { name: 'lines.zip' }));
    expect(value.problemCount).toBe(lines);
    expect(value.problems).toHaveLength(1000);
    expect(formatProblem(value.problems[0])).toBe('studies.csv line 2: expected 12 cells, found 1');
    expect(value.problems[999].line).toBe(1001);
    expect(value.tables.studies).toEqual([]);
    expect(ms).toBeLessThan(20_000);
    const few = await readExport(zip, { maxProblems: 3 });
    expect([few.problems.length, few.problemCount]).toEqual([3, lines]);

    // The CLI reports the full count, and a normal read works afterwards.
    const path = join(mkdtempSync(join(tmpdir(), 'pkdb-hostile-')), 'lines.zip');
    writeFileSync(path, zip);
    const err: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (err.push(String(chunk)), true));
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      expect(await main(['summary', '--export', path])).toBe(0);
    } finally {
      spy.mockRestore();
      out.mockRestore();
    }
    expect(err.join('')).toContain(`pkdb: warning: ${path}: skipped 1000000 malformed rows, first studies.csv line 2: expected 12 cells, found 1`);
    const normal = await readExport(rezip({}));
    expect([normal.problemCount, normal.tables.studies.length]).toEqual([0, lastStudyRow().line - 1]);
  });

  it('refuses seven 285 MiB members before inflating any, naming the first', async () => {
    const data = repeatedDeflate(BOMB_BLOCK, 285);
    const members = Array.from({ length: 7 }, (_, i) => ({ name: ['studies.csv', 'groups.csv', 'individuals.csv', 'interventions.csv', 'outputs.csv', 'timecourses.csv', 'scatters.csv'][i], data, size: 285 * MiB }));
    const zip = rawZip(members);
    expect(zip.length).toBeLessThan(7 * MiB);
    const { value: error, ms } = await timed(() => readExport(zip, { name: 'bomb.zip' }).catch((e: Error) => e));
    expect((error as Error).message).toBe(
      'bomb.zip: refused, looks like a zip bomb: studies.csv declares 285 MiB uncompressed, over the 256 MiB per-file budget',
    );
    expect(ms).toBeLessThan(2000);
    // The budgets are options: with room per file, the total budget refuses them instead.
    await expect(readExport(zip, { name: 'bomb.zip', limits: { maxFileBytes: 300 * MiB, maxTotalBytes: 1024 * MiB } })).rejects.toThrow(
      'bomb.zip: refused, looks like a zip bomb: uncompressed size exceeds 1024 MiB in total at member interventions.csv',
    );
  });

  it('stops a member that inflates past its declared size after inflating at most that size', async () => {
    const big = { name: 'outputs.csv', data: repeatedDeflate(BOMB_BLOCK, 285), size: 1 * MiB };
    const rest = Object.entries(fixture)
      .filter(([name]) => name !== 'outputs.csv')
      .map(([name, bytes]) => ({ name, data: deflateRawSync(bytes), size: bytes.length }));
    const { value: error, ms } = await timed(() => readExport(rawZip([...rest, big]), { name: 'liar.zip' }).catch((e: Error) => e));
    expect((error as Error).message).toBe('liar.zip: cannot inflate outputs.csv (inflates past its declared 1048576 bytes (refused while inflating))');
    expect(ms).toBeLessThan(2000);
  });

  it('refuses too many members, a zip-slip name and a member given twice', async () => {
    const many = zipSync(Object.fromEntries(Array.from({ length: 10_001 }, (_, i) => [`f${i}`, new Uint8Array(0)])));
    await expect(readExport(many, { name: 'm.zip' })).rejects.toThrow('m.zip: refused, looks like a zip bomb: more than 10000 entries (10001)');
    await expect(readExport(rezip({ 'x.csv': new Uint8Array(1) }), { name: 'f.zip', limits: { maxEntries: 9 } })).rejects.toThrow(
      'f.zip: refused, looks like a zip bomb: more than 9 entries (10)',
    );
    for (const [name, why] of [
      ['../../etc/passwd', 'a ".." segment'],
      ['/etc/passwd', 'an absolute path'],
      ['C:/x.csv', 'an absolute path'],
      ['a\\..\\b', 'a backslash or NUL in the name'],
    ]) {
      await expect(readExport(rezip({ [name]: strToU8('x') }), { name: 's.zip' })).rejects.toThrow(
        `s.zip: refused, member ${JSON.stringify(name)} has ${why} (zip slip)`,
      );
    }
    const twice = rawZip([
      ...Object.entries(fixture).map(([name, bytes]) => ({ name, data: deflateRawSync(bytes), size: bytes.length })),
      { name: 'studies.csv', data: deflateRawSync(strToU8('x')), size: 1 },
    ]);
    await expect(readExport(twice, { name: 't.zip' })).rejects.toThrow('t.zip: refused, member studies.csv appears twice');
  });

  it('reports Latin-1 (invalid UTF-8) in a cell with file, line and column, and skips the row', async () => {
    // "µg / liter" in Latin-1: µ is the single byte 0xB5, which is not UTF-8.
    const { bytes, line } = edited('outputs.csv', 'gram / liter', concat(new Uint8Array([0xb5]), strToU8('g / liter')));
    const clean = await readExport(rezip({}));
    const result = await readExport(rezip({ 'outputs.csv': bytes }));
    expect(result.problems).toEqual([
      { file: 'outputs.csv', line, column: 'unit', message: 'invalid UTF-8 (read as U+FFFD; Latin-1 text?) at character 1 of "\uFFFDg / liter"' },
    ]);
    expect(result.problemCount).toBe(1);
    const links = (r: ExportReadResult) => r.tables.outputs.reduce((n, o) => n + o.intervention_pks.length, 0);
    expect(links(result)).toBe(links(clean) - 1);
  });

  it('reports a NUL byte with file, line and column', async () => {
    const { bytes, line } = edited('studies.csv', 'Synthetic2020b', 'Synthetic\u00002020b');
    const result = await readExport(rezip({ 'studies.csv': bytes }));
    expect(line).toBe(3);
    expect(result.problems).toContainEqual({
      file: 'studies.csv',
      line: 3,
      column: 'name',
      message: 'a NUL byte at character 10 of "Synthetic\\u00002020b"',
    });
    expect(result.tables.studies.map((s) => s.sid)).not.toContain('SYN0002');
  });

  it('reports a stray quote and a quote never closed with file, line and column', async () => {
    const stray = edited('studies.csv', 'Synthetic2020a', 'Synth"etic2020a');
    const strayRead = await readExport(rezip({ 'studies.csv': stray.bytes }));
    expect(strayRead.problems).toContainEqual({
      file: 'studies.csv',
      line: 2,
      column: 'name',
      message: 'stray quote in unquoted field 3 (at character 6 of the field)',
    });
    expect(strayRead.tables.studies.map((s) => s.sid)).not.toContain('SYN0001');

    // The last row: no later quote closes it, so it runs to the end of the file.
    const last = lastStudyRow();
    const open = edited('studies.csv', last.name, `"${last.name}`);
    expect(open.line).toBe(last.line);
    const openRead = await readExport(rezip({ 'studies.csv': open.bytes }));
    expect(openRead.problems).toContainEqual({
      file: 'studies.csv',
      line: last.line,
      column: 'name',
      message: `unterminated quoted field 3 (a quote opened on line ${last.line} is never closed)`,
    });
    // One that a later quote closes leaves text after it.
    const early = edited('studies.csv', 'Synthetic2020b', '"Synthetic2020b');
    const earlyRead = await readExport(rezip({ 'studies.csv': early.bytes }));
    expect(earlyRead.problems).toContainEqual({
      file: 'studies.csv',
      line: 3,
      column: 'name',
      message: 'unexpected text after a closing quote in field 3',
    });
  });

  it('counts every bad row past the kept ones, whatever the defect', async () => {
    const header = strFromU8(fixture['studies.csv']).split('\n')[0];
    const latin1 = concat(strToU8(`${header}\n`), ...Array.from({ length: 3000 }, () => new Uint8Array([0x78, 0xb5, 0x0a])));
    const quotes = strToU8(`${header}\n${'x"y\n'.repeat(3000)}`);
    for (const bytes of [latin1, quotes]) {
      const { problems, problemCount } = await readExport(rezip({ 'studies.csv': bytes }));
      expect([problems.length, problemCount]).toEqual([1000, 3000]);
      expect(problems[999]).toMatchObject({ file: 'studies.csv', line: 1001 });
    }
  });

  it('refuses a header with invalid UTF-8', async () => {
    const { bytes } = edited('studies.csv', 'licence', concat(strToU8('lic'), new Uint8Array([0xe9]), strToU8('nce')));
    await expect(readExport(rezip({ 'studies.csv': bytes }), { name: 'h.zip' })).rejects.toThrow(
      'h.zip: studies.csv line 1, header cell 4: invalid UTF-8',
    );
  });

  it('names a truncated archive and bytes that are not a zip', async () => {
    const zip = rezip({});
    await expect(readExport(zip.subarray(0, zip.length >> 1), { name: 'cut.zip' })).rejects.toThrow(
      'cut.zip: not a readable zip archive (no end-of-central-directory record (truncated, or not a zip))',
    );
    // Directory intact, data cut short: a member whose data runs past the end.
    const short = rawZip(
      Object.entries(fixture).map(([name, bytes]) => ({
        name,
        data: deflateRawSync(bytes),
        size: bytes.length,
        compressed: name === 'outputs.csv' ? 1_000_000 : undefined,
      })),
    );
    await expect(readExport(short, { name: 'short.zip' })).rejects.toThrow(
      'short.zip: cannot inflate outputs.csv (data runs past the end of the archive (truncated?))',
    );
    const path = join(mkdtempSync(join(tmpdir(), 'pkdb-hostile-')), 'big.zip');
    writeFileSync(path, zip);
    await expect(readExport(path, { limits: { maxTotalBytes: 1000 } })).rejects.toThrow(
      `${path}: cannot read (${zip.length} bytes, over the 1000-byte total budget)`,
    );
    for (const bytes of [new Uint8Array(0), strToU8('sid,name\nSYN1,x\n'), new Uint8Array(100_000).fill(0x50)]) {
      await expect(readExport(bytes, { name: 'n.zip' })).rejects.toThrow(/^n\.zip: not a readable zip archive \(/);
    }
  });
});
