/**
 * The `input` check: problems of the curated records themselves, before any comparison.
 * - Each concentration timecourse that is unfit for recomputation (input-checks.ts: misaligned lists, missing or
 *   duplicate times, all-missing series, no or several dosings). Guarded per timecourse, so one broken record is one
 *   finding located at it.
 * - Each reported output, dosing and subject characteristic whose own statistics break their order (record-stats.ts:
 *   a mean or median outside its own min–max, a min above its max): one of its fields holds a slip, named where one
 *   slip factor undone puts the value back inside its range.
 */
import type { QaCheck } from '../check.js';
import type { SuspectedCause } from '../causes.js';
import { failureFinding, type QaContext } from '../context.js';
import { finding, type Culprit, type Finding } from '../finding.js';
import { checkTimecourseInput } from '../input-checks.js';
import { factorBringingInside, statsContradictions, type RecordStats, type StatsContradiction } from '../record-stats.js';

const fmt = (x: number) => String(+x.toPrecision(3));

/** The slips of one field typed apart from the rest of its row: a decimal point (×10), a prefix (×1000), either way (record-stats.ts). */
const DECIMAL_FACTORS: readonly SuspectedCause[] = [10, 0.1, 1000, 0.001].map((factor) => ({
  kind: 'unit-factor' as const,
  factor,
  text: `${factor > 1 ? `×${factor}` : `×1/${1 / factor}`} (a decimal point slip, or a prefix)`,
}));

function describe(c: StatsContradiction): string {
  if (c.kind === 'inverted') return `its minimum ${fmt(c.min)} is above its maximum ${fmt(c.max)}`;
  return `its ${c.field} ${fmt(c.value)} lies ${c.side} its own ${c.side === 'below' ? `minimum ${fmt(c.min as number)}` : `maximum ${fmt(c.max as number)}`}${Number.isFinite(c.by) ? ` (×${fmt(c.by)})` : ''}`;
}

interface StatsRecord {
  what: string;
  culprit: Culprit;
  study_sid: string;
  study_name: string;
  measurement_type: string;
  unit: string | null;
  stats: RecordStats;
  output_pk?: number;
  intervention_pk?: number;
  subject?: string | null;
  record: string;
}

function statsFinding(r: StatsRecord): Finding | null {
  const broken = statsContradictions(r.stats);
  if (broken.length === 0) return null;
  const central = broken.find((c): c is Extract<StatsContradiction, { kind: 'outside' }> => c.kind === 'outside');
  const inverted = broken.some((c) => c.kind === 'inverted');
  const cause = central ? factorBringingInside(central, DECIMAL_FACTORS) : null;
  const why = cause
    ? `${cause.text}: the ${central?.field} with it undone lies within its range`
    : inverted
      ? 'min and max swapped, or one of them from another row'
      : 'a slip in the value or in its range (from another row?)';
  return finding({
    kind: 'input',
    check: 'input/statistics',
    severity: 'major',
    study_sid: r.study_sid,
    study_name: r.study_name,
    output_pk: r.output_pk ?? null,
    intervention_pk: r.intervention_pk ?? null,
    subject: r.subject ?? null,
    measurement_type: r.measurement_type,
    reported: central?.value ?? null,
    reported_unit: r.unit,
    ratio: central && Number.isFinite(central.by) ? (central.side === 'above' ? central.by : 1 / central.by) : null,
    culprit: r.culprit,
    suspected_cause: why,
    message: `${r.what}: ${broken.map(describe).join('; ')} — a record's mean and median lie within its own range`,
    details: { record: r.record, ...(cause ? { cause_kinds: [cause.kind], cause_factors: [cause.factor] } : {}) },
  });
}

/** Every reported output, dosing and subject characteristic of the reported studies whose statistics break their order. */
export function statisticsFindings(ctx: QaContext): Finding[] {
  const findings: Finding[] = [];
  const push = (f: Finding | null) => {
    if (f) findings.push(f);
  };
  for (const o of ctx.tables.outputs) {
    if (!o.normed || o.output_type === 'timecourse' || !ctx.reported(o.study_sid) || (o.min === null && o.max === null)) continue;
    const subject = o.individual_pk !== null ? `individual:${o.individual_pk}` : o.group_pk !== null ? `group:${o.group_pk}` : null;
    push(statsFinding({
      what: `output ${o.pk} (${o.measurement_type}${o.substance ? ` of ${o.substance}` : ''})`, culprit: 'output', study_sid: o.study_sid, study_name: o.study_name,
      measurement_type: o.measurement_type, unit: o.unit, stats: o, output_pk: o.pk, subject, record: `output:${o.pk}`,
    }));
  }
  for (const d of ctx.tables.interventions) {
    if (!d.normed || !ctx.reported(d.study_sid) || (d.min === null && d.max === null)) continue;
    push(statsFinding({
      what: `intervention ${d.pk} (${d.name})`, culprit: 'dose', study_sid: d.study_sid, study_name: d.study_name, measurement_type: d.measurement_type,
      unit: d.unit, stats: d, intervention_pk: d.pk, record: `dosing:${d.pk}`,
    }));
  }
  // A characteristic a group's individuals inherit is listed by each of them: judged once, with its first subject.
  const seen = new Set<number>();
  const subjects = [
    ...ctx.tables.groups.map((g) => ({ label: `group:${g.pk}`, name: `group ${g.pk} (${g.name})`, s: g })),
    ...ctx.tables.individuals.map((i) => ({ label: `individual:${i.pk}`, name: `individual ${i.pk} (${i.name})`, s: i })),
  ];
  for (const { label, name, s } of subjects) {
    if (!ctx.reported(s.study_sid)) continue;
    for (const c of s.characteristica) {
      if (seen.has(c.pk) || (c.min === null && c.max === null)) continue;
      seen.add(c.pk);
      push(statsFinding({
        what: `${name}'s ${c.measurement_type}`, culprit: 'subject', study_sid: s.study_sid, study_name: s.study_name, measurement_type: c.measurement_type,
        unit: c.unit, stats: c, subject: label, record: `characteristica:${c.pk}`,
      }));
    }
  }
  return findings;
}

export const inputCheck: QaCheck = {
  kind: 'input',
  description: "concentration timecourses: aligned lists, missing and duplicate times, missing concentrations, a single dosing; every record's mean and median within its own min–max",
  run(ctx) {
    const findings: Finding[] = [];
    for (const tc of ctx.concentrationTimecourses) {
      try {
        findings.push(...checkTimecourseInput(tc, ctx.dataset.dosingOf(tc)));
      } catch (error) {
        findings.push({ ...failureFinding(`the input check of timecourse ${tc.subset_pk}`, error), study_sid: tc.study_sid, study_name: tc.study_name, subset_pk: tc.subset_pk });
      }
    }
    findings.push(...statisticsFindings(ctx));
    return findings;
  },
};
