/**
 * The unit arithmetic the `pkdb` profile needs (pkdb-calculation.md §3.4, §4),
 * self-contained so that the profile's exactness does not hinge on the general
 * unit library: pint-style strings (`gram / liter`, `mole / hour / kilogram`,
 * `gram / meter ** 2`, `1 / minute`, `g/kg`, `count`) parsed into a scale
 * relative to base units (gram, mole, meter, second, IU) and a dimension vector.
 * `count` is dimensionless (PK-DB stores per-body-weight doses as kg/kg).
 */

const DIMENSIONS = ['mass', 'substance', 'length', 'time', 'iu'] as const;
type Dimension = (typeof DIMENSIONS)[number];

export interface ParsedUnit {
  /** Size of one unit in base units (gram, mole, meter, second, IU). */
  scale: number;
  dims: Record<Dimension, number>;
}

export class PkdbUnitError extends Error {
  override name = 'PkdbUnitError';
}

const none = (): Record<Dimension, number> => ({ mass: 0, substance: 0, length: 0, time: 0, iu: 0 });
const base = (scale: number, dims: Partial<Record<Dimension, number>>): ParsedUnit => ({ scale, dims: { ...none(), ...dims } });

/** Units that take SI prefixes, by long and short name. */
const PREFIXABLE: Record<string, ParsedUnit> = {
  gram: base(1, { mass: 1 }), g: base(1, { mass: 1 }),
  mole: base(1, { substance: 1 }), mol: base(1, { substance: 1 }),
  liter: base(1e-3, { length: 3 }), litre: base(1e-3, { length: 3 }), l: base(1e-3, { length: 3 }), L: base(1e-3, { length: 3 }),
  meter: base(1, { length: 1 }), metre: base(1, { length: 1 }), m: base(1, { length: 1 }),
  second: base(1, { time: 1 }), s: base(1, { time: 1 }),
};

/** Units that never take a prefix here (so `min` is a minute, not a milli-inch). */
const PLAIN: Record<string, ParsedUnit> = {
  minute: base(60, { time: 1 }), min: base(60, { time: 1 }),
  hour: base(3600, { time: 1 }), hr: base(3600, { time: 1 }), h: base(3600, { time: 1 }),
  day: base(86400, { time: 1 }), d: base(86400, { time: 1 }),
  week: base(604800, { time: 1 }),
  IU: base(1, { iu: 1 }),
  becquerel: base(1, { time: -1 }), Bq: base(1, { time: -1 }),
  count: base(1, {}),
  percent: base(0.01, {}),
};

const LONG_PREFIX: Record<string, number> = { kilo: 1e3, hecto: 1e2, deci: 1e-1, centi: 1e-2, milli: 1e-3, micro: 1e-6, nano: 1e-9, pico: 1e-12, femto: 1e-15 };
const SHORT_PREFIX: Record<string, number> = { k: 1e3, h: 1e2, d: 1e-1, c: 1e-2, m: 1e-3, u: 1e-6, µ: 1e-6, μ: 1e-6, n: 1e-9, p: 1e-12, f: 1e-15 };

function scaled(unit: ParsedUnit, factor: number): ParsedUnit {
  return { scale: unit.scale * factor, dims: unit.dims };
}

/** One unit name: plain, prefixable, prefixed, or a plural of one of those. */
function parseName(name: string): ParsedUnit | null {
  if (PLAIN[name]) return PLAIN[name];
  if (PREFIXABLE[name]) return PREFIXABLE[name];
  for (const [prefix, factor] of Object.entries(LONG_PREFIX)) {
    const rest = name.slice(prefix.length);
    if (name.startsWith(prefix) && rest.length > 1 && PREFIXABLE[rest]) return scaled(PREFIXABLE[rest], factor);
  }
  const short = SHORT_PREFIX[name[0]];
  if (short !== undefined && name.length <= 4 && PREFIXABLE[name.slice(1)]) return scaled(PREFIXABLE[name.slice(1)], short);
  if (name.length > 2 && name.endsWith('s')) return parseName(name.slice(0, -1));
  return null;
}

/** Results (and errors) per text: the profile asks for the same few units for every timecourse. */
const parseCache = new Map<string, Readonly<ParsedUnit> | PkdbUnitError>();

/**
 * Parses `a * b / c ** 2` left to right as pint does: each `/` divides by the
 * next factor only. Cached: the result is shared, do not modify it.
 */
export function parsePkdbUnit(text: string): Readonly<ParsedUnit> {
  let hit = parseCache.get(text);
  if (hit === undefined) {
    try {
      hit = parseUncached(text);
    } catch (e) {
      if (!(e instanceof PkdbUnitError)) throw e;
      hit = e;
    }
    parseCache.set(text, hit);
  }
  if (hit instanceof PkdbUnitError) throw hit;
  return hit;
}

