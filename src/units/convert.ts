/**
 * Numeric conversion between two unit spellings, molar ↔ mass with a molar
 * mass. Factors are computed once per (from, to, molar mass) and kept as plain
 * numbers, so a conversion inside a loop is two Map lookups and a multiply.
 */
import { UnitError } from './errors.js';
import { cachedResult } from './memo.js';
import { AMOUNT_INDEX, MASS_INDEX, multiplyUnits, parseUnit, powerOfTen, type UnitMeasure, type Scale } from './parse.js';

export interface ConversionOptions {
  /** Molar mass of the substance in g/mol; enables molar ↔ mass conversion. */
  molarMass?: number | null;
}

/**
 * How many powers of [substance] the conversion trades for [mass]:
 * d such that `from` × (g/mol)^d has the dimension of `to`; 0 when the
 * dimensions are equal; null when no molar mass can bridge them.
 */
export function molarExponent(from: UnitMeasure, to: UnitMeasure): number | null {
  const a = from.dimension.exponents;
  const b = to.dimension.exponents;
  const d = a[AMOUNT_INDEX] - b[AMOUNT_INDEX];
  for (let i = 0; i < a.length; i++) {
    if (i === AMOUNT_INDEX) continue;
    const expected = i === MASS_INDEX ? a[i] + d : a[i];
    if (expected !== b[i]) return null;
  }
  return d;
}

/**
 * The scale of `unit × (molarMass g/mol)^d`: g/mol is 10^-3 kg/mol in SI,
 * so the mass goes into the mantissa and 10^-3d into the exponent.
 */
export function withMolarMass(scale: Scale, molarMass: number, d: number): Scale {
  if (d === 0) return scale;
  return d > 0
    ? { num: scale.num * molarMass ** d, den: scale.den, exp10: scale.exp10 - 3 * d }
    : { num: scale.num, den: scale.den * molarMass ** -d, exp10: scale.exp10 - 3 * d };
}

/** from/to as one number: (num_f · den_t) / (den_f · num_t) · 10^(exp_f − exp_t). */
export function scaleRatio(from: Scale, to: Scale): number {
  const mantissa = (from.num * to.den) / (from.den * to.num);
  return mantissa * powerOfTen(from.exp10 - to.exp10);
}

/** The factor from a unit (`fromSpelling` names it in errors) to `toSpelling`. */
function factorUncached(from: UnitMeasure, fromSpelling: string, toSpelling: string, molarMass: number | null): number {
  const to = parseUnit(toSpelling);
  const d = molarExponent(from, to);
  if (d === null) {
    throw new UnitError('incompatible', fromSpelling, `cannot convert ${from.dimension.key} to '${toSpelling}' (${to.dimension.key})`);
  }
  if (d === 0) return scaleRatio(from.scale, to.scale);
  if (molarMass === null || !(molarMass > 0)) {
    throw new UnitError('incompatible', fromSpelling, `converting to '${toSpelling}' needs the substance's molar mass`);
  }
  return scaleRatio(withMolarMass(from.scale, molarMass, d), to.scale);
}

/**
 * from → (to + molar-mass key) → factor; the inner key is `to`, or `to@mass`
 * when a mass is given. Failures are kept too: QA tries conversions that fail
 * (per-kg or absolute?) thousands of times, and an Error captures a stack trace.
 */
const factors = new Map<string, Map<string, number | UnitError>>();

/** The cached factor or the cached `UnitError` of converting `from` to `to`. */
function factorResult(from: string, to: string, opts: ConversionOptions | undefined): number | UnitError {
  // No default `{}`: an allocation per call would be most of the cost of a cached conversion.
  const mass = opts?.molarMass ?? null;
  let inner = factors.get(from);
  if (inner === undefined) {
    inner = new Map();
    factors.set(from, inner);
  }
  const key = mass === null ? to : `${to}@${mass}`;
  // The hit first: the closure below is built only on a miss.
  return inner.get(key) ?? cachedResult(inner, key, () => factorUncached(parseUnit(from), from, to, mass), UnitError);
}

/**
 * The number to multiply a value in `from` by to express it in `to`.
 * Cached as a number per (from, to, molar mass). Throws `UnitError` for
 * unparseable or incompatible units (IU never converts to grams).
 */
export function conversionFactor(from: string, to: string, opts?: ConversionOptions): number {
  const factor = factorResult(from, to, opts);
  if (factor instanceof UnitError) throw factor;
  return factor;
}

/**
 * `conversionFactor` where a failed conversion is expected (trying per-kg
 * and absolute spellings, a unit that may not be a time): null instead of a
 * `UnitError`, from the same cache.
 */
export function conversionFactorOrNull(from: string, to: string, opts?: ConversionOptions): number | null {
  const factor = factorResult(from, to, opts);
  return factor instanceof UnitError ? null : factor;
}

/**
 * The factor from `from` × `by` (power 1) or `from` / `by` (power −1) to
 * `to`, or null: the product is computed on the parsed units (`multiplyUnits`),
 * so no composed spelling is parsed, and cached like `conversionFactor`. For
 * per-kg ↔ absolute with a body weight (`by` kilogram) and dose/concentration
 * volumes.
 */
export function productFactorOrNull(from: string, by: string, power: 1 | -1, to: string, opts?: ConversionOptions): number | null {
  const mass = opts?.molarMass ?? null;
  let inner = factors.get(from);
  if (inner === undefined) {
    inner = new Map();
    factors.set(from, inner);
  }
  const key = `${power === 1 ? '*' : '/'}${by}\u0000${to}${mass === null ? '' : `@${mass}`}`;
  const label = () => `(${from}) ${power === 1 ? '*' : '/'} (${by})`;
  const factor =
    inner.get(key) ?? cachedResult(inner, key, () => factorUncached(multiplyUnits(parseUnit(from), parseUnit(by), power), label(), to, mass), UnitError);
  return factor instanceof UnitError ? null : factor;
}

/** `value` in `from`, expressed in `to`. */
export function convert(value: number, from: string, to: string, opts?: ConversionOptions): number {
  return value * conversionFactor(from, to, opts);
}

/** Whether `from` converts to `to` (with the molar mass when given). */
export function isConvertible(from: string, to: string, opts?: ConversionOptions): boolean {
  return conversionFactorOrNull(from, to, opts) !== null;
}
