/**
 * Generates src/units/preparsed.ts, the start-up cache of units/parse.ts:
 * mathjs's readings of the unit expressions the toolkit's own tables and
 * compositions parse, so that a run meeting only those never builds mathjs
 * (~170 ms of CPU). `npm run units-table` (or `tsx scripts/generate-unit-table.ts`).
 *
 * Which expressions: PK-DB's normalised units (units/normalised-units.ts), the report's display units, the units of
 * the QA's dose labels, human limits and canonical units (qa/dose-label.ts, qa/human-limits.ts, qa/parameters.ts),
 * common curator spellings and time units (below), and every spelling the
 * standard NCA profile composes (nca/units.ts: AUC, rate, volume and
 * clearance labels, which the QA parses to compare them) for the time,
 * concentration and dose units below. Deterministic: test/units/preparsed.test.ts
 * regenerates the text and compares it with the committed file, and checks
 * every entry against mathjs.
 */
import { writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { parameterUnits, DEFAULT_UNITS } from '../src/nca/units.js';
import { PARAMETERS, type UnitRule } from '../src/nca/parameters.js';
import { KNOWN_ODD_UNITS, PKDB_PROFILE_UNITS, measurementTypesWithUnits, normalisedUnits } from '../src/units/normalised-units.js';
import { LABEL_UNITS } from '../src/qa/dose-label.js';
import { HUMAN_LIMIT_UNITS } from '../src/qa/human-limits.js';
import { CANONICAL_UNITS } from '../src/qa/parameters.js';
import { BASE_DIMENSIONS, unitMath } from '../src/units/registry.js';
import { DISPLAY_SPELLINGS } from '../src/report/display-units.js';
import { toMathjsExpression } from '../src/units/spelling.js';

export const UNIT_TABLE_PATH = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'units', 'preparsed.ts');

/** Time units as curators and PK-DB write them. */
const TIME_UNITS = [
  's', 'sec', 'second', 'seconds', 'min', 'mins', 'minute', 'minutes', 'h', 'hr', 'hrs', 'hour', 'hours',
  'd', 'day', 'days', 'week', 'weeks', 'month', 'months', 'year', 'years', 'yr', 'na',
];

/** The time units timecourses are sampled in, for the composed units (each multiplies the table). */
const SAMPLING_TIME_UNITS = ['s', 'min', 'minute', 'minutes', 'h', 'hr', 'hour', 'hours', 'd', 'day', 'days', 'week', 'weeks'];

/**
 * The dose units of the composed units: PK-DB's normalised amounts and amounts per body weight or area
 * (rates such as `gram / hour` would double the table for doses the NCA rarely sees; mathjs reads those).
 */
const COMPOSED_DOSE_UNITS = ['gram', 'mole', 'IU', 'count', 'g/kg', 'mole / kilogram', 'IU / kilogram', 'gram / meter ** 2'];

/** Curators' spellings of concentrations, doses, AUCs, volumes, clearances and rates. */
const CURATOR_SPELLINGS = [
  'g', 'mg', 'ug', 'µg', 'μg', 'ng', 'kg', 'mol', 'mmol', 'umol', 'µmol', 'nmol', 'IU', 'mIU', 'U', 'mU',
  'mg/kg', 'ug/kg', 'µg/kg', 'g/kg', 'mmol/kg', 'umol/kg', 'mg/m^2', 'mg/m**2',
  'g/l', 'g/L', 'mg/l', 'mg/L', 'mg/dl', 'mg/dL', 'ug/ml', 'ug/mL', 'µg/ml', 'µg/mL', 'μg/ml', 'ug/l', 'µg/l', 'ng/ml', 'ng/mL',
  'ng/l', 'pg/ml', 'mmol/l', 'mmol/L', 'umol/l', 'µmol/l', 'µmol/L', 'nmol/l', 'nmol/L', 'pmol/l', 'pmol/ml', 'IU/l', 'mIU/l',
  'mIU/ml', 'uIU/ml', 'µIU/ml', 'µU/ml', 'mU/l',
  'mg*h/l', 'mg*h/L', 'mg h/l', 'h*mg/l', 'ug*h/ml', 'µg*h/ml', 'ng*h/ml', 'ng*h/mL', 'µmol*h/l', 'mg*min/l', 'µg*min/ml',
  'l', 'L', 'ml', 'mL', 'dl', 'l/kg', 'L/kg', 'ml/kg', 'l/h', 'L/h', 'l/hr', 'ml/min', 'mL/min', 'ml/h', 'l/h/kg', 'L/h/kg',
  'ml/min/kg', 'mL/min/kg', 'ml/h/kg', 'ml/min/1.73m^2',
  '1/h', '1/hr', '1/min', 'h^-1', '1/d', '%', 'percent', 'count', 'none', 'dimensionless',
  'kg/m^2', 'm^2', 'm', 'cm', 'mmHg', 'mm Hg', 'beats/min',
];

