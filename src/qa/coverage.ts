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
import { isDose } from './dose-units.js';

export type RecordKind = 'output' | 'timecourse' | 'dosing';

export const RECORD_KINDS: readonly RecordKind[] = ['output', 'timecourse', 'dosing'];

/** The marks of one run: per record kind and check, the examined pks and the reasons for the others. */
export class CoverageLog {
  private readonly examinedBy = new Map<RecordKind, Map<string, Set<number>>>();
  private readonly reasons = new Map<RecordKind, Map<string, Map<number, string>>>();
  /**
   * Per kind, the check last marked and its set (or reasons): a check marks thousands of records in a row, often
   * alternating kinds (an output, its timecourse, its dose), and the two map lookups per mark showed on the shared export.
   */
  private readonly lastExamined: Record<RecordKind, { check: string; pks: Set<number> } | null> = { output: null, timecourse: null, dosing: null };
  private readonly lastReasons: Record<RecordKind, { check: string; byPk: Map<number, string> } | null> = { output: null, timecourse: null, dosing: null };

  examined(kind: RecordKind, pk: number, check: string): void {
    const last = this.lastExamined[kind];
    if (last !== null && last.check === check) {
      last.pks.add(pk);
      return;
    }
    let byCheck = this.examinedBy.get(kind);
    if (!byCheck) this.examinedBy.set(kind, (byCheck = new Map()));
    let pks = byCheck.get(check);
    if (!pks) byCheck.set(check, (pks = new Set()));
    this.lastExamined[kind] = { check, pks };
    pks.add(pk);
  }

  /** Why `check` could not compare the record (the first reason a check gives for a record is kept). */
  notExamined(kind: RecordKind, pk: number, check: string, reason: string): void {
    const last = this.lastReasons[kind];
    let byPk: Map<number, string>;
    if (last !== null && last.check === check) byPk = last.byPk;
    else {
      let byCheck = this.reasons.get(kind);
      if (!byCheck) this.reasons.set(kind, (byCheck = new Map()));
      const known = byCheck.get(check);
      if (known) byPk = known;
      else byCheck.set(check, (byPk = new Map()));
      this.lastReasons[kind] = { check, byPk };
    }
    if (!byPk.has(pk)) byPk.set(pk, reason);
  }

  /** Per check, the pks it examined (checks in marking order). */
  examinedSets(kind: RecordKind): ReadonlyMap<string, ReadonlySet<number>> {
    return this.examinedBy.get(kind) ?? new Map();
  }

  /** Per check, the reasons it gave. */
  reasonMaps(kind: RecordKind): ReadonlyMap<string, ReadonlyMap<number, string>> {
    return this.reasons.get(kind) ?? new Map();
  }

  /** The checks that examined a record (empty when none). */
  checksOf(kind: RecordKind, pk: number): string[] {
    return [...this.examinedSets(kind)].filter(([, pks]) => pks.has(pk)).map(([check]) => check);
  }

  /** The reasons given for a record, by check. */
  reasonsOf(kind: RecordKind, pk: number): Map<string, string> {
    const reasons = new Map<string, string>();
    for (const [check, byPk] of this.reasonMaps(kind)) {
      const reason = byPk.get(pk);
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
    dosing: tables.interventions.filter((i) => i.normed && isDose(i)),
  };
}

/** Checks a pk's coverage mask holds (bits of a small integer). */
const MASK_CHECKS = 30;

/** Per pk, bit c set when examinedPks[c] holds it (at most MASK_CHECKS sets). */
export function examinedMasks(examinedPks: readonly ReadonlySet<number>[]): Map<number, number> {
  const masks = new Map<number, number>();
  for (let c = 0; c < examinedPks.length; c++) {
    const bit = 1 << c;
    examinedPks[c].forEach((pk) => masks.set(pk, (masks.get(pk) ?? 0) | bit));
  }
  return masks;
}

function kindCoverage(kind: RecordKind, records: readonly { pk: number; measurement_type: string }[], log: CoverageLog): KindCoverage {
  const result: KindCoverage = { total: records.length, examined: 0, by_check: {}, by_measurement_type: {}, unexamined_reasons: {} };
  // Checks and their sets as parallel arrays, read by index: ~58,000 records × a few checks on the shared export,
  // and destructuring map entries per record allocated an iterator each time in code not yet optimised.
  const examinedChecks = [...log.examinedSets(kind).keys()];
  const examinedPks = [...log.examinedSets(kind).values()];
  const reasonChecks = [...log.reasonMaps(kind).keys()];
  const reasonsByPk = [...log.reasonMaps(kind).values()];
  // `check: reason`, one string per pair (a check gives a few reasons, to thousands of records).
  const reasonLabels = reasonChecks.map(() => new Map<string, string>());
  const add = (counts: Record<string, number>, key: string) => {
    counts[key] = (counts[key] ?? 0) + 1;
  };
  // The checks that examined each pk as a bit mask (bit c: examinedPks[c]), built from the sets: one lookup per record
  // instead of one per record and check (~58,000 outputs × ~15 checks on the shared export). Small-integer masks hold
  // 30 checks; with more, each set is asked.
  const masks = examinedPks.length <= MASK_CHECKS ? examinedMasks(examinedPks) : null;
  for (let i = 0; i < records.length; i++) {
    const r = records[i];
    const type = (result.by_measurement_type[r.measurement_type] ??= { total: 0, examined: 0 });
    type.total++;
    let seen = false;
    const mask = masks === null ? -1 : (masks.get(r.pk) ?? 0);
    for (let c = 0; mask !== 0 && c < examinedPks.length; c++) {
      if (masks === null ? !examinedPks[c].has(r.pk) : (mask & (1 << c)) === 0) continue;
      seen = true;
      add(result.by_check, examinedChecks[c]);
    }
    if (seen) {
      result.examined++;
      type.examined++;
      continue;
    }
    let given = false;
    for (let c = 0; c < reasonsByPk.length; c++) {
      const reason = reasonsByPk[c].get(r.pk);
      if (reason === undefined) continue;
      given = true;
      let label = reasonLabels[c].get(reason);
      if (label === undefined) reasonLabels[c].set(reason, (label = `${reasonChecks[c]}: ${reason}`));
      add(result.unexamined_reasons, label);
    }
    if (!given) add(result.unexamined_reasons, NO_COMPARISON);
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
