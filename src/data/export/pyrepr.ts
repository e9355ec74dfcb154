/**
 * Python `repr`/`str()` text as pandas writes it into PK-DB's export CSVs:
 * scalars (`6.0`, `1e-05`, `True`, `None`, `nan`) and containers
 * (`[1, None, 0.5]`, `(814,)`, `['a', 'b']`, `[(1, 2), (1, 2)]`).
 *
 * Only the reader's known list columns go through `parsePyValue`: free text
 * such as `[2-3H]glucose` or `(mor+m3g+m6g)/(cod+c6g)` also starts with a
 * bracket and must stay a string (PK-DB API notes §8).
 */
import { numberInBytes } from './ranges.js';

/** A parsed Python literal. Tuples become arrays; `None` and `nan` become null. */
export type PyValue = number | string | boolean | null | PyValue[];

export class PyReprError extends Error {
  override name = 'PyReprError';
}

/** Parses one Python literal; the whole text must be consumed. */
export function parsePyValue(text: string): PyValue {
  const parser = new LiteralParser(text);
  const value = parser.value();
  parser.skipSpace();
  if (parser.pos < text.length) parser.fail('unexpected text after the value');
  return value;
}

/** Export cells nest two deep at most (`[(1, 2)]`); a deeper one is refused before it can exhaust the stack. */
const MAX_DEPTH = 32;

class LiteralParser {
  pos = 0;
  private depth = 0;
  constructor(private readonly text: string) {}

  fail(what: string): never {
    const excerpt = this.text.length > 40 ? `${this.text.slice(0, 40)}…` : this.text;
    throw new PyReprError(`${what} at character ${this.pos + 1} of ${JSON.stringify(excerpt)}`);
  }

  skipSpace(): void {
    while (this.text.charCodeAt(this.pos) === 32) this.pos++;
  }

  value(): PyValue {
    this.skipSpace();
    const c = this.text[this.pos];
    if (c === '[') return this.sequence(']');
    if (c === '(') return this.sequence(')');
    if (c === "'" || c === '"') return this.string(c);
    return this.atom();
  }

  /** `[a, b]`, `(a, b)`, `(a,)`, `[]`, `()`. */
  private sequence(close: string): PyValue[] {
    if (++this.depth > MAX_DEPTH) this.fail(`nested deeper than ${MAX_DEPTH}`);
    this.pos++;
    const items: PyValue[] = [];
    this.skipSpace();
    if (this.text[this.pos] === close) {
      this.pos++;
      this.depth--;
      return items;
    }
    for (;;) {
      items.push(this.value());
      this.skipSpace();
      const c = this.text[this.pos];
      if (c === close) {
        this.pos++;
        this.depth--;
        return items;
      }
      if (c !== ',') this.fail(`expected ',' or '${close}'`);
      this.pos++;
      this.skipSpace();
      if (this.text[this.pos] === close) {
        this.pos++;
        this.depth--;
        return items;
      }
    }
  }

  private string(quote: string): string {
    let out = '';
    let i = this.pos + 1;
    const text = this.text;
    for (;;) {
      if (i >= text.length) {
        this.pos = i;
        this.fail('unterminated string');
      }
      const c = text[i];
      if (c === quote) break;
      if (c !== '\\') {
        out += c;
        i++;
        continue;
      }
      const e = text[i + 1];
      const simple = ESCAPES[e];
      if (simple !== undefined) {
        out += simple;
        i += 2;
      } else if (e === 'x' || e === 'u' || e === 'U') {
        const width = e === 'x' ? 2 : e === 'u' ? 4 : 8;
        const hex = text.slice(i + 2, i + 2 + width);
        if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== width || parseInt(hex, 16) > 0x10ffff) {
          this.pos = i;
          this.fail(`bad \\${e} escape`);
        }
        out += String.fromCodePoint(parseInt(hex, 16));
        i += 2 + width;
      } else {
        // Python keeps unknown escapes verbatim.
        out += c;
        i++;
      }
    }
    this.pos = i + 1;
    return out;
  }

  /** None, True, False, nan, inf, or a number. */
  private atom(): PyValue {
    const start = this.pos;
    const text = this.text;
    while (this.pos < text.length && !ATOM_END.has(text[this.pos])) this.pos++;
    const word = text.slice(start, this.pos);
    if (word === '') this.fail('expected a value');
    const keyword = KEYWORDS.get(word);
    if (keyword !== undefined) return keyword;
    const number = parsePyNumber(word);
    if (number === null) {
      this.pos = start;
      this.fail(`not a Python literal: ${JSON.stringify(word)}`);
    }
    return number;
  }
}

