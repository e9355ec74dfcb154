/** Studies and references: full (/studies/, /references/), flat (/pkdata/studies/) and write (/_studies/, /_references/) views. */
import { z } from 'zod';
import { isoDate, nullableString, StudyRef, TermRef } from './common.js';

export const Author = z.looseObject({ pk: z.number().int(), first_name: z.string(), last_name: z.string() });
export type Author = z.infer<typeof Author>;

/** /references/ item. PK-DB API notes §6: no `study` here (a tuple bug in ReferenceDocument), but it is embedded in studies. */
export const Reference = z.looseObject({
  pk: z.number().int(),
  pmid: nullableString,
  sid: z.string(),
  name: z.string(),
  doi: nullableString,
  title: z.string(),
  abstract: nullableString,
  journal: z.string(),
  date: isoDate,
  authors: z.array(Author),
});
export type Reference = z.infer<typeof Reference>;

/** /_references/ item and POST body: keys with null or empty values are dropped by the serializer. */
export const WriteReference = z.looseObject({
  pmid: z.string().optional(),
  sid: z.string().optional(),
  name: z.string().optional(),
  doi: z.string().optional(),
  title: z.string().optional(),
  abstract: z.string().optional(),
  journal: z.string().optional(),
  date: isoDate.optional(),
  authors: z.array(z.looseObject({ id: z.number().int().optional(), first_name: z.string(), last_name: z.string() })).optional(),
});
export type WriteReference = z.infer<typeof WriteReference>;

const Person = z.looseObject({ username: z.string(), first_name: z.string(), last_name: z.string() });
const Curator = Person.extend({ rating: z.number() });

/** `descriptions` and `comments` of the study's sets. */
const setNotes = {
  descriptions: z.array(z.looseObject({ pk: z.number().int(), text: z.string() })),
  comments: z.array(z.looseObject({ pk: z.number().int(), username: z.string(), text: z.string() })),
};

/** /studies/ item (StudyElasticSerializer). `pk` is a string here, and only here. */
export const Study = z.looseObject({
  pk: z.string(),
  sid: z.string(),
  name: z.string(),
  licence: z.string(),
  access: z.string(),
  date: isoDate,
  group_count: z.number().int(),
  individual_count: z.number().int(),
  intervention_count: z.number().int(),
  output_count: z.number().int(),
  output_calculated_count: z.number().int(),
  subset_count: z.number().int(),
  timecourse_count: z.number().int(),
  scatter_count: z.number().int(),
  reference: Reference.extend({ study: StudyRef }),
  reference_date: isoDate,
  creator: Person,
  curators: z.array(Curator),
  collaborators: z.array(z.unknown()),
  comments: setNotes.comments,
  descriptions: setNotes.descriptions,
  files: z.array(z.looseObject({ pk: z.number().int(), name: z.string(), file: z.string() })),
  substances: z.array(TermRef),
  groupset: z.looseObject({ ...setNotes, groups: z.array(z.number().int()) }),
  individualset: z.looseObject({ ...setNotes, individuals: z.array(z.number().int()) }).nullable(),
  interventionset: z.looseObject({ ...setNotes, interventions: z.array(z.number().int()) }),
  outputset: z.looseObject({ ...setNotes, outputs: z.array(z.number().int()) }),
  dataset: z.looseObject({ ...setNotes, subsets: z.array(z.unknown()) }),
});
export type Study = z.infer<typeof Study>;

/** /pkdata/studies/ item (the studies.csv row as JSON). */
export const FlatStudy = z.looseObject({
  sid: z.string(),
  name: z.string(),
  licence: z.string(),
  access: z.string(),
  date: isoDate,
  creator: z.string(),
  curators: z.array(z.string()),
  substances: z.array(z.string()),
  reference_pmid: nullableString,
  reference_title: z.string(),
  reference_date: isoDate,
});
export type FlatStudy = z.infer<typeof FlatStudy>;

/**
 * /_studies/ item and POST body: PK-DB's upload format. Empty objects stand
 * for omitted detail and most keys may be absent (spec "write-oriented view"),
 * so only the identifying keys are required and nested records stay open.
 */
/** Upload-format records (characteristica, interventions) are open: any curation field may appear. */
const looseRecord = z.record(z.string(), z.unknown());
const notesShape = {
  descriptions: z.array(z.unknown()).optional(),
  comments: z.array(z.unknown()).optional(),
};
export const WriteStudy = z.looseObject({
  sid: z.string(),
  name: z.string(),
  date: isoDate.optional(),
  reference: z.string().optional(),
  creator: z.string().optional(),
  curators: z
    .array(z.looseObject({ rating: z.number().optional(), first_name: z.string().optional(), last_name: z.string().optional(), pk: z.string().optional() }))
    .optional(),
  descriptions: z.array(z.string()).optional(),
  licence: z.string().optional(),
  access: z.string().optional(),
  groupset: z
    .looseObject({
      ...notesShape,
      groups: z.array(z.looseObject({ characteristica: z.array(looseRecord).optional(), comments: z.array(z.tuple([z.string(), z.string()])).optional() })).optional(),
    })
    .optional(),
  individualset: z
    .looseObject({ ...notesShape, individuals: z.array(z.looseObject({ source: z.string().optional(), characteristica: z.array(looseRecord).optional() })).optional() })
    .optional(),
  interventionset: z.looseObject({ ...notesShape, interventions: z.array(looseRecord).optional() }).optional(),
  outputset: z
    .looseObject({
      ...notesShape,
      outputs: z.array(z.looseObject({ source: z.string().optional(), subset: z.string().optional(), image: z.string().optional() })).optional(),
    })
    .optional(),
  dataset: z
    .looseObject({
      data: z.array(z.looseObject({ name: z.string().optional(), data_type: z.string().optional(), subsets: z.array(z.looseObject({ name: z.string() })).optional() })).optional(),
    })
    .optional(),
  files: z.array(z.string()).optional(),
});
export type WriteStudy = z.infer<typeof WriteStudy>;
