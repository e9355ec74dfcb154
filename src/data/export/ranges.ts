/**
 * Values read straight from a byte range `[start, end)` of a CSV member, so
 * that the common cells of an export (numbers, booleans) cost no
 * intermediate string.
 */

/** 10^k for k = 0..22: every one is an exact double. */
const POWERS_OF_TEN = Array.from({ length: 23 }, (_, k) => 10 ** k);

/** Every integer below this is a double; a mantissa computed below it is exact (see numberInBytes). */
const EXACT_MANTISSA_LIMIT = 2 ** 53;

/** 10^-k for the exponents of `numberInBytes` is a division by POWERS_OF_TEN[k]; this bounds k. */
const MAX_EXACT_POWER = POWERS_OF_TEN.length - 1;

/**
 * The value of a number as Python's repr writes it, `[-]digits[.digits][e[+|-]digits]`
 * (`19.38`, `6.0`, `1e-05`, `2.5e+16`, `0.005544781700000001`), in the UTF-8
 * bytes of the range, bit-identical to `Number` of its text, read without a
 * string in the common case; NaN when the range is anything else (`nan`,
 * `inf`, `+1`, `.5`, empty), for which the caller falls back to its general
 * parser and its error message. Bytes rather than text: a byte loads faster
 * than `charCodeAt` reads a character, which is why the reader keeps its
 * cells as bytes.
 *
 * Clinger's fast path (W. D. Clinger, "How to read floating point numbers
 * accurately", PLDI 1990), extended to exponents: with an exact integer
 * mantissa m and a net power of ten k with |k| ≤ 22 (10^k is then an exact
 * double), m × 10^k or m / 10^-k is one correctly rounded IEEE operation on
 * exact operands. The mantissa is exact when it ends below 2^53: its digits
 * are accumulated as m ← 10m + d, which never decreases, and a step whose
 * exact result reaches 2^53 rounds to 2^53 or more (every integer below 2^53
 * is a double, and rounding is monotone), so a result below 2^53 came from
 * exact steps only. That takes the 16-digit reprs and the leading zeros of
 * `0.000123…` in place too; 17-digit mantissas (a tenth of an export's
 * numbers) and larger exponents go to `Number` on the text, which rounds
 * correctly.
 */
export function numberInBytes(bytes: Buffer, start: number, end: number): number {
  let i = start;
  const negative = bytes[i] === 45;
  if (negative) i++;
  let mantissa = 0;
  let power = 0;
  const wholeStart = i;
  for (; i < end; i++) {
    const c = bytes[i];
    if (c < 48 || c > 57) break;
    mantissa = mantissa * 10 + (c - 48);
  }
  if (i === wholeStart) return NaN;
  if (i < end && bytes[i] === 46) {
    const fractionStart = ++i;
    for (; i < end; i++) {
      const c = bytes[i];
      if (c < 48 || c > 57) break;
      mantissa = mantissa * 10 + (c - 48);
    }
    if (i === fractionStart) return NaN;
    power = fractionStart - i;
  }
  if (i < end) {
    if (bytes[i] !== 101) return NaN;
    i++;
    const sign = bytes[i];
    if (sign === 45 || sign === 43) i++;
    const exponentStart = i;
    let exponent = 0;
    for (; i < end; i++) {
      const c = bytes[i];
      if (c < 48 || c > 57) return NaN;
      if (exponent < 1e6) exponent = exponent * 10 + (c - 48);
    }
    if (i === exponentStart) return NaN;
    power += sign === 45 ? -exponent : exponent;
  }
  if (mantissa >= EXACT_MANTISSA_LIMIT || power > MAX_EXACT_POWER || power < -MAX_EXACT_POWER) return Number(bytes.toString('latin1', start, end));
  const value = power >= 0 ? mantissa * POWERS_OF_TEN[power] : mantissa / POWERS_OF_TEN[-power];
  return negative ? -value : value;
}

/** Whether bytes `[start, end)` spell exactly the ASCII `word`. */
export function bytesAre(bytes: Uint8Array, start: number, end: number, word: string): boolean {
  if (end - start !== word.length) return false;
  for (let i = 0; i < word.length; i++) if (bytes[start + i] !== word.charCodeAt(i)) return false;
  return true;
}
