/**
 * What no living human has: the limits of values of the body itself — vital
 * signs, blood flows, a clinical score, and the plasma (serum, blood) levels
 * of common endogenous analytes — used by checks/human-ranges.ts. Each limit
 * lies at or beyond the most extreme values recorded in living patients
 * (critical values and case reports; Tietz, Guyton & Hall), not at the edge
 * of a reference interval: a patient in a hyperosmolar coma, a newborn with
 * kernicterus, an athlete at maximal exercise all lie inside. A value beyond
 * one is a curation error whatever the study; the slip that put it there
 * (mmol/L read as mg/dL: glucose ×1/18, mL as L, per minute as per second) is
 * usually one of the unit slips, named by the check.
 *
 * `normal` (a healthy adult's range, loosely), `conventional` and `typical`
 * (its centre) only order the slip factors that bring a value back inside:
 * those that land in the normal range first; among them the SI unit read as
 * the conventional one (mmol/L as mg/dL), then other molar ↔ mass slips for an
 * analyte with molar limits, then the one nearest typical.
 */
import { conversionFactorOrNull } from '../units/convert.js';

export interface HumanLimit {
  /** The unit of `low`, `high` and `typical` (converted to the value's unit, molar ↔ mass with the substance's molar mass). */
  unit: string;
  low: number;
  high: number;
  typical: number;
  /**
   * For an analyte with SI (molar) limits, the conventional unit laboratories also report it in (mg/dL, µg/dL): a
   * value in one read as the other is the classic slip of its unit, named first.
   */
  conventional?: string;
  /** A healthy adult's range, loosely (fasting to post-load for glucose). */
  normal: readonly [number, number];
  /** Why these limits, in a few words. */
  basis: string;
}

/** Limits of measurement types that are the body's own, whatever the substance or tissue; by measurement type. */
export const BODY_LIMITS: ReadonlyMap<string, HumanLimit> = new Map([
  ['heart rate', { unit: '1 / minute', low: 20, high: 300, typical: 70, normal: [45, 110], basis: 'complete heart block ~20/min; no sinus or supraventricular rate above 300/min' }],
  ['blood pressure systolic', { unit: 'millimeter_Hg', low: 40, high: 300, typical: 120, normal: [90, 160], basis: 'shock ~40 mmHg; hypertensive crises stay below 300 mmHg' }],
  ['blood pressure diastolic', { unit: 'millimeter_Hg', low: 15, high: 200, typical: 80, normal: [50, 100], basis: 'shock; hypertensive crises stay below 200 mmHg' }],
  ['MAP', { unit: 'millimeter_Hg', low: 20, high: 250, typical: 93, normal: [65, 115], basis: 'between the diastolic and systolic limits' }],
  ['cardiac output', { unit: 'liter / minute', low: 0.2, high: 45, typical: 5.5, normal: [3.5, 8], basis: 'a newborn ~0.5 L/min; elite athletes at maximal exercise ~40 L/min' }],
  ['hbf', { unit: 'liter / minute', low: 0.05, high: 6, typical: 1.5, normal: [0.8, 2], basis: 'hepatic blood flow ~25 % of cardiac output, ~1.5 L/min in adults; cirrhosis and infants lower' }],
  ['child-pugh score numeric', { unit: 'dimensionless', low: 5, high: 15, typical: 8, normal: [5, 15], basis: 'the sum of five items scored 1–3 (Child–Pugh)' }],
]);

/**
 * Limits of the body measures a subject (a group's mean, an individual) is curated with, by characteristic type
 * (checks/body-measures.ts). `adultLow`: the lower limit of a subject whose curated age is 18 years or more;
 * `groupHigh`: the upper limit of a group's mean (of two or more subjects: the heaviest cohorts studied, bariatric
 * surgery candidates, average ~150 kg and BMI ~55 kg/m²).
 */
