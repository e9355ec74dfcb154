/**
 * Selecting part of a dataset. Tables are filtered, never modified: records
 * are shared with the input tables.
 */
import type { DatasetTables } from './model.js';

/**
 * The tables restricted to the studies `sids`: every record whose study is one
 * of them. Terms and info nodes are vocabulary and stay whole; references stay
 * when a kept study cites them.
 */
export function filterStudies(tables: DatasetTables, sids: Iterable<string>): DatasetTables {
  const wanted = new Set(sids);
  const inStudies = <R extends { study_sid: string }>(records: R[]) => records.filter((r) => wanted.has(r.study_sid));
  const studies = tables.studies.filter((s) => wanted.has(s.sid));
  const selected: DatasetTables = {
    studies,
    groups: inStudies(tables.groups),
    individuals: inStudies(tables.individuals),
    interventions: inStudies(tables.interventions),
    outputs: inStudies(tables.outputs),
    timecourses: inStudies(tables.timecourses),
    scatters: inStudies(tables.scatters),
    terms: tables.terms,
  };
  if (tables.info_nodes) selected.info_nodes = tables.info_nodes;
  if (tables.references) {
    const citedSids = new Set(studies.map((s) => s.detail?.reference?.sid));
    const citedPmids = new Set(studies.map((s) => s.reference_pmid));
    selected.references = tables.references.filter(
      (r) => (r.sid !== null && citedSids.has(r.sid)) || (r.pmid !== null && citedPmids.has(r.pmid)),
    );
  }
  return selected;
}

/**
 * The sids meant by `wanted`, each a sid or a study name (`Volak2013`): a sid
 * first, then the exact name, then the name ignoring case. `unknown` lists the
 * values that match no study; a name shared by several studies selects them all.
 */
export function resolveStudies(studies: readonly { sid: string; name: string }[], wanted: readonly string[]): { sids: string[]; unknown: string[] } {
  const bySid = new Set(studies.map((s) => s.sid));
  const byName = new Map<string, string[]>();
  const byLowerName = new Map<string, string[]>();
  for (const s of studies) {
    (byName.get(s.name) ?? byName.set(s.name, []).get(s.name)!).push(s.sid);
    const lower = s.name.toLowerCase();
    (byLowerName.get(lower) ?? byLowerName.set(lower, []).get(lower)!).push(s.sid);
  }
  const sids = new Set<string>();
  const unknown: string[] = [];
  for (const w of wanted) {
    const found = bySid.has(w) ? [w] : (byName.get(w) ?? byLowerName.get(w.toLowerCase()));
    if (found) for (const sid of found) sids.add(sid);
    else unknown.push(w);
  }
  return { sids: [...sids], unknown };
}
