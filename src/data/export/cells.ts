/**
 * From CSV text to typed rows: each column's cells are parsed by the kind
 * `columns.ts` gives it. A bad cell, a row with the wrong number of cells or a
 * broken quote becomes an `ExportProblem` naming file, line and column, and
 * the row is skipped (or, in strict mode, the read stops with an `ExportError`).
 */
import { cellNames, type Cells, type ColumnKind, type CsvSpec, type KindValue } from './columns.js';
import { CsvScanner } from './csv.js';
import { numberInRange, rangeIs } from './ranges.js';
import { asIntList, asNumberList, asStringList, parsePyNumber, parsePyNumberList, parsePyValue, type PyValue } from './pyrepr.js';

export interface ExportProblem {
  file: string;
  /** 1-based line in the CSV where the row starts; 0 for the file as a whole. */
  line: number;
  column: string | null;
  message: string;
}

/** An export that cannot be read (or, in strict mode, a malformed row). */
export class ExportError extends Error {
  override name = 'ExportError';
  constructor(
    message: string,
    readonly problem: ExportProblem | null = null,
  ) {
    super(message);
  }
}

export function formatProblem(problem: ExportProblem): string {
  const where = problem.line > 0 ? ` line ${problem.line}` : '';
  const column = problem.column === null ? '' : `, column ${problem.column}`;
  return `${problem.file}${where}${column}: ${problem.message}`;
}

/** How many problems a read keeps by default (it counts them all). */
export const DEFAULT_MAX_PROBLEMS = 1000;

/**
 * Collects problems: counts every one, keeps the first `max` (a damaged file
 * can have a problem on each of millions of lines); in strict mode the first
 * one ends the read.
 */
export class ProblemLog {
  readonly problems: ExportProblem[] = [];
  /** Every problem found, kept or not. */
  count = 0;
  constructor(
    private readonly archive: string,
    private readonly strict: boolean,
    private readonly max = DEFAULT_MAX_PROBLEMS,
  ) {}

  add(problem: ExportProblem): void {
    if (this.strict) throw new ExportError(`${this.archive}: ${formatProblem(problem)}`, problem);
    if (this.count++ < this.max) this.problems.push(problem);
  }

  /**
   * Counts a problem without building it when it would not be kept; false
   * when the caller must `add` it. For the per-row paths of a file that may
   * have millions of bad rows.
   */
  countIfFull(): boolean {
    if (this.strict || this.count < this.max) return false;
    this.count++;
    return true;
  }
}

/**
 * A member's text. Valid UTF-8 without NUL (every real export) is decoded
 * strictly in one native pass; otherwise each bad byte sequence becomes
 * U+FFFD, as WHATWG decoding does, and `bad` finds the characters that mark
 * the rows `readRows` must report: U+FFFD for invalid UTF-8 (a Latin-1 `µ` is
 * the byte 0xB5), and NUL, which no CSV cell holds.
 */
export interface MemberText {
  text: string;
  bad: RegExp | null;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const lenientUtf8 = new TextDecoder('utf-8');

export function decodeMember(bytes: Uint8Array): MemberText {
  const nul = bytes.indexOf(0) >= 0;
  let text: string;
  let invalid = false;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    text = lenientUtf8.decode(bytes);
    invalid = true;
  }
  const bad = invalid ? (nul ? /[\0\uFFFD]/g : /\uFFFD/g) : nul ? /\0/g : null;
  return { text, bad };
}

/** Position of the first match of global `re` at or after `from`, or -1. */
function findFrom(re: RegExp, text: string, from: number): number {
  re.lastIndex = from;
  return re.exec(text)?.index ?? -1;
}