function parseUncached(text: string): ParsedUnit {
  const tokens = text.replace(/\*\*/g, '^').split(/\s*([*/])\s*/);
  let scale = 1;
  const dims = none();
  for (let i = 0; i < tokens.length; i += 2) {
    const sign = i === 0 || tokens[i - 1] === '*' ? 1 : -1;
    const [name, exponentText] = tokens[i].trim().split(/\s*\^\s*/);
    const exponent = sign * (exponentText === undefined ? 1 : Number(exponentText));
    if (name === '1' && exponentText === undefined) continue;
    const unit = parseName(name);
    if (!unit || !Number.isFinite(exponent)) throw new PkdbUnitError(`unknown unit "${tokens[i].trim()}" in "${text}"`);
    scale *= unit.scale ** exponent;
    for (const d of DIMENSIONS) dims[d] += unit.dims[d] * exponent;
  }
  return { scale, dims };
}

function hasDims(unit: ParsedUnit, expected: Partial<Record<Dimension, number>>): boolean {
  return DIMENSIONS.every((d) => unit.dims[d] === (expected[d] ?? 0));
}

/** Size of one time unit in hours (`hr` 1, `min` 1/60, `days` 24, `weeks` 168). */
export function hoursPer(timeUnit: string): number {
  const unit = parsePkdbUnit(timeUnit);
  if (!hasDims(unit, { time: 1 })) throw new PkdbUnitError(`"${timeUnit}" is not a time unit`);
  return unit.scale / 3600;
}

/**
 * PK-DB's restricted dosing check (§3.4): the dose unit is [mass], [substance],
 * dimensionless (mass/mass: `g/kg`, `count`) or [substance]/[mass]. An
 * unparseable unit fails the check.
 */
export function isRestrictedDosingUnit(unit: string): boolean {
  let parsed: ParsedUnit;
  try {
    parsed = parsePkdbUnit(unit);
  } catch {
    return false;
  }
  return [{ mass: 1 }, { substance: 1 }, {}, { substance: 1, mass: -1 }].some((d) => hasDims(parsed, d));
}

/** A stored unit spelling and the size of one of it in base units. */
export interface StoredUnit {
  unit: string;
  scale: number;
}

/** Volume-like results (vd, vd_ss) by dimension of dose/concentration, spelled as PK-DB stored them (§4). */
const VOLUME_UNITS: { dims: Partial<Record<Dimension, number>>; volume: StoredUnit; clearance: StoredUnit }[] = [
  { dims: { length: 3 }, volume: { unit: 'liter', scale: 1e-3 }, clearance: { unit: 'liter / hour', scale: 1e-3 / 3600 } },
  {
    dims: { length: 3, mass: -1 },
    volume: { unit: 'liter / kilogram', scale: 1e-6 },
    clearance: { unit: 'liter / hour / kilogram', scale: 1e-6 / 3600 },
  },
  {
    dims: { length: 3, mass: 1, substance: -1 },
    volume: { unit: 'liter * milligram / millimole', scale: 1e-3 },
    clearance: { unit: 'microgram * milliliter / hour / micromole', scale: (1e-6 * 1e-6) / (3600 * 1e-6) },
  },
];

/**
 * Stored units of vd/vd_ss and clearance for a dose unit and concentration
 * unit, with the factors that convert values computed in D/C and D/(C·T).
 */
export function volumeUnits(
  doseUnit: string,
  concUnit: string,
  timeUnit: string,
): { volume: StoredUnit & { factor: number }; clearance: StoredUnit & { factor: number } } {
  const dose = parsePkdbUnit(doseUnit);
  const conc = parsePkdbUnit(concUnit);
  const ratio: ParsedUnit = { scale: dose.scale / conc.scale, dims: none() };
  for (const d of DIMENSIONS) ratio.dims[d] = dose.dims[d] - conc.dims[d];
  const match = VOLUME_UNITS.find((v) => hasDims(ratio, v.dims));
  if (!match) throw new PkdbUnitError(`no volume unit for dose "${doseUnit}" over concentration "${concUnit}"`);
  const seconds = hoursPer(timeUnit) * 3600;
  return {
    volume: { ...match.volume, factor: ratio.scale / match.volume.scale },
    clearance: { ...match.clearance, factor: ratio.scale / seconds / match.clearance.scale },
  };
}

const aucUnits = new Map<string, string>();

/** AUC unit as pint spells C·hour: factors sorted (`gram * hour / liter`, `IU * hour / liter`). */
export function aucUnit(concUnit: string): string {
  let unit = aucUnits.get(concUnit);
  if (unit === undefined) {
    const [numerator, ...denominators] = concUnit.split(' / ');
    const factors = [...numerator.split(' * '), 'hour'].sort();
    unit = [factors.join(' * '), ...denominators].join(' / ');
    aucUnits.set(concUnit, unit);
  }
  return unit;
}
