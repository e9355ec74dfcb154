/**
 * Reading the unit expressions PK-DB data uses without mathjs, with the same
 * result mathjs's `unit(expression)` gives: building mathjs's unit machinery
 * costs ~250 ms of CPU on the first parse, more than everything else a QA run
 * does with units. An expression with anything this reader does not know (a
 * unit or prefix outside the tables below, a fractional power, a number other
 * than a leading integer) is left to mathjs: `readCommonUnit` returns null.
 *
 * The tables are mathjs 15's own definitions (and registry.ts's additions),
 * copied; test/units/common-units.test.ts checks every unit × prefix the
 * tables accept, and a corpus of expressions, against mathjs.
 */

/** The parts of a mathjs Unit that parse.ts reads. */
export interface UnitReading {
  value: number | null;
  /** Exponents over registry.ts's BASE_DIMENSIONS. */
  dimensions: number[];
  units: {
    unit: { name: string; value: number; offset: number };
    prefix: { name: string; value: number };
    power: number;
  }[];
}

/** Indexes into BASE_DIMENSIONS. */
const MASS = 0;
const LENGTH = 1;
const TIME = 2;
const AMOUNT = 6;
const ACTIVITY = 9;
const DIMENSION_COUNT = 10;

type Exponents = Partial<Record<number, number>>;

/** mathjs's SI prefixes, the commonly used ones only (short and long names). */
const SHORT_PREFIXES: Record<string, number> = {
  '': 1, da: 1e1, h: 1e2, k: 1e3, M: 1e6, G: 1e9, d: 1e-1, c: 1e-2, m: 1e-3, u: 1e-6, n: 1e-9, p: 1e-12, f: 1e-15,
};
const LONG_PREFIXES: Record<string, number> = {
  '': 1, deca: 1e1, hecto: 1e2, kilo: 1e3, mega: 1e6, giga: 1e9, deci: 1e-1, centi: 1e-2, milli: 1e-3, micro: 1e-6, nano: 1e-9,
  pico: 1e-12, femto: 1e-15,
};
const NO_PREFIX: Record<string, number> = { '': 1 };

interface UnitDefinition {
  value: number;
  exponents: Exponents;
  prefixes: Record<string, number>;
}

const define = (names: string[], value: number, exponents: Exponents, prefixes: Record<string, number>) =>
  names.map((name) => [name, { value, exponents, prefixes }] as const);

/**
 * mathjs's units by name (plurals and aliases are units of their own in
 * mathjs, under their own name), in SI base units.
 */
const UNITS: ReadonlyMap<string, UnitDefinition> = new Map([
  ...define(['g'], 0.001, { [MASS]: 1 }, SHORT_PREFIXES),
  ...define(['gram', 'grams'], 0.001, { [MASS]: 1 }, LONG_PREFIXES),
  ...define(['l', 'L'], 0.001, { [LENGTH]: 3 }, SHORT_PREFIXES),
  ...define(['liter', 'liters', 'litre', 'litres'], 0.001, { [LENGTH]: 3 }, LONG_PREFIXES),
  ...define(['m'], 1, { [LENGTH]: 1 }, SHORT_PREFIXES),
  ...define(['meter', 'meters'], 1, { [LENGTH]: 1 }, LONG_PREFIXES),
  ...define(['mol'], 1, { [AMOUNT]: 1 }, SHORT_PREFIXES),
  ...define(['mole', 'moles'], 1, { [AMOUNT]: 1 }, LONG_PREFIXES),
  ...define(['s'], 1, { [TIME]: 1 }, SHORT_PREFIXES),
  ...define(['second', 'seconds', 'sec', 'secs'], 1, { [TIME]: 1 }, LONG_PREFIXES),
  ...define(['min', 'mins', 'minute', 'minutes'], 60, { [TIME]: 1 }, NO_PREFIX),
  ...define(['h', 'hr', 'hrs', 'hour', 'hours'], 3600, { [TIME]: 1 }, NO_PREFIX),
  ...define(['day', 'days'], 86400, { [TIME]: 1 }, NO_PREFIX),
  ...define(['week', 'weeks'], 604800, { [TIME]: 1 }, NO_PREFIX),
  ...define(['month', 'months'], 2629800, { [TIME]: 1 }, NO_PREFIX),
  ...define(['year', 'years'], 31557600, { [TIME]: 1 }, NO_PREFIX),
  // registry.ts: annum (alias a) with short prefixes, for pint's `na`. Other
  // prefixed spellings of `a` are mathjs units of their own (`Pa`, `ha`, `cd`...).
  ...define(['annum'], 31557600, { [TIME]: 1 }, SHORT_PREFIXES),
  ...define(['a'], 31557600, { [TIME]: 1 }, { '': 1, n: 1e-9 }),
  ...define(['IU'], 1, { [ACTIVITY]: 1 }, SHORT_PREFIXES),
  ...define(['count', 'none', 'dimensionless', 'beverages', 'cups'], 1, {}, NO_PREFIX),
  ...define(['percent'], 0.01, {}, NO_PREFIX),
  ...define(['mcg'], 1e-9, { [MASS]: 1 }, NO_PREFIX),
  ...define(['mmHg'], 133.322387415, { [MASS]: 1, [LENGTH]: -1, [TIME]: -2 }, NO_PREFIX),
  ...define(['becquerel'], 1, { [TIME]: -1 }, LONG_PREFIXES),
  ...define(['Bq'], 1, { [TIME]: -1 }, SHORT_PREFIXES),
]);

