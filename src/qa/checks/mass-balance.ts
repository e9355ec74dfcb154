/**
 * The `mass-balance` check: a subject cannot excrete more of a single dose than it was given. A reported amount
 * excreted (`cumulative amount`, `amount`) in urine, faeces or bile is at most the dose: Ae ≤ D for the dosed
 * substance itself (or a salt of it: substance-relations.ts `dosesItself`), and, in moles, Ae/M_metabolite ≤ D/M_dose for a
 * metabolite named after it (paracetamol glucuronide, norcodeine: one molecule of the dose gives at most one of
 * them). Other substances in the urine are not compared: sodium, potassium and creatinine after a diuretic are the
 * body's own, and a metabolite not named after its parent cannot be told from them. Most amounts in the export
 * are the paper's totals, with no urine timecourse to recompute them from (urine.ts) and no reference of other
 * studies, so a ×1000 slip of one (mg curated as g) was found by nothing.
 *
 * Not checked: an analyte of the body itself (human-limits.ts: glucose, sodium, creatinine …, excreted from the diet
 * and the body whatever the dose), several dosings in the set (a metabolite of which?), a dosing other than a single dose
 * (accumulated doses are not curated), per-kg amounts or doses, units that do not convert to grams, and a
 * metabolite without both molar masses (the coverage says which).
 *
 * Severity: beyond MARGIN × the dose (assay error, rounding, a little of the substance from the diet), major when
 * a slip factor of the amount (causes.ts `slipFactors`: ×1000, ×10, molar ↔ mass) brings it back to at most the
 * dose (`balancingCauses` orders them); minor otherwise.
 */
import { subjectLabel, subjectOf } from '../../data/dataset.js';
import type { InterventionRecord, OutputRecord } from '../../data/model.js';
import { representativeValue } from '../../data/records.js';
import { conversionFactorOrNull } from '../../units/convert.js';
import type { QaCheck } from '../check.js';
import { slipFactors, type SuspectedCause } from '../causes.js';
import type { QaContext } from '../context.js';
import { finding, type Finding } from '../finding.js';
import { ANALYTE_LIMITS } from '../human-limits.js';
import { dosesItself, namedAfterDose } from '../substance-relations.js';
import { isDose } from '../dose-units.js';

const CHECK = 'mass-balance';
/** Amounts excreted by the body. */
export const EXCRETED_AMOUNTS: ReadonlySet<string> = new Set(['cumulative amount', 'amount']);
/** Where an amount excreted is collected. */
export const EXCRETA: ReadonlySet<string> = new Set(['urine', 'feces', 'faeces', 'bile']);
/** Excreted amounts up to this multiple of the dose are let be: assay error, rounding, the diet's share. */
export const MARGIN = 1.5;
/** A typical fraction of a dose excreted as one substance, the landing a slip factor is judged by. */
export const TYPICAL_FRACTION = 0.3;

export const REASONS = {
  dose: 'no single dose of the substance or its parent',
  unit: 'amount or dose not convertible to grams (per kg, or no molar mass)',
  endogenous: 'a substance the body makes or takes in itself',
} as const;

const fmt = (x: number) => String(+x.toPrecision(3));

/** The single dose an amount is compared with: of the substance itself, else of its parent; null when none or ambiguous. */
export function balancingDose(output: Pick<OutputRecord, 'substance'>, dosings: readonly InterventionRecord[]): InterventionRecord | null {
  const own = dosings.filter((d) => dosesItself(d.substance, output.substance));
  const candidates = own.length > 0 ? own : dosings.filter((d) => namedAfterDose(d.substance, output.substance));
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
  if (amountMass === null || doseMass === null) return null;
  const toMoleA = conversionFactorOrNull(amount.unit, 'mole', { molarMass: amountMass });
  const toMoleD = conversionFactorOrNull(dose.unit, 'mole', { molarMass: doseMass });
  return toMoleA === null || toMoleD === null ? null : (amount.value * toMoleA) / (dose.value * toMoleD);
}

/** An amount slips as a dose does (prefixes, a decimal point, molar ↔ mass, per kg); the words name no dose. */
function amountSlips(molarMass: number | null): SuspectedCause[] {
  return slipFactors('dose', { molarMass }).map((c) => ({ ...c, text: c.text.replace(' in the dose', '') }));
}

