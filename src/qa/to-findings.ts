/** Findings from comparisons and from the stored-calculated rows. */
import { subjectLabel, subjectOf } from '../data/dataset.js';
import { SEVERITY_OF } from './classify.js';
import type { CalculatedRow, CalculatedStatus } from './calculated.js';
import type { Comparison } from './compare-reported.js';
import type { DoseCause } from './dose-cause.js';
import { LEVEL_EXPONENT, type CurveLevelCause } from './curve-cause.js';
import { finding, type Finding, type Severity } from './finding.js';

const fmt = (x: number | null) => (x === null ? '–' : String(+x.toPrecision(4)));

/**
 * The finding of one reported-vs-recomputed comparison. A cause found across comparisons replaces the ratio's own:
 * a dose (dose-cause.ts) names a major's cause; a curve's level (curve-cause.ts) also makes the comparison major.
 */
export function comparisonFinding(c: Comparison, across: { dose?: DoseCause; curve?: CurveLevelCause; curveSide?: string; valueSide?: string } = {}): Finding {
  const { verdict, output } = c;
  const acrossCause = across.dose ?? across.curve ?? null;
  const causes = acrossCause ? [acrossCause] : verdict.causes;
  // The curve told by the comparisons' own named factors (curve-cause.ts `curveSides`), where nothing across decided;
  // else the value, where the curve's other values clear the curve (lone-value.ts).
  const curveSide = !across.dose && !across.curve?.culprit && across.curveSide ? across.curveSide : null;
  const valueSide = !across.dose && !across.curve && curveSide === null && across.valueSide ? across.valueSide : null;
  const side = curveSide ?? valueSide;
  const named = causes.length > 0 ? causes.map((k) => k.text).join('; ') : null;
  const suspected = named !== null || side !== null ? `${named ?? ''}${side ?? ''}`.replace(/^ — /, '') : verdict.expected ? `expected: ${verdict.expected}` : null;
  const profiles = `pkdb ${fmt(c.pkdb)}, standard ${fmt(c.standard)}`;
  const classification = across.curve && !across.dose ? 'major' : verdict.classification;
  const message =
    `${c.parameter} ${classification}: reported ${fmt(c.reported)} ${c.reported_unit}, recomputed ${fmt(c.recomputed)} (${c.profile} profile; ${profiles})` +
    (verdict.ratio !== null ? `, ratio ${fmt(verdict.ratio)}` : ', no ratio (zero or opposite signs)') +
    (c.conversion ? `; recomputed ${c.conversion}` : '') +
    (c.note ? `; ${c.note}` : '');
  return finding({
    kind: 'reported-vs-recomputed',
    severity: SEVERITY_OF[classification],
    study_sid: output.study_sid,
    study_name: output.study_name,
    subset_pk: c.timecourse.tc.subset_pk,
    output_pk: output.pk,
    measurement_type: c.parameter,
    subject: subjectLabel(subjectOf(output)),
    reported: c.reported,
    reported_unit: c.reported_unit,
    recomputed: c.recomputed,
    recomputed_unit: c.reported_unit,
    ratio: verdict.ratio,
    suspected_cause: suspected,
    // A dose named across the comparisons of its dosing is the record to fix (dose-cause.ts).
    // Unwitnessed (no Cmax or AUC of the curve in line), the dose and the curve's level stay open.
    ...(across.dose ? { culprit: across.dose.witnessed ? ('dose' as const) : null, intervention_pk: c.timecourse.dosingPks[0] ?? null } : {}),
    // A curve's level named across concentrations and clearances or volumes is the curve's (curve-cause.ts).
    ...(!across.dose && across.curve?.culprit
      ? { culprit: across.curve.culprit }
      : curveSide
        ? { culprit: 'timecourse' as const }
        : valueSide
          ? { culprit: 'output' as const }
          : {}),
    message,
    details: {
      classification,
      profile: c.profile,
      pkdb: c.pkdb,
      standard: c.standard,
      conversion: c.conversion,
      body_weight_kg: c.bodyWeightKg,
      cause_kinds: causes.map((k) => k.kind),
      cause_factors: causes.map((k) => k.factor),
      // A CL or V recomputed from the curve divides its dose: the dose is a record its slip may sit in (corroborate.ts).
      ...(LEVEL_EXPONENT[c.parameter] === -1 && c.timecourse.dosingPks.length === 1 ? { dose_pk: c.timecourse.dosingPks[0] } : {}),
    },
  });
}

/** The columns of calculated.csv, in order. */
export const CALCULATED_COLUMNS = [
  'study_sid',
  'study_name',
  'subset_pk',
  'output_pk',
  'measurement_type',
  'unit',
  'stored',
  'recomputed',
  'rel_diff',
  'status',
  'reason',
] as const;

/**
 * mismatch and missing are major: PK-DB serves a number its own algorithm
 * does not give. extra is minor (a value PK-DB could have stored but did not);
 * not-recomputable is info (the timecourse cannot be recomputed, said elsewhere).
 */
const CALCULATED_SEVERITY: Record<Exclude<CalculatedStatus, 'match'>, Severity> = {
  mismatch: 'major',
  missing: 'major',
  extra: 'minor',
  'not-recomputable': 'info',
};

export function calculatedFinding(row: CalculatedRow): Finding | null {
  if (row.status === 'match') return null;
  const what = {
    mismatch: `stored ${fmt(row.stored)} but recomputed ${fmt(row.recomputed)} ${row.unit ?? ''} (relative difference ${fmt(row.rel_diff)})`,
    missing: `stored ${fmt(row.stored)} ${row.unit ?? ''} but the pkdb profile produces no ${row.measurement_type}`,
    extra: `the pkdb profile gives ${fmt(row.recomputed)} ${row.unit ?? ''} but PK-DB stored no ${row.measurement_type}`,
    'not-recomputable': `stored ${fmt(row.stored)} ${row.unit ?? ''} cannot be recomputed`,
  }[row.status];
  return finding({
    kind: 'calculated',
    severity: CALCULATED_SEVERITY[row.status],
    study_sid: row.study_sid,
    study_name: row.study_name,
    subset_pk: row.subset_pk,
    output_pk: row.output_pk,
    measurement_type: row.measurement_type,
    reported: row.stored,
    reported_unit: row.unit,
    recomputed: row.recomputed,
    recomputed_unit: row.unit,
    ratio: row.stored !== null && row.recomputed !== null && row.recomputed !== 0 ? row.stored / row.recomputed : null,
    message: `calculated ${row.measurement_type} ${row.status}: ${what.trim()}${row.reason ? ` (${row.reason})` : ''}`,
  });
}
