/**
 * Readable display units for the report. PK-DB stores normed values in SI
 * base units ("0.0000073503 gram / liter"); a curator compares them with a
 * paper that says "7.35 ng/mL". For each kind of quantity a short list of the
 * units papers use is tried in order of preference (h before min, ng/mL before
 * µg/mL), and the first that puts the value in [0.1, 1000) — else the one
 * nearest to that range — is shown, beside the normed value.
 *
 * The kind is chosen by the normed unit's dimension (src/units parse): a
 * concentration is mass / volume whatever its measurement type is called.
 * Per-kg quantities are told apart by a `/ kilogram` in the spelling, because
 * mass / mass is dimensionless. Molar units get molar candidates; nothing
 * converts molar ↔ mass here (that needs the molar mass, and the normed value
 * is shown too).
 */
import { conversionFactorOrNull } from '../units/convert.js';
import { parseUnitOrNull } from '../units/parse.js';

interface Candidate {
  /** What the page shows. */
  label: string;
  /** What src/units parses. */
  spelling: string;
}

const c = (label: string, spelling = label.replace(/µ/g, 'u').replace(/·/g, '*')): Candidate => ({ label, spelling });

/** Candidate units by dimension key (src/units `Dimension.key`), preferred first. */
const BY_DIMENSION: Readonly<Record<string, readonly Candidate[]>> = {
  '[mass] / [length] ** 3': [c('ng/mL'), c('µg/mL'), c('mg/mL'), c('pg/mL')],
  '[substance] / [length] ** 3': [c('nmol/L'), c('µmol/L'), c('mmol/L'), c('pmol/L')],
  '[mass] * [time] / [length] ** 3': [c('ng·h/mL'), c('µg·h/mL'), c('mg·h/mL'), c('pg·h/mL')],
  '[substance] * [time] / [length] ** 3': [c('nmol·h/L'), c('µmol·h/L'), c('mmol·h/L'), c('pmol·h/L')],
  '[time]': [c('h'), c('min'), c('d'), c('s')],
  '1 / [time]': [c('1/h'), c('1/min'), c('1/d')],
  '[length] ** 3 / [time]': [c('L/h'), c('mL/min')],
  '[length] ** 3 / [mass] / [time]': [c('L/h/kg'), c('mL/min/kg')],
  '[length] ** 3': [c('L'), c('mL')],
  '[length] ** 3 / [mass]': [c('L/kg'), c('mL/kg')],
  '[mass]': [c('mg'), c('µg'), c('g'), c('ng')],
  '[substance]': [c('µmol'), c('mmol'), c('nmol'), c('mol')],
};

/** Per-kg doses and amounts: mass / mass is dimensionless, so the spelling decides. */
const PER_KG_MASS: readonly Candidate[] = [c('mg/kg'), c('µg/kg'), c('g/kg'), c('ng/kg')];

/** Every spelling a display unit is parsed by: the generated unit table holds them, so a report never builds mathjs. */
export const DISPLAY_SPELLINGS: readonly string[] = [...Object.values(BY_DIMENSION).flat(), ...PER_KG_MASS].map((cand) => cand.spelling);

export interface DisplayValue {
  value: number;
  unit: string;
}

function candidatesFor(unit: string): readonly Candidate[] {
  const parsed = parseUnitOrNull(unit);
  if (parsed === null) return [];
  const key = parsed.dimension.key;
  if (key === 'dimensionless') return /gram\s*\/\s*kilogram|g\s*\/\s*kg/.test(unit) ? PER_KG_MASS : [];
  return BY_DIMENSION[key] ?? [];
}

/** Distance of log10(|v|) from [−1, 3), i.e. of |v| from [0.1, 1000): 0 inside, else decades outside. */
function decadeDistance(v: number): number {
  const l = Math.log10(Math.abs(v));
  return l < -1 ? -1 - l : l >= 3 ? l - 3 + 1e-9 : 0;
}

/**
 * The value in the first preferred unit that puts it in [0.1, 1000), else in
 * the unit nearest to that range. Null when there is no candidate (a
 * dimensionless ratio, an unparseable unit) or the value is 0 / not finite.
 */
export function displayValue(value: number | null | undefined, unit: string | null | undefined): DisplayValue | null {
  if (value === null || value === undefined || !Number.isFinite(value) || value === 0 || !unit) return null;
  let best: { d: DisplayValue; rank: number } | null = null;
  for (const cand of candidatesFor(unit)) {
    const factor = conversionFactorOrNull(unit, cand.spelling);
    if (factor === null) continue;
    const v = value * factor;
    // Ties keep the earlier (preferred) unit.
    const rank = decadeDistance(v);
    if (!best || rank < best.rank) best = { d: { value: v, unit: cand.label }, rank };
    if (rank === 0) break;
  }
  return best?.d ?? null;
}

/** A value with 4 significant digits (a ×1000 or ×60 slip is visible; the normed value has more). */
export function formatValue(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  const a = Math.abs(v);
  if (a !== 0 && (a < 1e-4 || a >= 1e7)) return v.toExponential(3).replace(/\.?0+e/, 'e');
  return String(+v.toPrecision(4));
}

/** "7.35 ng/mL", or null when no display unit applies. */
export function displayText(value: number | null | undefined, unit: string | null | undefined): string | null {
  const d = displayValue(value, unit);
  return d ? `${formatValue(d.value)} ${d.unit}` : null;
}
