/**
 * RFC 4180 CSV, as pandas `to_csv` writes it: `,` separators, `"` quoting with
 * doubled quotes inside, quoted fields may span lines, `\n` or `\r\n` line ends.
 *
 * Written for the export reader rather than taken from a library because the
 * reader needs each row's starting line number for its error messages and its
 * cells in place, and a plain byte scan reads the 13 MB outputs.csv in a few
 * tens of milliseconds. Text given as a string is encoded to UTF-8 first (a
 * lone surrogate, which no decoded file holds, becomes U+FFFD).
 */

const COMMA = 44;
const QUOTE = 34;
const LF = 10;
const CR = 13;

export interface CsvRow {
  /** 1-based line on which the row starts (the header is line 1). */
  line: number;
  cells: string[];
  /** Set when the row is syntactically broken (stray or unterminated quote); cells are a best effort. */
  error?: string;
  /** The 0-based field of `error`. */
  errorField?: number;
}

export interface CsvTable {
  header: string[];
  rows: CsvRow[];
}

/** Parses a whole CSV text into its header and rows (see `csvRows`). */
export function parseCsv(text: string): CsvTable {
  const rows = [...csvRows(text)];
  const header = rows.shift()?.cells ?? [];
  return { header, rows };
}

/**
 * Yields the rows of a CSV text one at a time, the header first (see
 * `CsvScanner` for what counts as a row).
 */
export function* csvRows(text: string): Generator<CsvRow> {
  const scanner = new CsvScanner(text);
  while (scanner.next()) yield scanner.row();
}

/**
 * A cursor over the rows of a CSV text, given as UTF-8 bytes (or as a string,
 * which it encodes). Blank lines are skipped; a leading BOM is ignored; a lone
 * CR is data, a line ends at LF or CRLF.
 *
 * A row without quotes (nearly all of an export) is not copied: its cells are
 * byte ranges of the input, so a reader can parse a number or compare two rows
 * without allocating a string per cell, which is most of the garbage a 13 MB
 * CSV makes. A row with a quote is unescaped into a scratch buffer, and its
 * cells are ranges of that: `source` is the buffer holding the current row's
 * cells either way. Bytes rather than a decoded string: a byte loads faster
 * than `charCodeAt` reads a character, and the 20 MB of an export are never
 * decoded whole (only the strings a reader keeps are).
 */
export class CsvScanner {
  /** 1-based line on which the current row starts (the header is line 1). */
  line = 0;
  /** Number of cells in the current row. */
  width = 0;
  /** Set when the current row is syntactically broken; cells are a best effort. */
  error: string | undefined = undefined;
  /** The 0-based field of `error`. */
  errorField = -1;
  /** The input's bytes. */
  readonly bytes: Buffer;
  /** The bytes holding the current row's cells: `bytes`, or the scratch buffer a row with quotes is unescaped into. */
  source: Buffer;
  private starts = new Int32Array(64);
  private ends = new Int32Array(64);
  private scratch: Buffer = Buffer.allocUnsafe(256);
  private pos: number;
  private nextLine = 1;

  constructor(input: string | Uint8Array) {
    this.bytes = typeof input === 'string' ? Buffer.from(input, 'utf8') : Buffer.from(input.buffer, input.byteOffset, input.byteLength);
    this.source = this.bytes;
    const b = this.bytes;
    this.pos = b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? 3 : 0;
  }

