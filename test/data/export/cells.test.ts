import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkMember, ProblemLog, readRows } from '../../../src/data/export/cells.js';
import type { CsvSpec } from '../../../src/data/export/columns.js';
import { formatCsvLine } from '../../../src/data/export/csv.js';
import { asIntList, asNumberList, formatPyFloat, parsePyNumber, parsePyNumberList, parsePyValue } from '../../../src/data/export/pyrepr.js';

const SPEC = {
  file: 't.csv',
  columns: { s: 'str?', n: 'float?', k: 'int?', b: 'bool', r: 'str', t: 'text?', l: 'floats?' },
  optional: {},
} as const satisfies CsvSpec;

/** Python float reprs (`6.0`, `1e-05`, `0.27299999999999996`). */
const repr = fc.double({ noNaN: true, noDefaultInfinity: true }).map((x) => {
  if (Object.is(x, -0)) return '-0.0';
  const js = String(x);
  if (js.includes('e')) return js.replace(/e([+-])(\d)$/, 'e$10$2');
  return Number.isInteger(x) ? `${js}.0` : js;
});

/** Text of any Unicode (multi-byte UTF-8 included), quotes, commas and line breaks too. */
const text = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 6 }), fc.constantFrom('µg/l', 'a,b', 'say "hi"', 'two\nlines', 'PKDB00198'));

/** A row by column, as written, and the values the reader must type it to. */
const row = fc
  .record({
    s: fc.oneof(text, fc.constant('')),
    n: fc.oneof(repr, fc.constantFrom('', 'nan', '1e+300', '-5e-324')),
    k: fc.oneof(fc.integer({ min: -1e6, max: 1e6 }).map(String), fc.integer({ min: 0, max: 1e4 }).map((n) => `${n}.0`), fc.constantFrom('', '-0.0', '-7.0', '3000000000.0')),
    b: fc.constantFrom('True', 'False'),
    r: text.filter((s) => s !== ''),
    t: fc.oneof(text, fc.constant('')),
    l: fc.oneof(fc.array(repr, { maxLength: 4 }).map((xs) => `[${xs.join(', ')}]`), fc.constant('')),
  })
  .map((cells) => ({
    cells,
    values: {
      s: cells.s === '' ? null : cells.s,
      n: cells.n === '' || cells.n === 'nan' ? null : Number(cells.n),
      k: cells.k === '' ? null : Number(cells.k),
      b: cells.b === 'True',
      r: cells.r,
      t: cells.t === '' ? null : cells.t,
      l: cells.l === '' ? null : cells.l === '[]' ? [] : cells.l.slice(1, -1).split(', ').map(Number),
    },
  }));

const NAMES = ['s', 'n', 'k', 'b', 'r', 't', 'l'] as const;

/** Reads `csv` (a string, as UTF-8 bytes) and collects each row's typed values by column name. */
function read(csv: string, log = new ProblemLog('z', false)): { line: number; values: Record<string, unknown> }[] {
  const out: { line: number; values: Record<string, unknown> }[] = [];
  for (const { line, row } of readRows(SPEC, checkMember(Buffer.from(csv, 'utf8')), log, 'z')) {
    out.push({ line, values: Object.fromEntries(NAMES.map((name, k) => [name, row[k]])) });
  }
  return out;
}

