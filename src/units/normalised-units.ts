/**
 * The normalised units per measurement type: one table, the units PK-DB's
 * normed rows carry (PK-DB API notes §4 "observed" table, completed from every normed
 * row of the 2020-10-16 export). PK-DB's own lists live in the pkdb_data
 * info nodes, which are not available; what the export shows is what they
 * produced.
 *
 * Per measurement type the list holds, for each dimension, the **target**
 * first (what other units of that dimension are converted to), then spellings
 * PK-DB accepts as already normalised and keeps verbatim (`g/kg` next to
 * `count`, `none` next to `dimensionless`). "Already normalised" is string
 * membership: the export's normed units contain `g/kg` and `none` but never
 * `hr`, `d` or `days`, which curators demonstrably wrote (they remain in the
 * un-normalised time_unit columns), so equal-but-differently-spelled units
 * were converted, not kept.
 */
import { parseUnit, type Dimension } from './parse.js';
import { measurementTypeKey } from './spelling.js';

const CONCENTRATION = ['gram / liter', 'mole / liter', 'IU / liter'];
const AUC = ['gram * hour / liter', 'hour * mole / liter', 'IU * hour / liter'];
const TIME_HOUR = ['hour'];
const RATE_CONSTANT = ['1 / minute'];
const CLEARANCE = ['liter / hour', 'liter / hour / kilogram', 'milliliter / meter ** 2 / minute'];
const VOLUME = ['liter', 'liter / kilogram', 'liter / meter ** 2'];
const RATIO = ['dimensionless', 'none'];
const AMOUNT = ['gram', 'mole'];
/** Production/excretion rates: absolute mass, per-time fraction, per-kg molar (tracers without mass), hormone activity. */
const RATE = ['milligram / minute', '1 / minute', 'micromole / kilogram / minute', 'microIU / minute', 'mole / minute'];
/** `count` is the per-body-weight dose as a mass ratio (2e-05 count = 20 mg/kg, PK-DB calculation §3.4); `g/kg` is kept verbatim. */
const DOSING = [
  'gram', 'mole', 'IU', 'count', 'g/kg', 'gram / hour', 'mole / hour', 'IU / hour', 'mole / kilogram', 'IU / kilogram',
  'mole / hour / kilogram', 'IU / hour / kilogram', 'gram / meter ** 2', 'gram / hour / meter ** 2', 'milliliter', 'becquerel',
];
const YEARS = ['year'];
const DAYS = ['day'];
const PERCENT = ['percent'];
const MM_HG = ['millimeter_Hg'];

const TABLE: Record<string, readonly string[]> = {
  // concentrations and pharmacokinetic parameters
  concentration: CONCENTRATION,
  concentration_unbound: CONCENTRATION,
  cmax: CONCENTRATION,
  cthrough: CONCENTRATION,
  auc_end: AUC,
  auc_inf: AUC,
  aumc_inf: ['gram * hour ** 2 / liter', 'hour ** 2 * mole / liter', 'IU * hour ** 2 / liter'],
  auc_per_dose: ['hour / liter'],
  tmax: TIME_HOUR,
  thalf: TIME_HOUR,
  mrt: TIME_HOUR,
  mat: TIME_HOUR,
  lag_absorption: TIME_HOUR,
  thalf_absorption: TIME_HOUR,
  thalf_gastric_emptying: TIME_HOUR,
  kel: RATE_CONSTANT,
  kabs: RATE_CONSTANT,
  rate_gastric_emptying: RATE_CONSTANT,
  clearance: CLEARANCE,
  clearance_renal: CLEARANCE,
  clearance_partial: CLEARANCE,
  clearance_intrinsic: CLEARANCE,
  clearance_unbound: CLEARANCE,
  clearance_intrinsic_unbound: CLEARANCE,
  clearance_renal_unbound: CLEARANCE,
  vd: VOLUME,
  vd_ss: VOLUME,
  vd_unbound: VOLUME,
  // ratios and fractions
  recovery: RATIO,
  bioavailability: RATIO,
  auc_relative: RATIO,
  extraction_ratio: RATIO,
  fraction_absorbed: RATIO,
  fraction_unbound: RATIO,
  percent_gastric_emptying: RATIO,
  plasma_binding: RATIO,
  ptf: RATIO,
  metabolic_ratio: RATIO,
  cumulative_metabolic_ratio: RATIO,
  child_pugh_score_numeric: RATIO,
  plasma_thromboplastin_activity: RATIO,
  prothrombin_time_ratio: RATIO,
  glucose_oral_disposition_index: RATIO,
  homa_ir: RATIO,
  insulinogenic_index: RATIO,
  matsuda_index: RATIO,
  quicki: RATIO,
  retention_ratio: PERCENT,
  // amounts and rates
  amount: AMOUNT,
  cumulative_amount: AMOUNT,
  egp: RATE,
  ra: RATE,
  rd: RATE,
  rate_cycling: RATE,
  secretion_rate: RATE,
  excretion_rate: RATE,
  maximum_excretion_rate: RATE,
  ermbt: ['percent / hour'],
  pdr: ['percent / minute'],
  recovery_rate: ['percent / minute'],
  urinary_volume: ['liter'],
  urinary_volume_rate: ['milliliter / hour', 'milliliter / hour / meter ** 2'],
  bile_flow: ['milliliter / hour', 'milliliter / hour / meter ** 2'],
  cardiac_output: ['liter / minute'],
  azygos_blood_flow: ['liter / minute'],
  hbf: ['liter / minute'],
  heart_rate: ['1 / second'],
  prothrombin_time: ['second'],
  map: MM_HG,
  blood_pressure_diastolic: MM_HG,
  blood_pressure_systolic: MM_HG,
  // interventions
  dosing: DOSING,
  qualitative_dosing: DOSING,
  // characteristica
  age: YEARS,
  weight: ['kilogram'],
  lean_body_mass: ['kilogram'],
  fat_weight: ['gram'],
  height: ['meter'],
  bmi: ['kilogram / meter ** 2'],
  body_surface_area: ['meter ** 2'],
  body_fat_percentage: PERCENT,
  hba1c: PERCENT,
  hematocrit: PERCENT,
  obesity_index: PERCENT,
  gfr: ['milliliter / meter ** 2 / minute'],
  liver_volume: ['milliliter', 'milliliter / kilogram'],
  abstinence: DAYS,
  abstinence_alcohol: DAYS,
  abstinence_medication: DAYS,
  abstinence_oral_contraceptives: DAYS,
  abstinence_smoking: YEARS,
  'fasting_(duration)': DAYS,
  medication_duration: DAYS,
  disease: YEARS,
  education_duration: YEARS,
  oral_contraceptives_duration: YEARS,
  smoking_duration: YEARS,
  menstrual_time_of_cycle: ['week'],
  alcohol_amount: ['gram / day', '1 / day'],
  consumption: ['milligram / day', 'beverages / day'],
  medication_amount: ['milligram / day'],
  'smoking_amount_(cigarettes)': ['1 / day'],
};