  /** Moves to the next row; false at the end of the text. */
  next(): boolean {
    const bytes = this.bytes;
    const n = bytes.length;
    while (this.pos < n) {
      const pos = this.pos;
      // One pass over the line: its commas recorded, its end found, a quote sending the row to readQuoted.
      let k = 0;
      let start = pos;
      let end = pos;
      for (;;) {
        const starts = this.starts;
        const ends = this.ends;
        const capacity = starts.length;
        for (; end < n; end++) {
          const c = bytes[end];
          // Letters, digits, `.` and `-` (nearly every byte) are above the comma: one test.
          if (c > COMMA) continue;
          if (c === COMMA) {
            // Out of room: grown below, outside this loop (a call in it slows every byte down).
            if (k === capacity) break;
            starts[k] = start;
            ends[k++] = end;
            start = end + 1;
          } else if (c === LF) {
            break;
          } else if (c === QUOTE) {
            return this.readQuoted();
          }
        }
        if (end === n || bytes[end] === LF) break;
        this.grow();
      }
      const stop = end > pos && bytes[end - 1] === CR ? end - 1 : end;
      const line = this.nextLine++;
      this.pos = end + 1;
      if (stop === pos) continue;
      if (k === this.starts.length) this.grow();
      this.starts[k] = start;
      this.ends[k++] = stop;
      this.width = k;
      this.line = line;
      this.error = undefined;
      this.source = bytes;
      return true;
    }
    return false;
  }

  /** Position in `bytes` just past the current row (and its line end). */
  get rowEnd(): number {
    return this.pos;
  }

  /** Cell `i` of the current row is `source` from `start(i)` to `end(i)`. */
  start(i: number): number {
    return this.starts[i];
  }

  end(i: number): number {
    return this.ends[i];
  }

  /** Cell `i` of the current row as a string. */
  cell(i: number): string {
    return this.source.toString('utf8', this.starts[i], this.ends[i]);
  }

  /** The current row as a standalone object. */
  row(): CsvRow {
    const cells = Array.from({ length: this.width }, (_, i) => this.cell(i));
    const row: CsvRow = { line: this.line, cells };
    if (this.error !== undefined) {
      row.error = this.error;
      row.errorField = this.errorField;
    }
    return row;
  }

  private grow(): void {
    const starts = new Int32Array(this.starts.length * 2);
    const ends = new Int32Array(this.ends.length * 2);
    starts.set(this.starts);
    ends.set(this.ends);
    this.starts = starts;
    this.ends = ends;
  }

  /** Appends `bytes[from, to)` to the scratch buffer at `at`; the new end. */
  private copy(at: number, from: number, to: number): number {
    const length = to - from;
    if (at + length > this.scratch.length) {
      const larger = Buffer.allocUnsafe(Math.max(2 * this.scratch.length, at + length));
      this.scratch.copy(larger, 0, 0, at);
      this.scratch = larger;
    }
    // A loop rather than Buffer#copy, whose call costs more than copying a cell's few bytes.
    const bytes = this.bytes;
    const scratch = this.scratch;
    for (let i = from, j = at; i < to; i++, j++) scratch[j] = bytes[i];
    return at + length;
  }

  /** Records cell `k` as `scratch[start, end)`. */
  private setCell(k: number, start: number, end: number): void {
    if (k === this.starts.length) this.grow();
    this.starts[k] = start;
    this.ends[k] = end;
  }

  /** Records the first syntax error of the row, in field `k`. */
  private fail(k: number, message: string): void {
    if (this.error !== undefined) return;
    this.error = message;
    this.errorField = k;
  }

  /**
   * Reads a row with quotes whose cells need no unescaping (no doubled quote)
   * and which holds no error, such as a quoted list `"[0.5, 1.0]"` (all of
   * timecourses.csv): its cells are ranges of `bytes`, nothing is copied.
   * False, with nothing consumed, for any other row.
   */
  private readQuotedInPlace(): boolean {
    const bytes = this.bytes;
    const n = bytes.length;
    let pos = this.pos;
    let line = this.nextLine;
    let k = 0;
    for (;; k++) {
      let start = pos;
      let end: number;
      if (bytes[pos] === QUOTE) {
        start = pos + 1;
        end = bytes.indexOf(QUOTE, start);
        if (end < 0 || bytes[end + 1] === QUOTE) return false;
        line += countLineFeeds(bytes, start, end);
        pos = end + 1;
        if (fieldEnd(bytes, pos) !== pos) return false;
      } else {
        pos = end = fieldEnd(bytes, pos);
        for (let i = start; i < end; i++) if (bytes[i] === QUOTE) return false;
      }
      this.setCell(k, start, end);
      if (pos >= n) {
        pos = n;
        break;
      }
      if (bytes[pos] === COMMA) {
        pos++;
        continue;
      }
      // At LF, or at the CR of CRLF.
      if (bytes[pos] === CR) pos++;
      pos++;
      break;
    }
    this.line = this.nextLine;
    this.error = undefined;
    this.errorField = -1;
    this.width = k + 1;
    this.pos = pos;
    this.nextLine = line + 1;
    this.source = bytes;
    return true;
  }

