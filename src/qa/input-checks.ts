/**
 * Input problems of a concentration timecourse, as findings: the aligned lists
 * disagree in length, times are missing, duplicated or not ascending in the
 * output-pk order PK-DB integrates in, the concentration series is all missing,
 * or there is no single dosing to compute dose-dependent parameters from.
 * See PK-DB calculation §2–§3 for why each matters.
 */
import type { InterventionRecord, TimecourseRecord } from '../data/model.js';
import { subjectLabel, subjectOf } from '../data/dataset.js';
import { representativeSeries } from '../data/records.js';
import { finding, type Finding, type Severity } from './finding.js';

const ALIGNED_LISTS = ['time', 'value', 'mean', 'median', 'min', 'max', 'sd', 'se', 'cv'] as const;

/** The concentration series PK-DB uses: `representativeSeries` of src/data/records.ts, under the name some QA modules still import. */
export { representativeSeries as concentrationSeries };

function inputFinding(tc: TimecourseRecord, severity: Severity, message: string, details?: Record<string, unknown>): Finding {
  return finding({
    kind: 'input',
    severity,
    study_sid: tc.study_sid,
    study_name: tc.study_name,
    subset_pk: tc.subset_pk,
    measurement_type: tc.measurement_type,
    subject: subjectLabel(subjectOf(tc)),
    message,
    ...(details ? { details } : {}),
  });
}

/** Lists whose length differs from output_pk's (scalars such as a single sd are allowed). */
export function misalignedLists(tc: TimecourseRecord): { list: string; length: number }[] {
  const expected = tc.output_pk.length;
  const wrong: { list: string; length: number }[] = [];
  for (const list of ALIGNED_LISTS) {
    const values = tc[list];
    if (Array.isArray(values) && values.length !== expected) wrong.push({ list, length: values.length });
  }
  return wrong;
}

/** Times in output-pk order (PK-DB's integration order, §3.1). */
export function timesInPkOrder(tc: TimecourseRecord): (number | null)[] {
  const order = tc.output_pk.map((pk, i) => [pk, i] as const).sort((a, b) => a[0] - b[0]);
  return order.map(([, i]) => tc.time[i] ?? null);
}

export function duplicateTimes(times: readonly (number | null)[]): number[] {
  const seen = new Set<number>();
  const duplicates = new Set<number>();
  for (const t of times) {
    if (t === null) continue;
    if (seen.has(t)) duplicates.add(t);
    seen.add(t);
  }
  return [...duplicates];
}

/** Index pairs (i, i+1) where time decreases. */
export function descendingSteps(times: readonly (number | null)[]): number {
  let steps = 0;
  for (let i = 1; i < times.length; i++) {
    const a = times[i - 1];
    const b = times[i];
    if (a !== null && b !== null && b < a) steps++;
  }
  return steps;
}

/**
 * All input findings of one concentration timecourse. `dosings` are the
 * interventions of its set whose measurement type is exactly `dosing`.
 */
export function checkTimecourseInput(tc: TimecourseRecord, dosings: readonly InterventionRecord[]): Finding[] {
  const findings: Finding[] = [];
  const misaligned = misalignedLists(tc);
  if (misaligned.length > 0) {
    const what = misaligned.map((m) => `${m.list} has ${m.length}`).join(', ');
    findings.push(
      inputFinding(tc, 'major', `misaligned lists: ${tc.output_pk.length} output pks but ${what}; the timecourse cannot be recomputed`, {
        misaligned,
      }),
    );
    return findings;
  }
  const series = representativeSeries(tc);
  if (!series || series.values.every((v) => v === null || Number.isNaN(v))) {
    findings.push(inputFinding(tc, 'minor', 'all concentrations are missing (no mean, median or value); nothing can be recomputed'));
  }
  const times = timesInPkOrder(tc);
  const missingTimes = times.filter((t) => t === null).length;
  if (missingTimes > 0) {
    findings.push(inputFinding(tc, 'minor', `${missingTimes} of ${times.length} time points are missing`));
  }
  const duplicates = duplicateTimes(times);
  if (duplicates.length > 0) {
    findings.push(
      // Major: a repeated time is almost always a row curated twice, and the standard NCA refuses it.
      inputFinding(tc, 'major', `duplicate time point${duplicates.length > 1 ? 's' : ''} ${duplicates.slice(0, 5).join(', ')}${duplicates.length > 5 ? ', …' : ''} ${tc.time_unit ?? ''}: a row curated twice? PK-DB integrated it as a zero-width trapezoid, the standard profile refuses it`, {
        duplicates,
      }),
    );
  }
  const descending = descendingSteps(times);
  if (descending > 0) {
    findings.push(
      inputFinding(tc, 'minor', `times are not ascending in output-pk order (${descending} backward step${descending > 1 ? 's' : ''}); PK-DB integrated them in that order, so its stored AUC contains negative trapezoids`, {
        times_in_pk_order: times,
      }),
    );
  }
  if (dosings.length === 0) {
    findings.push(inputFinding(tc, 'minor', 'no dosing intervention: PK-DB stored no parameters; vd, vd_ss and clearance cannot be recomputed'));
  } else if (dosings.length > 1) {
    findings.push(
      inputFinding(tc, 'info', `${dosings.length} dosing interventions (${dosings.map((d) => d.name).join(', ')}): PK-DB computes nothing for multiple dosing`, {
        dosing_pks: dosings.map((d) => d.pk),
      }),
    );
  }
  return findings;
}