/** The first cell of the scanner's row holding a match of global `re` (-1 when none), and why it is bad. */
function badCell(scanner: CsvScanner, re: RegExp): { field: number; message: string } {
  for (let i = 0; i < scanner.width; i++) {
    const cell = scanner.cell(i);
    const at = findFrom(re, cell, 0);
    if (at < 0) continue;
    const what = cell.charCodeAt(at) === 0 ? 'a NUL byte' : 'invalid UTF-8 (read as U+FFFD; Latin-1 text?)';
    return { field: i, message: `${what} at character ${at + 1} of ${quoted(cell)}` };
  }
  return { field: -1, message: 'invalid UTF-8 or a NUL byte' };
}

/**
 * The first line of each key in a file whose rows must be unique (one study,
 * intervention or subset per row): a repeat is a problem naming the file, the
 * line and the key column, and the caller skips the row.
 */
export class UniqueKeys<K> {
  private readonly firstLine = new Map<K, number>();

  constructor(
    private readonly file: string,
    private readonly column: string,
    private readonly what: string,
    private readonly log: ProblemLog,
  ) {}

  /** True when `key` is new (it is now taken by `line`); false, with the problem logged, when it repeats. */
  claim(key: K, line: number): boolean {
    const seen = this.firstLine.get(key);
    if (seen !== undefined) {
      this.log.add({ file: this.file, line, column: this.column, message: `${this.what} ${String(key)} repeats line ${seen}` });
      return false;
    }
    this.firstLine.set(key, line);
    return true;
  }
}

/**
 * A parsed row with the line it came from. `row` holds the current line's
 * values (read them with `columnsOf`), valid until the next row is read: copy
 * what you keep. `readRows` hands out one Parsed and one array for every row
 * (so collecting them would give one row, repeated); no object is allocated
 * per row.
 */
export interface Parsed<S extends CsvSpec> {
  line: number;
  row: Cells<S>;
}

/**
 * Parses the rows of one CSV text by its spec, one at a time (so only the
 * records built from them stay in memory); columns are found by header name.
 * Throws ExportError when the header lacks a column of the spec.
 */
export function* readRows<S extends CsvSpec>(
  spec: S,
  { text, bad }: MemberText,
  log: ProblemLog,
  archive: string,
): Generator<Parsed<S>> {
  const scanner = new CsvScanner(text);
  // An empty table: pandas writes an empty frame as the one empty header cell `""`
  // (write.ts: EMPTY_TABLE_CSV); a 0-byte file is read as empty too.
  if (!scanner.next()) return;
  const header = scanner.row().cells;
  // Rows holding a bad character (see decodeMember) are reported and skipped; -1 when none is left.
  let nextBad = bad === null ? -1 : findFrom(bad, text, 0);
  if (nextBad >= 0 && nextBad < scanner.rowEnd) {
    const { field, message } = badCell(scanner, bad!);
    throw new ExportError(`${archive}: ${spec.file} line ${scanner.line}, header cell ${field + 1}: ${message}`);
  }
  const emptyFrame = header.length === 1 && header[0] === '';
  // Rows after it fall through to the missing-columns error below.
  if (emptyFrame && !scanner.next()) return;
  const index = new Map(header.map((name, i) => [name, i] as const));
  const missing = Object.keys(spec.columns).filter((name) => !index.has(name));
  if (missing.length > 0) {
    throw new ExportError(`${archive}: ${spec.file} lacks column(s) ${missing.join(', ')}`);
  }
  // The columns the file has, each with where it is in the file and where its value goes in the row's Cells.
  const fields: { name: string; at: number; slot: number; parse: RangeParser }[] = [];
  const names = cellNames(spec);
  const kinds: Record<string, ColumnKind> = { ...spec.optional, ...spec.columns };
  for (const [slot, name] of names.entries()) {
    const at = index.get(name);
    if (at !== undefined) fields.push({ name, at, slot, parse: rangeParser(kinds[name]) });
  }
  const cells: unknown[] = names.map(() => null);
  const parsed: Parsed<S> = { line: 0, row: cells };
  const width = header.length;
  const count = fields.length;
  rows: while (scanner.next()) {
    const line = scanner.line;
    if (nextBad >= 0 && nextBad < scanner.rowEnd) {
      if (!log.countIfFull()) {
        const { field, message } = badCell(scanner, bad!);
        log.add({ file: spec.file, line, column: header[field] ?? null, message });
      }
      nextBad = findFrom(bad!, text, scanner.rowEnd);
      continue;
    }
    if (scanner.error !== undefined) {
      if (!log.countIfFull()) log.add({ file: spec.file, line, column: header[scanner.errorField] ?? null, message: scanner.error });
      continue;
    }
    if (scanner.width !== width) {
      if (!log.countIfFull()) log.add({ file: spec.file, line, column: null, message: `expected ${width} cells, found ${scanner.width}` });
      continue;
    }
    for (let i = 0; i < count; i++) {
      const field = fields[i];
      const at = field.at;
      try {
        cells[field.slot] = field.parse(scanner.source(at), scanner.start(at), scanner.end(at));
      } catch (e) {
        log.add({ file: spec.file, line, column: field.name, message: (e as Error).message });
        continue rows;
      }
    }
    parsed.line = line;
    yield parsed;
  }
}

