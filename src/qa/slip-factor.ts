/**
 * The slip factor nearest to a ratio between records of one study (or between
 * a timecourse's grid and its siblings'), with a tolerance the caller derives
 * from the study's own spread. causes.ts matches a reported value against its
 * own recomputation within 5 %; records of different subjects or arms also
 * differ by between-subject variability, so here the factor only has to bring
 * the record back within the study's spread (checks/within-study.ts). The
 * vocabulary (factors, labels, what they apply to) is causes.ts's SCALE_FACTORS.
 */
import { MOLAR_SLIPPABLE, molarMassSlipsOf, SCALE_FACTORS, SMALL_MOLAR_FACTOR, type SlipFamily } from './causes.js';
import { isReportedParameter, WEIGHT_NORMALISABLE, type ReportedParameter } from './tolerances.js';
import { parseUnitOrNull } from '../units/parse.js';
import { ACTIVITY_DIMENSION, BASE_DIMENSIONS } from '../units/registry.js';

export interface SlipFactorMatch {
  /** The factor the ratio is near (ratio ≈ factor; below 1 for the reverse slip). */
  factor: number;
  kind: 'unit-factor' | 'per-kg' | 'molar-mass';
  /** `×1/1000 (milli/micro prefix slip …)`, in the words of causes.ts. */
  text: string;
  /** |ln(ratio / factor)|. */
  distance: number;
  /** The other factors within the same distance, nearest first (a clearance ×20: ×16.7 and ×24 both fit). */
  alternatives?: SlipFactorMatch[];
}

const fmt = (x: number) => String(+x.toPrecision(3));

/**
 * The factor of SCALE_FACTORS (those that apply to `parameter`), of the body
 * weight (per-kg: by default for volumes and clearances; a dose per kg too) or
 * of the molar mass (molarMassSlips from ×10 up, SMALL_MOLAR_FACTOR, for
 * concentrations and AUCs when the substance's mass is known) nearest to exp(logRatio), if within `maxDistance`
 * on the log scale; null otherwise. With `smallMolarAlternatives`, a molar factor below ×10 nearer the ratio than the
 * factor named is one of its alternatives (a paracetamol Cmax ×6.1 its fellows': ×10, or ×6.62 µmol/L ↔ mg/L).
 */
export function nearestSlipFactor(
  logRatio: number,
  parameter: SlipFamily,
  bodyWeightKg: number | null,
  maxDistance: number,
  perKg: boolean = WEIGHT_NORMALISABLE.has(parameter),
  molarMass: number | null = null,
  smallMolarAlternatives = false,
): SlipFactorMatch | null {
  // Every factor within reach (a few of a few dozen), the nearest named, the others its alternatives.
  const fits: SlipFactorMatch[] = [];
  const consider = (factor: number, kind: SlipFactorMatch['kind'], text: string) => {
    const distance = Math.abs(logRatio - Math.log(factor));
    if (distance <= maxDistance) fits.push({ factor, kind, text, distance });
  };
  for (const sf of SCALE_FACTORS) {
    if (sf.applies !== 'all' && !sf.applies.has(parameter)) continue;
    consider(sf.factor, 'unit-factor', `${sf.label} (${sf.explanation})`);
    consider(1 / sf.factor, 'unit-factor', `${sf.label.replace('×', '×1/')} (${sf.explanation})`);
  }
  if (perKg && bodyWeightKg !== null && bodyWeightKg > 1) {
    const w = fmt(bodyWeightKg);
    consider(bodyWeightKg, 'per-kg', `per-kg vs absolute: ×${w} (body weight ${w} kg)`);
    consider(1 / bodyWeightKg, 'per-kg', `per-kg vs absolute: ÷${w} (body weight ${w} kg)`);
  }
  if (molarMass !== null && MOLAR_SLIPPABLE.has(parameter)) {
    for (const slip of molarMassSlipsOf(parameter, molarMass)) {
      if (slip.factor < SMALL_MOLAR_FACTOR && !smallMolarAlternatives) continue;
      consider(slip.factor, 'molar-mass', `${slip.label} (${slip.explanation})`);
      consider(1 / slip.factor, 'molar-mass', `${slip.label.replace('×', '×1/')} (${slip.explanation})`);
    }
  }
  // Small molar factors (×2–10) name no slip alone, but one nearer the ratio than the factor named is said beside it.
  const small = (f: SlipFactorMatch) => f.kind === 'molar-mass' && Math.max(f.factor, 1 / f.factor) < SMALL_MOLAR_FACTOR;
  const named = fits.filter((f) => !small(f));
  if (named.length === 0) return null;
  // Nearest first; a tie keeps the order considered (unit factors, then per-kg, then molar).
  const byDistance = (list: SlipFactorMatch[]) => list.map((f, k) => [f, k] as const).sort((a, b) => a[0].distance - b[0].distance || a[1] - b[1]).map(([f]) => f);
  const [lead, ...others] = byDistance(named);
  const alternatives = [...others, ...fits.filter((f) => small(f) && f.distance < lead.distance)];
  return alternatives.length === 0 ? lead : { ...lead, alternatives: byDistance(alternatives) };
}

