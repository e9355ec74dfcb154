/**
 * Suspected causes of a disagreement between a reported and a recomputed
 * value, from the ratio r = reported / recomputed alone (plus the subject's
 * body weight): curation errors multiply a value by a recognisable factor.
 */
import { FACTOR_TOLERANCE, WEIGHT_TOLERANCE, type ReportedParameter, WEIGHT_NORMALISABLE } from './tolerances.js';

/**
 * The slip-factor families of values: a reported parameter's, or a fraction's (recovery, fraction unbound,
 * bioavailability: a percentage curated as a fraction is ×1/100 off, slip-factor.ts `FRACTIONS`).
 */
export type SlipFamily = ReportedParameter | 'fraction';

/**
 * What a slip can hit: a family's value, plus the quantities only the PK
 * identities see (MRT, a time like t½; the dose, an amount).
 */
export type SlipQuantity = SlipFamily | 'mrt' | 'dose';

export interface ScaleFactor {
  factor: number;
  /** Short label used in `suspected_cause`, e.g. `×1000`. */
  label: string;
  /** The unit mix-ups that produce it. */
  explanation: string;
  /** Parameters where the slip can happen (time factors only touch time-dependent ones). */
  applies: ReadonlySet<SlipQuantity> | 'all';
  /** Relative tolerance on the fold scale (see below). */
  tolerance: number;
}

/**
 * Prefix slips of three or six decades are far beyond any ordinary
 * disagreement (the widest minor band is 4×), so they are named even when an
 * ordinary difference of up to 2× rides on top (r = 0.0014 is still a
 * ×1/1000 slip). The small factors (10, 16.7, 24, 60) lie within reach of
 * ordinary differences and must match within FACTOR_TOLERANCE.
 */
export const WIDE_FACTOR_TOLERANCE = 1;

const TIME_DEPENDENT: ReadonlySet<SlipQuantity> = new Set([
  'tmax',
  'mrt',
  'thalf',
  'kel',
  'auc_end',
  'auc_inf',
  'clearance',
]);

/** The unit slips of the issue: ×1000, ×10⁶, ×60, ×24, ×1440, plus mL/min ↔ L/h (1000/60) and a decimal slip (×10). */
export const SCALE_FACTORS: readonly ScaleFactor[] = [
  { factor: 1000, label: '×1000', explanation: 'milli/micro prefix slip (mg↔g, µg↔mg, mL↔L)', applies: 'all', tolerance: WIDE_FACTOR_TOLERANCE },
  { factor: 1e6, label: '×10⁶', explanation: 'two prefix steps (µg↔g, ng↔mg)', applies: 'all', tolerance: WIDE_FACTOR_TOLERANCE },
  { factor: 60, label: '×60', explanation: 'minutes vs hours', applies: TIME_DEPENDENT, tolerance: FACTOR_TOLERANCE },
  { factor: 24, label: '×24', explanation: 'hours vs days', applies: TIME_DEPENDENT, tolerance: FACTOR_TOLERANCE },
  { factor: 1440, label: '×1440', explanation: 'minutes vs days', applies: TIME_DEPENDENT, tolerance: FACTOR_TOLERANCE },
  { factor: 1000 / 60, label: '×1000/60', explanation: 'mL/min vs L/h', applies: new Set(['clearance']), tolerance: FACTOR_TOLERANCE },
  // Not in PK-DB's list of usual suspects, but mg/dL vs mg/L is the commonest concentration slip in clinical papers.
  // A decimal point slip can hit any number; not tmax, a sampling time whose ×10 differences (another definition, a
  // late peak) are ordinary: measured on the shared export, the ×10 tmax it named were debatable.
  { factor: 10, label: '×10', explanation: 'a decimal point slip, or the deci prefix (mg/dL vs mg/L)', applies: new Set(['cmax', 'auc_end', 'auc_inf', 'vd', 'vd_ss', 'clearance', 'dose', 'thalf', 'kel', 'mrt', 'fraction']), tolerance: FACTOR_TOLERANCE },
  { factor: 100, label: '×100', explanation: 'a percentage as a fraction, or a fraction as a percentage', applies: new Set(['fraction']), tolerance: FACTOR_TOLERANCE },
];