/**
 * Units PK-DB's 2020 calculation stored that are not normalised units: a mass
 * dose over a molar concentration left the substance dimension in vd and
 * clearance (PK-DB calculation §4).
 */
export const KNOWN_ODD_UNITS: Readonly<Record<string, string>> = {
  'liter * milligram / millimole':
    "PK-DB's calculation divided a gram dose by a mole / liter concentration and kept the substance dimension",
  'microgram * milliliter / hour / micromole':
    "PK-DB's calculation divided a gram dose by a mole / liter concentration and kept the substance dimension",
};

/** The units the pkdb NCA profile stores per calculated measurement type (PK-DB calculation §4). */
export const PKDB_PROFILE_UNITS: Readonly<Record<string, readonly string[]>> = {
  tmax: ['hour'],
  thalf: ['hour'],
  kel: ['1 / minute'],
  cmax: CONCENTRATION,
  auc_end: AUC,
  auc_inf: AUC,
  vd: ['liter', 'liter / kilogram', 'liter * milligram / millimole'],
  vd_ss: ['liter', 'liter / kilogram', 'liter * milligram / millimole'],
  clearance: ['liter / hour', 'liter / hour / kilogram', 'microgram * milliliter / hour / micromole'],
};

const unitsByType = new Map<string, readonly string[] | null>();

/** The normalised units of a measurement type (name or sid), or null when the table has no entry. */
export function normalisedUnits(measurementType: string): readonly string[] | null {
  let units = unitsByType.get(measurementType);
  if (units === undefined) {
    units = TABLE[measurementTypeKey(measurementType)] ?? null;
    unitsByType.set(measurementType, units);
  }
  return units;
}

/** Whether `unit` is, as spelled, a normalised unit of the measurement type. */
export function isNormalisedUnit(measurementType: string, unit: string): boolean {
  return normalisedUnits(measurementType)?.includes(unit) ?? false;
}

const targets = new Map<string, Map<string, string>>();

/** The first listed unit of each dimension, per measurement type. */
function targetsOf(key: string): Map<string, string> {
  let byDimension = targets.get(key);
  if (byDimension === undefined) {
    byDimension = new Map();
    for (const unit of TABLE[key] ?? []) {
      const dim = parseUnit(unit).dimension.key;
      if (!byDimension.has(dim)) byDimension.set(dim, unit);
    }
    targets.set(key, byDimension);
  }
  return byDimension;
}

/** The normalised unit PK-DB converts a unit of this dimension to, or null when there is none. */
export function normalisedTarget(measurementType: string, dimension: Dimension): string | null {
  return targetsOf(measurementTypeKey(measurementType)).get(dimension.key) ?? null;
}

/** Every measurement-type key in the table (for listings and tests). */
export function measurementTypesWithUnits(): string[] {
  return Object.keys(TABLE);
}
