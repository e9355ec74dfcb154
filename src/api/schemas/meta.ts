/** Info nodes, statistics, data files, the filter summary and the root listing. */
import { z } from 'zod';
import { nullableNumber, nullableString, TermRef } from './common.js';

/** /info_nodes/ item (InfoNodeElasticSerializer). */
export const InfoNode = z.looseObject({
  sid: z.string(),
  name: z.string(),
  label: z.string(),
  deprecated: z.boolean(),
  /** substance, measurement_type, route, form, application, tissue, method, calculation_type, choice, info_node. */
  ntype: z.string(),
  /** abstract, boolean, undefined, numeric, categorical, numeric_categorical. */
  dtype: z.string(),
  description: nullableString,
  synonyms: z.array(z.string()),
  parents: z.array(TermRef),
  annotations: z.array(
    z.looseObject({
      label: nullableString,
      relation: z.string(),
      term: z.string(),
      collection: nullableString,
      description: nullableString,
      url: nullableString,
    }),
  ),
  xrefs: z.array(z.looseObject({ name: z.string(), accession: z.string(), url: nullableString })),
  measurement_type: z.looseObject({ units: z.array(z.string()), choices: z.array(z.unknown()) }).nullable(),
  /**
   * `derived` is declared by the serializer but missing from the ES document,
   * so it is omitted in real responses (PK-DB API notes §6, §7: the saved /info_nodes/caf/).
   */
  substance: z
    .looseObject({ mass: nullableNumber, charge: nullableNumber, formula: nullableString, derived: z.boolean().optional() })
    .nullable(),
});
export type InfoNode = z.infer<typeof InfoNode>;

/** /statistics/ (not paginated): counts of normed records, private studies included. */
export const Statistics = z.looseObject({
  version: z.string(),
  study_count: z.number().int(),
  reference_count: z.number().int(),
  group_count: z.number().int(),
  individual_count: z.number().int(),
  intervention_count: z.number().int(),
  output_count: z.number().int(),
  output_calculated_count: z.number().int(),
  timecourse_count: z.number().int(),
  scatter_count: z.number().int(),
});
export type Statistics = z.infer<typeof Statistics>;

/** One element of the bare array /statistics/substances/ returns. */
export const SubstanceStatistics = z.looseObject({
  info_node__label: z.string(),
  output_count: z.number().int(),
  intervention_count: z.number().int(),
});
export type SubstanceStatistics = z.infer<typeof SubstanceStatistics>;
export const SubstanceStatisticsList = z.array(SubstanceStatistics);

/** /_datafiles/ item and POST answer. */
export const DataFile = z.looseObject({ file: z.string(), id: z.number().int(), filetype: z.string().optional() });
export type DataFile = z.infer<typeof DataFile>;

const count = z.number().int();

/**
 * /filter/ answer. Production before ~2020-09-29 (#647) wrote `scatter`
 * (examples/filter_studies__name_Abernethy1982.json); both spellings are read
 * into `scatters`. The swagger serializer omits `interventions`, so it may be absent.
 */
export const FilterSummary = z
  .looseObject({
    uuid: z.string().uuid(),
    studies: count,
    groups: count,
    individuals: count,
    interventions: count.optional(),
    outputs: count,
    timecourses: count,
    scatters: count.optional(),
    scatter: count.optional(),
  })
  .refine((summary) => summary.scatters !== undefined || summary.scatter !== undefined, {
    message: 'expected a count under "scatters" (or "scatter" before 2020-09-29)',
    path: ['scatters'],
  })
  .transform(({ scatter, ...summary }) => ({ ...summary, scatters: (summary.scatters ?? scatter) as number }));
export type FilterSummary = z.infer<typeof FilterSummary>;

/** Resource names the root view (GET /api/v1/) maps to their URLs. */
export const ROOT_RESOURCE_NAMES = [
  'statistics',
  'statistics/substances',
  'studies',
  'references',
  'groups',
  'individuals',
  'interventions',
  'outputs',
  'info_nodes',
  'subsets',
  '_studies',
  '_references',
  '_datafiles',
  '_users',
  '_user_groups',
  '_info_nodes',
  'pkdata/studies',
  'pkdata/interventions',
  'pkdata/groups',
  'pkdata/individuals',
  'pkdata/outputs',
  'pkdata/data',
  'pkdata/timecourses',
] as const;

export const RootListing = z.looseObject(
  Object.fromEntries(ROOT_RESOURCE_NAMES.map((name) => [name, z.string()])) as Record<(typeof ROOT_RESOURCE_NAMES)[number], z.ZodString>,
);
export type RootListing = z.infer<typeof RootListing>;

/**
 * POST /api-token-auth/ answer (users/views.py: ObtainAuthTokenCustom, PK-DB API notes §3).
 * The token goes into a header, so it must be printable ASCII without spaces.
 */
export const TokenResponse = z.looseObject({
  token: z.string().regex(/^[\x21-\x7e]+$/, 'a token of printable ASCII without spaces'),
});
export type TokenResponse = z.infer<typeof TokenResponse>;