/** Parses the cell in `[start, end)` of `text`. */
type RangeParser = (text: string, start: number, end: number) => unknown;

/**
 * The parser of `PARSERS[kind]` for one column, reading a cell in place:
 * plain decimals, booleans and strings need no intermediate slice; every other
 * cell (and every error) goes through `PARSERS` on the sliced text, so results
 * and messages are those of the string parsers.
 */
function rangeParser(kind: ColumnKind): RangeParser {
  const parse = PARSERS[kind];
  const sliced: RangeParser = (text, start, end) => parse(text.slice(start, end));
  switch (kind) {
    case 'str':
    case 'str?':
    case 'text?':
      return internedString(kind === 'str' ? sliced : () => null);
    case 'int':
    case 'int?':
    case 'nint?':
    case 'float?': {
      const integral = kind !== 'float?';
      const empty = kind === 'int' ? sliced : () => null;
      return (text, start, end) => {
        if (start === end) return empty(text, start, end);
        const n = numberInRange(text, start, end);
        return Number.isNaN(n) || (integral && !Number.isInteger(n)) ? sliced(text, start, end) : n;
      };
    }
    case 'bool':
      return (text, start, end) => (rangeIs(text, start, end, 'True') ? true : rangeIs(text, start, end, 'False') ? false : sliced(text, start, end));
    default:
      return sliced;
  }
}

/** Distinct values a string column interns (a power of two); the table is kept at most half full. */
const INTERN_SLOTS = 8192;

/**
 * A string column's parser that interns its cells: a cell equal to one seen
 * before in the column is handed back as that string, found by a hash of the
 * cell's characters in place, so study names, tissues, units and measurement
 * types cost no slice per cell and the records share one string per value
 * (fewer survivors for the garbage collector to copy). Memory is bounded: past
 * INTERN_SLOTS / 2 distinct values, new ones are sliced and not kept. `empty`
 * parses an empty cell.
 */