/** The factors of SCALE_FACTORS that are a time unit's (×60, ×24, ×1440): a time axis slipped by one moves AUCs and half-lives, not levels. */
export const TIME_FACTORS: readonly number[] = SCALE_FACTORS.filter((sf) => sf.applies === TIME_DEPENDENT).map((sf) => sf.factor);

/** Whether a factor is a time unit's, either way round (×60 or ×1/60, within FACTOR_TOLERANCE). */
export function isTimeFactor(factor: number): boolean {
  const up = Math.max(factor, 1 / factor);
  return TIME_FACTORS.some((t) => nearFactor(up, t));
}

export type CauseKind = 'unit-factor' | 'per-kg' | 'dose' | 'molar-mass';

/** Options of the cause functions: `tolerance` widens each factor's own (never narrows it). */
export interface CauseOptions {
  tolerance?: number;
}

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
export function unitFactorCause(ratio: number, parameter: SlipQuantity, options: CauseOptions = {}): SuspectedCause | null {
  // The closest factor and direction, by index: no list or text per factor tried (a call per comparison and value).
  let best: ScaleFactor | null = null;
  let bestFactor = 0;
  let bestDistance = Infinity;
  for (let i = 0; i < SCALE_FACTORS.length; i++) {
    const sf = SCALE_FACTORS[i];
    if (sf.applies !== 'all' && !sf.applies.has(parameter)) continue;
    const tolerance = Math.max(sf.tolerance, options.tolerance ?? 0);
    for (let inverse = 0; inverse < 2; inverse++) {
      const factor = inverse === 0 ? sf.factor : 1 / sf.factor;
      if (!nearFactor(ratio, factor, tolerance)) continue;
      const distance = foldDistance(ratio, factor);
      if (best !== null && bestDistance <= distance) continue;
      best = sf;
      bestFactor = factor;
      bestDistance = distance;
    }
  }
  if (best === null) return null;
  const label = bestFactor === best.factor ? best.label : best.label.replace('×', '×1/');
  return { kind: 'unit-factor', factor: bestFactor, text: `${label} (${best.explanation})` };
}

/**
 * Per-kg vs absolute: a volume or clearance stated per kg but stored as
 * absolute (or the reverse) is off by the body weight, r ≈ W or r ≈ 1/W.
 */
export function perKgCause(ratio: number, parameter: SlipQuantity, bodyWeightKg: number | null, options: CauseOptions = {}): SuspectedCause | null {
  const normalisable = parameter === 'dose' || (parameter !== 'mrt' && WEIGHT_NORMALISABLE.has(parameter));
  if (!normalisable || bodyWeightKg === null || !(bodyWeightKg > 0)) return null;
  const weight = +bodyWeightKg.toPrecision(3);
  const tolerance = Math.max(WEIGHT_TOLERANCE, options.tolerance ?? 0);
  if (nearFactor(ratio, bodyWeightKg, tolerance)) {
    return { kind: 'per-kg', factor: bodyWeightKg, text: `per-kg vs absolute: reported is ×${weight} (body weight ${weight} kg); a per-kg value stored as absolute?` };
  }
  if (nearFactor(ratio, 1 / bodyWeightKg, tolerance)) {
    return { kind: 'per-kg', factor: 1 / bodyWeightKg, text: `per-kg vs absolute: reported is ÷${weight} (body weight ${weight} kg); an absolute value divided by weight, or the dose per kg taken as absolute?` };
  }
  return null;
}

/** Every cause the ratio alone supports, the closest unit factor first. */
export function ratioCauses(ratio: number, parameter: SlipQuantity, bodyWeightKg: number | null, options: CauseOptions = {}): SuspectedCause[] {
  return [unitFactorCause(ratio, parameter, options), perKgCause(ratio, parameter, bodyWeightKg, options)].filter(
    (c): c is SuspectedCause => c !== null,
  );
}

