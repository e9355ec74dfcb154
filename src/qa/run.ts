/**
 * The QA run: every check over a dataset, as findings plus the tables the
 * report and the CSV files are built from. Never throws on bad data: a broken
 * timecourse or a failing check becomes a finding and the run goes on.
 */
import { Dataset, linkKey, subjectOf } from '../data/dataset.js';
import { filterStudies } from '../data/select.js';
import type { OutputRecord, TimecourseRecord } from '../data/model.js';
import { molarMassLookup } from '../units/molar-mass.js';
import { recomputeCalculated, type CalculatedRow } from './calculated.js';
import { bestComparison, compareReported, type Comparison, type RecomputedTimecourse } from './compare.js';
import { doseMismatchCauses } from './dose-cause.js';
import { finding, SEVERITY_RANK, type Finding } from './finding.js';
import { checkTimecourseInput } from './input-checks.js';
import { checkNormedVsRaw } from './normed-vs-raw.js';
import { doseInfo, pkdbValuesBySubset, standardRecomputation, type StandardRecomputation } from './recompute.js';
import { summarize, type QaSummary } from './summary.js';
import { calculatedFinding, comparisonFinding } from './to-findings.js';
import { isReportedParameter } from './tolerances.js';

export interface QaOptions {
  /** Study sids to check (all when absent or empty). */
  studies?: readonly string[];
  /** Called after each concentration timecourse. */
  onProgress?: (done: number, total: number) => void;
}

export interface QaResult {
  findings: Finding[];
  calculated: CalculatedRow[];
  comparisons: Comparison[];
  /** Every concentration timecourse with its recomputations (for plots). */
  timecourses: RecomputedTimecourse[];
  summary: QaSummary;
}

/** A check that threw: reported as one major finding instead of ending the run. */
function checkFailed(check: string, error: unknown): Finding {
  const reason = error instanceof Error ? error.message : String(error);
  return finding({ kind: 'input', severity: 'major', message: `${check} failed: ${reason}` });
}

/** The matching key of the issue: study, subject, intervention set, substance, tissue (method left out). */
function matchKey(fields: Parameters<typeof linkKey>[0]): string {
  // The fields by name rather than `{ ...fields }`: spreading a whole output record per call cost ~40 ms per run.
  const { study_sid, group_pk, individual_pk, intervention_pks, substance, tissue } = fields;
  return linkKey({ study_sid, group_pk, individual_pk, intervention_pks, substance, tissue, method: null });
}

/** Reported outputs (normed, not calculated, single values of a comparable type) by match key. */
function reportedByKey(outputs: readonly OutputRecord[]): Map<string, OutputRecord[]> {
  const map = new Map<string, OutputRecord[]>();
  for (const o of outputs) {
    if (!o.normed || o.calculated || o.output_type === 'timecourse' || o.output_type === 'array') continue;
    if (!isReportedParameter(o.measurement_type)) continue;
    const key = matchKey(o);
    const list = map.get(key);
    if (list) list.push(o);
    else map.set(key, [o]);
  }
  return map;
}

/** Body weight of a subject; an individual without one inherits its group's. */
function bodyWeight(dataset: Dataset, output: OutputRecord): number | null {
  const subject = subjectOf(output);
  if (!subject) return null;
  const own = dataset.bodyWeightKg(subject);
  if (own !== null || subject.kind === 'group') return own;
  const group = dataset.individual(subject.pk)?.group_pk;
  return group == null ? null : dataset.bodyWeightKg({ kind: 'group', pk: group });
}

/**
 * The standard profile is computed on first use of `standard`: only timecourses
 * that a reported output links to, or that get a plot, need it (1,308 of the
 * shared export's 2,142), and it is most of a timecourse's cost.
 */
