/**
 * How precisely a reported value was written. Curated values keep the digits of the paper (PK-DB stores the number as
 * given; normalising its unit mostly moves the decimal point only, and a conversion that does not — minutes to hours —
 * leaves many digits, read as precise: the cautious side), so the last written digit bounds what the value can prove:
 * 0.0038 of a paper's table stands for anything in [0.00375, 0.00385). Checks that compare reported values by an
 * identity or a bound allow for it before they call a disagreement.
 */

/** Significant digits a written value is taken to have at least: a single digit may be an integer's trailing zero lost in normalising (10 mg/L → 0.01 g/L). */
export const MIN_WRITTEN_DIGITS = 2;

/**
 * Half the last decimal place a reported value was written with: 0.0038 → 0.00005, 0.004 → 0.00005 (as 0.0040: see
 * MIN_WRITTEN_DIGITS), 51.5 → 0.05, 12 → 0.5. Read from its 12-significant-digit form, so that a unit conversion's
 * binary noise (0.0028800000000000003) is not taken for precision; an integer's trailing zeros count as written
 * (1200 → 0.5). Each choice errs on the small side: the allowance never excuses more than the digits could.
 */
export function roundingHalfStep(x: number): number {
  if (!Number.isFinite(x) || x === 0) return 0;
  const [mantissa, exponent] = Math.abs(x).toExponential(11).split('e');
  const digits = Math.max(mantissa.replace('.', '').replace(/0+$/, '').length, MIN_WRITTEN_DIGITS);
  return 0.5 * Math.min(10 ** (Number(exponent) - digits + 1), 1);
}

