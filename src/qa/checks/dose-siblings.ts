/**
 * The `dose-siblings` check: the dosings of one
 * substance in one study (same unit) against each other. A study that gives a
 * substance in several arms gives it at one dose, or at a ladder of doses; a
 * dosing exactly a slip factor (×10, ×1000, ×10⁶, molar ↔ mass; within
 * FACTOR_TOLERANCE, as doses are round numbers), or an adult body weight
 * (×1/40–1/120: the amount per kg curated as the absolute amount, or the
 * reverse; causes.ts `unknownWeightPerKgCause`) away from at least MIN_SIBLINGS
 * other dosings that all agree with each other (within FACTOR_TOLERANCE) is a
 * value typed ×10 or in the wrong prefix. Measured on the shared export: of 61
 * study substances dosed three times or more, no dosing lies ×10 or more from
 * siblings that agree (one lies ×1/4: a 5 mg nasal arm beside two 20 mg arms);
 * dose ladders have no two equal rungs around one odd rung.
 * It sees a dosing whose substance is dosed at least three times in its study
 * (the interaction's perpetrator too, whose dose no output measures).
 *
 * Severity: major, culprit the dose, unless the arm's exposure contradicts the
 * slip: the dosed substance's Cmax or AUC given that dose (reported or
 * calculated) scales with it against the siblings' (their ratio within ×3 of
 * the dose ratio, so the dose was given as curated): then no finding.
 */
import type { InterventionRecord } from '../../data/model.js';
import { pushTo } from '../../data/records.js';
import type { QaCheck } from '../check.js';
import { nearFactor, slipFactors, unknownWeightPerKgCause } from '../causes.js';
import type { QaContext } from '../context.js';
import { finding, type Finding } from '../finding.js';
import { median } from '../robust.js';
import { FACTOR_TOLERANCE } from '../tolerances.js';
import { isDose } from '../dose-units.js';

const CHECK = 'dose-siblings/odd-dose';
/** Other dosings of the substance, agreeing with each other, the odd one needs. */
export const MIN_SIBLINGS = 2;
/** Exposure that scales with the dose within this factor of the dose ratio shows the dose was given as curated. */
export const EXPOSURE_SCALES = 3;
const EXPOSURE: ReadonlySet<string> = new Set(['cmax', 'auc_end', 'auc_inf']);

const fmt = (x: number) => String(+x.toPrecision(3));

/** The dosing's value when it is a positive number, else null. */
function amount(d: InterventionRecord): number | null {
  return d.value !== null && d.value > 0 ? d.value : null;
}

/**
 * The odd dosings of one study substance (one unit): index, ratio to the siblings (curated ÷ theirs) and the
 * slip factor, for each dosing a slip factor away from ≥ MIN_SIBLINGS others that agree with each other.
 */
export function oddDoses(values: readonly number[], factors: readonly number[]): { index: number; ratio: number; factor: number }[] {
  const odd: { index: number; ratio: number; factor: number }[] = [];
  if (values.length < MIN_SIBLINGS + 1) return odd;
  for (let i = 0; i < values.length; i++) {
    const others = values.filter((_, j) => j !== i);
    if (!others.every((v) => nearFactor(v / others[0], 1, FACTOR_TOLERANCE))) continue;
    const ratio = values[i] / median(others);
    const factor = factors.find((f) => Math.abs(Math.log(f)) >= Math.log(2) && nearFactor(ratio, f, FACTOR_TOLERANCE)) ?? unknownWeightPerKgCause(ratio)?.factor;
    if (factor !== undefined) odd.push({ index: i, ratio, factor });
  }
  return odd;
}

/** Median Cmax or AUC (canonical unit, per measurement type) of the dosed substance given each dosing pk. */
function exposureByDose(ctx: QaContext, substance: string, pks: ReadonlySet<number>): Map<string, number[]> {
  const byDoseType = new Map<string, number[]>();
  for (const p of ctx.parameters) {
    if (!EXPOSURE.has(p.measurement_type) || p.substance !== substance || p.value === null || !(p.value > 0)) continue;
    for (const pk of p.output.intervention_pks) {
      if (!pks.has(pk)) continue;
      pushTo(byDoseType, `${pk}|${p.measurement_type}|${p.unit}`, p.value);
    }
  }
  return byDoseType;
}

