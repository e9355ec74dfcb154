/**
 * The unit arithmetic the `pkdb` profile needs (PK-DB calculation §3.4, §4),
 * on the toolkit's one unit parser (src/units/parse.ts). PK-DB stores pint
 * spellings (`gram / liter`, `mole / hour / kilogram`, `gram / meter ** 2`,
 * `1 / minute`, `g/kg`, `count`); that parser reads them with pint's registry
 * additions (`count` is dimensionless: PK-DB stores per-body-weight doses as
 * kg/kg) and names dimensions and units as pint does (`[substance] / [mass]`,
 * `gram * hour / liter`). Scales are exact (powers of ten kept apart).
 */
import { conversionFactor, scaleRatio } from '../../units/convert.js';
import { UnitError } from '../../units/errors.js';
import { divideUnits, formatPint, parseUnit, parseUnitOrNull } from '../../units/parse.js';

/** Size of one time unit in hours (`hr` 1, `min` 1/60, `days` 24, `weeks` 168). Throws `UnitError` for anything but a time. */
export function hoursPer(timeUnit: string): number {
  const unit = parseUnit(timeUnit);
  if (unit.dimension.key !== '[time]') throw new UnitError('incompatible', timeUnit, `${unit.dimension.key} is not a time`);
  return conversionFactor(timeUnit, 'hour');
}

/** §3.4's dimensions, as pint names them: [mass], [substance], dimensionless (`g/kg`, `count`), [substance]/[mass]. */
const RESTRICTED_DOSING = new Set(['[mass]', '[substance]', 'dimensionless', '[substance] / [mass]']);

/** PK-DB's restricted dosing check (§3.4). A unit that does not parse fails the check. */
export function isRestrictedDosingUnit(unit: string): boolean {
  const parsed = parseUnitOrNull(unit);
  return parsed !== null && RESTRICTED_DOSING.has(parsed.dimension.key);
}

/** A stored unit spelling and the factor that converts a value computed in the profile's units into it. */
export interface StoredUnit {
  unit: string;
  factor: number;
}

/** vd/vd_ss and clearance units by dimension of dose/concentration, spelled as PK-DB stored them (§4). */
const VOLUME_UNITS: readonly { volume: string; clearance: string }[] = [
  { volume: 'liter', clearance: 'liter / hour' },
  { volume: 'liter / kilogram', clearance: 'liter / hour / kilogram' },
  // A mass dose over a molar concentration: PK-DB kept the substance dimension.
  { volume: 'liter * milligram / millimole', clearance: 'microgram * milliliter / hour / micromole' },
];

/**
 * Stored units of vd/vd_ss and clearance for a dose unit and concentration
 * unit, with the factors that convert values computed in D/C and D/(C·T).
 * Throws `UnitError` when D/C is none of PK-DB's volume dimensions.
 */
export function volumeUnits(doseUnit: string, concUnit: string, timeUnit: string): { volume: StoredUnit; clearance: StoredUnit } {
  const volume = divideUnits(parseUnit(doseUnit), parseUnit(concUnit));
  const match = VOLUME_UNITS.find((v) => parseUnit(v.volume).dimension.key === volume.dimension.key);
  if (!match) throw new UnitError('incompatible', doseUnit, `no volume unit for a dose in '${doseUnit}' over a concentration in '${concUnit}'`);
  const clearance = divideUnits(volume, parseUnit(timeUnit));
  return {
    volume: { unit: match.volume, factor: scaleRatio(volume.scale, parseUnit(match.volume).scale) },
    clearance: { unit: match.clearance, factor: scaleRatio(clearance.scale, parseUnit(match.clearance).scale) },
  };
}

const aucUnits = new Map<string, string>();

/** AUC unit as pint spells C·hour: the concentration's factors and `hour`, sorted (`gram * hour / liter`, `IU * hour / liter`). */
export function aucUnit(concUnit: string): string {
  let unit = aucUnits.get(concUnit);
  if (unit === undefined) {
    unit = formatPint([...parseUnit(concUnit).factors, ['hour', 1]]);
    aucUnits.set(concUnit, unit);
  }
  return unit;
}
