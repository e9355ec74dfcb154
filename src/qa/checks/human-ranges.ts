/**
 * The `human-range` check: a value of the body itself outside what any living
 * human has (human-limits.ts) — a heart rate, a blood pressure, a cardiac
 * output or hepatic blood flow, a Child–Pugh score, and the plasma, serum or
 * blood level of an endogenous analyte (glucose, albumin, bilirubin,
 * cholesterol, triglycerides, creatinine, lactate, sodium, potassium,
 * cortisol). Such a value needs no partner, arm or
 * other study to be wrong: a glucose curve curated in mmol/L but labelled
 * mg/dL puts a fasting level at 0.05 g/L, which no one alive has.
 *
 * Seen: every reported single value of those measurement types (analytes:
 * `concentration`, `cmax`, `cthrough` in plasma, serum or blood), and every
 * concentration timecourse of an analyte, by the median of its positive
 * points (one point off is series-spike's; a whole curve in the wrong unit
 * moves its median). Not seen: subjects marked as another species; values
 * whose unit does not convert to the limit's (molar without a molar mass).
 *
 * Severity: beyond a limit by more than LIMIT_TOLERANCE (5 %) is major — the
 * value cannot be right. The causes named are the slip factors (causes.ts
 * `slipFactors` of the value's family, molar ↔ mass with the molar mass) that
 * bring it inside, those landing in a healthy adult's range first, then for an
 * analyte the SI value read as its conventional unit (mmol/L as mg/dL: the
 * classic confusion of the two, added when no unit slip names it, e.g.
 * bilirubin's µmol/L as mg/dL, ×17.1), then its other molar ↔ mass slips,
 * then the nearest its typical value (×1000 and ×M may both: the study's
 * other values tell); none, when no factor does (the
 * finding still names the limits).
 */
import { subjectLabel, subjectOf } from '../../data/dataset.js';
import type { OutputRecord, TimecourseRecord } from '../../data/model.js';
import { median } from '../robust.js';
import { conversionFactorOrNull } from '../../units/convert.js';
import type { QaCheck } from '../check.js';
import { nearFactor, slipFactors, type SuspectedCause } from '../causes.js';
import type { QaContext } from '../context.js';
import { finding, type Finding } from '../finding.js';
import { ANALYTE_LEVELS, ANALYTE_LIMITS, ANALYTE_TISSUES, BODY_LIMITS, beyondBounds, limitIn, type Bounds, type HumanLimit } from '../human-limits.js';
import { concentrationSeries } from '../input-checks.js';
import { mayBeHuman } from '../population.js';
import { slipFamilyOfUnit } from '../slip-factor.js';
import type { ReportedParameter } from '../tolerances.js';

const CHECK = 'human-range';
const fmt = (x: number) => String(+x.toPrecision(3));

/** The verdict on one value: beyond a limit (by more than LIMIT_TOLERANCE), and the slips that bring it back. */
export interface LimitVerdict {
  side: 'below' | 'above';
  /** Every slip factor whose corrected value lies inside: those landing in the normal range first, then nearest typical. */
  causes: SuspectedCause[];
}

/** The rank of a cause among those landing in the normal range: lower first. */
export type CauseTier = (cause: SuspectedCause) => number;

/**
 * Judges `value` (in the unit of `bounds`) against the limits: null inside (within the tolerance); else the side and
 * the causes among `causes` (value as curated = true value × factor) whose corrected value lies inside, those landing
 * in the normal range first, then by `tier`, then nearest typical.
 */
export function judgeLimit(value: number, bounds: Bounds, causes: readonly SuspectedCause[], tier: CauseTier = () => 0): LimitVerdict | null {
  const side = beyondBounds(value, bounds);
  if (side === null) return null;
  const [lo, hi] = bounds.normal;
  const outsideNormal = (c: SuspectedCause) => (value / c.factor < lo || value / c.factor > hi ? 1 : 0);
  const distance = (c: SuspectedCause) => outsideNormal(c) * 1e6 + tier(c) * 1e3 + Math.abs(Math.log(value / c.factor / bounds.typical));
  const inside = causes.filter((c) => value / c.factor >= bounds.low && value / c.factor <= bounds.high);
  return { side, causes: inside.sort((a, b) => distance(a) - distance(b)) };
}

