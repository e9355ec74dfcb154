/**
 * How a measured substance relates to a dosed one, by their names (PK-DB curates no parent–metabolite relation): the
 * substance itself or a salt of it (`dosesItself`), or a metabolite named after it (`namedAfterDose`). One home for
 * the checks that ask which dose a value belongs to (physiology, mass-balance, reference-samples, within-study).
 */

/**
 * The mass a salt adds to each molecule of its base (g/mol, anhydrous; the curated name rarely says the hydrate), by
 * counter-ion word: the acid of an amine's salt (HCl, H3PO4; a sulfate or tartrate holds two bases per acid), the
 * metal swapped for a proton of an acid's (sodium: +22.99 − 1.008). Stoichiometry is the usual one of drug salts
 * (codeine phosphate 1:1, morphine sulfate 2:1, metoprolol succinate and tartrate 2:1); water and an unusual ratio
 * move the fraction by a few per cent, far within a reference's spread.
 */
export const COUNTER_ION_MASS: Readonly<Record<string, number>> = {
  phosphate: 97.99, sulfate: 49.04, sulphate: 49.04, hydrochloride: 36.46, chloride: 35.45, hydrobromide: 80.91, bromide: 79.9,
  citrate: 192.12, maleate: 116.07, mesylate: 96.11, tartrate: 75.04, bitartrate: 150.09, succinate: 59.04, fumarate: 58.04,
  acetate: 60.05, sodium: 21.98, potassium: 38.09, calcium: 19.03,
};

/**
 * Counter-ions of salts a drug is dosed as (codeine phosphate, morphine sulfate): the dose of the salt is the base's
 * plus the counter-ion's mass, so its ceiling is only looser; the measured base counts as the dosed substance.
 */
export const SALT_WORDS: ReadonlySet<string> = new Set(Object.keys(COUNTER_ION_MASS));

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


/**
 * A salt's base and the base's share of the salt's mass, M_base / (M_base + counter-ion per base): codeine phosphate
 * (M codeine 299.4) is 0.753 codeine. Null for a name that is not base + counter-ion, or a base of unknown molar mass.
 */
export function saltBase(substance: string | null, molarMass: (substance: string) => number | null): { base: string; fraction: number } | null {
  if (substance === null) return null;
  const cut = substance.lastIndexOf(' ');
  if (cut <= 0) return null;
  const counter = COUNTER_ION_MASS[substance.slice(cut + 1)];
  if (counter === undefined) return null;
  const base = substance.slice(0, cut);
  const mass = molarMass(base);
  return mass !== null && mass > 0 ? { base, fraction: mass / (mass + counter) } : null;
}
