/**
 * Values read straight from a range `[start, end)` of a CSV text, so that the
 * common cells of an export (short decimals, booleans, repeated names) cost
 * no intermediate string.
 */

/** 10^k for k = 0..22: every one is an exact double. */
const POWERS_OF_TEN = Array.from({ length: 23 }, (_, k) => 10 ** k);

/** A decimal with at most this many digits has an exact integer mantissa (10^15 < 2^53). */
const MAX_EXACT_DIGITS = 15;

/**
 * The value of a plain decimal `[-]digits[.digits]` in the range, or NaN when
 * the range is anything else (exponent, sign `+`, `nan`, too many digits), for
 * which the caller falls back to `Number`.
 *
 * Clinger's fast path (W. D. Clinger, "How to read floating point numbers
 * accurately", PLDI 1990): with an exact integer mantissa m < 2^53 and an
 * exact power 10^k (k ≤ 22), the IEEE quotient m / 10^k is the correctly
 * rounded value of the decimal, i.e. bit-identical to `Number(text)`.
 */
export function decimalInRange(text: string, start: number, end: number): number {
  let i = start;
  const negative = text.charCodeAt(i) === 45;
  if (negative) i++;
  let mantissa = 0;
  let digits = 0;
  let fractionDigits = 0;
  let point = false;
  for (; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      mantissa = mantissa * 10 + (c - 48);
      digits++;
      if (point) fractionDigits++;
    } else if (c === 46 && !point) {
      point = true;
    } else {
      return NaN;
    }
  }
  if (digits === 0 || digits > MAX_EXACT_DIGITS) return NaN;
  const value = fractionDigits === 0 ? mantissa : mantissa / POWERS_OF_TEN[fractionDigits];
  return negative ? -value : value;
}

/** Whether the range holds exactly `word`. */
export function rangeIs(text: string, start: number, end: number, word: string): boolean {
  return end - start === word.length && text.startsWith(word, start);
}
