/**
 * A dose as an amount: in grams, or in grams per kg of body weight for a dose per kg; and which interventions are
 * doses (`isDose`). One home for the checks that divide by a dose or set doses side by side (reference-samples,
 * pk-identities, plausibility).
 */
import type { InterventionRecord } from '../data/model.js';
import { cached, representativeValue } from '../data/records.js';
import { conversionFactorOrNull } from '../units/convert.js';

/** A dose unit's factor into g (kgPower 0) or g/kg (kgPower −1). */
export interface DoseUnitFactor {
  factor: number;
  kgPower: 0 | -1;
}

const doseUnitCache = new Map<string, DoseUnitFactor | null>();

/**
 * A dose unit into g (kgPower 0) or g/kg (−1), a molar unit with the substance's molar mass; null for a unit that
 * is neither (IU, a rate). Cached per unit and molar mass (a failed mathjs conversion costs ~1 ms). PK-DB norms
 * mg/kg to a dimensionless `count` (kg/kg): that is a dose per kg.
 */
export function doseUnitFactor(unit: string, molarMass: number | null): DoseUnitFactor | null {
  return cached(doseUnitCache, `${unit}@${molarMass}`, () => {
    const options = molarMass === null ? undefined : { molarMass };
    for (const [target, kgPower] of [['gram', 0], ['gram / kilogram', -1]] as const) {
      const factor = conversionFactorOrNull(unit, target, options);
      if (factor !== null) return { factor, kgPower };
    }
    return null;
  });
}

/** A dosing's amount (mean, else median, else value) in g, or in g/kg (`perKg`); null when it is none or not positive. */
export function doseAmount(d: InterventionRecord, molarMass: number | null): { value: number; perKg: boolean } | null {
  const v = representativeValue(d);
  if (v === null || !(v > 0) || !d.unit) return null;
  const unit = doseUnitFactor(d.unit, molarMass);
  return unit === null ? null : { value: v * unit.factor, perKg: unit.kgPower === -1 };
}

/**
 * Whether a normed intervention is a dose the QA uses: a `dosing`, or a `qualitative dosing` that curates a positive
 * amount with a unit — a cocktail's probe drugs, a co-medication (180 of the 213 qualitative dosings of the shared
 * export, in 115 studies: Andersen1999's 15 mg oxazepam beside antipyrine and indocyanine green). Without them
 * those studies' curves and parameters had no dose to be normalised by, bounded by or set beside. PK-DB's own
 * calculations count `dosing` only (pkdb-calculation), and so does the reproduction of its stored calculated outputs.
 */
export function isDose(i: InterventionRecord): boolean {
  if (i.measurement_type === 'dosing') return true;
  if (i.measurement_type !== 'qualitative dosing' || !i.unit) return false;
  const v = representativeValue(i);
  return v !== null && v > 0;
}
