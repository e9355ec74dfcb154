/**
 * Every single-value output (reported, or stored calculated) in one canonical
 * unit per dimension, with the keys the checks group by. Converting once
 * lets a check compare an AUC in mol·h/L with one in g·h/L, or a percentage
 * with a fraction, without knowing units.
 *
 * Canonical units (the first of CANONICAL_UNITS the stored unit converts to,
 * molar ↔ mass with the substance's molar mass): concentrations g/L, AUC
 * g·h/L, times h, rates 1/h, volumes L (per kg: L/kg), clearances L/h
 * (L/h/kg), amounts g, dimensionless (percent → fraction). A value per m² of
 * body surface (mL/min/m², L/m²) is made absolute with the subject's body surface
 * area (L/h, L; body-surface.ts), and stays as stored without one; a unit of any
 * other dimension (IU/L) stays as stored; molar units without a molar mass go to
 * mol/L, mol·h/L, mol.
 */
import { subjectLabel, subjectOf, type LinkKeyFields } from '../data/dataset.js';
import type { InterventionRecord, OutputRecord } from '../data/model.js';
import { cached, representativeValue } from '../data/records.js';
import { conversionFactorOrNull, productFactorOrNull } from '../units/convert.js';
import { parseUnit, parseUnitOrNull } from '../units/parse.js';
import { InterventionSets } from './match-keys.js';

export const CANONICAL_UNITS: readonly string[] = [
  'gram / liter',
  'gram * hour / liter',
  'gram * hour ** 2 / liter',
  'hour',
  '1 / hour',
  'liter',
  'liter / kilogram',
  'liter / hour',
  'liter / hour / kilogram',
  'gram',
  'gram / hour',
  'dimensionless',
  'mole / liter',
  'mole * hour / liter',
  'mole * hour ** 2 / liter',
  'mole',
];

export interface ParameterValue {
  output: OutputRecord;
  /** `reported`: curated from the paper; `calculated`: stored by PK-DB from a timecourse. */
  source: 'reported' | 'calculated';
  measurement_type: string;
  /** The match key (study, subject, intervention set, substance, tissue; context.ts `matchKey`). */
  key: string;
  /** `group:<pk>` / `individual:<pk>`. */
  subject: string | null;
  /** The intervention set, pks ascending, comma-separated. */
  interventions: string;
  substance: string | null;
  tissue: string | null;
  /** The route of the set's dosing interventions when they share one (`oral`, `iv`, …); null when none or several. */
  route: string | null;
  /** Canonical unit, or the stored one when no canonical unit fits; null when the output has no unit. */
  unit: string | null;
  /** Stored unit → canonical unit; null when the stored unit does not parse. */
  factor: number | null;
  /** The central value (mean, else median, else value) and the range, in `unit`; null when absent or unconvertible. */
  value: number | null;
  min: number | null;
  max: number | null;
  bodyWeightKg: number | null;
  /**
   * A value curated per m² of body surface (mL/min/m², L/m²) made absolute: the subject's body surface area (m²) it
   * was multiplied by (body-surface.ts); null for every other value, and for one whose subject has none (it stays per m²).
   */
  bodySurfaceM2: number | null;
}

export interface ParameterHelpers {
  /** The match key; `interventions`: its intervention set (interventionSet), when the caller has it. */
  matchKey(fields: LinkKeyFields, interventions?: string): string;
  molarMass(substance: string | null): number | null;
  bodyWeightKg(record: { group_pk: number | null; individual_pk: number | null }): number | null;
  dosingOfSet(interventionPks: readonly number[]): InterventionRecord[];
  /** The subject's body surface area (m²), or null (body-surface.ts `bodySurfaceM2`). */
  bodySurfaceM2?(record: { group_pk: number | null; individual_pk: number | null }): number | null;
}

/** What a value per m² of body surface becomes when multiplied by the area: a clearance or flow, a volume. */
const PER_AREA_TARGETS: readonly string[] = ['liter / hour', 'liter'];
const perAreaCache = new Map<string, { unit: string; factor: number } | null>();

/**
 * The absolute canonical unit of a unit per m² of body surface (`… / meter ** 2`), and the factor from value × m²
 * into it (mL/min/m² × m²: 0.06 L/h); null for any other unit. By the spelling: a length (m) has the dimension of
 * L/m² but is no value per area.
 */
