/**
 * Whether a group is curated as obese, and how heavy a cohort that is not can
 * be on average. A group's mean weight is the one body measure nothing else
 * bounds tightly: a group of 154 kg is either a bariatric cohort or 70 kg in
 * pounds (the mission's "slip of a body weight"), and PK-DB marks the first —
 * `weight (categorial)` obese, an obesity index, a BMI, the disease, or the
 * group's name ("obese men"). On the shared export every group of more than
 * 100 kg carries such a mark but one: Barr1990's "old" group, 170.8 kg
 * (136–200), beside its "young" group's 79.3 kg (67.6–102.1 = 149–225 lb
 * converted): pounds.
 */
import type { CharacteristicaRecord } from '../data/model.js';
import { representativeValue } from '../data/records.js';

/**
 * The highest mean weight (kg) of a cohort not selected for obesity: a mean BMI below 30 at the mean height of the
 * tallest populations (Dutch men, 1.84 m) is 102 kg; beyond 115 kg (BMI 34 at 1.84 m) a cohort is obese on average.
 * On the shared export the heaviest unmarked groups weigh 96.4 kg (Henney2014) and 92.3 kg (Gorski2003's elderly men).
 */
export const NON_OBESE_COHORT_HIGH_KG = 115;

/** An obesity index (weight as % of ideal) from which a group is obese (120 %: the usual definition). */
export const OBESE_INDEX_PERCENT = 120;
/** A BMI (kg/m²) from which a group is obese. */
export const OBESE_BMI = 30;

/** Words of a group's name or disease that mark it as selected for its weight ("non-obese" does not). */
const OBESE_WORDS = /(?<!non[- ]?)obes|overweight|bariatric|adipos/i;

/**
 * Whether a group is marked as obese (see the header): its name, a `weight (categorial)` or disease naming obesity,
 * an obesity index of OBESE_INDEX_PERCENT or more, a BMI of OBESE_BMI or more. Characteristica whose unit is not
 * the normed one (percent, kg/m²) count as a mark: they say the weight was of interest.
 */
export function markedObese(name: string, characteristica: readonly CharacteristicaRecord[]): boolean {
  if (OBESE_WORDS.test(name)) return true;
  for (const c of characteristica) {
    const type = c.measurement_type;
    if ((type === 'weight (categorial)' || type === 'disease') && c.choice !== null && OBESE_WORDS.test(c.choice)) return true;
    if (type === 'obesity index' || type === 'bmi') {
      const [unit, high] = type === 'bmi' ? ['kilogram / meter ** 2', OBESE_BMI] : ['percent', OBESE_INDEX_PERCENT];
      // A range alone (BMI 19–31) says the cohort spans it: its middle.
      const value = representativeValue(c) ?? (c.min !== null && c.max !== null ? (c.min + c.max) / 2 : c.max);
      if (c.unit !== unit || value === null || !Number.isFinite(value) || value >= high) return true;
    }
  }
  return false;
}
