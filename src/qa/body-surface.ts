/**
 * Body surface area, for values curated per m² (clearances in mL/min/m², volumes in L/m²: children's and
 * oncology studies state them so): made absolute with the subject's body surface area, they meet the other
 * studies' clearances, their own dose / AUC and their sibling arms'. The subject's curated body surface area
 * first, else one from its curated weight and height (Mosteller 1987); none from a weight alone.
 */
import type { CharacteristicaRecord } from '../data/model.js';
import { representativeValue } from '../data/records.js';
import { conversionFactorOrNull } from '../units/convert.js';
import { beyondBounds, subjectBounds } from './human-limits.js';

/** Body surface area (m²) by Mosteller's formula: √(height[cm] · weight[kg] / 3600) (Mosteller 1987); 70 kg, 1.75 m: 1.84 m². */
export function mostellerBsaM2(weightKg: number, heightM: number): number {
  return Math.sqrt((heightM * 100 * weightKg) / 3600);
}

/** A measure of `type` of the characteristica in `unit` (mean, else median, else value), when one converts; null otherwise. */
function measure(characteristica: readonly CharacteristicaRecord[], type: string, unit: string): number | null {
  for (const c of characteristica) {
    if (c.measurement_type !== type || c.unit === null) continue;
    const value = representativeValue(c);
    const factor = conversionFactorOrNull(c.unit, unit);
    if (value !== null && factor !== null && value > 0) return value * factor;
  }
  return null;
}

/**
 * The body surface area (m²) of a subject with these characteristica: its curated one, else Mosteller's from its
 * weight and height; null when neither is curated, or when one lies beyond what any human has (body-measures.ts
 * names it: no value is made absolute with it).
 */
export function bodySurfaceM2(characteristica: readonly CharacteristicaRecord[]): number | null {
  const within = (type: string, v: number | null) => (v !== null && beyondBounds(v, subjectBounds(type, null)) === null ? v : null);
  const curated = measure(characteristica, 'body surface area', 'meter ** 2');
  if (curated !== null) return within('body surface area', curated);
  const weight = within('weight', measure(characteristica, 'weight', 'kilogram'));
  const height = within('height', measure(characteristica, 'height', 'meter'));
  return weight !== null && height !== null ? mostellerBsaM2(weight, height) : null;
}