/** Whether the odd dose's exposure scales with it against its siblings' (the dose was given as curated). */
export function exposureScales(odd: readonly number[], siblings: readonly number[], doseRatio: number): boolean {
  if (odd.length === 0 || siblings.length === 0) return false;
  const ratio = median(odd) / median(siblings);
  return Math.abs(Math.log(ratio / doseRatio)) <= Math.log(EXPOSURE_SCALES);
}

export function doseSiblingFindings(ctx: QaContext): Finding[] {
  const groups = new Map<string, InterventionRecord[]>();
  for (const d of ctx.tables.interventions) {
    if (!d.normed || !isDose(d) || amount(d) === null || !d.unit || !d.substance) continue;
    pushTo(groups, `${d.study_sid}|${d.substance}|${d.unit}`, d);
  }
  const findings: Finding[] = [];
  for (const list of groups.values()) {
    if (list.length < MIN_SIBLINGS + 1) continue;
    const substance = list[0].substance as string;
    const factors = slipFactors('dose', { molarMass: ctx.molarMass(substance) })
      .filter((c) => c.kind !== 'per-kg')
      .map((c) => c.factor);
    const odd = oddDoses(list.map((d) => amount(d) as number), factors);
    if (odd.length === 0) continue;
    const exposure = exposureByDose(ctx, substance, new Set(list.map((d) => d.pk)));
    for (const { index, ratio, factor } of odd) {
      const d = list[index];
      const siblings = list.filter((_, j) => j !== index);
      // Per measurement type and unit: the odd dose's exposure against its siblings'.
      let scales = false;
      for (const [key, values] of exposure) {
        const [pk, ...rest] = key.split('|');
        if (Number(pk) !== d.pk) continue;
        const theirs = siblings.flatMap((s) => exposure.get(`${s.pk}|${rest.join('|')}`) ?? []);
        if (exposureScales(values, theirs, ratio)) scales = true;
      }
      if (scales) continue;
      const perKg = unknownWeightPerKgCause(ratio);
      const text =
        perKg && perKg.factor === factor
          ? perKg.text.split(' (')[1].replace(/\)$/, '')
          : factor === 10 || factor === 0.1
            ? 'a decimal slip in the dose'
            : factor >= 1000 || factor <= 1e-3
              ? 'a prefix slip in the dose (mg↔g, µg↔mg)'
              : 'molar ↔ mass in the dose';
      findings.push(
        finding({
          kind: 'dose-siblings',
          check: CHECK,
          severity: 'major',
          study_sid: d.study_sid,
          study_name: d.study_name,
          measurement_type: 'dosing',
          reported: amount(d),
          reported_unit: d.unit,
          recomputed: (amount(d) as number) / ratio,
          recomputed_unit: d.unit,
          ratio,
          suspected_cause: `the dose: ×${fmt(factor)} (${text})`,
          culprit: 'dose',
          intervention_pk: d.pk,
          message:
            `dosing ${d.name}: ${fmt(amount(d) as number)} ${d.unit} of ${substance} is ×${fmt(ratio)} the ${siblings.length} other dosings of it in the study ` +
            `(${siblings.map((s) => s.name).join(', ')}: ${fmt((amount(d) as number) / ratio)} ${d.unit}, all equal); ×${fmt(factor)} is a slip, and no exposure given this dose scales with it`,
          details: { sibling_intervention_pks: siblings.map((s) => s.pk), cause_kinds: ['dose'], cause_factors: [factor] },
        }),
      );
    }
  }
  return findings;
}

export const doseSiblingsCheck: QaCheck = {
  kind: 'dose-siblings',
  description: "each dosing against the study's other dosings of the substance: one a slip factor from siblings that agree",
  run: doseSiblingFindings,
};