/** Quantities whose value carries an amount, so that a molar unit curated as a mass unit (or the reverse) scales them. */
const AMOUNT_BEARING: ReadonlySet<SlipQuantity> = new Set(['cmax', 'auc_end', 'auc_inf', 'vd', 'vd_ss', 'clearance', 'dose']);

/** A molar-mass window: ratios this close to M·10³ᵏ are named (molar masses are exact, the rest is rounding). */
export const MOLAR_TOLERANCE = 0.1;

/**
 * Molar ↔ mass: a value stated in µmol/L but curated as µg/mL (or mg/L, µg/L, …) is off by
 * M·10³ᵏ or 10³ᵏ/M (M the molar mass in g/mol, k an integer prefix step): 1 µmol/L of glucose
 * (180 g/mol) is 0.18 g/L, so 5 mmol/L curated as mg/dL is ×1/18 of the truth (18 = 180/10, the
 * deci prefix). Only for amount-bearing quantities, and only beyond ×10 (|log₁₀ r| ≥ 1): a
 * window M/1000 ≈ 0.1–0.5 would otherwise name ordinary disagreements of ×2–×10.
 */
export function molarMassCause(ratio: number, parameter: SlipQuantity, molarMass: number | null, options: CauseOptions = {}): SuspectedCause | null {
  if (!AMOUNT_BEARING.has(parameter) || molarMass === null || !(molarMass > 0) || !(ratio > 0)) return null;
  if (Math.abs(Math.log10(ratio)) < 1) return null;
  const tolerance = Math.max(MOLAR_TOLERANCE, options.tolerance ?? 0);
  const mass = +molarMass.toPrecision(4);
  // Prefix steps of 10³ (µmol/L vs µg/mL, mg/L, µg/L, …) and, per volume, the clinical mg/dL vs mmol/L (M/10, 10/M).
  const prefixes = PER_VOLUME.has(parameter) ? [1e-6, 1e-3, 1, 1e3, 1e6, 0.1, 10] : [1e-6, 1e-3, 1, 1e3, 1e6];
  for (const prefix of prefixes) {
    for (const [factor, text] of [
      [molarMass * prefix, `×${+(mass * prefix).toPrecision(4)} (molar ↔ mass: a molar value read as a mass value, molar mass ${mass} g/mol)`],
      [prefix / molarMass, `×1/${+(mass / prefix).toPrecision(4)} (molar ↔ mass: a mass value read as a molar value, molar mass ${mass} g/mol)`],
    ] as const) {
      if (nearFactor(ratio, factor, tolerance)) return { kind: 'molar-mass', factor, text };
    }
  }
  return null;
}

/**
 * Quantities per volume (a concentration, an AUC): only they can suffer the clinical mmol/L ↔ mg/dL (×M/10), whose
 * deci prefix is the volume's; a dose, a volume or a clearance in "mmol ↔ dg" is no slip anyone makes.
 */
export const PER_VOLUME: ReadonlySet<SlipQuantity> = new Set(['cmax', 'auc_end', 'auc_inf']);

/** The quantities a concentration-like molar ↔ mass slip can touch (a dose in mmol read as mg, glucose in mmol/L read as mg/dL). */
export const MOLAR_SLIPPABLE: ReadonlySet<SlipQuantity> = new Set(['cmax', 'auc_end', 'auc_inf', 'dose']);

/** Molar ↔ mass factors closer to 1 than this (M near 1000 g/mol for µmol/L ↔ mg/L) are no recognisable slip. */
export const MIN_MOLAR_FACTOR = 2;

