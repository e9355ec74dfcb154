/**
 * Every single-value output (reported, or stored calculated) in one canonical
 * unit per dimension, with the keys the checks group by. Converting once
 * lets a check compare an AUC in mol·h/L with one in g·h/L, or a percentage
 * with a fraction, without knowing units.
 *
 * Canonical units (the first of CANONICAL_UNITS the stored unit converts to,
 * molar ↔ mass with the substance's molar mass): concentrations g/L, AUC
 * g·h/L, times h, rates 1/h, volumes L (per kg: L/kg), clearances L/h
 * (L/h/kg), amounts g, dimensionless (percent → fraction). A unit of any other
 * dimension (IU/L, mL/min/m²) stays as stored; molar units without a molar mass
 * go to mol/L, mol·h/L, mol.
 */
import { subjectLabel, subjectOf, type LinkKeyFields } from '../data/dataset.js';
import type { InterventionRecord, OutputRecord } from '../data/model.js';
import { cached, representativeValue } from '../data/records.js';
import { conversionFactorOrNull } from '../units/convert.js';
import { parseUnit, parseUnitOrNull } from '../units/parse.js';

export const CANONICAL_UNITS: readonly string[] = [
  'gram / liter',
  'gram * hour / liter',
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
}

export interface ParameterHelpers {
  matchKey(fields: LinkKeyFields): string;
  molarMass(substance: string | null): number | null;
  bodyWeightKg(record: { group_pk: number | null; individual_pk: number | null }): number | null;
  dosingOfSet(interventionPks: readonly number[]): InterventionRecord[];
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

export function parameterValues(outputs: readonly OutputRecord[], helpers: ParameterHelpers): ParameterValue[] {
  const routes = new Map<string, string | null>();
  const routeOf = (pks: readonly number[], interventions: string): string | null => {
    let route = routes.get(interventions);
    if (route === undefined) {
      const found = new Set(helpers.dosingOfSet(pks).map((d) => d.route ?? ''));
      route = found.size === 1 ? [...found][0] || null : null;
      routes.set(interventions, route);
    }
    return route;
  };
  const values: ParameterValue[] = [];
  for (const o of outputs) {
    if (!isSingleValue(o)) continue;
    const interventions = [...o.intervention_pks].sort((a, b) => a - b).join(',');
    const canonical = o.unit ? canonicalUnit(o.unit, helpers.molarMass(o.substance)) : null;
    const scaled = (v: number | null) => (v === null || canonical === null ? null : v * canonical.factor);
    values.push({
      output: o,
      source: o.calculated ? 'calculated' : 'reported',
      measurement_type: o.measurement_type,
      key: helpers.matchKey(o),
      subject: subjectLabel(subjectOf(o)),
      interventions,
      substance: o.substance,
      tissue: o.tissue,
      route: routeOf(o.intervention_pks, interventions),
      unit: canonical?.unit ?? o.unit ?? null,
      factor: canonical?.factor ?? null,
      value: scaled(representativeValue(o)),
      min: scaled(o.min),
      max: scaled(o.max),
      bodyWeightKg: helpers.bodyWeightKg(o),
    });
  }
  return values;
}
