/**
 * Lookups the API projections share, built once per dataset. Every view is a
 * pure function of a `ViewContext`; nothing here touches HTTP.
 *
 * Objects that repeat across many items (term references, `{sid, name}` study
 * stubs) are interned so that the precomputed item arrays of a 100 000-row
 * export share them instead of holding 100 000 copies.
 */
import type { TermRef } from '../../api/schemas/index.js';
import type {
  DatasetTables,
  GroupRecord,
  IndividualRecord,
  InterventionRecord,
  OutputRecord,
  ReferenceRecord,
  StudyRecord,
  TermRecord,
} from '../../data/model.js';
import { indexFirst } from '../../data/records.js';

/** Anything that carries dataset tables; `Dataset` satisfies it. */
export interface HasTables {
  readonly tables: DatasetTables;
}

/** The pks belonging to one study, split the way the full study view counts them. */
export interface StudyMembers {
  groups: number[];
  individuals: number[];
  /** Normed interventions only: PK-DB's counts and sets are of normed records. */
  interventions: number[];
  outputs: number[];
  calculatedOutputs: number;
  timecourses: number[];
  scatters: number[];
}

export interface ViewContext {
  tables: DatasetTables;
  term(name: string | null): TermRef | null;
  termBySid(sid: string | null, label?: string | null): TermRef | null;
  /** The term a study's substance *label* stands for (pkdata/studies lists labels). */
  termByLabel(label: string): TermRef;
  studyRef(sid: string, name: string): { sid: string; name: string };
  studiesBySid: Map<string, StudyRecord>;
  groupsByPk: Map<number, GroupRecord>;
  individualsByPk: Map<number, IndividualRecord>;
  interventionsByPk: Map<number, InterventionRecord>;
  outputsByPk: Map<number, OutputRecord>;
  members(sid: string): StudyMembers;
  /** The reference of each study, with a stable integer pk (see `referenceOf`). */
  referenceOf(sid: string): ReferenceRecord;
  /** One shared instance per key for small nested objects (group/individual/intervention stubs). */
  shared<T>(key: string, make: () => T): T;
}



function emptyMembers(): StudyMembers {
  return { groups: [], individuals: [], interventions: [], outputs: [], calculatedOutputs: 0, timecourses: [], scatters: [] };
}

function buildMembers(tables: DatasetTables): Map<string, StudyMembers> {
  const bySid = new Map<string, StudyMembers>();
  const of = (sid: string): StudyMembers => {
    let m = bySid.get(sid);
    if (!m) bySid.set(sid, (m = emptyMembers()));
    return m;
  };
  for (const g of tables.groups) of(g.study_sid).groups.push(g.pk);
  for (const i of tables.individuals) of(i.study_sid).individuals.push(i.pk);
  for (const i of tables.interventions) if (i.normed) of(i.study_sid).interventions.push(i.pk);
  for (const o of tables.outputs) {
    if (!o.normed) continue;
    const m = of(o.study_sid);
    m.outputs.push(o.pk);
    if (o.calculated) m.calculatedOutputs += 1;
  }
  for (const t of tables.timecourses) of(t.study_sid).timecourses.push(t.subset_pk);
  for (const s of tables.scatters) of(s.study_sid).scatters.push(s.subset_pk);
  for (const m of bySid.values()) {
    for (const list of [m.groups, m.individuals, m.interventions, m.outputs, m.timecourses, m.scatters]) {
      list.sort((a, b) => a - b);
    }
  }
  return bySid;
}

/**
 * A study's reference: the full record when the source had one (matched by
 * the study's own detail, else by pmid, else by the reference sid equal to the
 * study sid), otherwise one assembled from the flat study columns. Assembled
 * references get pk = 1-based position of the study in sid order, so /studies/
 * and /references/ agree on it.
 */
function buildReferences(tables: DatasetTables): Map<string, ReferenceRecord> {
  const known = tables.references ?? [];
  const byPmid = indexFirst(known.filter((r) => r.pmid), (r) => r.pmid);
  const bySid = indexFirst(known.filter((r) => r.sid), (r) => r.sid);
  const usedPks = new Set(known.map((r) => r.pk).filter((pk): pk is number => pk !== null));
  let nextPk = 1;
  const result = new Map<string, ReferenceRecord>();
  const studies = [...tables.studies].sort((a, b) => compareText(a.sid, b.sid));
  for (const study of studies) {
    const found =
      study.detail?.reference ??
      (study.reference_pmid ? byPmid.get(study.reference_pmid) : undefined) ??
      bySid.get(study.sid);
    if (found && found.pk !== null) {
      result.set(study.sid, found);
      continue;
    }
    while (usedPks.has(nextPk)) nextPk += 1;
    usedPks.add(nextPk);
    result.set(study.sid, {
      pk: nextPk,
      sid: found?.sid ?? study.reference_pmid ?? study.sid,
      name: found?.name ?? study.name,
      pmid: found?.pmid ?? study.reference_pmid,
      doi: found?.doi ?? null,
      title: found?.title ?? study.reference_title,
      abstract: found?.abstract ?? null,
      journal: found?.journal ?? null,
      date: found?.date ?? study.reference_date,
      authors: found?.authors ?? [],
    });
  }
  return result;
}

export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function buildContext(dataset: HasTables): ViewContext {
  const tables = dataset.tables;
  const termsByName = new Map<string, TermRef>();
  const termsBySid = new Map<string, TermRef>();
  const termsByLabel = new Map<string, TermRef>();
  const intern = (t: TermRecord | TermRef): TermRef => {
    const ref = { sid: t.sid, name: t.name, label: t.label };
    if (!termsByName.has(ref.name)) termsByName.set(ref.name, ref);
    if (!termsBySid.has(ref.sid)) termsBySid.set(ref.sid, ref);
    if (!termsByLabel.has(ref.label)) termsByLabel.set(ref.label, ref);
    return termsByName.get(ref.name) ?? ref;
  };
  for (const t of tables.terms) intern(t);
  // Without a term table entry the name is all we know: sid = name = label.
  const fallback = (text: string): TermRef => intern({ sid: text, name: text, label: text });

  const studyRefs = new Map<string, { sid: string; name: string }>();
  const members = buildMembers(tables);
  const sharedObjects = new Map<string, unknown>();
  const references = buildReferences(tables);
  return {
    tables,
    term: (name) => (name === null ? null : termsByName.get(name) ?? termsBySid.get(name) ?? fallback(name)),
    termBySid: (sid, label) => {
      if (sid === null) return null;
      return termsBySid.get(sid) ?? termsByName.get(sid) ?? intern({ sid, name: sid, label: label ?? sid });
    },
    termByLabel: (label) => termsByLabel.get(label) ?? termsByName.get(label) ?? fallback(label),
    studyRef: (sid, name) => {
      let ref = studyRefs.get(sid);
      if (!ref) studyRefs.set(sid, (ref = { sid, name }));
      return ref;
    },
    studiesBySid: indexFirst(tables.studies, (s) => s.sid),
    groupsByPk: indexFirst(tables.groups, (g) => g.pk),
    individualsByPk: indexFirst(tables.individuals, (i) => i.pk),
    interventionsByPk: indexFirst(tables.interventions, (i) => i.pk),
    outputsByPk: indexFirst(tables.outputs, (o) => o.pk),
    members: (sid) => members.get(sid) ?? emptyMembers(),
    referenceOf: (sid) => references.get(sid) as ReferenceRecord,
    shared: <T>(key: string, make: () => T): T => {
      let value = sharedObjects.get(key) as T | undefined;
      if (value === undefined) sharedObjects.set(key, (value = make()));
      return value;
    },
  };
}
