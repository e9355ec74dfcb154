/**
 * Finding the profiles notebook 06 needs in a dataset: a multiple-dose
 * concentration timecourse with a single-dose profile of the same subjects,
 * and a urine cumulative-amount timecourse with the plasma profile of the same
 * subjects after the same dose. Both are ranked so the choice is reproducible.
 */
import type { Dataset } from '../../src/data/dataset.js';
import type { InterventionRecord, TimecourseRecord } from '../../src/data/model.js';
import { conversionFactor } from '../../src/units/index.js';

const isUrine = (tissue: string | null | undefined) => (tissue ?? '').includes('urine');
const PLASMA = new Set(['plasma', 'serum', 'blood']);

/** A dosing time in `unit`, or null when it is not one number (a pattern) or does not convert. */
export function doseTime(d: InterventionRecord, unit: string): number | null {
  if (d.time === null || d.time.trim() === '' || !Number.isFinite(Number(d.time))) return null;
  try {
    return Number(d.time) * conversionFactor(d.time_unit ?? unit, unit);
  } catch {
    return null;
  }
}

export interface MultipleDoseCase {
  multiple: TimecourseRecord;
  /** The single-dose profile of the same subjects, substance and tissue (null when the study has none). */
  single: TimecourseRecord | null;
  substance: string;
  /** Dosings of the substance, by time (in the timecourse's time unit). */
  doses: { time: number; dosing: InterventionRecord }[];
  /** The regimen's interval when the doses are evenly spaced, else null. */
  tau: number | null;
}

function substanceOf(data: Dataset, tc: TimecourseRecord): { substance: string | null; tissue: string | null } {
  const m = data.memberOutputs(tc)[0];
  return { substance: m?.substance ?? null, tissue: m?.tissue ?? null };
}

/** Multiple-dose concentration timecourses (≥ 2 timed dosings of the measured substance), best first. */
export function multipleDoseCases(data: Dataset, study?: string): MultipleDoseCase[] {
  const cases: MultipleDoseCase[] = [];
  const pool = study ? data.timecoursesOfStudy(study) : data.tables.timecourses;
  for (const tc of pool) {
    const { substance, tissue } = substanceOf(data, tc);
    if (tc.measurement_type !== 'concentration' || !substance || !tc.time_unit || isUrine(tissue)) continue;
    const doses = data.dosingOf(tc).filter((d) => d.substance === substance).map((d) => ({ time: doseTime(d, tc.time_unit!), dosing: d }));
    if (doses.length < 2 || doses.some((d) => d.time === null)) continue;
    const timed = (doses as { time: number; dosing: InterventionRecord }[]).sort((a, b) => a.time - b.time);
    const gaps = timed.slice(1).map((d, i) => d.time - timed[i].time);
    const tau = gaps.every((g) => Math.abs(g - gaps[0]) < 1e-9 * Math.max(1, gaps[0])) && gaps[0] > 0 ? gaps[0] : null;
    // The same subjects, substance and tissue after one dose (of the substance, or of its salt/parent when only one dosing is given).
    const single = data.timecoursesOfStudy(tc.study_sid).find((s) => {
      const other = substanceOf(data, s);
      return s !== tc && s.measurement_type === 'concentration' && other.substance === substance && other.tissue === tissue
        && s.group_pk === tc.group_pk && s.individual_pk === tc.individual_pk && data.dosingOf(s).length === 1;
    }) ?? null;
    cases.push({ multiple: tc, single, substance, doses: timed, tau });
  }
  // Regular regimens with a single-dose reference and many doses first.
  const score = (c: MultipleDoseCase) => (c.single ? 4 : 0) + (c.tau !== null ? 2 : 0) + (c.multiple.group_pk !== null ? 1 : 0) + Math.min(c.doses.length, 50) / 100;
  return cases.sort((a, b) => score(b) - score(a) || a.multiple.subset_pk - b.multiple.subset_pk);
}

export interface UrineCase {
  urine: TimecourseRecord;
  plasma: TimecourseRecord;
  substance: string;
  dosing: InterventionRecord;
}

/** Urine cumulative-amount timecourses after one dose of the measured substance, with the plasma profile of the same subjects and interventions. */
export function urineCases(data: Dataset, study?: string): UrineCase[] {
  const cases: UrineCase[] = [];
  const pool = study ? data.timecoursesOfStudy(study) : data.tables.timecourses;
  for (const tc of pool) {
    const { substance, tissue } = substanceOf(data, tc);
    if (!isUrine(tissue) || !substance || !['cumulative amount', 'cumulative-amount'].includes(tc.measurement_type)) continue;
    const dosings = data.dosingOf(tc);
    if (dosings.length !== 1 || dosings[0].substance !== substance) continue;
    const key = tc.intervention_pk.join(',');
    const plasma = data.timecoursesOfStudy(tc.study_sid).find((p) => {
      const other = substanceOf(data, p);
      return p.measurement_type === 'concentration' && other.substance === substance && PLASMA.has(other.tissue ?? '')
        && p.group_pk === tc.group_pk && p.individual_pk === tc.individual_pk && p.intervention_pk.join(',') === key;
    });
    if (plasma) cases.push({ urine: tc, plasma, substance, dosing: dosings[0] });
  }
  return cases.sort((a, b) => b.urine.time.length - a.urine.time.length || a.urine.subset_pk - b.urine.subset_pk);
}
