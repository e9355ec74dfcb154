/**
 * Parsing a PK-DB unit spelling into its dimension and its exact scale, once:
 * results (and errors) are cached per spelling, so parsing inside a loop over
 * 100k records costs a Map lookup.
 */
import { readCommonUnit, type UnitReading } from './common-units.js';
import { UnitError } from './errors.js';
import { BASE_DIMENSIONS, unitMath } from './registry.js';
import { toMathjsExpression } from './spelling.js';

/**
 * The size of one unit in SI base units, as `num / den × 10^exp10`. Powers of
 * ten are kept apart from the other factors (60, 3600, 133.322, a molar mass)
 * so that pure prefix conversions (ng/mL → g/L) are exact instead of carrying
 * mathjs's 1.0000000000000002e-12.
 */
export interface Scale {
  readonly num: number;
  readonly den: number;
  readonly exp10: number;
}

export interface Dimension {
  /** Exponents over `BASE_DIMENSIONS` (mass, length, time, ..., amount of substance, ..., activity amount). */
  readonly exponents: readonly number[];
  /** pint-style text, e.g. `[mass] / [length] ** 3`; `dimensionless` when every exponent is 0. */
  readonly key: string;
}

export interface ParsedUnit {
  /** The spelling as given. */
  readonly spelling: string;
  /** The mathjs expression it was read as (after `toMathjsExpression`). */
  readonly expression: string;
  readonly dimension: Dimension;
  readonly scale: Scale;
  /** The unit's factors as pint long names with their powers, e.g. `[['gram', 1], ['liter', -1]]`. */
  readonly factors: readonly (readonly [string, number])[];
  /** How pint prints this unit (`gram * hour / liter`), the form PK-DB stores normalised units in. */
  readonly pint: string;
}

const DIMENSION_NAMES: Record<string, string> = {
  MASS: 'mass',
  LENGTH: 'length',
  TIME: 'time',
  CURRENT: 'current',
  TEMPERATURE: 'temperature',
  LUMINOUS_INTENSITY: 'luminosity',
  AMOUNT_OF_SUBSTANCE: 'substance',
  ANGLE: 'angle',
  BIT: 'information',
  ACTIVITY_AMOUNT: 'activity_amount',
};

export const MASS_INDEX = BASE_DIMENSIONS.indexOf('MASS');
export const AMOUNT_INDEX = BASE_DIMENSIONS.indexOf('AMOUNT_OF_SUBSTANCE');

/** pint's long unit names for the mathjs names PK-DB data uses. */
const PINT_NAMES: Record<string, string> = {
  g: 'gram', gram: 'gram', grams: 'gram',
  l: 'liter', L: 'liter', liter: 'liter', liters: 'liter', litre: 'liter', litres: 'liter',
  mol: 'mole', mole: 'mole', moles: 'mole',
  h: 'hour', hr: 'hour', hrs: 'hour', hour: 'hour', hours: 'hour',
  min: 'minute', mins: 'minute', minute: 'minute', minutes: 'minute',
  s: 'second', second: 'second', seconds: 'second', secs: 'second',
  day: 'day', days: 'day', week: 'week', weeks: 'week', month: 'month', months: 'month',
  year: 'year', years: 'year', annum: 'year', a: 'year',
  m: 'meter', meter: 'meter', meters: 'meter', metre: 'meter', metres: 'meter',
  mmHg: 'millimeter_Hg', mcg: 'microgram', Bq: 'becquerel',
};

const PINT_PREFIXES: Record<string, string> = {
  E: 'exa', P: 'peta', T: 'tera', G: 'giga', M: 'mega', k: 'kilo', h: 'hecto', da: 'deca',
  d: 'deci', c: 'centi', m: 'milli', u: 'micro', n: 'nano', p: 'pico', f: 'femto', a: 'atto',
};

/** `v` as `mantissa × 10^exp10`, with mantissa 1 whenever v is exactly a power of ten. */
function splitPowerOfTen(v: number): { mantissa: number; exp10: number } {
  const e = Math.round(Math.log10(v));
  return Number(`1e${e}`) === v ? { mantissa: 1, exp10: e } : { mantissa: v, exp10: 0 };
}

export function powerOfTen(exp10: number): number {
  return Number(`1e${exp10}`);
}

export function scaleValue(s: Scale): number {
  return (s.num / s.den) * powerOfTen(s.exp10);
}