const ESCAPES: Record<string, string> = {
  '\\': '\\',
  "'": "'",
  '"': '"',
  n: '\n',
  t: '\t',
  r: '\r',
  '0': '\0',
  a: '\x07',
  b: '\b',
  f: '\f',
  v: '\v',
};
const ATOM_END = new Set([',', ']', ')', ' ']);
const KEYWORDS = new Map<string, PyValue>([
  ['None', null],
  ['nan', null],
  ['True', true],
  ['False', false],
]);

/**
 * A Python int or float repr as a number, or null when the text is not one.
 * `Number()` of the shortest round-trip repr gives the bit-identical double.
 * `Number` also accepts what Python never writes (`''`, ` 1`, `0x1f`, `0b1`,
 * `Infinity`); looking at the first and last characters keeps those out
 * without scanning every digit.
 */
export function parsePyNumber(text: string): number | null {
  if (text === 'inf') return Infinity;
  if (text === '-inf') return -Infinity;
  const n = text.length;
  if (n === 0) return null;
  const first = text.charCodeAt(0);
  const last = text.charCodeAt(n - 1);
  const firstOk = isDigit(first) || first === 45 || first === 43 || first === 46;
  const lastOk = isDigit(last) || last === 46;
  if (!firstOk || !lastOk) return null;
  if (first === 48 && n > 2 && !isDigit(text.charCodeAt(1)) && text.charCodeAt(1) !== 46) {
    const second = text.charCodeAt(1) | 0x20;
    if (second === 120 || second === 98 || second === 111) return null;
  }
  const value = Number(text);
  return Number.isNaN(value) ? null : value;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/**
 * A flat list of numbers and None (`[0.0, None, 1e-05]`, `(814,)`): the bulk
 * of timecourses.csv, read by splitting on `, ` instead of the general parser
 * (`numberListInBytes`). Anything else (nested, strings, odd spacing) goes
 * through `parsePyValue`, which also gives the error message.
 */
export function parsePyNumberList(text: string): (number | null)[] {
  const bytes = Buffer.from(text, 'utf8');
  return numberListInBytes(bytes, 0, bytes.length) ?? asNumberList(parsePyValue(text));
}

/**
 * The flat list of numbers and None in the UTF-8 bytes `[start, end)`, read in
 * place between `, ` separators without a string per item; null when it is
 * anything else, which the caller gives to the general parser.
 */
export function numberListInBytes(bytes: Buffer, start: number, end: number): (number | null)[] | null {
  const length = end - start;
  if (length < 2) return null;
  const open = bytes[start];
  const close = bytes[end - 1];
  if (!((open === 91 && close === 93) || (open === 40 && close === 41))) return null;
  // The items end before the closing bracket, or before a tuple's trailing comma: `(814,)`.
  const stop = end - (bytes[end - 2] === 44 ? 2 : 1);
  if (stop === start + 1) return [];
  const out: (number | null)[] = [];
  for (let from = start + 1; ; ) {
    // The next `, ` at or before `stop` (one further on counts as none).
    let to = from;
    while (to < stop && !(bytes[to] === 44 && bytes[to + 1] === 32)) to++;
    const item = listNumber(bytes, from, to);
    if (item === undefined) return null;
    out.push(item);
    if (to === stop) return out;
    from = to + 2;
  }
}

/** One item of a number list: a number, null for `None`/`nan`, undefined when it is neither. */
function listNumber(bytes: Buffer, from: number, to: number): number | null | undefined {
  const n = numberInBytes(bytes, from, to);
  if (!Number.isNaN(n)) return n;
  const item = bytes.toString('utf8', from, to);
  if (item === 'None' || item === 'nan') return null;
  return parsePyNumber(item) ?? undefined;
}

/** Checks a parsed list column holds integers (`[209, 210]`, `(814,)`). */
export function asIntList(value: PyValue): number[] {
  if (!Array.isArray(value)) throw new PyReprError('expected a list of integers');
  value.forEach((item, k) => {
    if (typeof item !== 'number' || !Number.isInteger(item)) throw new PyReprError(`element ${k} is not an integer`);
  });
  return value as number[];
}

/** Checks a parsed list column holds numbers or None (`[0.0, None, 0.5]`). */
export function asNumberList(value: PyValue): (number | null)[] {
  if (!Array.isArray(value)) throw new PyReprError('expected a list of numbers');
  value.forEach((item, k) => {
    if (item !== null && typeof item !== 'number') throw new PyReprError(`element ${k} is not a number`);
  });
  return value as (number | null)[];
}

/** Checks a parsed list column holds strings (`['mkoenig', 'jbrandhorst']`). */
export function asStringList(value: PyValue): string[] {
  if (!Array.isArray(value)) throw new PyReprError('expected a list of strings');
  value.forEach((item, k) => {
    if (typeof item !== 'string') throw new PyReprError(`element ${k} is not a string`);
  });
  return value as string[];
}

/**
 * Python's `repr(float)`: the shortest round-trip digits (what JS also picks),
 * positional when the decimal exponent e satisfies -4 <= e < 16, otherwise
 * `d.ddde±XX` with at least two exponent digits; integral values keep `.0`.
 * E.g. 6 -> `6.0`, 0.00001 -> `1e-05`, 1.5e16 -> `1.5e+16`, 0.0001 -> `0.0001`.
 */
export function formatPyFloat(n: number): string {
  if (Number.isNaN(n)) return 'nan';
  if (!Number.isFinite(n)) return n > 0 ? 'inf' : '-inf';
  if (n === 0) return Object.is(n, -0) ? '-0.0' : '0.0';
  const magnitude = Math.abs(n);
  if (magnitude >= 1e-4 && magnitude < 1e16) {
    // Both languages write this range positionally with the same shortest digits.
    const js = String(n);
    return js.includes('.') ? js : `${js}.0`;
  }
  const sign = n < 0 ? '-' : '';
  const [mantissa, exponentText] = magnitude.toExponential().split('e');
  const e = Number(exponentText);
  const digits = mantissa.replace('.', '');
  if (e < -4 || e >= 16) {
    const m = digits.length === 1 ? digits : `${digits[0]}.${digits.slice(1)}`;
    return `${sign}${m}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  }
  if (e < 0) return `${sign}0.${'0'.repeat(-e - 1)}${digits}`;
  const intLength = e + 1;
  if (digits.length <= intLength) return `${sign}${digits.padEnd(intLength, '0')}.0`;
  return `${sign}${digits.slice(0, intLength)}.${digits.slice(intLength)}`;
}

/** Python's `repr(int)`; exact beyond 2^53 too, where JS would switch to exponent form. */
export function formatPyInt(n: number): string {
  return Math.abs(n) < 1e21 ? String(n) : BigInt(n).toString();
}

/**
 * Python's `repr(str)`: single quotes unless the text holds `'` and no `"`;
 * backslash escapes for the quote, `\\`, `\n`, `\r`, `\t` and other control characters.
 */
export function formatPyString(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === '\\' || ch === quote) out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (code < 0x20 || (code >= 0x7f && code <= 0xa0)) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return out + quote;
}

/** `[a, b]` from already formatted items. */
export function formatPyList(items: readonly string[]): string {
  return `[${items.join(', ')}]`;
}

/** `(a,)`, `(a, b)`, `()` from already formatted items. */
export function formatPyTuple(items: readonly string[]): string {
  return items.length === 1 ? `(${items[0]},)` : `(${items.join(', ')})`;
}