/** pint-style spellings of rates and AUCs outside the normalised table, as PK-DB's outputs carry them. */
const PINT_SPELLINGS = [
  // Per-kg doses as the QA's identities divide them (dose / body weight).
  'gram / kilogram',
  // Normed concentration × a timecourse's time unit, as the QA composes an AUC unit.
  ...['min', 'hr', 'h', 'hour', 'minute', 'day', 'd'].map((t) => `(gram / liter) * ${t}`),
  ...['second', 'minute', 'hour', 'hr', 'day', 'week'].map((t) => `1 / ${t}`),
  ...['gram', 'milligram', 'microgram', 'nanogram', 'mole', 'millimole', 'micromole', 'nanomole', 'IU'].flatMap((a) =>
    ['hour', 'minute'].flatMap((t) => [`${a} * ${t} / liter`, `${t} * ${a} / liter`, `${a} * ${t} / milliliter`]),
  ),
];

/** The unit rules of the parameters the QA compares with reported outputs (recompute.ts STANDARD_CODES). */
const COMPARED_RULES: Partial<Record<UnitRule, true>> = { conc: true, time: true, auc: true, rate: true, volume: true, clearance: true };

/** The spellings the table holds: the lists above, the normalised units, and the composed labels of the compared parameters. */
export function spellingsToPreparse(): Set<string> {
  const listed = measurementTypesWithUnits().flatMap((type) => normalisedUnits(type) ?? []);
  const profile = Object.values(PKDB_PROFILE_UNITS).flat();
  const spellings = new Set([...TIME_UNITS, ...CURATOR_SPELLINGS, ...PINT_SPELLINGS, ...LABEL_UNITS, ...HUMAN_LIMIT_UNITS, ...CANONICAL_UNITS, ...listed, ...Object.keys(KNOWN_ODD_UNITS), ...profile, ...DISPLAY_SPELLINGS]);
  const concs = [...(normalisedUnits('concentration') ?? []), DEFAULT_UNITS.conc];
  const doses = [...COMPOSED_DOSE_UNITS, DEFAULT_UNITS.dose];
  for (const time of [...SAMPLING_TIME_UNITS, DEFAULT_UNITS.time]) {
    for (const conc of concs) {
      for (const dose of doses) {
        const { units } = parameterUnits({ time, conc, dose, volume: DEFAULT_UNITS.volume });
        for (const parameter of PARAMETERS) if (parameter.unit in COMPARED_RULES) spellings.add(units[parameter.code]);
      }
    }
  }
  return spellings;
}

/** What a mathjs Unit holds that parse.ts reads, with each part's own dimension exponents. */
interface MathjsUnit {
  value: number | null;
  dimensions: number[];
  units: { unit: { name: string; value: number; offset: number; base: { dimensions: number[] } }; prefix: { name: string; value: number }; power: number }[];
}

function mathjsUnit(expression: string): MathjsUnit | null {
  try {
    const unit = unitMath().unit(expression) as unknown as MathjsUnit;
    return unit.units.some((part) => part.unit.offset !== 0) ? null : unit;
  } catch {
    return null; // not a unit: parse.ts asks mathjs again and reports its message
  }
}

/** The text of src/units/preparsed.ts. */
export function renderUnitTable(): string {
  const expressions = new Set<string>();
  for (const spelling of spellingsToPreparse()) if (spelling.trim() !== '') expressions.add(toMathjsExpression(spelling.trim()));
  const parts: string[] = [];
  const partIndex = new Map<string, number>();
  const entries: string[] = [];
  for (const expression of [...expressions].sort()) {
    const unit = mathjsUnit(expression);
    if (unit === null) continue;
    const refs: number[] = [];
    for (const { unit: u, prefix, power } of unit.units) {
      const dimensions = BASE_DIMENSIONS.map((_, i) => u.base.dimensions[i] ?? 0);
      const part = JSON.stringify([u.name, u.value, prefix.name, prefix.value, dimensions]);
      let index = partIndex.get(part);
      if (index === undefined) {
        index = parts.length;
        parts.push(part);
        partIndex.set(part, index);
      }
      refs.push(index, power);
    }
    entries.push(`  [${JSON.stringify(expression)}, ${unit.value}, [${refs.join(', ')}]],`);
  }
  const mathjsVersion = (createRequire(import.meta.url)('mathjs/package.json') as { version: string }).version;
  return [
    `// Generated by scripts/generate-unit-table.ts (npm run units-table) from mathjs ${mathjsVersion}; do not edit.`,
    "// mathjs's readings of the unit expressions the toolkit itself parses: see units/parse.ts.",
    '',
    "/** [unit name, unit value in SI, prefix name, prefix value, the unit's dimension exponents over registry.ts BASE_DIMENSIONS]. */",
    'export type PreparsedPart = readonly [unit: string, unitValue: number, prefix: string, prefixValue: number, dimensions: readonly number[]];',
    '',
    'export const PREPARSED_PARTS: readonly PreparsedPart[] = [',
    ...parts.map((part) => `  ${part},`),
    '];',
    '',
    '/**',
    ' * Expression (after toMathjsExpression), the mathjs Unit\'s value (null without a number),',
    ' * and its parts as [index into PREPARSED_PARTS, power, ...] in mathjs\'s order.',
    ' */',
    `export const PREPARSED: readonly (readonly [expression: string, value: number | null, parts: readonly number[]])[] = [`,
    ...entries,
    '];',
    '',
  ].join('\n');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  writeFileSync(UNIT_TABLE_PATH, renderUnitTable());
  console.log(`wrote ${UNIT_TABLE_PATH}`);
}
