/**
 * The slip factor nearest to a ratio between records of one study (or between
 * a timecourse's grid and its siblings'), with a tolerance the caller derives
 * from the study's own spread. causes.ts matches a reported value against its
 * own recomputation within 5 %; records of different subjects or arms also
 * differ by between-subject variability, so here the factor only has to bring
 * the record back within the study's spread (checks/within-study.ts). The
 * vocabulary (factors, labels, what they apply to) is causes.ts's SCALE_FACTORS.
 */
import { MOLAR_SLIPPABLE, molarMassSlips, SCALE_FACTORS, SMALL_MOLAR_FACTOR } from './causes.js';
import { WEIGHT_NORMALISABLE, type ReportedParameter } from './tolerances.js';

export interface SlipFactorMatch {
  /** The factor the ratio is near (ratio ≈ factor; below 1 for the reverse slip). */
  factor: number;
  kind: 'unit-factor' | 'per-kg' | 'molar-mass';
  /** `×1/1000 (milli/micro prefix slip …)`, in the words of causes.ts. */
  text: string;
  /** |ln(ratio / factor)|. */
  distance: number;
}

const fmt = (x: number) => String(+x.toPrecision(3));

/**
 * The factor of SCALE_FACTORS (those that apply to `parameter`), of the body
 * weight (per-kg: by default for volumes and clearances; a dose per kg too) or
 * of the molar mass (molarMassSlips from ×10 up, SMALL_MOLAR_FACTOR, for
 * concentrations and AUCs when the substance's mass is known) nearest to exp(logRatio), if within `maxDistance`
 * on the log scale; null otherwise.
 */
export function nearestSlipFactor(
  logRatio: number,
  parameter: ReportedParameter,
  bodyWeightKg: number | null,
  maxDistance: number,
  perKg: boolean = WEIGHT_NORMALISABLE.has(parameter),
  molarMass: number | null = null,
): SlipFactorMatch | null {
  let best: SlipFactorMatch | null = null;
  const consider = (factor: number, kind: SlipFactorMatch['kind'], text: string) => {
    const distance = Math.abs(logRatio - Math.log(factor));
    if (distance <= maxDistance && (!best || distance < best.distance)) best = { factor, kind, text, distance };
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
    for (const slip of molarMassSlips(molarMass)) {
      if (slip.factor < SMALL_MOLAR_FACTOR) continue;
      consider(slip.factor, 'molar-mass', `${slip.label} (${slip.explanation})`);
      consider(1 / slip.factor, 'molar-mass', `${slip.label.replace('×', '×1/')} (${slip.explanation})`);
    }
  }
  return best;
}
