/**
 * What a subject excretes of a single dose (the mass-balance check's rule, and evidence for the reference-range
 * check's dose verdicts): a reported amount excreted (`cumulative amount`, `amount`) in urine, faeces or bile, the
 * single dose it is compared with (of the substance itself or a salt of it: substance-relations.ts `dosesItself`;
 * else of the parent a metabolite is named after), and the fraction Ae/D (in moles for a metabolite: one molecule of
 * the dose gives at most one of it). Nobody excretes more than MARGIN × the dose.
 */
import type { InterventionRecord, OutputRecord } from '../data/model.js';
import { representativeValue } from '../data/records.js';
import { conversionFactorOrNull } from '../units/convert.js';
import type { QaContext } from './context.js';
import { isDose } from './dose-units.js';
import { ANALYTE_LIMITS } from './human-limits.js';
import { dosesItself, namedAfterDose } from './substance-relations.js';

/** Amounts excreted by the body. */
export const EXCRETED_AMOUNTS: ReadonlySet<string> = new Set(['cumulative amount', 'amount']);
/** Where an amount excreted is collected. */
export const EXCRETA: ReadonlySet<string> = new Set(['urine', 'feces', 'faeces', 'bile']);
/** Excreted amounts up to this multiple of the dose are let be: assay error, rounding, the diet's share. */
export const MARGIN = 1.5;
/** Why an amount has no fraction of its dose (the coverage's words for it). */
export const REASONS = {
  dose: 'no single dose of the substance or its parent',
  unit: 'amount or dose not convertible to grams (per kg, or no molar mass)',
  endogenous: 'a substance the body makes or takes in itself',
} as const;

/**
 * A sum of substances as PK-DB names one ('apap+apapsul+apapglu+apapcys+apapmer': paracetamol and four metabolites
 * counted together, by their short names), not a ratio ('cod/(mor+m3g)'). After one dose, each molecule counted
 * came from at most one molecule of it.
 */
export function isSubstanceSum(substance: string | null): boolean {
  return substance !== null && substance.includes('+') && !substance.includes('/');
}

/**
 * The single dose an amount is compared with: of the substance itself, else of its parent; a sum of substances
 * (`isSubstanceSum`) with the one dosing of its set; null when none or ambiguous.
 */
export function balancingDose(output: Pick<OutputRecord, 'substance'>, dosings: readonly InterventionRecord[]): InterventionRecord | null {
  const own = dosings.filter((d) => dosesItself(d.substance, output.substance));
  const named = own.length > 0 ? own : dosings.filter((d) => namedAfterDose(d.substance, output.substance));
  const candidates = named.length > 0 || !isSubstanceSum(output.substance) ? named : dosings;
  return candidates.length === 1 && candidates[0].application === 'single dose' ? candidates[0] : null;
}

/**
 * The fraction of the dose excreted (Ae/D: in moles for another substance than the dose's), or null when the units
 * or molar masses do not allow it. `molarMass` of a substance, or null.
 */
export function fractionExcreted(
  amount: { value: number; unit: string; substance: string | null },
  dose: { value: number; unit: string; substance: string | null },
  molarMass: (substance: string | null) => number | null,
): number | null {
  const same = dosesItself(dose.substance, amount.substance);
  const amountMass = molarMass(amount.substance);
  const doseMass = molarMass(dose.substance);
  if (same) {
    // Grams of the same substance (a salt's dose is the heavier: the bound only looser).
    const toGramA = conversionFactorOrNull(amount.unit, 'gram', amountMass === null ? undefined : { molarMass: amountMass });
    const toGramD = conversionFactorOrNull(dose.unit, 'gram', (doseMass ?? amountMass) === null ? undefined : { molarMass: (doseMass ?? amountMass) as number });
    return toGramA === null || toGramD === null ? null : (amount.value * toGramA) / (dose.value * toGramD);
  }
  // A sum of substances has no one molar mass: only its moles compare.
  if (isSubstanceSum(amount.substance)) {
    const toMoleSum = conversionFactorOrNull(amount.unit, 'mole');
    const toMoleDose = doseMass === null ? null : conversionFactorOrNull(dose.unit, 'mole', { molarMass: doseMass });
    return toMoleSum === null || toMoleDose === null ? null : (amount.value * toMoleSum) / (dose.value * toMoleDose);
  }
  if (amountMass === null || doseMass === null) return null;
  const toMoleA = conversionFactorOrNull(amount.unit, 'mole', { molarMass: amountMass });
  const toMoleD = conversionFactorOrNull(dose.unit, 'mole', { molarMass: doseMass });
  return toMoleA === null || toMoleD === null ? null : (amount.value * toMoleA) / (dose.value * toMoleD);
}

/** One reported amount excreted with its dose and fraction, or the reason it has none. */
export type ExcretedAmount =
  | { output: OutputRecord; value: number; dose: InterventionRecord; fraction: number; reason: null }
  | { output: OutputRecord; value: number; dose: InterventionRecord | null; fraction: null; reason: string };

/**
 * Every normed, reported amount excreted in urine, faeces or bile with a positive value: its single dose and the
 * fraction of it excreted, or why there is none (REASONS). The body's own analytes (glucose, sodium, creatinine) are
 * excreted from the diet and the body as well as the dose: never compared.
 */
export function excretedAmounts(ctx: Pick<QaContext, 'tables' | 'dataset' | 'molarMass'>): ExcretedAmount[] {
  const amounts: ExcretedAmount[] = [];
  // By index: every output of the export (58,000 in the shared one) passes here once, before the loop is optimised,
  // when for…of allocates an iterator result per element.
  const outputs = ctx.tables.outputs;
  for (let k = 0; k < outputs.length; k++) {
    const o = outputs[k];
    if (!o.normed || o.calculated || o.output_type === 'timecourse' || !EXCRETED_AMOUNTS.has(o.measurement_type) || !EXCRETA.has(o.tissue ?? '')) continue;
    const value = representativeValue(o);
    if (value === null || !(value > 0) || !o.unit) continue;
    if (o.substance !== null && ANALYTE_LIMITS.has(o.substance)) {
      amounts.push({ output: o, value, dose: null, fraction: null, reason: REASONS.endogenous });
      continue;
    }
    const dosings = o.intervention_pks
      .map((pk) => ctx.dataset.intervention(pk))
      .filter((d): d is InterventionRecord => d !== undefined && d.normed && isDose(d) && representativeValue(d) !== null);
    const dose = balancingDose(o, dosings);
    if (dose === null) {
      amounts.push({ output: o, value, dose: null, fraction: null, reason: REASONS.dose });
      continue;
    }
    const fraction = fractionExcreted({ value, unit: o.unit, substance: o.substance }, { value: representativeValue(dose) as number, unit: dose.unit ?? '', substance: dose.substance }, ctx.molarMass);
    amounts.push(fraction === null ? { output: o, value, dose, fraction: null, reason: REASONS.unit } : { output: o, value, dose, fraction, reason: null });
  }
  return amounts;
}

/**
 * Per dosing pk, the largest fraction of it that one reported amount says was excreted. A dose slip ×f upward
 * (the true dose f times smaller) would have the subject excrete f times that fraction: beyond MARGIN it cannot be.
 */
export function largestFractionsExcreted(amounts: readonly ExcretedAmount[]): Map<number, number> {
  const largest = new Map<number, number>();
  for (const a of amounts) {
    if (a.fraction === null) continue;
    const pk = a.dose.pk;
    if (a.fraction > (largest.get(pk) ?? -Infinity)) largest.set(pk, a.fraction);
  }
  return largest;
}
