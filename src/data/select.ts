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
