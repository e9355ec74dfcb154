/**
 * How precisely a reported value was written. Curated values keep the digits of the paper (PK-DB stores the number as
 * given; normalising its unit mostly moves the decimal point only, and a conversion that does not — minutes to hours —
 * leaves many digits, read as precise: the cautious side), so the last written digit bounds what the value can prove:
 * 0.0038 of a paper's table stands for anything in [0.00375, 0.00385). Checks that compare reported values by an
 * identity or a bound allow for it before they call a disagreement.
 */

/** Significant digits a written value is taken to have at least: a single digit may be an integer's trailing zero lost in normalising (10 mg/L → 0.01 g/L). */
export const MIN_WRITTEN_DIGITS = 2;

/** Significant digits a value is read with: beyond them a unit conversion's binary noise (0.0028800000000000003). */
const READ_DIGITS = 12;
const READ_SCALE = 10 ** (READ_DIGITS - 1);

/**
 * Half the last decimal place a reported value was written with: 0.0038 → 0.00005, 0.004 → 0.00005 (as 0.0040: see
 * MIN_WRITTEN_DIGITS), 51.5 → 0.05, 12 → 0.5. Read from its 12-significant-digit form, so that a unit conversion's
 * binary noise (0.0028800000000000003) is not taken for precision; an integer's trailing zeros count as written
 * (1200 → 0.5). Each choice errs on the small side: the allowance never excuses more than the digits could.
 *
 * The 12 digits as an integer n in [10¹¹, 10¹²) with x ≈ n·10^(e−11), the written digits those left when n's trailing
 * zeros are dropped: arithmetic rather than `toExponential(11)` and a regular expression (record-stats.ts and
 * group-members.ts ask it for every value they compare). Where the product may round otherwise than the text form
 * (a 13th digit near half-way, a carry into a 13th digit), the text form decides: the result is the text form's.
 */
export function roundingHalfStep(x: number): number {
  if (!Number.isFinite(x) || x === 0) return 0;
  const a = Math.abs(x);
  // log10 may miss by one at a power of ten (Math.log10(1000) is 2.9999999999999996): the digits' range corrects it.
  let exponent = Math.floor(Math.log10(a));
  let s = scaled(a, READ_DIGITS - 1 - exponent);
  if (s >= 10 * READ_SCALE - 0.5) s = scaled(a, READ_DIGITS - 1 - ++exponent);
  else if (s < READ_SCALE - 0.5) s = scaled(a, READ_DIGITS - 1 - --exponent);
  // Near a half-way 13th digit, or where rounding carries into a 13th digit, the text form decides (it rounds the
  // exact binary value; the product above is within an ulp of it).
  const fraction = s - Math.floor(s);
  if (Math.abs(fraction - 0.5) < HALF_WAY_MARGIN || s >= 10 * READ_SCALE - 1 || s < READ_SCALE) return fromText(a);
  let n = Math.round(s);
  let digits = READ_DIGITS;
  while (digits > 1 && n % 10 === 0) {
    n /= 10;
    digits--;
  }
  return halfStep(exponent, digits);
}

/** How near a half-way 13th digit the scaled value must be for the text form to decide (the product's error is ~10⁻⁴). */
const HALF_WAY_MARGIN = 1e-2;

const halfStep = (exponent: number, digits: number) => 0.5 * Math.min(10 ** (exponent - Math.max(digits, MIN_WRITTEN_DIGITS) + 1), 1);

/** roundingHalfStep read from the text of the 12-significant-digit form (the definition; the arithmetic's fallback). */
function fromText(a: number): number {
  const [mantissa, exponent] = a.toExponential(READ_DIGITS - 1).split('e');
  return halfStep(Number(exponent), mantissa.replace('.', '').replace(/0+$/, '').length);
}

/** The exact powers of ten as doubles: 10⁰ … 10²² (10²³ is the first a double cannot hold). */
const POWERS_OF_TEN = Array.from({ length: 23 }, (_, k) => Number(`1e${k}`));

/** a·10^power, by multiplications or a division with exact powers of ten. */
function scaled(a: number, power: number): number {
  if (power < 0) return -power <= 22 ? a / POWERS_OF_TEN[-power] : a / 10 ** -power;
  return power <= 22 ? a * POWERS_OF_TEN[power] : a * 1e22 * 10 ** (power - 22);
}
