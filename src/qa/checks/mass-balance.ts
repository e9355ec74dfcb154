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
 * The amounts, their doses and fractions: excretion.ts (the reference-range check reads them too, to rule out a dose slip).
 *
 * Severity: beyond MARGIN × the dose (assay error, rounding, a little of the substance from the diet), major when
 * a slip factor of the amount (causes.ts `slipFactors`: ×1000, ×10, molar ↔ mass) brings it back to at most the
 * dose (`balancingCauses` orders them); minor otherwise. The amount is the record to fix when the dose is typical of
 * the other studies' doses (range-verdict.ts `doseVouched`); else the amount or its dose (a per-kg dose curated as
 * absolute is 70 times too small for what was excreted), and the finding leaves the culprit open.
 */
import { subjectLabel, subjectOf } from '../../data/dataset.js';
import { representativeValue } from '../../data/records.js';
import type { QaCheck } from '../check.js';
import { slipFactors, type SuspectedCause } from '../causes.js';
import type { QaContext } from '../context.js';
import { finding, type Finding } from '../finding.js';
import { excretedAmounts, MARGIN } from '../excretion.js';
import { ownJudgment, rangeRun } from '../range-run.js';
import { doseVouched } from '../range-verdict.js';
import { dosesItself } from '../substance-relations.js';

const CHECK = 'mass-balance';
/** A typical fraction of a dose excreted as one substance, the landing a slip factor is judged by. */
export const TYPICAL_FRACTION = 0.3;

const fmt = (x: number) => String(+x.toPrecision(3));

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
  for (const { output: o, value, dose, fraction, reason } of excretedAmounts(ctx)) {
    if (fraction === null) {
      ctx.notExamined('output', o.pk, CHECK, reason);
      continue;
    }
    ctx.examined('output', o.pk, CHECK);
    ctx.examined('dosing', dose.pk, CHECK);
    if (fraction <= MARGIN) continue;
    const causes = balancingCauses(amountSlips(ctx.molarMass(o.substance)), fraction);
    const cause = causes[0] ?? null;
    // The amount ×f too much of a right dose, or the right amount of a dose ×f too small: the dose vouches when it is
    // typical and the dose f times larger would not be.
    const vouched = cause !== null && doseVouched(ownJudgment(rangeRun(ctx), `dosing:${dose.pk}`), [], cause.factor);
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
        suspected_cause: cause ? causes.map((c) => c.text).join(', or ') + (vouched ? '' : ' — in the amount or in its dose (the dose is no typical one of the other studies)') : null,
        culprit: cause && vouched ? 'output' : null,
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