interface Judged {
  what: string;
  value: number;
  unit: string;
  bounds: Bounds;
  limit: HumanLimit;
  verdict: LimitVerdict;
}

function rangeFinding(record: OutputRecord | TimecourseRecord, j: Judged, timecourse: boolean): Finding {
  const { verdict, bounds } = j;
  const cause = verdict.causes[0] ?? null;
  const back = cause
    ? `; undoing ${verdict.causes.map((c) => `${c.text.split(' (')[0]} gives ${fmt(j.value / c.factor)}`).join(', ')} ${j.unit}`
    : '; no unit slip brings it inside';
  return finding({
    kind: 'human-range',
    check: `${CHECK}/${timecourse ? 'timecourse' : 'output'}`,
    severity: 'major',
    study_sid: record.study_sid,
    study_name: record.study_name,
    subset_pk: timecourse ? (record as TimecourseRecord).subset_pk : ((record as OutputRecord).subset_pk ?? null),
    output_pk: timecourse ? null : (record as OutputRecord).pk,
    measurement_type: record.measurement_type,
    subject: subjectLabel(subjectOf(record)),
    reported: j.value,
    reported_unit: j.unit,
    // With a cause, the value it corrects to; without one, a healthy adult's typical value.
    recomputed: cause ? j.value / cause.factor : bounds.typical,
    recomputed_unit: j.unit,
    ratio: cause ? cause.factor : j.value / bounds.typical,
    suspected_cause: cause ? verdict.causes.map((c) => c.text).join(', or ') : null,
    culprit: timecourse ? 'timecourse' : 'output',
    message: `${j.what}: ${fmt(j.value)} ${j.unit} is ${verdict.side} what any living human has (${fmt(bounds.low)}–${fmt(bounds.high)} ${j.unit}: ${j.limit.basis})${back}`,
    details: {
      limit_low: bounds.low,
      limit_high: bounds.high,
      typical: bounds.typical,
      // A single value is drawn against the limits (the report's range strip); a curve is drawn itself.
      ...(timecourse ? {} : { range: { low: bounds.low, high: bounds.high } }),
      cause_kinds: verdict.causes.map((c) => c.kind),
      cause_factors: verdict.causes.map((c) => c.factor),
    },
  });
}

/**
 * The slip of an analyte's SI value read as its conventional unit (5 mmol/L glucose curated as 5 mg/dL: ×1/18.0),
 * as a factor on values in `unit`; null without a conventional unit or a conversion.
 */
export function conventionalSlip(limit: HumanLimit, unit: string, molarMass: number | null): number | null {
  if (!limit.conventional || molarMass === null) return null;
  const si = conversionFactorOrNull(limit.unit, unit, { molarMass });
  const conventional = conversionFactorOrNull(limit.conventional, unit, { molarMass });
  return si === null || conventional === null ? null : conventional / si;
}

/** Two factors are one slip within 1 %. */
const near = (a: number, b: number) => nearFactor(a, b, 0.01);

/**
 * An analyte's slips and their tiers: its unit slips (a level slips like a Cmax, molar ↔ mass included), with the
 * SI ↔ conventional slip both ways (added when no other names it) first, then the other molar ↔ mass slips.
 */
function analyteCauses(limit: HumanLimit, unit: string, molarMass: number | null): { causes: SuspectedCause[]; tier: CauseTier } {
  const causes = [...slipFactors('cmax', { molarMass })];
  const slip = conventionalSlip(limit, unit, molarMass);
  if (slip === null) return { causes, tier: (c) => (c.kind === 'molar-mass' ? 0 : 1) };
  const siUnit = limit.unit.replace('millimole', 'mmol').replace('micromole', 'µmol').replace('nanomole', 'nmol').replace(' / liter', '/L');
  const conventionalUnit = (limit.conventional as string).replace('milligram', 'mg').replace('microgram', 'µg').replace(' / deciliter', '/dL');
  for (const [factor, words] of [[slip, `${siUnit} read as ${conventionalUnit}`], [1 / slip, `${conventionalUnit} read as ${siUnit}`]] as const) {
    if (causes.some((c) => near(c.factor, factor))) continue;
    const label = factor >= 1 ? `×${+factor.toPrecision(3)}` : `×1/${+(1 / factor).toPrecision(3)}`;
    causes.push({ kind: 'molar-mass', factor, text: `${label} (molar ↔ mass: ${words} (molar mass ${+(molarMass as number).toPrecision(4)} g/mol))` });
  }
  return { causes, tier: (c) => (near(c.factor, slip) || near(c.factor, 1 / slip) ? 0 : c.kind === 'molar-mass' ? 1 : 2) };
}

