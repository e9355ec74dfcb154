/**
 * Joining a reference dataset to the one checked: a curator's new or edited studies (a curation server, an export
 * of a few studies) and a published release to set them against (`pkdb qa --reference`). The two come from
 * different databases, so their pks may collide: every pk of the reference is moved past the checked tables'
 * largest pk, one offset for all tables (characteristica, groups, individuals, interventions, outputs, subsets),
 * with each link moved alike, so the reference's records link to each other as before and never to the checked
 * ones. A study in both is taken from the checked tables (its newer version). Vocabulary (terms, info nodes) is the
 * union, the checked tables' entry first.
 */
import type { DatasetTables } from './model.js';

/** The checked tables with the reference's other studies after them; `referenceStudies`: those studies' sids. */
export interface JoinedTables {
  tables: DatasetTables;
  referenceStudies: string[];
}

/** The largest pk (or link) anywhere in the tables, 0 for empty tables. */
export function largestPk(t: DatasetTables): number {
  let max = 0;
  const see = (pk: number | null | undefined) => {
    if (pk != null && pk > max) max = pk;
  };
  const seeAll = (pks: readonly number[]) => {
    for (const pk of pks) see(pk);
  };
  const seeSubject = (s: { pk: number; characteristica: readonly { pk: number }[] }) => {
    see(s.pk);
    for (const c of s.characteristica) see(c.pk);
  };
  for (const g of t.groups) {
    seeSubject(g);
    see(g.parent_pk);
  }
  for (const i of t.individuals) {
    seeSubject(i);
    see(i.group_pk);
  }
  for (const i of t.interventions) {
    see(i.pk);
    see(i.raw_pk);
  }
  for (const o of t.outputs) {
    see(o.pk);
    see(o.raw_pk);
    see(o.group_pk);
    see(o.individual_pk);
    see(o.subset_pk);
    seeAll(o.intervention_pks);
  }
  for (const tc of t.timecourses) {
    see(tc.subset_pk);
    see(tc.group_pk);
    see(tc.individual_pk);
    seeAll(tc.output_pk);
    seeAll(tc.intervention_pk);
  }
  for (const s of t.scatters) see(s.subset_pk);
  return max;
}

/** The reference's records with every pk and link moved by `offset` (new objects; the input is not modified). */
export function shiftPks(t: DatasetTables, offset: number): DatasetTables {
  const by = (pk: number | null) => (pk === null ? null : pk + offset);
  const all = (pks: readonly number[]) => pks.map((pk) => pk + offset);
  const characteristica = <C extends { pk: number }>(cs: readonly C[]) => cs.map((c) => ({ ...c, pk: c.pk + offset }));
  return {
    ...t,
    groups: t.groups.map((g) => ({ ...g, pk: g.pk + offset, parent_pk: by(g.parent_pk), characteristica: characteristica(g.characteristica) })),
    individuals: t.individuals.map((i) => ({ ...i, pk: i.pk + offset, group_pk: by(i.group_pk), characteristica: characteristica(i.characteristica) })),
    interventions: t.interventions.map((i) => ({ ...i, pk: i.pk + offset, raw_pk: by(i.raw_pk) })),
    outputs: t.outputs.map(
      (o) => ({
        ...o, pk: o.pk + offset, raw_pk: by(o.raw_pk), group_pk: by(o.group_pk), individual_pk: by(o.individual_pk),
        subset_pk: by(o.subset_pk), intervention_pks: all(o.intervention_pks),
      }),
    ),
    timecourses: t.timecourses.map(
      (tc) => ({
        ...tc, subset_pk: tc.subset_pk + offset, group_pk: by(tc.group_pk), individual_pk: by(tc.individual_pk),
        output_pk: all(tc.output_pk), intervention_pk: all(tc.intervention_pk),
      }),
    ),
    scatters: t.scatters.map((s) => ({ ...s, subset_pk: s.subset_pk + offset })),
  };
}

/** Entries of `extra` whose key `checked` lacks, after `checked`'s. */
function union<T>(checked: readonly T[], extra: readonly T[], key: (x: T) => string): T[] {
  const seen = new Set(checked.map(key));
  return [...checked, ...extra.filter((x) => !seen.has(key(x)))];
}

/** The checked tables joined by the reference's studies that they do not hold (see the header). */
export function joinReference(checked: DatasetTables, reference: DatasetTables): JoinedTables {
  const own = new Set(checked.studies.map((s) => s.sid));
  const keep = <R extends { study_sid: string }>(records: readonly R[]) => records.filter((r) => !own.has(r.study_sid));
  const others: DatasetTables = {
    ...reference,
    studies: reference.studies.filter((s) => !own.has(s.sid)),
    groups: keep(reference.groups),
    individuals: keep(reference.individuals),
    interventions: keep(reference.interventions),
    outputs: keep(reference.outputs),
    timecourses: keep(reference.timecourses),
    scatters: keep(reference.scatters),
  };
  const moved = shiftPks(others, largestPk(checked) + 1);
  const tables: DatasetTables = {
    studies: [...checked.studies, ...moved.studies],
    groups: [...checked.groups, ...moved.groups],
    individuals: [...checked.individuals, ...moved.individuals],
    interventions: [...checked.interventions, ...moved.interventions],
    outputs: [...checked.outputs, ...moved.outputs],
    timecourses: [...checked.timecourses, ...moved.timecourses],
    scatters: [...checked.scatters, ...moved.scatters],
    terms: union(checked.terms, reference.terms, (t) => t.sid),
  };
  if (checked.info_nodes || reference.info_nodes) tables.info_nodes = union(checked.info_nodes ?? [], reference.info_nodes ?? [], (n) => n.sid);
  if (checked.references || reference.references) {
    tables.references = union(checked.references ?? [], reference.references ?? [], (r) => `${r.sid ?? ''}\u0000${r.pmid ?? ''}`);
  }
  return { tables, referenceStudies: moved.studies.map((s) => s.sid) };
}