/**
 * Molar ↔ mass factors below ×10 (µmol/L ↔ mg/L of molecules of 100–1000 g/mol: ×3 for midazolam) are within the
 * reach of ordinary differences between arms and studies. Measured on the shared export: named from a narrow
 * reference they were arms 2–3× the median for a reason (Heizmann1983's midazolam individuals lie within their own
 * study's spread; Greenblatt2004's 1-minute infusion Cmax against its 1-h and 3-h infusions). The reference range
 * names them only from a broad, far reference; within a study they are not named. Glucose in mmol/L read as mg/dL
 * (×18) and µmol ↔ µg (×M) stay named.
 */
export const SMALL_MOLAR_FACTOR = 10;

/** A slip between a molar and a mass unit: its factor (≥ 1), label and explanation (molarMassSlips). */
export interface MolarMassSlip {
  readonly factor: number;
  readonly label: string;
  readonly explanation: string;
  /** Only a quantity per volume can suffer it (mmol/L read as mg/dL: PER_VOLUME). */
  readonly perVolume: boolean;
}

/** molarMassSlips by molar mass: asked per comparison and value (a few hundred substances), each list built once. */
const slipsByMass = new Map<number, readonly MolarMassSlip[]>();

/**
 * The molar ↔ mass slips of a substance of molar mass M (g/mol), one
 * direction each (the callers add the reverse): a value curated in the other
 * kind of unit with the same number is off by M·p, p the prefix step between
 * the two units — p = 1 for µmol/L ↔ µg/L (nmol/mL ↔ ng/mL), p = 1/1000 for
 * µmol/L ↔ mg/L (µg/mL: 10 µmol/L of caffeine, M = 194.2, curated as 10 mg/L
 * is ×5.15), p = 1/10 for the clinical mmol/L ↔ mg/dL (glucose, M = 180:
 * ×18). Factors within ×2 of 1 are left out (MIN_MOLAR_FACTOR).
 */
export function molarMassSlips(molarMass: number): readonly MolarMassSlip[] {
  let slips = slipsByMass.get(molarMass);
  if (slips === undefined) slipsByMass.set(molarMass, (slips = buildMolarMassSlips(molarMass)));
  return slips;
}

/** molarMassSlips without those per volume (PER_VOLUME), by molar mass. */
const amountSlipsByMass = new Map<number, readonly MolarMassSlip[]>();

/** The molar ↔ mass slips a quantity can suffer: molarMassSlips, for a quantity that is not per volume without mmol/L ↔ mg/dL. */
export function molarMassSlipsOf(quantity: SlipQuantity, molarMass: number): readonly MolarMassSlip[] {
  if (PER_VOLUME.has(quantity)) return molarMassSlips(molarMass);
  let slips = amountSlipsByMass.get(molarMass);
  if (slips === undefined) amountSlipsByMass.set(molarMass, (slips = molarMassSlips(molarMass).filter((s) => !s.perVolume)));
  return slips;
}

function buildMolarMassSlips(molarMass: number): MolarMassSlip[] {
  if (!(molarMass > 0)) return [];
  const m = +molarMass.toPrecision(4);
  const slips = [
    { factor: molarMass, explanation: `molar ↔ mass: µmol read as µg (molar mass ${m} g/mol)`, perVolume: false },
    { factor: molarMass / 1000, explanation: `molar ↔ mass: µmol/L ↔ mg/L (molar mass ${m} g/mol)`, perVolume: false },
    { factor: molarMass / 10, explanation: `molar ↔ mass: mmol/L read as mg/dL (molar mass ${m} g/mol)`, perVolume: true },
  ];
  // Each stated as a factor ≥ 1 (×5.15 rather than ×0.194): the caller's reverse is then ×1/5.15.
  return slips
    .map((s) => ({ ...s, factor: Math.max(s.factor, 1 / s.factor) }))
    .filter((s) => s.factor >= MIN_MOLAR_FACTOR)
    .map((s) => ({ ...s, label: `×${+s.factor.toPrecision(s.factor >= 100 ? 4 : 3)}` }));
}

