/**
 * The input of `pkdb nca`: a CSV file with one row per sample. Read strictly,
 * because a mis-read table gives plausible but wrong parameters: anything
 * that is not clean UTF-8 CSV with decimal numbers is a UsageError (exit 2)
 * naming the file, the line and the column — an empty file, invalid UTF-8 or
 * a NUL byte, a stray or unterminated quote, a row with another number of
 * cells than the header, a numeral such as `0x4`, `1e`, `4,5`, `Infinity`,
 * `1_000` or a cell of spaces (see numericCell); BLQ cells (`BLQ`, `<0.1`) only in
 * the `blq` columns. A UTF-8 byte-order mark is
 * skipped. Negative concentrations are kept, and noted (`negativeNotes`).
 */
import { readFile, stat } from 'node:fs/promises';
import { CsvScanner } from '../data/export/csv.js';
import { concentrationCell, numericCell } from '../nca/group.js';
import { UsageError } from './errors.js';
import { pushTo } from '../data/records.js';

/** A sample table larger than this is refused before reading (a decoded file must also fit one string). */
export const MAX_PROFILE_BYTES = 256 * 1024 ** 2;

export interface ProfileColumns {
  subject: string;
  /** Columns read as numbers: time, concentration, dose. */
  numeric: readonly string[];
  /** Numeric columns that may also hold BLQ cells ("BLQ", "<0.1"; ../nca/group.ts concentrationCell), kept as their text. */
  blq?: readonly string[];
}

export interface ProfileTable {
  /** One record per data row: the subject as text, the numeric columns as number or null (missing). */
  rows: Record<string, string | number | null>[];
  /** The line of the file each row starts on. */
  lines: number[];
}

/** Line and column (1-based, in characters) of position `at` of `text`. */
function lineColumn(text: string, at: number): string {
  const before = text.slice(0, at);
  const lineStart = before.lastIndexOf('\n') + 1;
  return `line ${before.split('\n').length}, character ${at - lineStart + 1}`;
}

/** The text of a profile file; throws UsageError for an empty file, invalid UTF-8 or a NUL byte. */
export function decodeProfile(bytes: Uint8Array, file: string): string {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    const lenient = new TextDecoder('utf-8').decode(bytes);
    throw new UsageError(`${file} ${lineColumn(lenient, lenient.indexOf('\uFFFD'))}: invalid UTF-8 (save the file as UTF-8)`);
  }
  const nul = text.indexOf('\0');
  if (nul >= 0) throw new UsageError(`${file} ${lineColumn(text, nul)}: a NUL byte (not a text file?)`);
  if (text.trim() === '') throw new UsageError(`${file}: empty file (expected a header line, then one row per sample)`);
  return text;
}

/** Parses the rows of a profile CSV text; see the module comment for what is refused. */
export function parseProfile(text: string, file: string, columns: ProfileColumns): ProfileTable {
  const scanner = new CsvScanner(text);
  if (!scanner.next()) throw new UsageError(`${file}: empty file (expected a header line, then one row per sample)`);
  if (scanner.error !== undefined) throw new UsageError(`${file} line ${scanner.line} (header): ${scanner.error}`);
  const header = scanner.row().cells;
  const wanted = [columns.subject, ...columns.numeric];
  const absent = wanted.filter((c) => !header.includes(c));
  if (absent.length > 0) throw new UsageError(`${file}: no column ${absent.map((c) => `"${c}"`).join(', ')} in the header (${header.map((c) => JSON.stringify(c)).join(', ')})`);
  for (const c of wanted) {
    if (header.indexOf(c) !== header.lastIndexOf(c)) throw new UsageError(`${file}: column "${c}" appears twice in the header`);
  }
  const subjectAt = header.indexOf(columns.subject);
  const numeric = columns.numeric.map((name) => ({ name, at: header.indexOf(name) }));
  const rows: ProfileTable['rows'] = [];
  const lines: number[] = [];
  while (scanner.next()) {
    const line = scanner.line;
    if (scanner.error !== undefined) {
      const column = header[scanner.errorField];
      throw new UsageError(`${file} line ${line}${column === undefined ? '' : `, column ${column}`}: ${scanner.error}`);
    }
    if (scanner.width !== header.length) {
      throw new UsageError(`${file} line ${line}: ${scanner.width} cells, but the header has ${header.length}`);
    }
    const row: Record<string, string | number | null> = { [columns.subject]: scanner.cell(subjectAt) };
    for (const { name, at } of numeric) {
      try {
        const where = `${file} line ${line}, column ${name}`;
        if (columns.blq?.includes(name)) {
          const text = scanner.cell(at);
          row[name] = concentrationCell(text, where).blq ? text.trim() : numericCell(text, where);
          continue;
        }
        row[name] = numericCell(scanner.cell(at), where);
      } catch (error) {
        throw new UsageError((error as Error).message);
      }
    }
    rows.push(row);
    lines.push(line);
  }
  return { rows, lines };
}

/** Reads and parses `file` (see parseProfile); throws UsageError when it cannot be read or is too large. */
export async function readProfile(file: string, columns: ProfileColumns): Promise<ProfileTable> {
  let bytes: Uint8Array;
  try {
    const { size } = await stat(file);
    if (size > MAX_PROFILE_BYTES) throw new Error(`${size} bytes, more than the ${MAX_PROFILE_BYTES} a sample table may have`);
    bytes = await readFile(file);
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as Error).message}`);
  }
  return parseProfile(decodeProfile(bytes, file), file, columns);
}

/**
 * One note per subject with negative concentrations: NCA uses them as given
 * (WinNonlin and PKNCA do too), but they usually mean a baseline was
 * subtracted or a value mistyped. Lists the first five lines.
 */
export function negativeNotes(table: ProfileTable, subject: string, conc: string): Map<string, string> {
  const found = new Map<string, number[]>();
  table.rows.forEach((row, i) => {
    const c = row[conc];
    if (typeof c !== 'number' || !(c < 0)) return;
    const key = String(row[subject]);
    pushTo(found, key, i);
  });
  const notes = new Map<string, string>();
  for (const [key, indices] of found) {
    const shown = indices.slice(0, 5).map((i) => `line ${table.lines[i]} (${table.rows[i][conc]})`);
    const more = indices.length > 5 ? ` and ${indices.length - 5} more` : '';
    const n = indices.length;
    notes.set(key, `${n} negative concentration${n === 1 ? '' : 's'}, used as given: ${shown.join(', ')}${more}`);
  }
  return notes;
}
