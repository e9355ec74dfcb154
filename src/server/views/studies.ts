/**
 * Study and reference projections: /studies/ (StudyElasticSerializer),
 * /pkdata/studies/ (StudyAnalysisSerializer = studies.csv), /references/,
 * and the write-oriented /_studies/ and /_references/ (PK-DB API notes §6).
 */
import type { PersonRecord, ReferenceRecord, StudyRecord } from '../../data/model.js';
import type { FlatStudy, Reference, Study, WriteReference, WriteStudy } from '../../api/schemas/index.js';
import type { ViewContext } from './context.js';

type Person = Study['creator'];
type Curator = Study['curators'][number];

/**
 * A user as the study view nests it. An export names users by username only;
 * the spec types the name keys as strings, so unknown names are ''.
 */
function person(p: PersonRecord | string): Person {
  if (typeof p === 'string') return { username: p, first_name: '', last_name: '' };
  return { username: p.username, first_name: p.first_name ?? '', last_name: p.last_name ?? '' };
}

/** Curators with their rating; an unknown rating is 0 (PK-DB's default for a new curator). */
function curatorsOf(study: StudyRecord): Curator[] {
  const detailed = study.detail?.curators;
  if (detailed) return detailed.map((c) => ({ rating: c.rating ?? 0, ...person(c) }));
  return study.curators.map((username) => ({ rating: 0, ...person(username) }));
}

function creatorOf(study: StudyRecord): Person {
  return person(study.detail?.creator ?? study.creator ?? '');
}

/** PK-DB's text columns are blank, not null, when empty; the API schema types them as strings. */
const text = (value: string | null | undefined): string => value ?? '';

export function referenceItem(ref: ReferenceRecord): Reference {
  return {
    pk: ref.pk ?? 0,
    pmid: ref.pmid,
    sid: text(ref.sid),
    name: text(ref.name),
    doi: ref.doi,
    title: text(ref.title),
    abstract: ref.abstract,
    journal: text(ref.journal),
    date: text(ref.date),
    authors: ref.authors.map((a, index) => ({ pk: a.pk ?? index + 1, first_name: a.first_name, last_name: a.last_name })),
  };
}

/** Set objects of the full study view: descriptions and comments are not part of the dataset model. */
function pkSet<K extends string>(key: K, pks: number[]) {
  return { descriptions: [] as { pk: number; text: string }[], comments: [] as { pk: number; username: string; text: string }[], [key]: pks } as {
    descriptions: { pk: number; text: string }[];
    comments: { pk: number; username: string; text: string }[];
  } & Record<K, number[]>;
}

/** /studies/ item. `pk` is a string (the study's database pk when known, else its sid). */
export function studyItem(ctx: ViewContext, study: StudyRecord): Study {
  const m = ctx.members(study.sid);
  const detail = study.detail ?? {};
  return {
    pk: detail.pk ?? study.sid,
    sid: study.sid,
    name: study.name,
    licence: text(study.licence),
    access: text(study.access),
    date: text(study.date),
    group_count: m.groups.length,
    individual_count: m.individuals.length,
    intervention_count: m.interventions.length,
    output_count: m.outputs.length,
    output_calculated_count: m.calculatedOutputs,
    subset_count: m.timecourses.length + m.scatters.length,
    timecourse_count: m.timecourses.length,
    scatter_count: m.scatters.length,
    reference: { ...referenceItem(ctx.referenceOf(study.sid)), study: ctx.studyRef(study.sid, study.name) },
    reference_date: text(study.reference_date),
    creator: creatorOf(study),
    curators: curatorsOf(study),
    collaborators: detail.collaborators ?? [],
    comments: detail.comments ?? [],
    descriptions: detail.descriptions ?? [],
    files: detail.files ?? [],
    substances: study.substances.map((label) => ctx.termByLabel(label)),
    groupset: pkSet('groups', m.groups),
    individualset: m.individuals.length > 0 ? pkSet('individuals', m.individuals) : null,
    interventionset: pkSet('interventions', m.interventions),
    outputset: pkSet('outputs', m.outputs),
    dataset: pkSet('subsets', [...m.timecourses, ...m.scatters].sort((a, b) => a - b)),
  };
}

/** /pkdata/studies/ item: one studies.csv row. */
export function flatStudyItem(study: StudyRecord): FlatStudy {
  return {
    sid: study.sid,
    name: study.name,
    licence: text(study.licence),
    access: text(study.access),
    date: text(study.date),
    creator: text(study.creator),
    curators: study.curators,
    substances: study.substances,
    reference_pmid: study.reference_pmid,
    reference_title: text(study.reference_title),
    reference_date: text(study.reference_date),
  };
}

/**
 * /_studies/ item for a dataset study, in the upload format. Only what the
 * dataset knows is written; PK-DB drops empty detail the same way. Curator
 * `pk` is a user UUID in PK-DB; a dataset has none, so the key is omitted.
 */
export function writeStudyItem(ctx: ViewContext, study: StudyRecord): WriteStudy {
  const reference = ctx.referenceOf(study.sid);
  const item: WriteStudy = {
    sid: study.sid,
    name: study.name,
    reference: reference.sid ?? study.sid,
    curators: curatorsOf(study).map((c) => ({ rating: c.rating, first_name: c.first_name, last_name: c.last_name })),
  };
  if (study.date) item.date = study.date;
  if (study.creator) item.creator = study.creator;
  if (study.licence) item.licence = study.licence;
  if (study.access) item.access = study.access;
  return item;
}

/** /_references/ item: the database serializer drops null and empty values. */
export function writeReferenceItem(ref: ReferenceRecord): WriteReference {
  const full: Record<string, unknown> = {
    pmid: ref.pmid,
    sid: ref.sid,
    name: ref.name,
    doi: ref.doi,
    title: ref.title,
    abstract: ref.abstract,
    journal: ref.journal,
    date: ref.date,
    authors: ref.authors.map((a, index) => ({ id: a.pk ?? index + 1, first_name: a.first_name, last_name: a.last_name })),
  };
  return Object.fromEntries(
    Object.entries(full).filter(([, v]) => v !== null && v !== '' && !(Array.isArray(v) && v.length === 0)),
  );
}