export function perAreaUnit(unit: string): { unit: string; factor: number } | null {
  return cached(perAreaCache, unit, () => {
    if (!/\/ \(?meter \*\* 2\b/.test(unit)) return null;
    for (const target of PER_AREA_TARGETS) {
      const factor = productFactorOrNull(unit, 'meter ** 2', 1, target);
      if (factor !== null) return { unit: target, factor };
    }
    return null;
  });
}

const canonicalCache = new Map<string, { unit: string; factor: number } | null>();

/** Dimension keys of the canonical units, computed on first use. */
let canonicalDimensions: { unit: string; dimension: string }[] | null = null;

/**
 * The first canonical unit of the same dimension as `unit` (molar units: of the same dimension with
 * [substance] as [mass], when `molarMass` is given), else the unit itself; null when it does not parse.
 * Dimensions are compared first: a failed conversion through mathjs costs ~1 ms, times every unit and target.
 */
function resolveCanonical(unit: string, molarMass: number | null): { unit: string; factor: number } | null {
  const parsed = parseUnitOrNull(unit);
  if (parsed === null) return null;
  const dimension = parsed.dimension.key;
  canonicalDimensions ??= CANONICAL_UNITS.map((u) => ({ unit: u, dimension: parseUnit(u).dimension.key }));
  const asMass = molarMass === null ? null : dimension.replaceAll('[substance]', '[mass]');
  const target = canonicalDimensions.find((c) => c.dimension === dimension || c.dimension === asMass);
  if (!target) return { unit, factor: 1 };
  const factor = conversionFactorOrNull(unit, target.unit, molarMass === null ? undefined : { molarMass });
  return factor === null ? { unit, factor: 1 } : { unit: target.unit, factor };
}

/** The time a reported value refers to (the end of a collection period, a sampling time), in hours; null when not curated or not a time unit. */
export function outputHours(p: ParameterValue): number | null {
  const { time, time_unit } = p.output;
  if (time === null || !time_unit) return null;
  const perHour = conversionFactorOrNull(time_unit, 'hour');
  return perHour === null ? null : time * perHour;
}

/**
 * The canonical unit of `unit` and the factor into it; the unit itself (factor 1) when none fits, null when
 * it does not parse. Molar units go to mass units only with a molar mass; everything else is resolved once
 * per unit, whatever the substance (a cache per unit and molar mass cost a second on the shared export).
 */
export function canonicalUnit(unit: string, molarMass: number | null): { unit: string; factor: number } | null {
  const plain = cached(canonicalCache, unit, () => resolveCanonical(unit, null));
  if (plain === null || molarMass === null || !plain.unit.startsWith('mole')) return plain;
  return cached(canonicalCache, `${unit}@${molarMass}`, () => resolveCanonical(unit, molarMass));
}

/** Single-value outputs: normed, not timecourse points. Arrays (scatter points) count: each is a value of its own. */
function isSingleValue(o: OutputRecord): boolean {
  return o.normed && o.output_type !== 'timecourse';
}

/**
 * One value per single-value output. Everything that depends on the substance, the subject or the unit only is
 * looked up once per run (32,000 values on the shared export, a few hundred subjects and units); no closure per value.
 */
export function parameterValues(outputs: readonly OutputRecord[], helpers: ParameterHelpers): ParameterValue[] {
  const routes = new Map<string, string | null>();
  const masses = new Map<string | null, number | null>();
  // Keyed by number: groups as pk, individuals as −pk − 1, none as NaN's stand-in below.
  const subjects = new Map<number, { label: string | null; weight: number | null; surface: number | null }>();
  const values: ParameterValue[] = [];
  const sets = new InterventionSets();
  // By index: ~60,000 outputs, mostly before the loop is optimised, when for…of allocates per element.
  for (let i = 0; i < outputs.length; i++) {
    const o = outputs[i];
    if (!isSingleValue(o)) continue;
    const interventions = sets.of(o.intervention_pks);
    let route = routes.get(interventions);
    if (route === undefined) {
      const found = new Set(helpers.dosingOfSet(o.intervention_pks).map((d) => d.route ?? ''));
      route = found.size === 1 ? [...found][0] || null : null;
      routes.set(interventions, route);
    }
    let molarMass = masses.get(o.substance);
    if (molarMass === undefined) masses.set(o.substance, (molarMass = helpers.molarMass(o.substance)));
    const subjectKey = o.group_pk != null ? o.group_pk : o.individual_pk != null ? -o.individual_pk - 1 : Number.MIN_SAFE_INTEGER;
    let subject = subjects.get(subjectKey);
    if (subject === undefined) {
      subject = { label: subjectLabel(subjectOf(o)), weight: helpers.bodyWeightKg(o), surface: helpers.bodySurfaceM2?.(o) ?? null };
      subjects.set(subjectKey, subject);
    }
    const key = helpers.matchKey(o, interventions);
    let canonical = o.unit ? canonicalUnit(o.unit, molarMass) : null;
    // Per m² of body surface with the subject's area known: absolute (a clearance per m² meets the other clearances).
    const perArea = o.unit && canonical?.unit === o.unit && subject.surface !== null ? perAreaUnit(o.unit) : null;
    if (perArea) canonical = { unit: perArea.unit, factor: perArea.factor * (subject.surface as number) };
    const factor = canonical === null ? null : canonical.factor;
    const value = representativeValue(o);
    values.push({
      output: o,
      source: o.calculated ? 'calculated' : 'reported',
      measurement_type: o.measurement_type,
      key,
      subject: subject.label,
      interventions,
      substance: o.substance,
      tissue: o.tissue,
      route,
      unit: canonical?.unit ?? o.unit ?? null,
      factor,
      value: value === null || factor === null ? null : value * factor,
      min: o.min === null || factor === null ? null : o.min * factor,
      max: o.max === null || factor === null ? null : o.max * factor,
      bodyWeightKg: subject.weight,
      bodySurfaceM2: perArea ? subject.surface : null,
    });
  }
  return values;
}
