/**
 * RFC 4180 CSV, as pandas `to_csv` writes it: `,` separators, `"` quoting with
 * doubled quotes inside, quoted fields may span lines, `\n` or `\r\n` line ends.
 *
 * Written for the export reader rather than taken from a library because the
 * reader needs each row's starting line number for its error messages, and a
 * plain char scan (with `indexOf` inside quotes) reads the 13 MB outputs.csv
 * in a few tens of milliseconds.
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
 * A cursor over the rows of a CSV text. Blank lines are skipped; a leading BOM
 * is ignored; a lone CR is data, a line ends at LF or CRLF.
 *
 * A row without quotes (nearly all of an export) is not copied: its cells are
 * ranges of `text`, so a reader can parse a number or compare two rows without
 * allocating a string per cell, which is most of the garbage a 13 MB CSV makes.
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
  /** The unescaped cells when the current row has a quote; null when every cell is a range of `text`. */
  quoted: string[] | null = null;
  private starts = new Int32Array(64);
  private ends = new Int32Array(64);
  private pos: number;
  private nextLine = 1;
  private nextQuote: number;

  constructor(readonly text: string) {
    this.pos = text.charCodeAt(0) === 0xfeff ? 1 : 0;
    this.nextQuote = text.indexOf('"', this.pos);
  }

  /** Moves to the next row; false at the end of the text. */
  next(): boolean {
    const text = this.text;
    const n = text.length;
    while (this.pos < n) {
      const pos = this.pos;
      let end = text.indexOf('\n', pos);
      if (end < 0) end = n;
      if (this.nextQuote >= 0 && this.nextQuote <= end) return this.readQuoted();
      const stop = end > pos && text.charCodeAt(end - 1) === CR ? end - 1 : end;
      const line = this.nextLine++;
      this.pos = end + 1;
      if (stop === pos) continue;
      this.line = line;
      this.error = undefined;
      this.quoted = null;
      this.splitRange(pos, stop);
      return true;
    }
    return false;
  }

  /** Position in `text` just past the current row (and its line end). */
  get rowEnd(): number {
    return this.pos;
  }

  /** The text holding cell `i` of the current row; the cell is `source(i).slice(start(i), end(i))`. */
  source(i: number): string {
    return this.quoted === null ? this.text : this.quoted[i];
  }

  start(i: number): number {
    return this.quoted === null ? this.starts[i] : 0;
  }

  end(i: number): number {
    return this.quoted === null ? this.ends[i] : this.quoted[i].length;
  }

  cell(i: number): string {
    return this.quoted === null ? this.text.slice(this.starts[i], this.ends[i]) : this.quoted[i];
  }

  /** The current row as a standalone object. */
  row(): CsvRow {
    const cells = this.quoted ?? Array.from({ length: this.width }, (_, i) => this.cell(i));
    const row: CsvRow = { line: this.line, cells };
    if (this.error !== undefined) {
      row.error = this.error;
      row.errorField = this.errorField;
    }
    return row;
  }

  /** Records the cells of a quote-free line `[from, stop)`, split at every comma. */
  private splitRange(from: number, stop: number): void {
    const text = this.text;
    let k = 0;
    let start = from;
    // A char loop rather than indexOf: cells are short, and a builtin call per cell costs more than the scan.
    // One test per character (the last cell, which no comma ends, is recorded after the loop).
    for (let i = from; i < stop; i++) {
      if (text.charCodeAt(i) !== COMMA) continue;
      if (k === this.starts.length) this.grow();
      this.starts[k] = start;
      this.ends[k++] = i;
      start = i + 1;
    }
    if (k === this.starts.length) this.grow();
    this.starts[k] = start;
    this.ends[k++] = stop;
    this.width = k;
  }

  private grow(): void {
    const starts = new Int32Array(this.starts.length * 2);
    const ends = new Int32Array(this.ends.length * 2);
    starts.set(this.starts);
    ends.set(this.ends);
    this.starts = starts;
    this.ends = ends;
  }

  private readQuoted(): boolean {
    const { row, end, nextLine } = quotedRow(this.text, this.pos, this.nextLine);
    this.pos = end;
    this.nextLine = nextLine;
    if (this.nextQuote < end) this.nextQuote = this.text.indexOf('"', end);
    this.line = row.line;
    this.error = row.error;
    this.errorField = row.errorField ?? -1;
    this.quoted = row.cells;
    this.width = row.cells.length;
    return true;
  }
}

/** Records the first syntax error of a row. */
function fail(row: CsvRow, message: string): void {
  if (row.error !== undefined) return;
  row.error = message;
  row.errorField = row.cells.length;
}

/**
 * Reads one row that has a quote somewhere, from `pos` up to and including
 * its line end. A quote is only valid around a whole field (RFC 4180 2.5-2.7,
 * which is what pandas writes): a quote inside an unquoted field, text after
 * a closing quote and a quote never closed are errors naming the field.
 */
function quotedRow(text: string, pos: number, line: number): { row: CsvRow; end: number; nextLine: number } {
  const n = text.length;
  const row: CsvRow = { line, cells: [] };
  for (;;) {
    let cell: string;
    if (text.charCodeAt(pos) === QUOTE) {
      cell = '';
      let start = pos + 1;
      for (;;) {
        const close = text.indexOf('"', start);
        if (close < 0) {
          cell += text.slice(start);
          fail(row, `unterminated quoted field ${row.cells.length + 1} (a quote opened on line ${line} is never closed)`);
          pos = n;
          break;
        }
        cell += text.slice(start, close);
        if (text.charCodeAt(close + 1) === QUOTE) {
          cell += '"';
          start = close + 2;
          continue;
        }
        pos = close + 1;
        break;
      }
      line += countLineFeeds(cell);
      const after = pos;
      pos = fieldEnd(text, pos);
      if (pos > after) {
        fail(row, `unexpected text after a closing quote in field ${row.cells.length + 1}`);
        cell += text.slice(after, pos);
      }
    } else {
      const start = pos;
      pos = fieldEnd(text, pos);
      cell = text.slice(start, pos);
      const stray = cell.indexOf('"');
      if (stray >= 0) fail(row, `stray quote in unquoted field ${row.cells.length + 1} (at character ${stray + 1} of the field)`);
    }
    row.cells.push(cell);
    if (pos >= n) return { row, end: n, nextLine: line + 1 };
    if (text.charCodeAt(pos) === COMMA) {
      pos++;
      continue;
    }
    // At LF, or at the CR of CRLF.
    if (text.charCodeAt(pos) === CR) pos++;
    return { row, end: pos + 1, nextLine: line + 1 };
  }
}

/** The position of the next `,`, LF or CRLF at or after `pos` (or the end). */
function fieldEnd(text: string, pos: number): number {
  const n = text.length;
  for (; pos < n; pos++) {
    const c = text.charCodeAt(pos);
    if (c === COMMA || c === LF || (c === CR && text.charCodeAt(pos + 1) === LF)) return pos;
  }
  return n;
}

function countLineFeeds(s: string): number {
  let count = 0;
  for (let i = s.indexOf('\n'); i >= 0; i = s.indexOf('\n', i + 1)) count++;
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
