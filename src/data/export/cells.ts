/**
 * From CSV text to typed rows: each column's cells are parsed by the kind
 * `columns.ts` gives it. A bad cell, a row with the wrong number of cells or a
 * broken quote becomes an `ExportProblem` naming file, line and column, and
 * the row is skipped (or, in strict mode, the read stops with an `ExportError`).
 */
import { isUtf8 } from 'node:buffer';
import { cellNames, type Cells, type ColumnKind, type CsvSpec, type KindValue } from './columns.js';
import { CsvScanner } from './csv.js';
import { bytesAre, numberInBytes } from './ranges.js';
import { asIntList, asNumberList, asStringList, numberListInBytes, parsePyNumber, parsePyNumberList, parsePyValue, type PyValue } from './pyrepr.js';

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
 * A member's bytes, ready for `readRows`. Valid UTF-8 (every real export) is
 * read as it is, checked in one native pass; otherwise each bad byte sequence
 * becomes U+FFFD, as WHATWG decoding does, and the text is re-encoded. `bad`
 * lists the byte sequences that mark the rows `readRows` must report: U+FFFD
 * for invalid UTF-8 (a Latin-1 `µ` is the byte 0xB5), and NUL, which no CSV
 * cell holds; null when there are none to look for.
 */
export interface Member {
  bytes: Buffer;
  bad: BadBytes | null;
}

/** What makes a row bad: the byte sequences to look for, and the characters they decode to in a cell (for the message). */
interface BadBytes {
  sequences: Buffer[];
  characters: RegExp;
}

const lenientUtf8 = new TextDecoder('utf-8');
const REPLACEMENT = Buffer.from('\uFFFD', 'utf8');
const NUL = Buffer.from([0]);

export function checkMember(data: Uint8Array): Member {
  // A leading BOM is dropped here as a decoder would drop it (and the scanner skips one more, as it does in text).
  const bom = data.length >= 3 && data[0] === 0xef && data[1] === 0xbb && data[2] === 0xbf ? 3 : 0;
  let bytes = Buffer.from(data.buffer, data.byteOffset + bom, data.byteLength - bom);
  const nul = bytes.indexOf(0) >= 0;
  const invalid = !isUtf8(bytes);
  if (invalid) bytes = Buffer.from(lenientUtf8.decode(bytes), 'utf8');
  const sequences = [...(nul ? [NUL] : []), ...(invalid ? [REPLACEMENT] : [])];
  const characters = invalid ? (nul ? /[\0\uFFFD]/ : /\uFFFD/) : /\0/;
  return { bytes, bad: sequences.length === 0 ? null : { sequences, characters } };
}

/** Position of the first bad sequence at or after `from`, or -1. */
function findBad(bad: BadBytes, bytes: Buffer, from: number): number {
  let first = -1;
  for (const sequence of bad.sequences) {
    const at = bytes.indexOf(sequence, from);
    if (at >= 0 && (first < 0 || at < first)) first = at;
  }
  return first;
}

