/**
 * Coverage (issue 13, item 9): which reported outputs, timecourses and
 * dosings received at least one independent check, and why the others did not.
 *
 * Definition: a record is *examined* when a finding-producing comparison with
 * other data ran on it — its recomputation from a timecourse, a reference
 * range of other studies, a PK identity with other values, ... — whether or
 * not that comparison produced a finding. Checks that only read the record
 * itself (a sign, a unit spelling) do not count: they say nothing about a slip
 * that keeps the value plausible.
 *
 * Mechanism (one line per check): while a check runs it calls
 * `ctx.examined(kind, pk, check)` for each record a comparison ran on, and
 * may call `ctx.notExamined(kind, pk, check, reason)` for a record it could
 * not compare, with a short reason from a small vocabulary ("no timecourse of
 * the same subject, interventions, substance and tissue", "too few studies
 * for a reference range", ...). The log keeps sets of pks, so marking twice is
 * free; the summary (coverageSummary) counts, by record kind and measurement
 * type, how many were examined and, for the rest, every reason given (one
 * record may be counted under the reasons of several checks).
 */
import type { DatasetTables } from '../data/model.js';

export type RecordKind = 'output' | 'timecourse' | 'dosing';

export const RECORD_KINDS: readonly RecordKind[] = ['output', 'timecourse', 'dosing'];

/** The marks of one run: per record kind and check, a set of pks (a map pk → reason for the unexamined). */
export class CoverageLog {
  private readonly examinedBy = new Map<string, Set<number>>();
  private readonly reasons = new Map<string, Map<number, string>>();
  /** Checks that marked records of each kind, in marking order. */
  private readonly checks = new Map<RecordKind, Set<string>>();

  private note(kind: RecordKind, check: string): string {
    let checks = this.checks.get(kind);
    if (!checks) this.checks.set(kind, (checks = new Set()));
    checks.add(check);
    return `${kind}\u0001${check}`;
  }

  examined(kind: RecordKind, pk: number, check: string): void {
    const key = this.note(kind, check);
    let pks = this.examinedBy.get(key);
    if (!pks) this.examinedBy.set(key, (pks = new Set()));
    pks.add(pk);
  }

  /** Why `check` could not compare the record (the first reason a check gives for a record is kept). */
  notExamined(kind: RecordKind, pk: number, check: string, reason: string): void {
    const key = this.note(kind, check);
    let byPk = this.reasons.get(key);
    if (!byPk) this.reasons.set(key, (byPk = new Map()));
    if (!byPk.has(pk)) byPk.set(pk, reason);
  }

  /** The checks that examined a record (empty when none). */
  checksOf(kind: RecordKind, pk: number): string[] {
    return [...(this.checks.get(kind) ?? [])].filter((check) => this.examinedBy.get(`${kind}\u0001${check}`)?.has(pk));
  }

  /** The reasons given for a record, by check. */
  reasonsOf(kind: RecordKind, pk: number): Map<string, string> {
    const reasons = new Map<string, string>();
    for (const check of this.checks.get(kind) ?? []) {
      const reason = this.reasons.get(`${kind}\u0001${check}`)?.get(pk);
      if (reason !== undefined) reasons.set(check, reason);
    }
    return reasons;
  }
}

export interface KindCoverage {
  total: number;
  examined: number;
  /** Records each check examined. */
  by_check: Record<string, number>;
  by_measurement_type: Record<string, { total: number; examined: number }>;
  /** Records not examined, by `check: reason` (a record under every check that gave a reason); `no comparison applies` when none did. */
  unexamined_reasons: Record<string, number>;
}

export type CoverageSummary = { definition: string } & Record<'outputs' | 'timecourses' | 'dosings', KindCoverage>;

export const COVERAGE_DEFINITION =
  'a record is examined when a finding-producing comparison with other data (its recomputation, a reference range of other studies, an identity with other values) ran on it, whatever its result';

export const NO_COMPARISON = 'no comparison applies';

/** The records coverage counts: reported single-value outputs, normed timecourses, normed dosings. */
export function coveredRecords(tables: DatasetTables): Record<RecordKind, { pk: number; measurement_type: string }[]> {
  return {
    output: tables.outputs.filter((o) => o.normed && !o.calculated && o.output_type !== 'timecourse' && o.output_type !== 'array'),
    timecourse: tables.timecourses.filter((tc) => tc.normed).map((tc) => ({ pk: tc.subset_pk, measurement_type: tc.measurement_type })),
    dosing: tables.interventions.filter((i) => i.normed && i.measurement_type === 'dosing'),
  };
}

function kindCoverage(kind: RecordKind, records: readonly { pk: number; measurement_type: string }[], log: CoverageLog): KindCoverage {
  const result: KindCoverage = { total: records.length, examined: 0, by_check: {}, by_measurement_type: {}, unexamined_reasons: {} };
  for (const r of records) {
    const type = (result.by_measurement_type[r.measurement_type] ??= { total: 0, examined: 0 });
    type.total++;
    const checks = log.checksOf(kind, r.pk);
    if (checks.length > 0) {
      result.examined++;
      type.examined++;
      for (const check of checks) result.by_check[check] = (result.by_check[check] ?? 0) + 1;
      continue;
    }
    const reasons = log.reasonsOf(kind, r.pk);
    const labels = reasons.size === 0 ? [NO_COMPARISON] : [...reasons].map(([check, reason]) => `${check}: ${reason}`);
    for (const label of labels) result.unexamined_reasons[label] = (result.unexamined_reasons[label] ?? 0) + 1;
  }
  const sorted = (counts: Record<string, number>) => Object.fromEntries(Object.entries(counts).sort((a, b) => b[1] - a[1]));
  result.unexamined_reasons = sorted(result.unexamined_reasons);
  result.by_measurement_type = Object.fromEntries(Object.entries(result.by_measurement_type).sort((a, b) => b[1].total - a[1].total));
  return result;
}

export function coverageSummary(tables: DatasetTables, log: CoverageLog): CoverageSummary {
  const records = coveredRecords(tables);
  return {
    definition: COVERAGE_DEFINITION,
    outputs: kindCoverage('output', records.output, log),
    timecourses: kindCoverage('timecourse', records.timecourse, log),
    dosings: kindCoverage('dosing', records.dosing, log),
  };
}
