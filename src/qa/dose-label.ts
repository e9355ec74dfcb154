/**
 * The amount a dosing intervention's label names. PK-DB curators name a dosing
 * after what the paper gave (`paracetamol1000mg_po`, `KETO_200mg`,
 * `paracetamol12mg/kg_iv`, `atropine600ug`), and type its value and unit
 * separately; a value typed ×10 or in the wrong prefix then disagrees with its
 * own label by that factor. Pure: the check (checks/dose-label.ts) reads the
 * interventions.
 *
 * A label names an amount when it holds exactly one number followed by a mass,
 * amount or activity unit (ng, µg/ug/mcg, mg, g, µmol/umol, mmol, mol, IU),
 * optionally per kg or per m² (`12mg/kg`, `5 mg/m2`), not followed by a letter
 * (`5min` is no amount); a bare gram only as a lower-case `g` (`M6G_200` is a code). Several different amounts (`paracetamol1000mg+codeine30mg`)
 * name nothing: which one is this dosing's cannot be told from the text.
 */
import { conversionFactorOrNull } from '../units/convert.js';

export interface LabelledAmount {
  value: number;
  /** A unit spelling the unit parser reads (`milligram / kilogram`). */
  unit: string;
  /** The text matched, for the message. */
  text: string;
}

const UNITS: Record<string, string> = {
  ng: 'nanogram', ug: 'microgram', µg: 'microgram', μg: 'microgram', mcg: 'microgram', mg: 'milligram', g: 'gram',
  umol: 'micromole', µmol: 'micromole', μmol: 'micromole', mmol: 'millimole', mol: 'mole', iu: 'IU',
};
const PER: Record<string, string> = { kg: 'kilogram', m2: 'meter ** 2', 'm²': 'meter ** 2' };

/** Every unit spelling a label can compose (scripts/generate-unit-table.ts preparses them). */
export const LABEL_UNITS: readonly string[] = [...new Set(Object.values(UNITS))].flatMap((u) => [u, ...Object.values(PER).filter((p, i, all) => all.indexOf(p) === i).map((p) => `${u} / ${p}`)]);

/** A number (decimal point or comma), a unit of UNITS, optionally `/kg` or `/m2`, and no letter after it. */
const AMOUNT = /(\d+(?:[.,]\d+)?)\s?(mcg|µg|μg|ug|ng|mg|g|µmol|μmol|umol|mmol|mol|iu)(?:\s?\/\s?(kg|m2|m²))?(?![a-zµμ])/gi;
/** A lone `G` is a letter of a code (`M6G`, morphine-6-glucuronide), not grams: grams only as a lower-case `g`. */
const CODE_LETTER = 'G';

/** The one amount a label names, or null (none, or several different ones). */
export function labelledAmount(label: string): LabelledAmount | null {
  const found = new Map<string, LabelledAmount>();
  for (const m of label.matchAll(AMOUNT)) {
    if (m[2] === CODE_LETTER) continue;
    const value = Number(m[1].replace(',', '.'));
    if (!(value > 0) || !Number.isFinite(value)) continue;
    const unit = UNITS[m[2].toLowerCase()] ?? UNITS[m[2]];
    if (!unit) continue;
    const per = m[3] ? PER[m[3].toLowerCase()] : undefined;
    const full = per ? `${unit} / ${per}` : unit;
    found.set(`${value}|${full}`, { value, unit: full, text: m[0] });
  }
  return found.size === 1 ? [...found.values()][0] : null;
}

/**
 * The curated dose over the labelled amount, both in the curated unit (molar ↔ mass with the
 * molar mass); null when the units cannot be compared (a rate dose against a labelled amount,
 * a per-kg label against an absolute dose).
 */
export function labelRatio(curated: number, curatedUnit: string, label: LabelledAmount, molarMass: number | null): number | null {
  const factor = conversionFactorOrNull(label.unit, curatedUnit, molarMass === null ? undefined : { molarMass });
  if (factor === null || !(curated > 0)) return null;
  return curated / (label.value * factor);
}

/**
 * Whether two labels name one dosing's high and low arm: the same label but for `high` in the one where the other
 * has `low` (`Caffhigh`/`Cafflow`, `MID_im_highDose`/`MID_im_lowDose`), case aside. Read from the pair, not from
 * one label: `Dflow` ends in the letters of `low` too.
 */
export function highLowPair(high: string, low: string): boolean {
  const h = high.toLowerCase();
  const at = h.indexOf('high');
  if (at < 0 || h.indexOf('high', at + 1) >= 0) return false;
  return `${h.slice(0, at)}low${h.slice(at + 4)}` === low.toLowerCase();
}
