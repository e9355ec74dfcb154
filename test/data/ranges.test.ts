import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decimalInRange } from '../../src/data/export/ranges.js';

/** Plain decimals as Python writes them: optional minus, integer digits, optional fraction. */
const decimal = fc
  .tuple(fc.boolean(), fc.stringMatching(/^[0-9]{1,9}$/), fc.option(fc.stringMatching(/^[0-9]{1,12}$/), { nil: undefined }))
  .map(([negative, whole, fraction]) => `${negative ? '-' : ''}${whole}${fraction === undefined ? '' : `.${fraction}`}`);

describe('decimalInRange', () => {
  it('is bit-identical to Number() for every plain decimal it accepts', () => {
    fc.assert(
      fc.property(decimal, fc.string({ maxLength: 3 }), (text, padding) => {
        const line = `${padding}${text}${padding}`;
        const value = decimalInRange(line, padding.length, padding.length + text.length);
        if (!Number.isNaN(value)) expect(Object.is(value, Number(text))).toBe(true);
      }),
      { numRuns: 20_000 },
    );
  });

  it('hands everything that is not a short plain decimal back to the caller (NaN)', () => {
    for (const text of ['1e-05', '+1', 'nan', '', '.', '1.2.3', '12345678901234567', '0x10', '1,5']) {
      expect(decimalInRange(text, 0, text.length)).toBeNaN();
    }
    expect(decimalInRange('0.0018108640000000001', 0, 21)).toBeNaN();
    expect(Object.is(decimalInRange('-0.0', 0, 4), -0)).toBe(true);
    expect(decimalInRange('x6.0y', 1, 4)).toBe(6);
  });
});
