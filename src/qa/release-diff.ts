/**
 * Two releases compared: the record diff of src/data/diff.ts, its factors
 * named with the QA's slip vocabulary (causes.ts), and the QA findings of both
 * runs compared by stable id (finding-id.ts), old ids translated through the
 * record pk map so that a renumbered study still compares.
 *
 * Findings count when they are at least `minor`: an `info` finding is context,
 * and a fixed slip usually leaves its comparison behind as an `info` "agree".
 * So a finding is
 * - resolved: minor/major in OLD, absent or info in NEW;
 * - introduced: minor/major in NEW, absent or info in OLD;
 * - changed: minor/major in both, with another severity or other values;
 * - unchanged: minor/major in both, same severity and values (counted).
 */
import type { Dataset } from '../data/dataset.js';
import { diffDatasets, type DatasetDiff, type PkTable, type RecordChange } from '../data/diff.js';
import { filterStudies } from '../data/select.js';
import { sameValue } from './accepted.js';
import { SCALE_FACTORS } from './causes.js';
import { FINDING_COLUMNS, SEVERITY_RANK, type Finding } from './finding.js';
import { findingId, type PkRemap } from './finding-id.js';
import { runQa } from './run.js';

/** A fixed slip changes a value by the exact factor; 1 % absorbs rounding of the stored value. */
const FACTOR_NAME_TOLERANCE = 0.01;

/** `×1000 (milli/micro prefix slip …)` when a slip factor of the QA (or its inverse) fits, else `×<factor>`. */
export function factorLabel(factor: number | null): string | null {
  if (factor === null || !(factor > 0) || !Number.isFinite(factor)) return null;
  for (const sf of SCALE_FACTORS) {
    for (const [f, label] of [
      [sf.factor, sf.label],
      [1 / sf.factor, sf.label.replace('×', '×1/')],
    ] as const) {
      if (Math.abs(Math.log(factor / f)) <= Math.log1p(FACTOR_NAME_TOLERANCE)) return `${label} (${sf.explanation})`;
    }
  }
  return `×${+factor.toPrecision(4)}`;
}

/** A finding as the diff shows it: its columns without details. */
export type DiffFinding = Pick<Finding, (typeof FINDING_COLUMNS)[number]> & { id: string };

export interface FindingChange {
  id: string;
  old: DiffFinding;
  new: DiffFinding;
  /** Which of severity, reported, recomputed, ratio changed. */
  changed: string[];
}

export interface FindingsDiff {
  resolved: DiffFinding[];
  introduced: DiffFinding[];
  changed: FindingChange[];
  unchanged: number;
  /**
   * Findings present in both whose id changed because their records were
   * renumbered (a re-upload): old id → new id, to carry an accepted file over.
   */
  renamed: { old_id: string; new_id: string }[];
}

export interface ReleaseDiff {
  old: { kind: string; location: string };
  new: { kind: string; location: string };
  studies: DatasetDiff['studies'];
  counts: DatasetDiff['counts'];
  records: (Omit<RecordChange, 'fields'> & { fields: (RecordChange['fields'][number] & { factor_label: string | null })[] })[];
  findings: FindingsDiff | null;
  /** Whether anything differs (the CLI's exit code 1). */
  differences: boolean;
}

function slim(f: Finding, id: string): DiffFinding {
  const out = {} as Record<string, unknown>;
  for (const c of FINDING_COLUMNS) out[c] = f[c] ?? null;
  out.id = id;
  return out as DiffFinding;
}

const counts = (f: Finding) => SEVERITY_RANK[f.severity] >= SEVERITY_RANK.minor;

/** Compares two runs' findings by id; `remap` translates old pks to new ones. Linear: one map per side. */
export function diffFindings(oldFindings: readonly Finding[], newFindings: readonly Finding[], remap?: PkRemap): FindingsDiff {
  const before = new Map<string, Finding>();
  for (const f of oldFindings) before.set(remap ? findingId(f, remap) : (f.id ?? findingId(f)), f);
  const after = new Map<string, Finding>();
  for (const f of newFindings) after.set(findingId(f), f);
  const out: FindingsDiff = { resolved: [], introduced: [], changed: [], unchanged: 0, renamed: [] };
  for (const [id, o] of before) {
    if (!counts(o)) continue;
    const n = after.get(id);
    // Old findings are shown with their own id (the one in the old findings.json).
    if (!n || !counts(n)) out.resolved.push(slim(o, o.id ?? findingId(o)));
  }
  for (const [id, n] of after) {
    if (!counts(n)) continue;
    const o = before.get(id);
    const oldId = o && (o.id ?? findingId(o));
    if (o && oldId !== id) out.renamed.push({ old_id: oldId!, new_id: id });
    if (!o || !counts(o)) {
      out.introduced.push(slim(n, id));
      continue;
    }
    const changed = [
      ...(o.severity !== n.severity ? ['severity'] : []),
      ...(['reported', 'recomputed', 'ratio'] as const).filter((k) => !sameValue(o[k], n[k])),
    ];
    if (changed.length > 0) out.changed.push({ id, old: slim(o, o.id ?? findingId(o)), new: slim(n, id), changed });
    else out.unchanged++;
  }
  return out;
}

export function remapFrom(pkMap: DatasetDiff['pkMap']): PkRemap {
  return (table: PkTable, pk: number) => pkMap[table].get(pk);
}

export interface ReleaseDiffOptions {
  /** Run the QA on both and compare findings (default true). */
  qa?: boolean;
  /** Called when each phase starts (records, qa old, qa new). */
  onPhase?: (phase: string) => void;
  /**
   * Compare only these studies (sids): their records, and their findings from a QA of each whole release, where the
   * other studies are their reference (run.ts `QaOptions.studies`). All when absent or empty.
   */
  studies?: readonly string[];
}

export function diffReleases(oldDs: Dataset, newDs: Dataset, options: ReleaseDiffOptions = {}): ReleaseDiff {
  options.onPhase?.('comparing records');
  const studies = options.studies?.length ? options.studies : undefined;
  const tablesOf = (ds: Dataset) => (studies ? filterStudies(ds.tables, studies) : ds.tables);
  const data = diffDatasets(tablesOf(oldDs), tablesOf(newDs));
  const records = data.records.map((r) => ({ ...r, fields: r.fields.map((f) => ({ ...f, factor_label: factorLabel(f.factor) })) }));
  let findings: FindingsDiff | null = null;
  if (options.qa !== false) {
    options.onPhase?.('QA of the old release');
    const oldQa = runQa(oldDs, { studies }).findings;
    options.onPhase?.('QA of the new release');
    const newQa = runQa(newDs, { studies }).findings;
    findings = diffFindings(oldQa, newQa, remapFrom(data.pkMap));
  }
  const differences =
    records.length > 0 || (findings !== null && findings.resolved.length + findings.introduced.length + findings.changed.length > 0);
  return { old: oldDs.source, new: newDs.source, studies: data.studies, counts: data.counts, records, findings, differences };
}