function internedString(empty: RangeParser): RangeParser {
  const table: (string | undefined)[] = new Array(INTERN_SLOTS);
  const mask = INTERN_SLOTS - 1;
  let kept = 0;
  let previous = '';
  return (text, start, end) => {
    if (start === end) return empty(text, start, end);
    // Runs of one value (a study's rows) are the common case: no hash needed.
    if (rangeIs(text, start, end, previous)) return previous;
    // FNV-1a over the UTF-16 code units.
    let hash = 0x811c9dc5;
    for (let i = start; i < end; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
    let slot = hash & mask;
    for (let known = table[slot]; known !== undefined; known = table[slot]) {
      if (rangeIs(text, start, end, known)) return (previous = known);
      slot = (slot + 1) & mask;
    }
    previous = text.slice(start, end);
    if (kept < INTERN_SLOTS / 2) {
      table[slot] = previous;
      kept++;
    }
    return previous;
  };
}

function quoted(raw: string): string {
  return JSON.stringify(raw.length > 40 ? `${raw.slice(0, 40)}…` : raw);
}

function required(raw: string): string {
  if (raw === '') throw new Error('missing value');
  return raw;
}

function number(raw: string): number | null {
  if (raw === '' || raw === 'nan') return null;
  const n = parsePyNumber(raw);
  if (n === null) throw new Error(`not a number: ${quoted(raw)}`);
  return n;
}

/** Accepts `6` and the float form pandas gives nullable integer columns, `6.0`. */
function integer(raw: string): number | null {
  const n = number(raw);
  if (n !== null && !Number.isInteger(n)) throw new Error(`not an integer: ${quoted(raw)}`);
  return n;
}

/** A key column: `nan`, which `integer` reads as a missing value, is as bad as an empty cell. */
function requiredInteger(raw: string): number {
  const n = integer(required(raw));
  if (n === null) throw new Error(`not an integer: ${quoted(raw)}`);
  return n;
}

function boolean(raw: string): boolean {
  if (raw === 'True') return true;
  if (raw === 'False') return false;
  throw new Error(`expected True or False, found ${quoted(raw)}`);
}

function isInt(v: PyValue): v is number {
  return typeof v === 'number' && Number.isInteger(v);
}

function scalarOrList<T>(raw: string, isItem: (v: PyValue) => v is T & PyValue, what: string): T | T[] | null {
  if (raw === '') return null;
  const v = parsePyValue(raw);
  if (isItem(v)) return v;
  if (Array.isArray(v) && v.every(isItem)) return v as T[];
  throw new Error(`expected ${what} or a list of them, found ${quoted(raw)}`);
}

const STRING_LIST_START = /^\[(?:'|"|None[,\]])/;

const PARSERS: { [K in ColumnKind]: (raw: string) => KindValue[K] } = {
  str: required,
  'str?': (raw) => (raw === '' ? null : raw),
  int: requiredInteger,
  'int?': integer,
  'nint?': integer,
  'float?': number,
  'text?': (raw) => (raw === '' ? null : raw),
  bool: (raw) => boolean(required(raw)),
  strs: (raw) => asStringList(parsePyValue(required(raw))),
  ints: (raw) => asIntList(parsePyNumberList(required(raw))),
  floats: (raw) => parsePyNumberList(required(raw)),
  'floats?': (raw) => (raw === '' ? null : parsePyNumberList(raw)),
  'floats|float?': (raw) => (raw.startsWith('[') ? parsePyNumberList(raw) : number(raw)),
  'py-int?': (raw) => scalarOrList(raw, isInt, 'an integer'),
  'py-nint?': (raw) => scalarOrList(raw, isInt, 'an integer'),
  'py-float?': (raw) => {
    if (raw === '') return null;
    const v = parsePyValue(raw);
    return typeof v === 'number' ? v : asNumberList(v);
  },
  'py-tuple?': (raw) => {
    if (raw === '') return null;
    const v = parsePyValue(raw);
    if (Array.isArray(v) && v.every(Array.isArray)) return v.map((t) => asIntList(t));
    return asIntList(v);
  },
  'py-bool?': (raw) =>
    scalarOrList(raw, (v): v is boolean => typeof v === 'boolean', 'True/False') as boolean | boolean[] | null,
  'py-str?': (raw) => {
    if (raw === '') return null;
    if (!STRING_LIST_START.test(raw) || !raw.endsWith(']')) return raw;
    const v = parsePyValue(raw) as PyValue[];
    v.forEach((item, k) => {
      if (item !== null && typeof item !== 'string') throw new Error(`element ${k} is not a string`);
    });
    return v as (string | null)[];
  },
};