/** Cause kinds in the order they are named: a prefix slip (mg as g) is the commonest; molar ↔ mass needs µmol taken for mg. */
const KIND_ORDER: Record<string, number> = { 'unit-factor': 0, 'molar-mass': 1, 'per-kg': 2, dose: 3 };

/**
 * The slips of the amount that bring `fraction` to at most 1: unit factors first, then molar ↔ mass, each kind nearest
 * TYPICAL_FRACTION first (the true fraction is unknown: 3 % of paracetamol is excreted unchanged, 90 % of its
 * metabolites); empty when none does.
 */
export function balancingCauses(causes: readonly SuspectedCause[], fraction: number): SuspectedCause[] {
  const fixing = causes.filter((c) => c.factor > 1 && fraction / c.factor <= 1);
  const distance = (c: SuspectedCause) => Math.abs(Math.log(fraction / c.factor / TYPICAL_FRACTION));
  return fixing.sort((a, b) => (KIND_ORDER[a.kind] ?? 9) - (KIND_ORDER[b.kind] ?? 9) || distance(a) - distance(b));
}

function massBalanceFindings(ctx: QaContext): Finding[] {
  const findings: Finding[] = [];
  for (const o of ctx.tables.outputs) {
    if (!o.normed || o.calculated || o.output_type === 'timecourse' || !EXCRETED_AMOUNTS.has(o.measurement_type) || !EXCRETA.has(o.tissue ?? '')) continue;
    const value = representativeValue(o);
    if (value === null || !(value > 0) || !o.unit) continue;
    const dosings = o.intervention_pks
      .map((pk) => ctx.dataset.intervention(pk))
      .filter((d): d is InterventionRecord => d !== undefined && d.normed && isDose(d) && representativeValue(d) !== null);
    // The body's own analytes (glucose, sodium, creatinine) are excreted from the diet and the body as well as the dose.
    if (o.substance !== null && ANALYTE_LIMITS.has(o.substance)) {
      ctx.notExamined('output', o.pk, CHECK, REASONS.endogenous);
      continue;
    }
    const dose = balancingDose(o, dosings);
    if (dose === null) {
      ctx.notExamined('output', o.pk, CHECK, REASONS.dose);
      continue;
    }
    const fraction = fractionExcreted({ value, unit: o.unit, substance: o.substance }, { value: representativeValue(dose) as number, unit: dose.unit ?? '', substance: dose.substance }, ctx.molarMass);
    if (fraction === null) {
      ctx.notExamined('output', o.pk, CHECK, REASONS.unit);
      continue;
    }
    ctx.examined('output', o.pk, CHECK);
    ctx.examined('dosing', dose.pk, CHECK);
    if (fraction <= MARGIN) continue;
    const causes = balancingCauses(amountSlips(ctx.molarMass(o.substance)), fraction);
    const cause = causes[0] ?? null;
    const of = dosesItself(dose.substance, o.substance) ? 'the dose' : `the dose of ${dose.substance} (in moles)`;
    findings.push(
      finding({
        kind: 'mass-balance',
        check: CHECK,
        severity: cause ? 'major' : 'minor',
        study_sid: o.study_sid,
        study_name: o.study_name,
        output_pk: o.pk,
        subject: subjectLabel(subjectOf(o)),
        measurement_type: o.measurement_type,
        reported: value,
        reported_unit: o.unit,
        ratio: fraction,
        suspected_cause: cause ? causes.map((c) => c.text).join(', or ') : null,
        culprit: cause ? 'output' : null,
        intervention_pk: dose.pk,
        message: `${o.substance} ${o.measurement_type} in ${o.tissue}: ${fmt(value)} ${o.unit} is ${fmt(fraction)}× ${of} (${fmt(representativeValue(dose) as number)} ${dose.unit}); no more than the dose can be excreted${cause ? `: ${cause.text.split(' (')[0]} brings it to ${fmt(fraction / cause.factor)} of the dose` : ''}`,
        details: { fraction_excreted: fraction, cause_kinds: causes.map((c) => c.kind), cause_factors: causes.map((c) => c.factor) },
      }),
    );
  }
  return findings;
}

export const massBalanceCheck: QaCheck = {
  kind: 'mass-balance',
  description: 'a reported amount excreted (urine, faeces, bile) against its single dose: no more than the dose (in moles for a metabolite) can be excreted',
  run: massBalanceFindings,
};
