/**
 * Units of the standard profile's parameters, from the time (T),
 * concentration (C) and dose (D) units, and the one factor that puts volumes
 * and clearances in a volume unit a PK scientist reads (L, L/h), as WinNonlin
 * and PKNCA report them.
 * - volume V (VZ*, VSS*): when D/C converts to a volume with src/units, V is
 *   reported in the chosen volume unit (default L) and its values are scaled by
 *   the exact factor of D/C in the volume unit (productFactorOrNull): ug and ng/mL give
 *   1 ug/(ng/mL) = 1 L, mg and ug/mL 1 L, g and mg/L 1000 L. When it does not
 *   convert (molar C with a mass D, per-kg doses, unknown spellings), V stays
 *   the composed D/C, simplified to B when C is "A/B" with A equal to D, and
 *   values are unscaled;
 * - clearance V/T with the same factor (L/min for time in min); dose mg and
 *   conc mg/L keep factor 1, so the common case is exactly the unscaled values;
 * - AUC T*C (h*mg/L), AUMC T^2*C (h^2*mg/L), λz 1/T, dose-normalised X/D
 *   ((mg/L)/mg, h*mg/L/mg), never converted;
 * - "%" for percentages, "count" for LAMZNPT, "" for ratios (R², R²adj, r, PTR, swing, accumulation).
 * Each parameter names its rule (`UnitRule`) in the table of ./parameters.ts.
 */
import { cached } from '../data/records.js';
import { conversionFactorOrNull, productFactorOrNull } from '../units/convert.js';
import { NcaInputError } from './clean.js';
import { PARAMETERS, type Pptestcd, type UnitRule } from './parameters.js';

export interface UnitSystem {
  time: string;
  conc: string;
  dose: string;
  /** Unit volumes and clearances are reported in when D/C converts to a volume. */
  volume: string;
}

export const DEFAULT_UNITS: UnitSystem = { time: 'h', conc: 'mg/L', dose: 'mg', volume: 'L' };

export interface ParameterUnits {
  units: Record<Pptestcd, string>;
  /** Multiplies values computed in D/C (volumes) and D/(C·T) (clearances); 1 when they stay composed. */
  volumeFactor: number;
}

/** The volume unit D/C as composed text, simplified when C's numerator is D. */
export function volumeUnit(dose: string, conc: string): string {
  const slash = conc.indexOf('/');
  if (slash > 0 && conc.slice(0, slash).trim() === dose.trim()) return conc.slice(slash + 1).trim();
  return `${dose}/(${conc})`;
}

/** Throws NcaInputError unless `unit` is a volume (L, mL, dL, µL, …). */
export function checkVolumeUnit(unit: string): void {
  if (conversionFactorOrNull(unit, 'L') === null) throw new NcaInputError(`volume unit must be a volume such as L or mL, got "${unit}"`);
}

/**
 * Volume unit and factor for D/C: `{ unit: volume, factor }` with
 * factor = the conversion factor of D/C to `volume` when that converts, otherwise
 * the composed unit and factor 1 (values left as the inputs imply).
 */
export function volumeScale(dose: string, conc: string, volume: string): { unit: string; factor: number } {
  checkVolumeUnit(volume);
  const factor = productFactorOrNull(dose, conc, -1, volume);
  return factor === null ? { unit: volumeUnit(dose, conc), factor: 1 } : { unit: volume, factor };
}

function composeUnits({ time, conc, dose, volume: target }: UnitSystem): ParameterUnits {
  const auc = `${time}*${conc}`;
  const { unit: volume, factor } = volumeScale(dose, conc, target);
  const byRule: Record<UnitRule, string> = {
    conc, time, auc, aumc: `${time}^2*${conc}`, rate: `1/${time}`, percent: '%', count: 'count', ratio: '',
    concPerDose: `(${conc})/${dose}`, aucPerDose: `${auc}/${dose}`, volume, clearance: `${volume}/${time}`,
  };
  const units = {} as Record<Pptestcd, string>;
  for (const p of PARAMETERS) units[p.code] = byRule[p.unit];
  return { units, volumeFactor: factor };
}

const cache = new Map<string, ParameterUnits>();

/**
 * Unit of every parameter and the volume factor for this unit system,
 * memoised: profiles of a table share one, and the unit parse behind the
 * factor runs once per system rather than once per profile.
 */
export function parameterUnits(system: UnitSystem): ParameterUnits {
  const key = `${system.time}\u0000${system.conc}\u0000${system.dose}\u0000${system.volume}`;
  return cached(cache, key, () => composeUnits(system));
}

/** Units each input must convert to one of (dimension check): mass, molar or IU amounts; per volume for concentrations. */
const EXPECTED: Record<'time' | 'conc' | 'dose', { targets: readonly string[]; what: string }> = {
  time: { targets: ['h'], what: 'a time (h, min, day)' },
  conc: { targets: ['mg/L', 'mol/L', 'IU/L'], what: 'a concentration (mg/L, ng/mL, µmol/L, IU/L)' },
  dose: { targets: ['mg', 'mol', 'IU', 'mg/kg', 'mol/kg'], what: 'an amount (mg, µg, µmol, IU, mg/kg)' },
};

/**
 * Throws NcaInputError unless `unit` is a known spelling of the right kind
 * (`mgg` or a time given as a dose unit are refused instead of labelling every
 * result with nonsense).
 */
export function checkInputUnit(kind: 'time' | 'conc' | 'dose', unit: string): void {
  const { targets, what } = EXPECTED[kind];
  if (targets.some((target) => conversionFactorOrNull(unit, target) !== null)) return;
  throw new NcaInputError(`${kind} unit must be ${what}, got "${unit}"`);
}
