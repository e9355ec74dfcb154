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

/** Every integer below this is a double; a mantissa computed below it is exact (see numberInRange). */
const EXACT_MANTISSA_LIMIT = 2 ** 53;

/** 10^-k for the exponents of `numberInRange` is a division by POWERS_OF_TEN[k]; this bounds k. */
const MAX_EXACT_POWER = POWERS_OF_TEN.length - 1;

/**
 * The value of a number as Python's repr writes it, `[-]digits[.digits][e[+|-]digits]`
 * (`19.38`, `6.0`, `1e-05`, `2.5e+16`, `0.005544781700000001`), bit-identical
 * to `Number(text)`, read from the range without a slice in the common case;
 * NaN when the range is anything else (`nan`, `inf`, `+1`, `.5`, empty), for
 * which the caller falls back to its general parser and its error message.
 *
 * Clinger's fast path (see `decimalInRange`), extended to exponents: with an
 * exact integer mantissa m and a net power of ten k with |k| ≤ 22, m × 10^k
 * or m / 10^-k is one correctly rounded IEEE operation on exact operands. The
 * mantissa is exact when it ends below 2^53: its digits are accumulated as
 * m ← 10m + d, which never decreases, and a step whose exact result reaches
 * 2^53 rounds to 2^53 or more (every integer below 2^53 is a double, and
 * rounding is monotone), so a result below 2^53 came from exact steps only. That takes the 16-digit reprs and the leading zeros of
 * `0.000123…` in place too; 17-digit mantissas (a tenth of an export's
 * numbers) and larger exponents go to `Number` on the slice, which rounds
 * correctly.
 */
export function numberInRange(text: string, start: number, end: number): number {
  let i = start;
  const negative = text.charCodeAt(i) === 45;
  if (negative) i++;
  let mantissa = 0;
  let digits = 0;
  let power = 0;
  const wholeStart = i;
  for (; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) break;
    mantissa = mantissa * 10 + (c - 48);
  }
  digits = i - wholeStart;
  if (digits === 0) return NaN;
  if (i < end && text.charCodeAt(i) === 46) {
    const fractionStart = ++i;
    for (; i < end; i++) {
      const c = text.charCodeAt(i);
      if (c < 48 || c > 57) break;
      mantissa = mantissa * 10 + (c - 48);
    }
    if (i === fractionStart) return NaN;
    digits += i - fractionStart;
    power = fractionStart - i;
  }
  if (i < end) {
    if (text.charCodeAt(i) !== 101) return NaN;
    i++;
    const sign = text.charCodeAt(i);
    if (sign === 45 || sign === 43) i++;
    const exponentStart = i;
    let exponent = 0;
    for (; i < end; i++) {
      const c = text.charCodeAt(i);
      if (c < 48 || c > 57) return NaN;
      // Capped: a huge exponent only has to stay huge (it goes to Number below).
      if (exponent < 1e6) exponent = exponent * 10 + (c - 48);
    }
    if (i === exponentStart) return NaN;
    power += sign === 45 ? -exponent : exponent;
  }
  if (mantissa >= EXACT_MANTISSA_LIMIT || power > MAX_EXACT_POWER || power < -MAX_EXACT_POWER) return Number(text.slice(start, end));
  const value = power >= 0 ? mantissa * POWERS_OF_TEN[power] : mantissa / POWERS_OF_TEN[-power];
  return negative ? -value : value;
}

/**
 * `numberInRange` on UTF-8 bytes `[start, end)` (the export reader's cells):
 * the same grammar and the same Clinger fast path, bit-identical to `Number`
 * of the text; NaN for anything else. A byte loads faster than `charCodeAt`
 * reads a character, which is why the reader keeps its cells as bytes.
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