/** The limit of an output of this measurement type, substance and tissue, if any. */
function limitOf(measurementType: string, substance: string | null, tissue: string | null): HumanLimit | undefined {
  const body = BODY_LIMITS.get(measurementType);
  if (body) return body;
  if (!ANALYTE_LEVELS.has(measurementType) || substance === null || tissue === null || !ANALYTE_TISSUES.has(tissue)) return undefined;
  return ANALYTE_LIMITS.get(substance);
}

/** Slip factors of a body measure in `unit`, by its unit's family. */
function bodyCauses(unit: string, bodyWeightKg: number | null): readonly SuspectedCause[] {
  const family: ReportedParameter | null = slipFamilyOfUnit(unit);
  return family === null ? [] : slipFactors(family, { molarMass: null, bodyWeightKg });
}

export const humanRangeCheck: QaCheck = {
  kind: CHECK,
  description: 'values of the body itself outside what any living human has: vital signs, cardiac output and hepatic blood flow, the Child–Pugh score, plasma levels of glucose, albumin, bilirubin, lipids, creatinine, lactate, electrolytes and cortisol (single values and whole curves)',
  run(ctx: QaContext) {
    const findings: Finding[] = [];
    for (const p of ctx.parameters) {
      // Not ≤ 0: no level is, and a negative value is a change from baseline or plausibility's sign slip.
      if (p.source !== 'reported' || p.value === null || !(p.value > 0) || p.unit === null) continue;
      const limit = limitOf(p.measurement_type, p.substance, p.tissue);
      if (limit === undefined || !mayBeHuman(ctx.dataset, p.output)) continue;
      const analyte = !BODY_LIMITS.has(p.measurement_type);
      const molarMass = analyte ? ctx.molarMass(p.substance) : null;
      const bounds = limitIn(limit, p.unit, molarMass);
      if (bounds === null) continue;
      ctx.examined('output', p.output.pk, CHECK);
      const { causes, tier } = analyte ? analyteCauses(limit, p.unit, molarMass) : { causes: bodyCauses(p.unit, p.bodyWeightKg), tier: undefined };
      const verdict = judgeLimit(p.value, bounds, causes, tier);
      const what = `reported ${p.substance && analyte ? `${p.substance} ` : ''}${p.measurement_type}${p.tissue && analyte ? ` (${p.tissue})` : ''}`;
      if (verdict) findings.push(rangeFinding(p.output, { what, value: p.value, unit: p.unit, bounds, limit, verdict }, false));
    }
    for (const rt of ctx.timecourses) {
      const { tc } = rt;
      if (tc.measurement_type !== 'concentration' || !tc.unit) continue;
      // The substance as its outputs name it; else the export's sid, which may be the name (`glucose`, labelled
      // `D-glucose`) or not (`glc`, labelled `glucose`), then the label.
      const substance = [rt.substance, tc.substance, tc.substance_label].find((name) => name !== null && ANALYTE_LIMITS.has(name)) ?? null;
      const limit = limitOf(tc.measurement_type, substance, tc.tissue);
      if (limit === undefined || !mayBeHuman(ctx.dataset, tc)) continue;
      const molarMass = ctx.molarMass(substance) ?? ctx.molarMass(tc.substance);
      const bounds = limitIn(limit, tc.unit, molarMass);
      const series = concentrationSeries(tc);
      if (bounds === null || series === null) continue;
      const positive = series.values.filter((v): v is number => v !== null && Number.isFinite(v) && v > 0);
      if (positive.length === 0) continue;
      ctx.examined('timecourse', tc.subset_pk, CHECK);
      const level = median(positive);
      const { causes, tier } = analyteCauses(limit, tc.unit, molarMass);
      const verdict = judgeLimit(level, bounds, causes, tier);
      const what = `${substance} timecourse (${tc.tissue}), median of ${positive.length} point(s)`;
      if (verdict) findings.push(rangeFinding(tc, { what, value: level, unit: tc.unit, bounds, limit, verdict }, true));
    }
    return findings;
  },
};