function recomputeTimecourse(dataset: Dataset, tc: TimecourseRecord, pkdb: RecomputedTimecourse['pkdb']): RecomputedTimecourse {
  const dosings = dataset.dosingOf(tc);
  const substance = dataset.memberOutputs(tc)[0]?.substance ?? null;
  const dose = tc.time_unit ? doseInfo(dosings, substance, tc.time_unit) : null;
  let standard: StandardRecomputation | undefined;
  return {
    tc,
    pkdb,
    get standard() {
      standard ??= standardRecomputation(tc, dose);
      return standard;
    },
    dose,
    dosingPks: dosings.map((d) => d.pk),
  };
}

export function runQa(dataset: Dataset, options: QaOptions = {}): QaResult {
  const scoped = options.studies?.length ? Dataset.fromTables(filterStudies(dataset.tables, options.studies), dataset.source) : dataset;
  const tables = scoped.tables;
  const findings: Finding[] = [];

  let calculated: CalculatedRow[] = [];
  try {
    calculated = recomputeCalculated(scoped);
  } catch (error) {
    findings.push(checkFailed('recomputing the stored calculated outputs', error));
  }
  const pkdbBySubset = pkdbValuesBySubset(calculated);

  const concentration = tables.timecourses.filter((tc) => tc.measurement_type === 'concentration');
  const timecourses: RecomputedTimecourse[] = [];
  const byKey = new Map<string, RecomputedTimecourse[]>();
  concentration.forEach((tc, index) => {
    try {
      findings.push(...checkTimecourseInput(tc, scoped.dosingOf(tc)));
      const rt = recomputeTimecourse(scoped, tc, pkdbBySubset.get(tc.subset_pk) ?? {});
      timecourses.push(rt);
      const member = scoped.memberOutputs(tc)[0];
      if (member) {
        const key = matchKey({
          study_sid: tc.study_sid,
          group_pk: tc.group_pk,
          individual_pk: tc.individual_pk,
          intervention_pks: tc.intervention_pk,
          substance: member.substance,
          tissue: member.tissue,
          method: null,
        });
        const list = byKey.get(key);
        if (list) list.push(rt);
        else byKey.set(key, [rt]);
      }
    } catch (error) {
      findings.push({ ...checkFailed(`timecourse ${tc.subset_pk}`, error), study_sid: tc.study_sid, study_name: tc.study_name, subset_pk: tc.subset_pk });
    }
    options.onProgress?.(index + 1, concentration.length);
  });

  const molarMass = molarMassLookup(tables);
  const comparisons: Comparison[] = [];
  for (const [key, outputs] of reportedByKey(tables.outputs)) {
    const candidates = byKey.get(key);
    if (!candidates) continue;
    for (const output of outputs) {
      if (!isReportedParameter(output.measurement_type)) continue;
      const context = { molarMass: molarMass(output.substance)?.mass ?? null, bodyWeightKg: bodyWeight(scoped, output) };
      const parameter = output.measurement_type;
      const best = bestComparison(
        candidates.map((rt) => compareReported(output, parameter, rt, context)).filter((c): c is Comparison => c !== null),
      );
      if (best) comparisons.push(best);
    }
  }
  const doseCauses = doseMismatchCauses(comparisons);
  for (const c of comparisons) findings.push(comparisonFinding(c, doseCauses.get(c) ?? null));

  for (const row of calculated) {
    const f = calculatedFinding(row);
    if (f) findings.push(f);
  }
  try {
    findings.push(...checkNormedVsRaw(tables));
  } catch (error) {
    findings.push(checkFailed('the normed-vs-raw check', error));
  }

  findings.sort(
    (a, b) =>
      SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] ||
      (a.study_sid ?? '').localeCompare(b.study_sid ?? '') ||
      (a.subset_pk ?? 0) - (b.subset_pk ?? 0) ||
      (a.output_pk ?? 0) - (b.output_pk ?? 0),
  );
  const summary = summarize({
    source: dataset.source,
    studies: tables.studies.length,
    timecourses: concentration.length,
    findings,
    classifications: comparisons.map((c) => c.verdict.classification),
    calculatedStatuses: calculated.map((r) => r.status),
  });
  return { findings, calculated, comparisons, timecourses, summary };
}