export const SUBJECT_LIMITS: ReadonlyMap<string, HumanLimit & { adultLow?: number; groupHigh?: number }> = new Map([
  ['weight', { unit: 'kilogram', low: 0.25, adultLow: 20, high: 650, groupHigh: 250, typical: 70, normal: [45, 120], basis: 'the smallest surviving newborns ~0.25 kg, adults with anorexia nervosa ~20 kg; the heaviest recorded human ~635 kg, the heaviest cohorts ~150 kg on average' }],
  ['height', { unit: 'meter', low: 0.2, adultLow: 0.54, high: 2.75, groupHigh: 2.2, typical: 1.72, normal: [1.5, 2], basis: 'extremely preterm newborns ~0.25 m, the shortest adults ~0.55 m; the tallest recorded human 2.72 m' }],
  ['age', { unit: 'year', low: 0, high: 125, typical: 35, normal: [18, 90], basis: 'the oldest recorded human 122 years' }],
  ['bmi', { unit: 'kilogram / meter ** 2', low: 7, high: 210, groupHigh: 90, typical: 24, normal: [17, 45], basis: 'survivors of starvation near 7 kg/m²; the heaviest recorded humans ~200 kg/m², the heaviest cohorts ~55 kg/m² on average' }],
  ['body surface area', { unit: 'meter ** 2', low: 0.1, high: 4.5, typical: 1.8, normal: [1.4, 2.6], basis: 'preterm newborns ~0.1 m²; the largest adults ~4 m²' }],
  ['obesity index', { unit: 'percent', low: 40, high: 500, typical: 100, normal: [80, 150], basis: 'weight as a percentage of ideal body weight: starvation ~50 %, the heaviest recorded humans ~450 %' }],
  ['body fat percentage', { unit: 'percent', low: 2, high: 75, typical: 25, normal: [10, 40], basis: 'competitive bodybuilders ~3 %; extreme obesity ~70 %' }],
  ['hba1c', { unit: 'percent', low: 2, high: 20, typical: 5.5, normal: [4, 6.5], basis: 'haemolytic states ~3 %; uncontrolled diabetes rarely above 18 %' }],
  ['hematocrit', { unit: 'percent', low: 10, high: 75, typical: 42, normal: [35, 52], basis: 'severe anaemia ~10 %; polycythaemia rarely above 70 %' }],
]);

/** The age (years) from which a subject's lower limits are an adult's (SUBJECT_LIMITS `adultLow`). */
export const ADULT_AGE = 18;

/**
 * The bounds of a subject's body measure of `type` (SUBJECT_LIMITS): an adult's lower limit from ADULT_AGE, a group's
 * mean's upper limit for a group of two or more (`groupCount`; null for an individual).
 */
export function subjectBounds(type: string, ageYears: number | null, groupCount: number | null = null): Bounds {
  const limit = SUBJECT_LIMITS.get(type);
  if (!limit) throw new Error(`no limits of a subject's ${type}`);
  const bounds = limitIn(limit, limit.unit, null) as Bounds;
  const low = ageYears !== null && ageYears >= ADULT_AGE && limit.adultLow !== undefined ? limit.adultLow : bounds.low;
  const high = (groupCount ?? 0) >= 2 && limit.groupHigh !== undefined ? limit.groupHigh : bounds.high;
  return { ...bounds, low, high };
}

/**
 * Limits of an analyte's level in plasma, serum or blood (as `concentration`, `cmax` or `cthrough`), by PK-DB
 * substance name. Only analytes whose limits hold in any human population (disease and age included).
 */
export const ANALYTE_LIMITS: ReadonlyMap<string, HumanLimit> = new Map([
  ['glucose', { unit: 'millimole / liter', low: 1, high: 150, typical: 5, conventional: 'milligram / deciliter', normal: [3.5, 15], basis: 'neuroglycopenic coma near 1 mmol/L; hyperosmolar states rarely above 100 mmol/L' }],
  ['albumin', { unit: 'gram / liter', low: 1, high: 70, typical: 42, normal: [30, 55], basis: 'congenital analbuminaemia ~1 g/L; dehydration ~55 g/L' }],
  ['bilirubin', { unit: 'micromole / liter', low: 0.5, high: 1500, typical: 10, conventional: 'milligram / deciliter', normal: [3, 25], basis: 'kernicterus ~700 µmol/L; cholestasis and haemolysis crises stay below 1500 µmol/L' }],
  ['cholesterol', { unit: 'millimole / liter', low: 0.3, high: 50, typical: 5, conventional: 'milligram / deciliter', normal: [3, 8], basis: 'abetalipoproteinaemia 0.5–1.3 mmol/L; homozygous familial hypercholesterolaemia ~30 mmol/L' }],
  ['triglyceride', { unit: 'gram / liter', low: 0.01, high: 100, typical: 1.3, normal: [0.4, 2.5], basis: 'abetalipoproteinaemia near the limit of detection; chylomicronaemia syndromes reach ~50 g/L' }],
  ['creatinine', { unit: 'micromole / liter', low: 10, high: 3000, typical: 80, conventional: 'milligram / deciliter', normal: [45, 120], basis: 'muscle wasting ~10 µmol/L; end-stage renal failure rarely above 2000 µmol/L' }],
  ['lactate', { unit: 'millimole / liter', low: 0.1, high: 30, typical: 1, conventional: 'milligram / deciliter', normal: [0.5, 2.2], basis: 'severe lactic acidosis reaches ~25 mmol/L' }],
  ['sodium', { unit: 'millimole / liter', low: 95, high: 200, typical: 140, normal: [135, 146], basis: 'survivors of hyponatraemia near 100 mmol/L and of hypernatraemia near 190 mmol/L' }],
  ['potassium', { unit: 'millimole / liter', low: 1, high: 12, typical: 4.2, normal: [3.5, 5.1], basis: 'severe hypokalaemia ~1.5 mmol/L; the heart stops beyond ~10 mmol/L' }],
  ['cortisol', { unit: 'nanomole / liter', low: 2, high: 50000, typical: 300, conventional: 'microgram / deciliter', normal: [50, 700], basis: 'adrenal insufficiency; Cushing’s syndrome stays below ~3000 nmol/L, but hydrocortisone 500 mg iv reaches ~45,000' }],
]);

