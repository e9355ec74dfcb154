/**
 * Repeated values of one key: the reported single values without a curated time of one subject, intervention set,
 * substance, tissue, measurement type and unit — repeated measurements (occasions a study did not curate apart), or
 * one quantity read from a table and from a figure. They measure the same thing of the same person or group, so
 * they agree; one that lies far off the others, which agree among themselves, by a slip factor that brings it back
 * among them is a slip of that record (major, culprit its output):
 * - from ×30 (BIG_FACTOR: no occasion moves one subject's value that far) off the median of two or more others,
 *   and SPREADS times their whole spread (log max − log min): urine concentrations of one subject vary ×5 with its
 *   urine flow, not ×1000;
 * - from ×10 off the median of three or more others that agree within ×2 (TIGHT_AGREEMENT);
 * and the factor must put it within the others' range (widened ×1.5 either way). Far off with no slip factor that does:
 * minor. A key with two values has no majority; a key whose others disagree has no reference: neither is judged.
 * Measured on the shared export: 148 keys of three or more such values; Holstege1989's individual caffeine
 * clearances, read from four tables and a figure, hold the two values it finds (×1/585 and ×80.7 their others).
 */
import type { QaCheck } from '../check.js';
import type { QaContext } from '../context.js';
import { finding, type Finding, type Severity } from '../finding.js';
import type { ParameterValue } from '../parameters.js';
import { median } from '../robust.js';
import { nearestSlipFactor, slipFamilyOf } from '../slip-factor.js';

export const CHECK = 'repeated-values';

/** Far off: ×30 from the others (within-study's BIG_FACTOR), or ×10 from tightly agreeing ones. */
export const BIG_FACTOR = 30;
export const SMALL_FACTOR = 10;
/** How far beyond the others' spread a big departure lies (in units of that spread, log scale). */
export const SPREADS = 3;
/** How closely the others agree (max / min) for a small departure, and three of them. */
export const TIGHT_AGREEMENT = 2;
/** The factor must bring the value within the others' range widened by this either way. */
export const LANDING = 1.5;

const fmt = (x: number) => String(+x.toPrecision(3));

/** The reported single values without a time, by key, measurement type and unit (reported studies only). */
function repeatedValues(ctx: QaContext): ParameterValue[][] {
  const byKey = new Map<string, ParameterValue[]>();
  for (const p of ctx.parameters) {
    if (p.source !== 'reported' || p.value === null || !(p.value > 0) || p.unit === null || p.output.time !== null) continue;
    if (!ctx.reported(p.output.study_sid)) continue;
    const key = `${p.key}\u0001${p.measurement_type}\u0001${p.unit}`;
    const list = byKey.get(key);
    if (list) list.push(p);
    else byKey.set(key, [p]);
  }
  return [...byKey.values()].filter((list) => list.length >= 3);
}

/** The finding on one value against the others of its key, or null when it is in line or they do not agree. */
export function repeatedValueFinding(p: ParameterValue, others: readonly ParameterValue[], molarMass: number | null): Finding | null {
  const logs = others.map((q) => Math.log(q.value as number));
  const low = Math.min(...logs);
  const high = Math.max(...logs);
  const spread = high - low;
  const d = Math.log(p.value as number) - median(logs);
  const big = Math.abs(d) >= Math.log(BIG_FACTOR) && Math.abs(d) >= SPREADS * spread;
  const small = Math.abs(d) >= Math.log(SMALL_FACTOR) && spread <= Math.log(TIGHT_AGREEMENT) && others.length >= 3;
  if (!big && !small) return null;
  const family = slipFamilyOf(p.measurement_type, p.unit as string);
  // The factor nearest the departure, if it lands among the others.
  const slip = family === null ? null : nearestSlipFactor(d, family, p.bodyWeightKg, Math.abs(d), undefined, molarMass);
  const landing = slip === null ? null : Math.log(p.value as number) - Math.log(slip.factor);
  const lands = landing !== null && landing >= low - Math.log(LANDING) && landing <= high + Math.log(LANDING);
  // A small departure is only a slip when a factor explains it; a big one is at least worth a look.
  if (!lands && !big) return null;
  const severity: Severity = lands ? 'major' : 'minor';
  const o = p.output;
  const ratio = Math.exp(d);
  const range = `${fmt(Math.exp(low))}–${fmt(Math.exp(high))} ${p.unit}`;
  return finding({
    kind: 'repeated-values', check: CHECK, severity, study_sid: o.study_sid, study_name: o.study_name, subset_pk: o.subset_pk, output_pk: o.pk,
    measurement_type: p.measurement_type, subject: p.subject, reported: p.value, reported_unit: p.unit,
    recomputed: lands && slip ? (p.value as number) / slip.factor : Math.exp(median(logs)), recomputed_unit: p.unit, ratio: lands && slip ? slip.factor : ratio,
    suspected_cause: lands && slip ? slip.text : null, culprit: lands ? 'output' : null,
    message: `${p.measurement_type} ${fmt(p.value as number)} ${p.unit} is ×${fmt(ratio)} the median of the ${others.length} other values of its subject, intervention set, substance and tissue (${range}, no time curated: repeated measurements or one quantity read twice)${lands && slip ? `; ${slip.text} brings it back among them` : '; no slip factor brings it back among them'}`,
    details: { rule: big ? 'far-off' : 'off-tight', others: others.map((q) => q.output.pk), cause_kinds: lands && slip ? [slip.kind] : [], cause_factors: lands && slip ? [slip.factor] : [] },
  });
}

export function repeatedValueFindings(ctx: QaContext): Finding[] {
  const findings: Finding[] = [];
  for (const list of repeatedValues(ctx)) {
    for (const p of list) ctx.examined('output', p.output.pk, CHECK);
    const molarMass = ctx.molarMass(list[0].substance);
    for (const p of list) {
      const f = repeatedValueFinding(
        p,
        list.filter((q) => q !== p),
        molarMass,
      );
      if (f) findings.push(f);
    }
  }
  return findings;
}

export const repeatedValuesCheck: QaCheck = {
  kind: 'repeated-values',
  description: 'reported values without a time of one subject, intervention set, substance, tissue and type against each other: one far off the others, which agree, by a slip factor',
  run: repeatedValueFindings,
};