/** Fractions of a whole, in [0, 1] (normed dimensionless): their slips are a percentage's (×100) and a decimal's. */
export const FRACTIONS: ReadonlySet<string> = new Set([
  'fraction_unbound', 'bioavailability', 'fraction_absorbed', 'recovery', 'extraction_ratio', 'plasma_binding',
]);

/** The slip-factor family of a measurement type: its own when a PK parameter (MRT as t½), a fraction's, else by its unit. */
export function slipFamilyOf(type: string, unit: string): SlipFamily | null {
  if (type === 'mrt') return 'thalf';
  if (FRACTIONS.has(type)) return unit === 'dimensionless' ? 'fraction' : null;
  return isReportedParameter(type) ? type : slipFamilyOfUnit(unit);
}

/**
 * The slip-factor family (a ReportedParameter of causes.ts) of a quantity known only by its unit, for measurement
 * types that are not PK parameters (a renal clearance, a hepatic blood flow, an amount excreted, a heart rate): the
 * unit slips its dimension can suffer. Per kg is dropped first (a clearance per kg slips like a clearance).
 * - volume / time (clearances, flows), mass or amount / time (excretion rates): `clearance` (×1000, ×60, ×24, …, per-kg);
 * - 1 / time (rate constants, a heart rate, % per hour): `kel` (×1000, ×60, ×24, ×1440);
 * - time: `thalf`; volume: `vd`; mass·time / volume: `auc_inf`;
 * - mass, amount or activity, per volume or not: `cmax` (×1000, ×10⁶, ×10);
 * - anything else (dimensionless, pressures, lengths): null, no unit slip is named.
 */
export function slipFamilyOfUnit(unit: string): ReportedParameter | null {
  let family = families.get(unit);
  if (family === undefined) families.set(unit, (family = familyOfUnit(unit)));
  return family;
}

/** slipFamilyOfUnit by unit: asked once per value of the within-study check, for a few dozen units. */
const families = new Map<string, ReportedParameter | null>();

function familyOfUnit(unit: string): ReportedParameter | null {
  const parsed = parseUnitOrNull(unit);
  if (parsed === null) return null;
  const e = parsed.dimension.exponents;
  const at = (name: string) => e[BASE_DIMENSIONS.indexOf(name)] ?? 0;
  const mass = at('MASS');
  const length = at('LENGTH');
  const time = at('TIME');
  const amount = at('AMOUNT_OF_SUBSTANCE') + at(ACTIVITY_DIMENSION);
  // Per kg (mass −1 with a volume or a time): a body-weight normalisation, not a concentration.
  const perKg = mass === -1 && (length === 3 || time !== 0) ? 1 : 0;
  const m = mass + perKg;
  const others = e.some((x, i) => x !== 0 && !['MASS', 'LENGTH', 'TIME', 'AMOUNT_OF_SUBSTANCE', ACTIVITY_DIMENSION].includes(BASE_DIMENSIONS[i]));
  if (others) return null;
  const substance = m + amount;
  if (substance === 0 && length === 3 && time === -1) return 'clearance';
  if (substance === 0 && length === 0 && time === -1) return 'kel';
  if (substance === 0 && length === 0 && time === 1) return 'thalf';
  if (substance === 0 && length === 3 && time === 0) return 'vd';
  if (substance === 1 && time === -1 && (length === 0 || length === -3)) return length === 0 ? 'clearance' : null;
  if (substance === 1 && length === -3 && time === 1) return 'auc_inf';
  if (substance === 1 && (length === 0 || length === -3) && time === 0) return 'cmax';
  return null;
}
