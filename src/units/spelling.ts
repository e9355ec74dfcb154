/**
 * Every rewrite of a PK-DB unit spelling into something mathjs parses lives in
 * `toMathjsExpression`: PK-DB writes pint syntax, curated by hand, and mathjs
 * rejects a few of its spellings (Dependency notes, docs/references.md).
 * Units that mathjs lacks altogether (IU, count, percent, ...) are defined in
 * registry.ts instead; this file only respells.
 */

/** Micro signs: U+00B5 MICRO SIGN and U+03BC GREEK SMALL LETTER MU (curators type both). */
const MICRO_SIGNS = /[\u00B5\u03BC]/g;

/** SI prefixes pint accepts in long form, with the short form mathjs needs for IU. */
const LONG_TO_SHORT_PREFIX: Record<string, string> = {
  pico: 'p',
  nano: 'n',
  micro: 'u',
  milli: 'm',
  kilo: 'k',
};

/**
 * Identifier rewrites: pint names and curator shorthands that mathjs does not
 * know under that name. `d` is pint's day (mathjs would read `d` as nothing,
 * and `dl` stays deci-litre because only whole identifiers are rewritten).
 */
const IDENTIFIER_ALIASES: Record<string, string> = {
  d: 'day',
  yr: 'year',
  yrs: 'year',
  millimeter_Hg: 'mmHg',
  mm_Hg: 'mmHg',
};

/**
 * `U` (and `mU`, `uU`, ...) as curators write it for insulin and other hormones
 * means international units. pint itself reads `U` as the enzyme unit
 * (µmol/min), so PK-DB's own normalised data never contains it.
 */
const UNIT_U = /^(p|n|u|m|k)?U$/;
/** Long-prefixed IU (`microIU`), which pint writes in its long form. */
const LONG_PREFIXED_IU = /^(pico|nano|micro|milli|kilo)(IU|U)$/;

function rewriteIdentifier(name: string): string {
  const alias = IDENTIFIER_ALIASES[name];
  if (alias !== undefined) return alias;
  const long = LONG_PREFIXED_IU.exec(name);
  if (long) return `${LONG_TO_SHORT_PREFIX[long[1]]}IU`;
  const u = UNIT_U.exec(name);
  if (u) return `${u[1] ?? ''}IU`;
  return name;
}

/**
 * The one normalisation of unit spellings: µ/μ → u, `**` → `^`, `%` →
 * `percent`, `·`/`×` → `*`, whole-identifier aliases (`d` → `day`,
 * `millimeter_Hg` → `mmHg`, `microIU`/`mU` → `uIU`/`mIU`, ...), collapsed
 * whitespace. The result is a mathjs unit expression over the units of
 * registry.ts.
 */
export function toMathjsExpression(spelling: string): string {
  return spelling
    .normalize('NFC')
    .replace(MICRO_SIGNS, 'u')
    .replace(/\*\*/g, '^')
    .replace(/%/g, ' percent ')
    .replace(/[\u00B7\u00D7]/g, '*')
    .replace(/[A-Za-z_][A-Za-z0-9_]*/g, rewriteIdentifier)
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * A measurement-type name or sid as one key: PK-DB's outputs use names
 * (`concentration_unbound`, `cumulative amount`), timecourses sids
 * (`concentration-unbound`, `cumulative-amount`).
 */
export function measurementTypeKey(measurementType: string): string {
  return measurementType.trim().toLowerCase().replace(/[\s_-]+/g, '_');
}