/**
 * How close a ratio must be to a molar ↔ mass factor below SMALL_MOLAR_FACTOR (×2–10) to name it where the
 * ratio is exact, i.e. both values measure the same thing for the same subject (a reported value against its own
 * timecourse, CL = dose/AUC∞): such a slip moves the ratio by exactly M·10³ᵏ, while an ordinary difference
 * (method, rounding, λz window) lands within 3 % of one given factor rarely. Measured on the shared export: 1 of
 * 729 disagreeing reported-vs-recomputed comparisons of Cmax, AUC, CL or V (Kharasch2004, already major).
 */
export const EXACT_MOLAR_TOLERANCE = 0.03;

/**
 * Molar ↔ mass for an exact ratio (see EXACT_MOLAR_TOLERANCE): the molar ↔ mass slips of the molar mass below
 * SMALL_MOLAR_FACTOR (molarMassSlips, both directions) within EXACT_MOLAR_TOLERANCE, the closest first; the larger
 * ones are molarMassCause's. Only quantities that carry an amount.
 */
export function exactMolarCause(ratio: number, parameter: SlipQuantity, molarMass: number | null, tolerance = EXACT_MOLAR_TOLERANCE): SuspectedCause | null {
  if (!AMOUNT_BEARING.has(parameter) || molarMass === null || !(molarMass > 0) || !(ratio > 0) || !Number.isFinite(ratio)) return null;
  let best: { cause: SuspectedCause; distance: number } | null = null;
  for (const slip of molarMassSlipsOf(parameter, molarMass)) {
    if (slip.factor >= SMALL_MOLAR_FACTOR) continue;
    for (const [factor, label] of [[slip.factor, slip.label], [1 / slip.factor, slip.label.replace('×', '×1/')]] as const) {
      if (!nearFactor(ratio, factor, tolerance)) continue;
      const distance = foldDistance(ratio, factor);
      if (best === null || distance < best.distance) best = { cause: { kind: 'molar-mass', factor, text: `${label} (${slip.explanation})` }, distance };
    }
  }
  return best?.cause ?? null;
}

/**
 * Of `causes`, the one whose factor lies nearest exp(logRatio) on the log scale, within `maxDistance`, among factors of
 * at least ×`minFactor` either way (smaller ones are within what ordinary differences reach); null when none does.
 */
export function nearestCause(logRatio: number, causes: readonly SuspectedCause[], minFactor: number, maxDistance: number): SuspectedCause | null {
  let best: SuspectedCause | null = null;
  let bestDistance = Infinity;
  for (const c of causes) {
    if (Math.abs(Math.log(c.factor)) < Math.log(minFactor)) continue;
    const distance = Math.abs(logRatio - Math.log(c.factor));
    if (distance <= maxDistance && distance < bestDistance) [best, bestDistance] = [c, distance];
  }
  return best;
}

/** A body weight for per-kg slips of a subject whose weight is not curated: a typical adult. */
export const TYPICAL_BODY_WEIGHT_KG = 70;

/** The adult body weights a per-kg slip of an unknown subject may carry (kg). */
export const ADULT_BODY_WEIGHT_KG: readonly [number, number] = [40, 120];

/**
 * Per-kg vs absolute where no subject (so no body weight) is at hand, e.g. a dose against its own label: a ratio
 * of an adult body weight either way (ADULT_BODY_WEIGHT_KG). The band is wide; only callers whose ratios are exact
 * (a label's amount) use it, and no other slip factor lies in it (×60 and ×24 never touch a dose).
 */
export function unknownWeightPerKgCause(ratio: number): SuspectedCause | null {
  if (!(ratio > 0)) return null;
  const [lo, hi] = ADULT_BODY_WEIGHT_KG;
  const w = ratio >= 1 ? ratio : 1 / ratio;
  if (w < lo || w > hi) return null;
  const kg = +w.toPrecision(3);
  return ratio >= 1
    ? { kind: 'per-kg', factor: ratio, text: `×${kg} (per-kg vs absolute: a per-kg amount multiplied by a body weight of ${kg} kg twice?)` }
    : { kind: 'per-kg', factor: ratio, text: `×1/${kg} (per-kg vs absolute: the amount per kg curated as the absolute amount, body weight ${kg} kg)` };
}

