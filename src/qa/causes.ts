/**
 * Suspected causes of a disagreement between a reported and a recomputed
 * value, from the ratio r = reported / recomputed alone (plus the subject's
 * body weight): curation errors multiply a value by a recognisable factor.
 */
import { FACTOR_TOLERANCE, WEIGHT_TOLERANCE, type ReportedParameter, WEIGHT_NORMALISABLE } from './tolerances.js';

export interface ScaleFactor {
  factor: number;
  /** Short label used in `suspected_cause`, e.g. `×1000`. */
  label: string;
  /** The unit mix-ups that produce it. */
  explanation: string;
  /** Parameters where the slip can happen (time factors only touch time-dependent ones). */
  applies: ReadonlySet<ReportedParameter> | 'all';
}

const TIME_DEPENDENT: ReadonlySet<ReportedParameter> = new Set([
  'tmax',
  'thalf',
  'kel',
  'auc_end',
  'auc_inf',
  'clearance',
]);

/** The unit slips of the issue: ×1000, ×10⁶, ×60, ×24, ×1440, plus mL/min ↔ L/h (1000/60). */
export const SCALE_FACTORS: readonly ScaleFactor[] = [
  { factor: 1000, label: '×1000', explanation: 'milli/micro prefix slip (mg↔g, µg↔mg, mL↔L)', applies: 'all' },
  { factor: 1e6, label: '×10⁶', explanation: 'two prefix steps (µg↔g, ng↔mg)', applies: 'all' },
  { factor: 60, label: '×60', explanation: 'minutes vs hours', applies: TIME_DEPENDENT },
  { factor: 24, label: '×24', explanation: 'hours vs days', applies: TIME_DEPENDENT },
  { factor: 1440, label: '×1440', explanation: 'minutes vs days', applies: TIME_DEPENDENT },
  { factor: 1000 / 60, label: '×1000/60', explanation: 'mL/min vs L/h', applies: new Set(['clearance']) },
];

export type CauseKind = 'unit-factor' | 'per-kg' | 'dose';

export interface SuspectedCause {
  kind: CauseKind;
  /** The factor the ratio is close to (r ≈ factor). */
  factor: number;
  /** For `suspected_cause`: `×1000 (milli/micro prefix slip …)`. */
  text: string;
}

/** |ln(a / b)|: the symmetric distance between two positive numbers on the fold scale. */
export function foldDistance(a: number, b: number): number {
  return Math.abs(Math.log(a / b));
}

/** Whether r is within `tolerance` (relative, e.g. 0.05) of `factor`, on the fold scale. */
export function nearFactor(ratio: number, factor: number, tolerance = FACTOR_TOLERANCE): boolean {
  return ratio > 0 && Number.isFinite(ratio) && foldDistance(ratio, factor) <= Math.log1p(tolerance);
}

/**
 * The unit slip that best explains r (r ≈ f or r ≈ 1/f for a factor of
 * SCALE_FACTORS that applies to the parameter), or null.
 */
export function unitFactorCause(ratio: number, parameter: ReportedParameter): SuspectedCause | null {
  let best: { cause: SuspectedCause; distance: number } | null = null;
  for (const sf of SCALE_FACTORS) {
    if (sf.applies !== 'all' && !sf.applies.has(parameter)) continue;
    for (const [factor, sign] of [
      [sf.factor, ''],
      [1 / sf.factor, '1/'],
    ] as const) {
      if (!nearFactor(ratio, factor)) continue;
      const distance = foldDistance(ratio, factor);
      if (best && best.distance <= distance) continue;
      const label = sign ? sf.label.replace('×', '×1/') : sf.label;
      best = { cause: { kind: 'unit-factor', factor, text: `${label} (${sf.explanation})` }, distance };
    }
  }
  return best?.cause ?? null;
}

/**
 * Per-kg vs absolute: a volume or clearance stated per kg but stored as
 * absolute (or the reverse) is off by the body weight, r ≈ W or r ≈ 1/W.
 */
export function perKgCause(ratio: number, parameter: ReportedParameter, bodyWeightKg: number | null): SuspectedCause | null {
  if (!WEIGHT_NORMALISABLE.has(parameter) || bodyWeightKg === null || !(bodyWeightKg > 0)) return null;
  const weight = +bodyWeightKg.toPrecision(3);
  if (nearFactor(ratio, bodyWeightKg, WEIGHT_TOLERANCE)) {
    return { kind: 'per-kg', factor: bodyWeightKg, text: `per-kg vs absolute: reported is ×${weight} (body weight ${weight} kg); a per-kg value stored as absolute?` };
  }
  if (nearFactor(ratio, 1 / bodyWeightKg, WEIGHT_TOLERANCE)) {
    return { kind: 'per-kg', factor: 1 / bodyWeightKg, text: `per-kg vs absolute: reported is ÷${weight} (body weight ${weight} kg); an absolute value divided by weight, or the dose per kg taken as absolute?` };
  }
  return null;
}

/** Every cause the ratio alone supports, the closest unit factor first. */
export function ratioCauses(ratio: number, parameter: ReportedParameter, bodyWeightKg: number | null): SuspectedCause[] {
  return [unitFactorCause(ratio, parameter), perKgCause(ratio, parameter, bodyWeightKg)].filter(
    (c): c is SuspectedCause => c !== null,
  );
}