/** Measurement types that are a level of an analyte in ANALYTE_LIMITS. */
export const ANALYTE_LEVELS: ReadonlySet<string> = new Set(['concentration', 'cmax', 'cthrough']);
/** Tissues whose levels ANALYTE_LIMITS bound. */
export const ANALYTE_TISSUES: ReadonlySet<string> = new Set(['plasma', 'serum', 'blood']);
/**
 * Whether a level of this substance in this tissue is the body's own analyte of ANALYTE_LIMITS (glucose in plasma):
 * its level is the body's whatever a study doses, so the reference ranges pool its levels, not its Cmax per dose.
 */
export function isBodyAnalyte(substance: string | null, tissue: string | null): boolean {
  return substance !== null && tissue !== null && ANALYTE_LIMITS.has(substance) && ANALYTE_TISSUES.has(tissue);
}

/** A value is beyond a limit only by more than this (rounding, digitised figures: a Child–Pugh mean read as 4.98). */
export const LIMIT_TOLERANCE = 0.05;

/** A limit in one unit. */
export interface Bounds {
  low: number;
  high: number;
  typical: number;
  normal: readonly [number, number];
}

/** A limit in the value's unit, or null when the units do not convert. */
export function limitIn(limit: HumanLimit, unit: string, molarMass: number | null): Bounds | null {
  const f = conversionFactorOrNull(limit.unit, unit, molarMass === null ? undefined : { molarMass });
  return f === null ? null : { low: limit.low * f, high: limit.high * f, typical: limit.typical * f, normal: [limit.normal[0] * f, limit.normal[1] * f] };
}

/** Which side of its limits (in their unit) a value lies beyond by more than LIMIT_TOLERANCE; null inside. */
export function beyondBounds(value: number, bounds: Pick<Bounds, 'low' | 'high'>): 'below' | 'above' | null {
  return value < bounds.low * (1 - LIMIT_TOLERANCE) ? 'below' : value > bounds.high * (1 + LIMIT_TOLERANCE) ? 'above' : null;
}

/**
 * Whether a level of a body analyte (isBodyAnalyte) lies beyond what any living human has: the human-range check's
 * finding, which no other check repeats (the reference ranges neither judge nor pool such a level).
 */
export function beyondLivingLimits(substance: string | null, tissue: string | null, value: number, unit: string, molarMass: number | null): boolean {
  if (!isBodyAnalyte(substance, tissue)) return false;
  const bounds = limitIn(ANALYTE_LIMITS.get(substance as string)!, unit, molarMass);
  return bounds !== null && beyondBounds(value, bounds) !== null;
}

/** Every unit the limits are given in (scripts/generate-unit-table.ts pre-parses them: no run builds mathjs for them). */
export const HUMAN_LIMIT_UNITS: readonly string[] = [...new Set([...BODY_LIMITS.values(), ...ANALYTE_LIMITS.values(), ...SUBJECT_LIMITS.values()].flatMap((l) => (l.conventional ? [l.unit, l.conventional] : [l.unit])))];