/**
 * Every slip factor f (value as curated = true value × f) that can touch a
 * quantity of the family `parameter` (`dose` for doses), both directions:
 * - the unit factors of SCALE_FACTORS that apply (doses: the prefix slips, and
 *   ×10 as a decimal slip in the dose);
 * - molar ↔ mass with the molar mass M, for concentrations, AUCs and doses
 *   (molarMassSlips): ×M (µmol/L ↔ µg/L), ×M/1000 (µmol/L ↔ mg/L) and ×M/10
 *   (mmol/L read as mg/dL: glucose, M = 180, ×18);
 * - per-kg vs absolute with the body weight W (×1/W: an absolute value divided
 *   by W, or a per-kg value stored as absolute the other way), for volumes,
 *   clearances and doses; W unknown: TYPICAL_BODY_WEIGHT_KG, said in the text.
 * Factors within 5 % of 1 are left out (they explain nothing).
 */
export function slipFactors(
  parameter: SlipFamily | 'dose',
  options: { molarMass?: number | null; bodyWeightKg?: number | null } = {},
): readonly SuspectedCause[] {
  const mass = options.molarMass ?? null;
  const weight = options.bodyWeightKg ?? null;
  let byMass = factorLists.get(parameter);
  if (byMass === undefined) factorLists.set(parameter, (byMass = new Map()));
  let byWeight = byMass.get(mass);
  if (byWeight === undefined) byMass.set(mass, (byWeight = new Map()));
  let causes = byWeight.get(weight);
  if (causes === undefined) byWeight.set(weight, (causes = buildSlipFactors(parameter, mass, weight)));
  return causes;
}

/**
 * slipFactors by parameter, molar mass and body weight: every value judged against a reference, a group or a bound
 * asks for its list (a few hundred distinct masses and weights in a run), each built once (labels, toPrecision).
 */
const factorLists = new Map<string, Map<number | null, Map<number | null, readonly SuspectedCause[]>>>();

function buildSlipFactors(parameter: SlipFamily | 'dose', mass: number | null, bodyWeightKg: number | null): SuspectedCause[] {
  const causes: SuspectedCause[] = [];
  const both = (factor: number, label: string, explanation: string, kind: CauseKind) => {
    if (!(factor > 0) || nearFactor(factor, 1)) return;
    causes.push({ kind, factor, text: `${label} (${explanation})` });
    causes.push({ kind, factor: 1 / factor, text: `${label.replace('×', '×1/')} (${explanation})` });
  };
  for (const sf of SCALE_FACTORS) {
    if (parameter === 'dose') {
      if (sf.factor === 1000 || sf.factor === 1e6) both(sf.factor, sf.label, sf.explanation, 'unit-factor');
      else if (sf.factor === 10) both(10, '×10', 'a decimal slip in the dose', 'unit-factor');
    } else if (sf.applies === 'all' || sf.applies.has(parameter)) both(sf.factor, sf.label, sf.explanation, 'unit-factor');
  }
  if (mass != null && mass > 0 && MOLAR_SLIPPABLE.has(parameter)) {
    for (const slip of molarMassSlipsOf(parameter, mass)) both(slip.factor, slip.label, slip.explanation, 'molar-mass');
  }
  if (parameter === 'dose' || WEIGHT_NORMALISABLE.has(parameter)) {
    const known = bodyWeightKg != null && bodyWeightKg > 0;
    const w = known ? (bodyWeightKg as number) : TYPICAL_BODY_WEIGHT_KG;
    const wText = `${+w.toPrecision(3)} kg${known ? '' : ', body weight not curated: a typical adult assumed'}`;
    both(w, `×${+w.toPrecision(3)}`, `per-kg vs absolute (body weight ${wText})`, 'per-kg');
  }
  return causes;
}