/** The longest prefix, so that a name is tried with at most this many characters in front. */
const LONGEST_PREFIX = Math.max(...[...Object.keys(SHORT_PREFIXES), ...Object.keys(LONG_PREFIXES)].map((p) => p.length));

/** A name as a unit of the tables with one of its prefixes: exactly as given first, as mathjs does. */
export function findCommonUnit(name: string): { unit: string; definition: UnitDefinition; prefix: string } | null {
  const exact = UNITS.get(name);
  if (exact) return { unit: name, definition: exact, prefix: '' };
  let found: { unit: string; definition: UnitDefinition; prefix: string } | null = null;
  for (let split = 1; split <= Math.min(LONGEST_PREFIX, name.length - 1); split++) {
    const prefix = name.slice(0, split);
    const unit = name.slice(split);
    const definition = UNITS.get(unit);
    if (definition === undefined || definition.prefixes[prefix] === undefined) continue;
    // Two readings of one name: mathjs's choice depends on its table order; leave it to mathjs.
    if (found) return null;
    found = { unit, definition, prefix };
  }
  return found;
}

/** Every name the tables accept (each unit with each of its prefixes), for the tests. */
export function commonUnitNames(): string[] {
  const names: string[] = [];
  for (const [unit, definition] of UNITS) for (const prefix of Object.keys(definition.prefixes)) names.push(prefix + unit);
  return names;
}

const NAME = /[A-Za-z][A-Za-z0-9]*/y;
const INTEGER = /[+-]?[0-9]+/y;

/**
 * mathjs's Unit.parse grammar for what PK-DB writes: an optional leading
 * integer, then names with optional integer powers joined by `*`, `/` or a
 * space, and parentheses, whose `/` in front inverts every power inside.
 * Returns null for anything else.
 */
export function readCommonUnit(expression: string): UnitReading | null {
  const text = expression;
  let pos = 0;
  const skipSpaces = () => {
    while (text[pos] === ' ' || text[pos] === '\t') pos++;
  };
  /** An integer at `pos` that no digit, dot or exponent continues (mathjs would read those as part of the number). */
  const integer = (): number | null => {
    INTEGER.lastIndex = pos;
    const match = INTEGER.exec(text);
    if (!match) return null;
    const after = text[pos + match[0].length];
    if (after === '.' || after === 'e' || after === 'E') return null;
    pos += match[0].length;
    return Number(match[0]);
  };

  const reading: UnitReading = { value: null, dimensions: new Array(DIMENSION_COUNT).fill(0), units: [] };
  let current = 1;
  let expecting = false;
  skipSpaces();
  let leading: number | null = null;
  if (text[pos] !== undefined && /[0-9+\-.]/.test(text[pos])) {
    leading = integer();
    if (leading === null) return null;
    skipSpaces();
    if (text[pos] === '*') {
      pos++;
      expecting = true;
    } else if (text[pos] === '/') {
      pos++;
      current = -1;
      expecting = true;
    }
  }
  const stack: number[] = [];
  let stackProduct = 1;
  for (;;) {
    skipSpaces();
    while (text[pos] === '(') {
      stack.push(current);
      stackProduct *= current;
      current = 1;
      pos++;
      skipSpaces();
    }
    if (pos >= text.length) break;
    NAME.lastIndex = pos;
    const name = NAME.exec(text)?.[0];
    if (name === undefined) return null;
    pos += name.length;
    const found = findCommonUnit(name);
    if (found === null) return null;
    let power = current * stackProduct;
    skipSpaces();
    if (text[pos] === '^') {
      pos++;
      skipSpaces();
      const p = integer();
      if (p === null) return null;
      power *= p;
    }
    const { definition } = found;
    reading.units.push({
      unit: { name: found.unit, value: definition.value, offset: 0 },
      prefix: { name: found.prefix, value: definition.prefixes[found.prefix] },
      power,
    });
    for (const [index, exponent] of Object.entries(definition.exponents)) reading.dimensions[Number(index)] += (exponent ?? 0) * power;
    skipSpaces();
    while (text[pos] === ')') {
      if (stack.length === 0) return null;
      stackProduct /= stack.pop() as number;
      pos++;
      skipSpaces();
    }
    expecting = false;
    current = 1;
    if (text[pos] === '*') {
      pos++;
      expecting = true;
    } else if (text[pos] === '/') {
      pos++;
      current = -1;
      expecting = true;
    }
  }
  if (expecting || stack.length !== 0 || reading.units.length === 0) return null;
  if (leading !== null) {
    // mathjs's Unit._normalize: the number times each (unit × prefix) to its power, in order.
    let value = leading;
    for (const part of reading.units) value = value * Math.pow(part.unit.value * part.prefix.value, part.power);
    reading.value = value;
  }
  return reading;
}
