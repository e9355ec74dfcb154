/**
 * How a measured substance relates to a dosed one, by their names (PK-DB curates no parent–metabolite relation): the
 * substance itself or a salt of it (`dosesItself`), or a metabolite named after it (`namedAfterDose`). One home for
 * the checks that ask which dose a value belongs to (physiology, mass-balance, reference-samples, within-study).
 */

/**
 * Counter-ions of salts a drug is dosed as (codeine phosphate, morphine sulfate): the dose of the salt is the base's
 * plus the counter-ion's mass, so its ceiling is only looser; the measured base counts as the dosed substance.
 */
export const SALT_WORDS: ReadonlySet<string> = new Set([
  'phosphate', 'sulfate', 'sulphate', 'hydrochloride', 'chloride', 'bromide', 'hydrobromide', 'citrate', 'maleate',
  'mesylate', 'tartrate', 'bitartrate', 'succinate', 'fumarate', 'acetate', 'sodium', 'potassium', 'calcium',
]);

/** Whether dosing `dosed` doses `measured` itself: the same substance, or a salt of it. */
export function dosesItself(dosed: string | null, measured: string | null): boolean {
  if (dosed === null || measured === null) return false;
  if (dosed === measured) return true;
  return dosed.startsWith(`${measured} `) && SALT_WORDS.has(dosed.slice(measured.length + 1));
}

/** Whether `measured` is `dosed` itself or a metabolite named after it (the dose's base, without a salt's counter-ion). */
export function namedAfterDose(dosed: string | null, measured: string | null): boolean {
  if (dosed === null || measured === null) return false;
  if (dosesItself(dosed, measured)) return true;
  const words = dosed.split(' ');
  const base = words.length > 1 && SALT_WORDS.has(words[words.length - 1]) ? words.slice(0, -1).join(' ') : dosed;
  return base.length >= 4 && measured.includes(base);
}
