import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bytesAre, numberInBytes } from '../../../src/data/export/ranges.js';

/** numberInBytes on the range `[start, end)` of an ASCII text (as its bytes: one byte per character). */
const numberInRange = (text: string, start: number, end: number) => numberInBytes(Buffer.from(text, 'latin1'), start, end);

/** Python float reprs, short and long: `repr(float)` is the shortest round-trip string, as JS's, in another notation. */
const pythonRepr = fc.double({ noNaN: true, noDefaultInfinity: true }).map((x) => {
  if (Object.is(x, -0)) return '-0.0';
  const js = String(x);
  if (js.includes('e')) return js.replace(/e([+-])(\d)$/, 'e$10$2');
  return Number.isInteger(x) ? `${js}.0` : js;
});

/** The grammar numberInBytes reads, with exponents and mantissas of any length. */
const reprLike = fc
  .tuple(
    fc.boolean(),
    fc.stringMatching(/^[0-9]{1,20}$/),
    fc.option(fc.stringMatching(/^[0-9]{1,20}$/), { nil: undefined }),
    fc.option(fc.tuple(fc.constantFrom('', '+', '-'), fc.stringMatching(/^[0-9]{1,4}$/)), { nil: undefined }),
  )
  .map(([negative, whole, fraction, exponent]) => {
    const e = exponent === undefined ? '' : `e${exponent[0]}${exponent[1]}`;
    return `${negative ? '-' : ''}${whole}${fraction === undefined ? '' : `.${fraction}`}${e}`;
  });

describe('numberInBytes', () => {
  it('is bit-identical to Number() on Python reprs and on anything of its grammar', () => {
    fc.assert(
      fc.property(fc.oneof(pythonRepr, reprLike), fc.string({ maxLength: 3 }), (text, padding) => {
        const line = `${padding}${text}${padding}`;
        const value = numberInRange(line, padding.length, padding.length + text.length);
        expect(Object.is(value, Number(text))).toBe(true);
      }),
      { numRuns: 30_000 },
    );
  });

  it('reads the reprs of the real export in place, including exponents and 17-digit mantissas', () => {
    for (const text of ['1e-05', '2.5e+16', '0.0833333333333333', '0.005544781700000001', '6.0', '-0.0', '1e+308', '5e-324', '1.7976931348623157e+308']) {
      expect(Object.is(numberInRange(text, 0, text.length), Number(text))).toBe(true);
    }
  });

  it('is bit-identical to Number() on mantissas around 2^53, where the exact fast path ends', () => {
    // 2^53 = 9007199254740992: the mantissas below, at and above it, with a point anywhere and an exponent.
    const mantissa = fc.bigInt({ min: 2n ** 53n - 2000n, max: 2n ** 53n + 2000n }).map(String);
    const placed = fc.tuple(mantissa, fc.nat(16), fc.integer({ min: -30, max: 30 }), fc.nat(4)).map(([digits, point, exponent, zeros]) => {
      const padded = '0'.repeat(zeros) + digits;
      const at = Math.min(point, padded.length - 1);
      return `${padded.slice(0, padded.length - at)}${at > 0 ? `.${padded.slice(padded.length - at)}` : ''}${exponent === 0 ? '' : `e${exponent}`}`;
    });
    fc.assert(
      fc.property(placed, (text) => {
        expect(Object.is(numberInRange(text, 0, text.length), Number(text))).toBe(true);
      }),
      { numRuns: 20_000 },
    );
    for (const text of ['9007199254740992', '9007199254740993', '900719925474099.3', '0.0009007199254740993', '1234567890123456e-3']) {
      expect(Object.is(numberInRange(text, 0, text.length), Number(text))).toBe(true);
    }
  });

  it('hands everything outside the grammar back to the caller (NaN)', () => {
    for (const text of ['', '-', '+1', '.5', '5.', '1e', '1e+', '1E5', 'nan', 'inf', '-inf', '1.2.3', '0x10', '1,5', '1 ', ' 1', '1_0', 'None']) {
      expect(numberInRange(text, 0, text.length)).toBeNaN();
    }
  });
});

describe('bytesAre', () => {
  it('compares a range with an ASCII word', () => {
    const line = Buffer.from('x,True,Fals,False', 'latin1');
    expect(bytesAre(line, 2, 6, 'True')).toBe(true);
    expect(bytesAre(line, 7, 11, 'False')).toBe(false);
    expect(bytesAre(line, 12, 17, 'False')).toBe(true);
    expect(bytesAre(line, 2, 5, 'True')).toBe(false);
  });
});
