/**
 * The `dose-label` check: each dosing intervention's curated amount against
 * the amount its own label names (dose-label.ts: `paracetamol1000mg_po`,
 * `KETO_200mg`, `paracetamol12mg/kg_iv`). The label and the value are typed
 * separately from the paper, so a value typed ×10, in the wrong prefix or as
 * a molar amount read as a mass disagrees with the label by that factor. It
 * sees every dosing whose label names one amount comparable with its unit
 * (about a quarter of the shared export's); a label without an amount
 * (`D_CAF`, `MID_po`), or one whose unit cannot be compared (a per-kg value
 * labelled with an absolute amount), is not examined.
 *
 * Severity: agreement within FACTOR_TOLERANCE (5 %) is no finding; a ratio
 * within FACTOR_TOLERANCE of a dose slip factor (causes.ts `slipFactors`:
 * ×10, ×1000, ×10⁶, molar ↔ mass), or of an adult body weight (40–120 kg: the
 * amount per kg curated as the absolute amount), is major with the dose as
 * culprit; any other disagreement is minor
 * (a label naming the salt while the value is the base, or a label copied
 * from another arm).
 * Also the labels of two arms against each other: the dosing labelled high below the one labelled low
 * (`highLowFindings`, minor).
 */
import type { InterventionRecord } from '../../data/model.js';
import { pushTo, representativeValue } from '../../data/records.js';
import type { QaCheck } from '../check.js';
import { nearFactor, slipFactors, unknownWeightPerKgCause } from '../causes.js';
import type { QaContext } from '../context.js';
import { highLowPair, labelledAmount, labelRatio } from '../dose-label.js';
import { finding, type Finding } from '../finding.js';
import { FACTOR_TOLERANCE } from '../tolerances.js';
import { isDose } from '../dose-units.js';

export const CHECK = 'dose-label';

const fmt = (x: number) => String(+x.toPrecision(3));

/** The finding on one dosing, or null when its label names no comparable amount or agrees. */
export function doseLabelFinding(d: InterventionRecord, molarMass: number | null): { finding: Finding | null; examined: boolean } {
  const label = labelledAmount(d.name);
  const value = representativeValue(d);
  if (label === null || value === null || !d.unit) return { finding: null, examined: false };
  const ratio = labelRatio(value, d.unit, label, molarMass);
  if (ratio === null) return { finding: null, examined: false };
  if (nearFactor(ratio, 1, FACTOR_TOLERANCE)) return { finding: null, examined: true };
  const cause =
    slipFactors('dose', { molarMass }).find((c) => c.kind !== 'per-kg' && nearFactor(ratio, c.factor, FACTOR_TOLERANCE)) ?? unknownWeightPerKgCause(ratio);
  const labelled = value / ratio;
  return {
    examined: true,
    finding: finding({
      kind: 'dose-label',
      check: `${CHECK}/amount`,
      severity: cause ? 'major' : 'minor',
      study_sid: d.study_sid,
      study_name: d.study_name,
      measurement_type: 'dosing',
      reported: value,
      reported_unit: d.unit,
      recomputed: labelled,
      recomputed_unit: d.unit,
      ratio,
      suspected_cause: cause ? `the dose: ${cause.text}` : null,
      culprit: cause ? 'dose' : null,
      intervention_pk: d.pk,
      message:
        `dosing ${d.name}: the curated ${fmt(value)} ${d.unit} is ×${fmt(ratio)} the ${label.text} its label names (${fmt(labelled)} ${d.unit})` +
        (cause ? `; ${cause.text.split(' (')[0]} is a slip of the value` : '; the label names another amount (the salt, another arm?)'),
      details: { label: label.text, cause_kinds: cause ? ['dose'] : [], cause_factors: cause ? [cause.factor] : [] },
    }),
  };
}

/**
 * Dosings of one substance in one study, in one unit, whose labels name the high and the low arm (dose-label.ts
 * `highLowPair`), with the high one's amount below the low one's: the amounts, or the labels, were exchanged. Minor:
 * which of the two records is wrong the labels cannot tell, and a label may mean another "high".
 */
export function highLowFindings(dosings: readonly InterventionRecord[]): Finding[] {
  const findings: Finding[] = [];
  for (const high of dosings) {
    const h = representativeValue(high);
    if (h === null || !high.unit) continue;
    for (const low of dosings) {
      const l = representativeValue(low);
      if (low === high || l === null || low.study_sid !== high.study_sid || low.substance !== high.substance || low.unit !== high.unit) continue;
      if (!highLowPair(high.name, low.name) || !(h < l)) continue;
      findings.push(
        finding({
          kind: 'dose-label',
          check: `${CHECK}/high-low`,
          severity: 'minor',
          study_sid: high.study_sid,
          study_name: high.study_name,
          measurement_type: 'dosing',
          reported: h,
          reported_unit: high.unit,
          recomputed: l,
          recomputed_unit: low.unit,
          ratio: h / l,
          suspected_cause: `amounts or labels exchanged with dosing ${low.name}`,
          culprit: null,
          intervention_pk: high.pk,
          message: `dosing ${high.name} (${fmt(h)} ${high.unit}) is labelled high but is below ${low.name} (${fmt(l)} ${low.unit}), labelled low: their amounts or their labels were exchanged`,
          details: { other_intervention_pk: low.pk },
        }),
      );
    }
  }
  return findings;
}

export function doseLabelFindings(ctx: QaContext): Finding[] {
  const findings: Finding[] = [];
  const dosings: InterventionRecord[] = [];
  for (const d of ctx.tables.interventions) {
    if (!d.normed) continue;
    // A qualitative dosing may carry an amount too (Cysneiros2007's caffeine arms): its label is compared with its sibling's.
    if (d.measurement_type === 'dosing' || d.measurement_type === 'qualitative dosing') dosings.push(d);
    if (!isDose(d)) continue;
    const { finding: f, examined } = doseLabelFinding(d, ctx.molarMass(d.substance));
    if (examined) ctx.examined('dosing', d.pk, CHECK);
    else ctx.notExamined('dosing', d.pk, CHECK, 'its label names no amount comparable with its unit');
    if (f) findings.push(f);
  }
  // Pairs within a study only: the dosings of a study, grouped.
  const byStudy = new Map<string, InterventionRecord[]>();
  for (const d of dosings) pushTo(byStudy, d.study_sid, d);
  for (const list of byStudy.values()) if (list.length > 1) findings.push(...highLowFindings(list));
  return findings;
}

export const doseLabelCheck: QaCheck = {
  kind: 'dose-label',
  description: 'each dosing amount against the amount its label names (paracetamol1000mg_po, KETO_200mg): a value typed ×10 or in the wrong prefix; a dosing labelled high below its sibling labelled low',
  run: doseLabelFindings,
};