function dimensionKey(exponents: readonly number[]): string {
  const term = (i: number, p: number) => `[${DIMENSION_NAMES[BASE_DIMENSIONS[i]] ?? BASE_DIMENSIONS[i]}]${p === 1 ? '' : ` ** ${p}`}`;
  const up: string[] = [];
  const down: string[] = [];
  exponents.forEach((p, i) => {
    if (p > 0) up.push(term(i, p));
    if (p < 0) down.push(term(i, -p));
  });
  if (up.length === 0 && down.length === 0) return 'dimensionless';
  up.sort();
  down.sort();
  return [up.length ? up.join(' * ') : '1', ...down].join(' / ');
}

export function makeDimension(exponents: readonly number[]): Dimension {
  // mathjs arrays are as long as the base dimensions at the time of parsing; pad for comparisons.
  const padded = BASE_DIMENSIONS.map((_, i) => exponents[i] ?? 0);
  return { exponents: padded, key: dimensionKey(padded) };
}

/**
 * pint's string form: numerator names sorted and joined by ` * `, then each
 * denominator name (sorted) after ` / `, powers as ` ** n`; `1 / minute` when
 * nothing is above the line, `dimensionless` when nothing is left.
 */
export function formatPint(factors: Iterable<readonly [string, number]>): string {
  const merged = new Map<string, number>();
  for (const [name, power] of factors) merged.set(name, (merged.get(name) ?? 0) + power);
  const term = (name: string, p: number) => (p === 1 ? name : `${name} ** ${p}`);
  const up = [...merged].filter(([, p]) => p > 0).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const down = [...merged].filter(([, p]) => p < 0).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (up.length === 0 && down.length === 0) return 'dimensionless';
  const head = up.length ? up.map(([n, p]) => term(n, p)).join(' * ') : '1';
  return [head, ...down.map(([n, p]) => term(n, -p))].join(' / ');
}

type MathjsUnitPart = UnitReading['units'][number];

function pintName(part: MathjsUnitPart): string {
  const base = PINT_NAMES[part.unit.name] ?? part.unit.name;
  const prefix = part.prefix.name === '' ? '' : (PINT_PREFIXES[part.prefix.name] ?? part.prefix.name);
  return prefix + base;
}

function parseUncached(spelling: string): ParsedUnit {
  const trimmed = spelling.trim();
  if (trimmed === '') throw new UnitError('empty', spelling, 'no unit given');
  const expression = toMathjsExpression(trimmed);
  // The common spellings are read without mathjs (same result, see common-units.ts).
  let unit: UnitReading | null = readCommonUnit(expression);
  if (unit === null) {
    try {
      unit = unitMath().unit(expression) as unknown as UnitReading;
    } catch (e) {
      throw new UnitError('unparseable', spelling, `not a unit (${(e as Error).message})`);
    }
  }
  let num = 1;
  let den = 1;
  let exp10 = 0;
  const factors: [string, number][] = [];
  for (const part of unit.units) {
    if (part.unit.offset !== 0) throw new UnitError('unparseable', spelling, 'units with an offset (temperatures) are not supported');
    for (const v of [part.prefix.value, part.unit.value]) {
      const split = splitPowerOfTen(v);
      exp10 += split.exp10 * part.power;
      if (part.power > 0) num *= split.mantissa ** part.power;
      else den *= split.mantissa ** -part.power;
    }
    factors.push([pintName(part), part.power]);
  }
  const scale = { num, den, exp10 };
  // A bare number in the expression (`1 / minute` is fine, `10 / minute` is not a unit).
  if (unit.value !== null && Math.abs(unit.value / scaleValue(scale) - 1) > 1e-12) {
    throw new UnitError('unparseable', spelling, 'contains a numeric factor other than 1');
  }
  return { spelling, expression, dimension: makeDimension(unit.dimensions), scale, factors, pint: formatPint(factors) };
}

const parsed = new Map<string, ParsedUnit | UnitError>();

/** Parses a unit spelling (cached, errors included). Throws `UnitError` naming the unit. */
export function parseUnit(spelling: string): ParsedUnit {
  let hit = parsed.get(spelling);
  if (hit === undefined) {
    try {
      hit = parseUncached(spelling);
    } catch (e) {
      if (!(e instanceof UnitError)) throw e;
      hit = e;
    }
    parsed.set(spelling, hit);
  }
  if (hit instanceof UnitError) throw hit;
  return hit;
}

/** The unit's dimension, e.g. `[mass] / [length] ** 3` for `mg/dl`. */
export function dimensionOf(spelling: string): Dimension {
  return parseUnit(spelling).dimension;
}

export function sameDimension(a: Dimension, b: Dimension): boolean {
  return a.key === b.key;
}