  /**
   * Reads one row that has a quote somewhere, from `pos` up to and including
   * its line end, unescaping its cells into the scratch buffer. A quote is
   * only valid around a whole field (RFC 4180 2.5-2.7, which is what pandas
   * writes): a quote inside an unquoted field, text after a closing quote and
   * a quote never closed are errors naming the field.
   */
  private readQuoted(): boolean {
    if (this.readQuotedInPlace()) return true;
    const bytes = this.bytes;
    const n = bytes.length;
    let pos = this.pos;
    let line = this.nextLine;
    this.line = line;
    this.error = undefined;
    this.errorField = -1;
    let k = 0;
    let at = 0;
    for (;; k++) {
      const cellStart = at;
      if (bytes[pos] === QUOTE) {
        let start = pos + 1;
        for (;;) {
          const close = bytes.indexOf(QUOTE, start);
          if (close < 0) {
            at = this.copy(at, start, n);
            this.fail(k, `unterminated quoted field ${k + 1} (a quote opened on line ${line} is never closed)`);
            pos = n;
            break;
          }
          at = this.copy(at, start, close);
          if (bytes[close + 1] === QUOTE) {
            at = this.copy(at, close, close + 1);
            start = close + 2;
            continue;
          }
          pos = close + 1;
          break;
        }
        line += countLineFeeds(this.scratch, cellStart, at);
        const after = pos;
        pos = fieldEnd(bytes, pos);
        if (pos > after) {
          this.fail(k, `unexpected text after a closing quote in field ${k + 1}`);
          at = this.copy(at, after, pos);
        }
      } else {
        const start = pos;
        pos = fieldEnd(bytes, pos);
        at = this.copy(at, start, pos);
        let stray = start;
        while (stray < pos && bytes[stray] !== QUOTE) stray++;
        if (stray < pos) {
          // The position in characters (UTF-16 code units), as a reader of the decoded field counts them.
          const character = bytes.toString('utf8', start, stray).length + 1;
          this.fail(k, `stray quote in unquoted field ${k + 1} (at character ${character} of the field)`);
        }
      }
      this.setCell(k, cellStart, at);
      if (pos >= n) {
        pos = n;
        break;
      }
      if (bytes[pos] === COMMA) {
        pos++;
        continue;
      }
      // At LF, or at the CR of CRLF.
      if (bytes[pos] === CR) pos++;
      pos++;
      break;
    }
    this.width = k + 1;
    this.pos = pos;
    this.nextLine = line + 1;
    this.source = this.scratch;
    return true;
  }
}

/** The position of the next `,`, LF or CRLF at or after `pos` (or the end). */
function fieldEnd(bytes: Uint8Array, pos: number): number {
  const n = bytes.length;
  for (; pos < n; pos++) {
    const c = bytes[pos];
    if (c === COMMA || c === LF || (c === CR && bytes[pos + 1] === LF)) return pos;
  }
  return n;
}

function countLineFeeds(bytes: Uint8Array, from: number, to: number): number {
  let count = 0;
  for (let i = from; i < to; i++) if (bytes[i] === LF) count++;
  return count;
}

/** Python's csv.QUOTE_MINIMAL (pandas' default): quote only fields holding `,`, `"`, CR or LF. */
export function formatCsvField(value: string): string {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === COMMA || c === QUOTE || c === LF || c === CR) return `"${value.replaceAll('"', '""')}"`;
  }
  return value;
}

/** One CSV line with its terminator; PK-DB's exports end lines with a bare `\n`. */
export function formatCsvLine(cells: readonly string[]): string {
  return `${cells.map(formatCsvField).join(',')}\n`;
}
