import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  asNumberList,
  formatPyFloat,
  formatPyString,
  formatPyTuple,
  formatPyList,
  parsePyNumber,
  parsePyNumberList,
  parsePyValue,
} from '../../../src/data/export/pyrepr.js';

describe('Python repr', () => {
  it('parses lists, tuples, None/nan, booleans and strings', () => {
    expect(parsePyValue('[1, None, 0.5]')).toEqual([1, null, 0.5]);
    expect(parsePyValue('(814,)')).toEqual([814]);
    expect(parsePyValue('()')).toEqual([]);
    expect(parsePyValue('[(2006, 2008, 2010), (2006, 2008, 2010)]')).toEqual([
      [2006, 2008, 2010],
      [2006, 2008, 2010],
    ]);
    expect(parsePyValue("['mkoenig', 'jbrandhorst']")).toEqual(['mkoenig', 'jbrandhorst']);
    expect(parsePyValue(`["it's", 'a\\\\b\\n', '\\x41\\u00e9']`)).toEqual(["it's", 'a\\b\n', 'Aé']);
    expect(parsePyValue('[nan, True, False, -inf, 1e-05]')).toEqual([null, true, false, -Infinity, 0.00001]);
  });

  it('rejects text that only looks like a list, naming the position', () => {
    expect(() => parsePyValue('[2-3H]glucose')).toThrow(/not a Python literal: "2-3H"/);
    expect(() => parsePyValue('(mor+m3g+m6g)/(cod+c6g)')).toThrow(/not a Python literal/);
    expect(() => parsePyValue('[1, 2')).toThrow(/expected ',' or '\]' at character 6/);
    expect(() => parsePyValue('[1] x')).toThrow(/unexpected text after the value/);
  });

  it('refuses deep nesting and out-of-range escapes with a message, not a stack overflow', () => {
    expect(parsePyValue(`${'['.repeat(32)}${']'.repeat(32)}`)).toHaveLength(1);
    expect(parsePyValue('[[], [[]], ()]')).toEqual([[], [[]], []]);
    expect(() => parsePyValue('['.repeat(1_000_000))).toThrow(/nested deeper than 32 at character 33/);
    expect(() => parsePyValue("['\\U00110000']")).toThrow(/bad \\U escape/);
  });

  it('the in-place list reader agrees with the general parser on any mix of items and separators', () => {
    const item = fc.oneof(
      fc.double({ noNaN: true }).map(formatPyFloat),
      fc.constantFrom('None', 'nan', 'inf', '-inf', '', ' ', '+1', '.5', '5.', '1e5', '0x1', "'a'", '[2]', 'True'),
    );
    const list = fc.tuple(fc.array(item, { maxLength: 6 }), fc.constantFrom(', ', ',', ' , ', ',  '), fc.constantFrom('[]', '()', '[, ]'));
    fc.assert(
      fc.property(list, ([items, separator, [open, ...close]]) => {
        const text = `${open}${items.join(separator)}${close.join('')}`;
        // A lone trailing comma is read as an empty tuple, as it always was (Python writes `()`); the general parser refuses it.
        fc.pre(!/^[[(],[\])]$/.test(text));
        const general = (() => {
          try {
            return asNumberList(parsePyValue(text));
          } catch (error) {
            return (error as Error).message;
          }
        })();
        const fast = (() => {
          try {
            return parsePyNumberList(text);
          } catch (error) {
            return (error as Error).message;
          }
        })();
        expect(fast).toEqual(general);
      }),
      { numRuns: 5_000 },
    );
  });

  it('reads flat number lists fast and everything else through the general parser', () => {
    expect(parsePyNumberList('[0.0, None, 1e-05, nan]')).toEqual([0, null, 0.00001, null]);
    expect(parsePyNumberList('(814,)')).toEqual([814]);
    expect(parsePyNumberList('[]')).toEqual([]);
    expect(parsePyNumberList('[1,2]')).toEqual([1, 2]);
    expect(() => parsePyNumberList('[1, [2]]')).toThrow(/element 1 is not a number/);
    expect(() => parsePyNumberList('[1, 2]]')).toThrow(/unexpected text after the value/);
    expect(() => parsePyNumberList('[1, 2')).toThrow(/expected ','/);
    fc.assert(
      fc.property(fc.array(fc.option(fc.double({ noNaN: true }), { nil: null })), (list) => {
        const text = formatPyList(list.map((x) => (x === null ? 'None' : formatPyFloat(x))));
        expect(parsePyNumberList(text)).toEqual(list);
      }),
    );
  });

  it('parses numbers exactly and only numbers', () => {
    expect(parsePyNumber('0.0018108640000000001')).toBe(0.0018108640000000001);
    expect(parsePyNumber('6.0')).toBe(6);
    expect(parsePyNumber('-1.5e+16')).toBe(-1.5e16);
    for (const bad of ['', ' 1', '1 ', '0x1f', '0b1', '0o7', 'Infinity', '1_0', 'abc', '1e']) {
      expect(parsePyNumber(bad), bad).toBeNull();
    }
  });

  it('formats floats as Python repr does', () => {
    const cases: [number, string][] = [
      [6, '6.0'],
      [0.00001, '1e-05'],
      [0.0001, '0.0001'],
      [0.000123, '0.000123'],
      [1.5e16, '1.5e+16'],
      [1e16, '1e+16'],
      [9999999999999998, '9999999999999998.0'],
      [123456789012345680, '1.2345678901234568e+17'],
      [1e22, '1e+22'],
      [-2.5e-7, '-2.5e-07'],
      [5e-324, '5e-324'],
      [0.1 + 0.2, '0.30000000000000004'],
      [-0, '-0.0'],
      [NaN, 'nan'],
    ];
    for (const [n, text] of cases) expect(formatPyFloat(n)).toBe(text);
  });

  it('formats floats that parse back to the same double', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (n) => {
        expect(Object.is(parsePyNumber(formatPyFloat(n)), n)).toBe(true);
      }),
      { numRuns: 5000 },
    );
  });

  it('formats strings and tuples as Python does, and parses them back', () => {
    expect(formatPyString('abc')).toBe("'abc'");
    expect(formatPyString("it's")).toBe(`"it's"`);
    expect(formatPyString(`it's "x"`)).toBe(`'it\\'s "x"'`);
    expect(formatPyString('a\tb\\')).toBe("'a\\tb\\\\'");
    expect(formatPyTuple(['814'])).toBe('(814,)');
    expect(formatPyTuple(['1', '2'])).toBe('(1, 2)');
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (s) => {
        expect(parsePyValue(formatPyString(s))).toBe(s);
      }),
    );
  });
});
