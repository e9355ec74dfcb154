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
 * Yields the rows of a CSV text one at a time, the header first, so that a
 * reader can turn each into a record and drop it (keeping the garbage
 * collector's survivors to the records). Blank lines are skipped; a leading
 * BOM is ignored; a lone CR is data, a line ends at LF or CRLF.
 */
export function* csvRows(text: string): Generator<CsvRow> {
  const n = text.length;
  let pos = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  let nextQuote = text.indexOf('"', pos);
  while (pos < n) {
    let end = text.indexOf('\n', pos);
    if (end < 0) end = n;
    if (nextQuote < 0 || nextQuote > end) {
      // Fast path: a line without quotes is a plain split.
      const stop = end > pos && text.charCodeAt(end - 1) === CR ? end - 1 : end;
      if (stop > pos) yield { line, cells: text.slice(pos, stop).split(',') };
      pos = end + 1;
      line++;
      continue;
    }
    const row = quotedRow(text, pos, line);
    pos = row.end;
    line = row.nextLine;
    if (nextQuote < pos) nextQuote = text.indexOf('"', pos);
    yield row.row;
  }
}

/** Reads one row that has a quote somewhere, from `pos` up to and including its line end. */
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
          row.error ??= 'unterminated quoted field';
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
        row.error ??= `unexpected text after a closing quote in field ${row.cells.length + 1}`;
        cell += text.slice(after, pos);
      }
    } else {
      const start = pos;
      pos = fieldEnd(text, pos);
      cell = text.slice(start, pos);
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