describe('readRows', () => {
  it('types every cell in place as the string parsers would, whatever the text, quoting or column order', () => {
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: 30 }), fc.shuffledSubarray([...NAMES], { minLength: NAMES.length }), (rows, order) => {
        const csv = formatCsvLine(['', ...order]) + rows.map((r, i) => formatCsvLine([String(i), ...order.map((name) => r.cells[name])])).join('');
        const typed = read(csv);
        expect(typed.map((r) => r.values)).toEqual(rows.map((r) => r.values));
        for (const [k, { values }] of typed.entries()) {
          for (const name of ['n', 'k'] as const) expect(Object.is(values[name], rows[k].values[name])).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('hands back the same strings past the string table limits (more distinct values than it keeps)', () => {
    const values = Array.from({ length: 6000 }, (_, i) => `v${(i * 7919) % 6000}é`);
    const csv = formatCsvLine(['', ...NAMES]) + [...values, ...values].map((v, i) => formatCsvLine([String(i), v, '', '', 'True', v, v, ''])).join('');
    const typed = read(csv);
    expect(typed.map((r) => [r.values.s, r.values.r, r.values.t])).toEqual([...values, ...values].map((v) => [v, v, v]));
  });

  it('reports a bad cell with its file, line and column and skips the row', () => {
    const log = new ProblemLog('z', false);
    const csv = `,${NAMES.join(',')}\n0,a,1.5,2,True,x,,\n1,a,1.5x,2,True,x,,\n2,"b, c",,,False,"y ""z""",,[1.0]\n`;
    const typed = read(csv, log);
    expect(typed.map((r) => r.line)).toEqual([2, 4]);
    expect(typed[1].values).toEqual({ s: 'b, c', n: null, k: null, b: false, r: 'y "z"', t: null, l: [1] });
    expect(log.problems).toEqual([{ file: 't.csv', line: 3, column: 'n', message: 'not a number: "1.5x"' }]);
  });

  it('reports invalid UTF-8 and NUL bytes by row, and reads the other rows', () => {
    const log = new ProblemLog('z', false);
    const head = Buffer.from(`,${NAMES.join(',')}\n0,a,,,True,x,,\n1,`, 'utf8');
    const tail = Buffer.from(',,,True,x,,\n2,b,,,True,\0,,\n3,c,,,True,x,,\n', 'utf8');
    const csv = Buffer.concat([head, Buffer.from([0xb5]), tail]);
    const rows: number[] = [];
    for (const { line } of readRows(SPEC, checkMember(csv), log, 'z')) rows.push(line);
    expect(rows).toEqual([2, 5]);
    expect(log.problems.map((p) => [p.line, p.column, p.message.split(' at ')[0]])).toEqual([
      [3, 's', 'invalid UTF-8 (read as U+FFFD; Latin-1 text?)'],
      [4, 'r', 'a NUL byte'],
    ]);
  });

  it('reads list columns in place as parsePyNumberList reads their text, errors included', () => {
    const LISTS = { file: 'l.csv', columns: { i: 'ints', f: 'floats|float?', l: 'floats?' }, optional: {} } as const satisfies CsvSpec;
    const item = fc.oneof(
      fc.double({ noNaN: true }).map(formatPyFloat),
      fc.integer().map(String),
      fc.constantFrom('None', 'nan', 'inf', '', ' ', '+1', '.5', '5.', '1e5', '0x1', "'a'", '[2]', 'µ'),
    );
    const list = fc
      .tuple(fc.array(item, { maxLength: 5 }), fc.constantFrom(', ', ',', ' , '), fc.constantFrom('[]', '()', '(,)', '[, ]'))
      .map(([items, separator, [open, ...close]]) => `${open}${items.join(separator)}${close.join('')}`);
    const cell = fc.oneof(list, item);
    /** What the string parsers make of each column's text: the value, or the message of its error. */
    const expected = (i: string, f: string, l: string): Record<string, unknown> | string => {
      try {
        if (i === '') throw new Error('missing value');
        const number = (raw: string) => (raw === '' || raw === 'nan' ? null : (parsePyNumber(raw) ?? fail(`not a number: ${JSON.stringify(raw.length > 40 ? `${raw.slice(0, 40)}…` : raw)}`)));
        return {
          i: asIntList(parsePyNumberList(i)),
          f: f.startsWith('[') ? parsePyNumberList(f) : number(f),
          l: l === '' ? null : parsePyNumberList(l),
        };
      } catch (error) {
        return (error as Error).message;
      }
    };
    const fail = (message: string): never => {
      throw new Error(message);
    };
    fc.assert(
      fc.property(fc.array(fc.tuple(cell, cell, cell), { minLength: 1, maxLength: 10 }), (rows) => {
        const csv = formatCsvLine(['', 'i', 'f', 'l']) + rows.map(([i, f, l], k) => formatCsvLine([String(k), i, f, l])).join('');
        const log = new ProblemLog('z', false);
        const typed: (Record<string, unknown> | string)[] = [];
        let problem = 0;
        for (const { line, row } of readRows(LISTS, checkMember(Buffer.from(csv, 'utf8')), log, 'z')) {
          while (typed.length < line - 2) typed.push(log.problems[problem++].message);
          typed.push({ i: row[0], f: row[1], l: row[2] });
        }
        while (typed.length < rows.length) typed.push(log.problems[problem++].message);
        // Only the first bad column of a row is reported; the expectation stops at the first too, in column order.
        expect(typed).toEqual(rows.map(([i, f, l]) => expected(i, f, l)));
      }),
      { numRuns: 2_000 },
    );
  });

  it("reads the scatters' py-int?, py-nint? and py-float? cells as the general parser reads them, errors included", () => {
    const PY = { file: 'p.csv', columns: { i: 'py-int?', n: 'py-nint?', f: 'py-float?' }, optional: {} } as const satisfies CsvSpec;
    const item = fc.oneof(fc.double({ noNaN: true }).map(formatPyFloat), fc.integer().map(String), fc.constantFrom('None', 'nan', 'inf', '', '1e5', "'a'", '[2]', 'True'));
    const literal = fc
      .tuple(fc.array(item, { maxLength: 4 }), fc.constantFrom(', ', ','), fc.constantFrom('[]', '()', '(,)', '[, ]'))
      .map(([items, separator, [open, ...close]]) => `${open}${items.join(separator)}${close.join('')}`);
    const cell = fc.oneof(literal, item);
    const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);
    const intOrList = (raw: string) => {
      if (raw === '') return null;
      const v = parsePyValue(raw);
      if (isInt(v) || (Array.isArray(v) && v.every(isInt))) return v;
      throw new Error(`expected an integer or a list of them, found ${JSON.stringify(raw.length > 40 ? `${raw.slice(0, 40)}…` : raw)}`);
    };
    const expected = (i: string, n: string, f: string): Record<string, unknown> | string => {
      try {
        const ints = { i: intOrList(i), n: intOrList(n) };
        const float = f === '' ? undefined : parsePyValue(f);
        return { ...ints, f: float === undefined ? null : typeof float === 'number' ? float : asNumberList(float) };
      } catch (error) {
        return (error as Error).message;
      }
    };
    fc.assert(
      fc.property(fc.array(fc.tuple(cell, cell, cell), { minLength: 1, maxLength: 10 }), (rows) => {
        const csv = formatCsvLine(['', 'i', 'n', 'f']) + rows.map(([i, n, f], k) => formatCsvLine([String(k), i, n, f])).join('');
        const log = new ProblemLog('z', false);
        const typed: (Record<string, unknown> | string)[] = [];
        let problem = 0;
        for (const { line, row } of readRows(PY, checkMember(Buffer.from(csv, 'utf8')), log, 'z')) {
          while (typed.length < line - 2) typed.push(log.problems[problem++].message);
          typed.push({ i: row[0], n: row[1], f: row[2] });
        }
        while (typed.length < rows.length) typed.push(log.problems[problem++].message);
        expect(typed).toEqual(rows.map(([i, n, f]) => expected(i, n, f)));
      }),
      { numRuns: 2_000 },
    );
  });
});