/** The first cell of the scanner's row holding a bad character (-1 when none), and why it is bad. */
function badCell(scanner: CsvScanner, bad: BadBytes): { field: number; message: string } {
  for (let i = 0; i < scanner.width; i++) {
    const cell = scanner.cell(i);
    const at = cell.search(bad.characters);
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
 * How a column's cells are typed in place, from the scanner's bytes (see
 * `typeCell`); anything else, and every error, goes through `PARSERS` on the
 * cell's text, so that results and messages are those of the string parsers.
 */
const enum Typing {
  /** str, str?, text?: interned strings. */
  Text,
  /** int, int?, nint?, float?: numbers read in place. */
  Number,
  /** bool: True or False. */
  Boolean,
  /** ints, floats, floats?, floats|float?, py-int?, py-nint?, py-float? (a list): flat number lists read in place. */
  List,
  /** Every other kind: PARSERS on the cell's text. */
  Parsed,
}

const enum ListCells {
  Any,
  Bracket,
  Literal,
}

/** One column of the file: where its cells are, where its values go in the row's Cells, and how they are typed. */
interface Field {
  name: string;
  /** Position in the file's rows. */
  at: number;
  /** Position in the row's Cells. */
  slot: number;
  typing: Typing;
  /** An empty cell is null (rather than given to `parse`, which reports it). */
  nullable: boolean;
  /** A number (or every number of a list) must be an integer. */
  integral: boolean;
  /**
   * Which cells of a List column are read in place (the others go to `parse`):
   * `ListCells.Any`, those opening with `[` (`ListCells.Bracket`, floats|float?,
   * which may hold a scalar), or non-empty lists opening with `[` or `(`
   * (`ListCells.Literal`, the scatters' py-* cells, which may hold a scalar, and
   * where `(,)` is an error, not the empty tuple parsePyNumberList reads).
   */
  listCells: ListCells;
  parse: (raw: string) => unknown;
  /** The strings of a Text column (null for others). */
  strings: StringTable | null;
}

function fieldOf(name: string, at: number, slot: number, kind: ColumnKind): Field {
  const typing =
    kind === 'str' || kind === 'str?' || kind === 'text?'
      ? Typing.Text
      : kind === 'int' || kind === 'int?' || kind === 'nint?' || kind === 'float?'
        ? Typing.Number
        : kind === 'bool'
          ? Typing.Boolean
          : LIST_CELLS[kind] !== undefined
            ? Typing.List
            : Typing.Parsed;
  const nullable = kind !== 'str' && kind !== 'int' && kind !== 'bool' && kind !== 'ints' && kind !== 'floats';
  // For a list, every element must be an integer: `ints` throws asIntList's error, py-int? and py-nint? leave the cell to `parse`.
  const integral = kind === 'int' || kind === 'int?' || kind === 'nint?' || kind === 'ints' || kind === 'py-int?' || kind === 'py-nint?';
  const strings = typing === Typing.Text ? new StringTable() : null;
  return { name, at, slot, typing, nullable, integral, listCells: LIST_CELLS[kind] ?? ListCells.Any, parse: PARSERS[kind], strings };
}

/** The list kinds, and which of their cells are read in place. */
const LIST_CELLS: Partial<Record<ColumnKind, ListCells>> = {
  ints: ListCells.Any,
  floats: ListCells.Any,
  'floats?': ListCells.Any,
  'floats|float?': ListCells.Bracket,
  'py-int?': ListCells.Literal,
  'py-nint?': ListCells.Literal,
  'py-float?': ListCells.Literal,
};

/**
 * The value of cell `[start, end)` of `source` in `field`: strings, numbers
 * and booleans in place (no intermediate string), every other cell through
 * `field.parse` on its text, which also throws the message of a bad cell.
 * One function with a switch rather than a parser per column, so that the
 * call site stays monomorphic and the common cases are inlined.
 */
function typeCell(field: Field, source: Buffer, start: number, end: number): unknown {
  if (start === end && field.nullable && field.typing !== Typing.Parsed) return null;
  switch (field.typing) {
    case Typing.Text:
      if (start !== end) return field.strings!.get(source, start, end);
      break;
    case Typing.Number: {
      if (start === end) break;
      const n = numberInBytes(source, start, end);
      if (Number.isNaN(n) || (field.integral && !Number.isInteger(n))) break;
      // An integer as a small integer: pandas writes nullable integer columns as `6.0`, which the number reader
      // returns as a boxed double, and a record field that once held a double makes V8 retype it, deprecating
      // the shape of every record (and QA object copying the pk) made before: each then migrates on first read
      // (~30 ms for the 18,000 reference samples of the shared export alone). −0 has no small-integer form.
      return field.integral && n === (n | 0) && !Object.is(n, -0) ? n | 0 : n;
    }
    case Typing.Boolean:
      if (bytesAre(source, start, end, 'True')) return true;
      if (bytesAre(source, start, end, 'False')) return false;
      break;
    case Typing.List: {
      if (start === end) break;
      const open = source[start];
      if (field.listCells === ListCells.Bracket && open !== 91) break;
      if (field.listCells === ListCells.Literal && open !== 91 && open !== 40) break;
      const list = numberListInBytes(source, start, end);
      if (list === null || (field.listCells === ListCells.Literal && list.length === 0)) break;
      if (!field.integral) return list;
      if (field.listCells !== ListCells.Literal) return asIntList(list);
      if (list.every(isInt)) return list;
      break;
    }
  }
  return field.parse(source.toString('utf8', start, end));
}

/**
 * Parses the rows of one CSV member by its spec, one at a time as they are
 * iterated (so only the records built from them stay in memory; the rows can
 * be iterated once); columns are found by header name. Throws ExportError,
 * when iteration starts, if the header lacks a column of the spec.
 */
export function readRows<S extends CsvSpec>(spec: S, member: Member, log: ProblemLog, archive: string): Iterable<Parsed<S>> {
  return new RowReader(spec, member, log, archive);
}

/**
 * The iterator of `readRows`: a plain object whose `next` is an ordinary
 * method rather than a generator (each resumption of which costs a frame
 * restore, 138 000 times per export, and runs interpreted for longer in a
 * cold process), handing out one result object for every row.
 */
class RowReader<S extends CsvSpec> implements Iterable<Parsed<S>>, Iterator<Parsed<S>> {
  private readonly scanner: CsvScanner;
  private readonly bytes: Buffer;
  private readonly bad: BadBytes | null;
  private started = false;
  private header: string[] = [];
  private fields: Field[] = [];
  private width = 0;
  /** Where the next bad byte sequence is (see checkMember); -1 when none is left. */
  private nextBad = -1;
  private readonly parsed: Parsed<S> = { line: 0, row: [] };
  private readonly result: IteratorResult<Parsed<S>> = { done: false, value: this.parsed };

  constructor(
    private readonly spec: S,
    { bytes, bad }: Member,
    private readonly log: ProblemLog,
    private readonly archive: string,
  ) {
    this.scanner = new CsvScanner(bytes);
    this.bytes = bytes;
    this.bad = bad;
  }

  [Symbol.iterator](): Iterator<Parsed<S>> {
    return this;
  }

  /** Reads the header: false when the member holds no rows. */
  private start(): boolean {
    const { scanner, spec, bad, archive } = this;
    // An empty table: pandas writes an empty frame as the one empty header cell `""`
    // (write.ts: EMPTY_TABLE_CSV); a 0-byte file is read as empty too.
    if (!scanner.next()) return false;
    const header = scanner.row().cells;
    this.nextBad = bad === null ? -1 : findBad(bad, this.bytes, 0);
    if (this.nextBad >= 0 && this.nextBad < scanner.rowEnd) {
      const { field, message } = badCell(scanner, bad!);
      throw new ExportError(`${archive}: ${spec.file} line ${scanner.line}, header cell ${field + 1}: ${message}`);
    }
    const emptyFrame = header.length === 1 && header[0] === '';
    // Rows after it fall through to the missing-columns error below.
    if (emptyFrame && !scanner.next()) return false;
    const index = new Map(header.map((name, i) => [name, i] as const));
    const missing = Object.keys(spec.columns).filter((name) => !index.has(name));
    if (missing.length > 0) {
      throw new ExportError(`${archive}: ${spec.file} lacks column(s) ${missing.join(', ')}`);
    }
    // The columns the file has, each with where it is in the file and where its value goes in the row's Cells.
    const names = cellNames(spec);
    const kinds: Record<string, ColumnKind> = { ...spec.optional, ...spec.columns };
    for (const [slot, name] of names.entries()) {
      const at = index.get(name);
      if (at !== undefined) this.fields.push(fieldOf(name, at, slot, kinds[name]));
    }
    this.parsed.row = names.map(() => null);
    this.header = header;
    this.width = header.length;
    return true;
  }

  next(): IteratorResult<Parsed<S>> {
    if (!this.started) {
      this.started = true;
      if (!this.start()) return this.end();
    }
    const { scanner, spec, log, header, fields, width } = this;
    const cells = this.parsed.row as unknown[];
    const count = fields.length;
    rows: while (scanner.next()) {
      const line = scanner.line;
      if (this.nextBad >= 0 && this.nextBad < scanner.rowEnd) {
        if (!log.countIfFull()) {
          const { field, message } = badCell(scanner, this.bad!);
          log.add({ file: spec.file, line, column: header[field] ?? null, message });
        }
        this.nextBad = findBad(this.bad!, this.bytes, scanner.rowEnd);
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
      const source = scanner.source;
      for (let i = 0; i < count; i++) {
        const field = fields[i];
        const at = field.at;
        try {
          cells[field.slot] = typeCell(field, source, scanner.start(at), scanner.end(at));
        } catch (e) {
          log.add({ file: spec.file, line, column: field.name, message: (e as Error).message });
          continue rows;
        }
      }
      this.parsed.line = line;
      return this.result;
    }
    return this.end();
  }

  private end(): IteratorResult<Parsed<S>> {
    this.started = true;
    return { done: true, value: undefined };
  }
}

/** Distinct values a string column interns (a power of two); the table is kept at most half full. */
const INTERN_SLOTS = 8192;

/** Bytes of the values a string column keeps, in all: a longer value is not kept. */
const INTERN_BYTES = 1024 * 1024;

/**
 * The strings of one column, interned: a cell equal to one seen before in the
 * column is handed back as that string, found by a hash of the cell's bytes in
 * place, so study names, tissues, units and measurement types cost no string
 * per cell and the records share one string per value (fewer survivors for
 * the garbage collector to copy). Each kept value's bytes are copied into
 * `bytes` to compare cells with. Memory is bounded: past INTERN_SLOTS / 2
 * values or INTERN_BYTES bytes, new values are decoded and not kept.
 */
class StringTable {
  /** Open addressing, at most half full: a power-of-two number of slots, grown up to INTERN_SLOTS as values are kept. */
  private values: (string | undefined)[] = new Array<string | undefined>(64).fill(undefined);
  private hashes = new Int32Array(64);
  /** Where each kept value's bytes are in `bytes`. */
  private starts = new Int32Array(64);
  private ends = new Int32Array(64);
  private bytes = Buffer.allocUnsafe(256);
  private used = 0;
  private kept = 0;
  /** The value last handed out and its bytes: runs of one value (a study's rows) are the common case, with no hash to compute. */
  private previous = '';
  private previousStart = 0;
  private previousEnd = 0;

  get(source: Buffer, start: number, end: number): string {
    const known = this.bytes;
    if (sameBytes(source, start, end, known, this.previousStart, this.previousEnd)) return this.previous;
    // FNV-1a over the bytes.
    let hash = 0x811c9dc5;
    for (let i = start; i < end; i++) hash = Math.imul(hash ^ source[i], 0x01000193);
    const values = this.values;
    const mask = values.length - 1;
    let slot = hash & mask;
    for (let value = values[slot]; value !== undefined; value = values[slot]) {
      if (this.hashes[slot] === hash && sameBytes(source, start, end, known, this.starts[slot], this.ends[slot])) {
        this.previousStart = this.starts[slot];
        this.previousEnd = this.ends[slot];
        return (this.previous = value);
      }
      slot = (slot + 1) & mask;
    }
    const value = source.toString('utf8', start, end);
    const length = end - start;
    if (this.kept >= INTERN_SLOTS / 2 || this.used + length > INTERN_BYTES) return value;
    if (this.used + length > known.length) {
      this.bytes = Buffer.allocUnsafe(Math.min(INTERN_BYTES, Math.max(2 * known.length, this.used + length)));
      this.bytes.set(known.subarray(0, this.used));
    }
    // A loop rather than Buffer#copy, whose call costs more than a value's few bytes.
    const bytes = this.bytes;
    for (let i = start, j = this.used; i < end; i++, j++) bytes[j] = source[i];
    this.previousStart = this.used;
    this.previousEnd = this.used += length;
    this.previous = value;
    this.put(value, hash, this.previousStart, this.previousEnd);
    return value;
  }

  /** Keeps `value` (whose bytes are `bytes[start, end)`), doubling the slots first when they would be over half full. */
  private put(value: string, hash: number, start: number, end: number): void {
    if (2 * (this.kept + 1) > this.values.length) this.grow();
    const mask = this.values.length - 1;
    let slot = hash & mask;
    while (this.values[slot] !== undefined) slot = (slot + 1) & mask;
    this.values[slot] = value;
    this.hashes[slot] = hash;
    this.starts[slot] = start;
    this.ends[slot] = end;
    this.kept++;
  }

  private grow(): void {
    const { values, hashes, starts, ends } = this;
    const size = 2 * values.length;
    this.values = new Array<string | undefined>(size).fill(undefined);
    this.hashes = new Int32Array(size);
    this.starts = new Int32Array(size);
    this.ends = new Int32Array(size);
    this.kept = 0;
    for (let slot = 0; slot < values.length; slot++) {
      const value = values[slot];
      if (value !== undefined) this.put(value, hashes[slot], starts[slot], ends[slot]);
    }
  }
}

/** Whether `a[aStart, aEnd)` and `b[bStart, bEnd)` hold the same bytes. */
function sameBytes(a: Uint8Array, aStart: number, aEnd: number, b: Uint8Array, bStart: number, bEnd: number): boolean {
  if (aEnd - aStart !== bEnd - bStart) return false;
  for (let i = aStart, j = bStart; i < aEnd; i++, j++) if (a[i] !== b[j]) return false;
  return true;
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
