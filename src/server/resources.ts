/**
 * The dataset-backed list resources of the API: how each one's items are built
 * (in default order, by pk), which key `ids=` and detail routes match, and
 * which filter-result table a `uuid=` selects it by (PK-DB API notes §1, §2).
 */
import type { ResourceName } from '../api/schemas/index.js';
import type { ExtraFields } from './query.js';
import type { ViewContext } from './views/context.js';
import { compareText } from './views/context.js';
import { infoNodeItems } from './views/meta.js';
import { flatInterventionItem, flatOutputItems, interventionItem, outputItem } from './views/records.js';
import { flatStudyItem, referenceItem, studyItem, writeReferenceItem, writeStudyItem } from './views/studies.js';
import { flatGroupItems, flatIndividualItems, groupItem, individualItem } from './views/subjects.js';
import {
  flatTimecourseItem,
  scatterDataItems,
  scatterSubsetItem,
  timecourseDataItems,
  timecourseSubsetItem,
} from './views/subsets.js';

/** The tables a filter result (and so a uuid) holds keys of. Studies by sid, the rest by pk. */
export const FILTER_TABLES = ['studies', 'groups', 'individuals', 'interventions', 'outputs', 'timecourses', 'scatters'] as const;
export type FilterTable = (typeof FILTER_TABLES)[number];
export type Key = string | number;
/** One filter result: the keys of every table (studies by sid, the rest by pk). */
export type Selection = Record<FilterTable, Set<Key>>;

type Item = Record<string, unknown>;

export interface ResourceView {
  /** Items in default order. */
  build(ctx: ViewContext): unknown[];
  /** What `ids=` and `/<resource>/<id>/` match. */
  key(item: Item): Key;
  /**
   * Where a `uuid=` looks the item up; `dataType` is the request's data_type
   * parameter. Undefined: the resource cannot be selected by uuid.
   */
  selectedBy?(item: Item, dataType: string | null): { table: FilterTable; key: Key };
  /** Filter fields that are not plain item keys. */
  fields?: ExtraFields;
}

type Scalar = string | number | boolean;
const pluck = (list: unknown, path: string[]): Scalar[] => {
  const values: Scalar[] = [];
  for (const entry of Array.isArray(list) ? list : [list]) {
    let v: unknown = entry;
    for (const key of path) v = v !== null && typeof v === 'object' ? (v as Item)[key] : undefined;
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') values.push(v);
  }
  return values;
};

/** studies__ fields of the filter (PK-DB API notes §2): substance names, usernames, reference name. */
const STUDY_FIELDS: ExtraFields = {
  substance: (item) => pluck(item.substances, ['name']),
  creator: (item) => pluck(item.creator, ['username']),
  curators: (item) => pluck(item.curators, ['username']),
  reference_name: (item) => pluck(item.reference, ['name']),
};

/** groups__/individuals__ match any of the subject's characteristica, independently per field. */
const SUBJECT_FIELDS: ExtraFields = {
  measurement_type_sid: (item) => pluck(item.characteristica, ['measurement_type', 'sid']),
  choice_sid: (item) => pluck(item.characteristica, ['choice', 'sid']),
};

/**
 * pkdata/studies items carry `sid`/`name`; PK-DB's StudyAnalysisViewSet filters
 * them as `study_sid`/`study_name`, like every other pkdata list (issue 10).
 */
const FLAT_STUDY_FIELDS: ExtraFields = {
  study_sid: (item) => pluck(item, ['sid']),
  study_name: (item) => pluck(item, ['name']),
};

const byNumber = <T>(key: (row: T) => number) => (a: T, b: T) => key(a) - key(b);
const sorted = <T>(rows: readonly T[], compare: (a: T, b: T) => number): T[] => [...rows].sort(compare);
const num = (v: unknown): number => v as number;
const str = (v: unknown): string => v as string;
const subsetTable = (dataType: unknown): FilterTable => (dataType === 'scatter' ? 'scatters' : 'timecourses');

/** Resources built from the dataset; the write views add the records POSTed to the server (see app.ts). */
export const DATASET_VIEWS = {
  studies: {
    build: (ctx) => sorted(ctx.tables.studies, (a, b) => compareText(a.sid, b.sid)).map((s) => studyItem(ctx, s)),
    key: (item) => str(item.sid),
    selectedBy: (item) => ({ table: 'studies', key: str(item.sid) }),
    fields: STUDY_FIELDS,
  },
  references: {
    build: (ctx) => {
      const refs = new Map(ctx.tables.studies.map((s) => [ctx.referenceOf(s.sid).pk, ctx.referenceOf(s.sid)]));
      for (const r of ctx.tables.references ?? []) if (r.pk !== null && !refs.has(r.pk)) refs.set(r.pk, r);
      return [...refs.values()].map(referenceItem).sort(byNumber((r) => r.pk));
    },
    key: (item) => num(item.pk),
  },
  groups: {
    build: (ctx) => sorted(ctx.tables.groups, byNumber((g) => g.pk)).map((g) => groupItem(ctx, g)),
    key: (item) => num(item.pk),
    selectedBy: (item) => ({ table: 'groups', key: num(item.pk) }),
    fields: SUBJECT_FIELDS,
  },
  individuals: {
    build: (ctx) => sorted(ctx.tables.individuals, byNumber((i) => i.pk)).map((i) => individualItem(ctx, i)),
    key: (item) => num(item.pk),
    selectedBy: (item) => ({ table: 'individuals', key: num(item.pk) }),
    fields: SUBJECT_FIELDS,
  },
  interventions: {
    build: (ctx) => sorted(ctx.tables.interventions, byNumber((i) => i.pk)).map((i) => interventionItem(ctx, i)),
    key: (item) => num(item.pk),
    selectedBy: (item) => ({ table: 'interventions', key: num(item.pk) }),
  },
  outputs: {
    build: (ctx) => sorted(ctx.tables.outputs, byNumber((o) => o.pk)).map((o) => outputItem(ctx, o)),
    key: (item) => num(item.pk),
    selectedBy: (item) => ({ table: 'outputs', key: num(item.pk) }),
  },
  subsets: {
    build: (ctx) =>
      [
        ...ctx.tables.timecourses.map((t) => timecourseSubsetItem(ctx, t)),
        ...ctx.tables.scatters.map((s) => scatterSubsetItem(ctx, s)),
      ].sort(byNumber((s) => s.pk)),
    key: (item) => num(item.pk),
    selectedBy: (item, dataType) => ({ table: subsetTable(dataType ?? item.data_type), key: num(item.pk) }),
  },
  info_nodes: {
    build: (ctx) => infoNodeItems(ctx),
    key: (item) => str(item.sid),
  },
  'pkdata/studies': {
    build: (ctx) => sorted(ctx.tables.studies, (a, b) => compareText(a.sid, b.sid)).map(flatStudyItem),
    key: (item) => str(item.sid),
    selectedBy: (item) => ({ table: 'studies', key: str(item.sid) }),
    fields: FLAT_STUDY_FIELDS,
  },
  'pkdata/groups': {
    build: (ctx) => sorted(ctx.tables.groups, byNumber((g) => g.pk)).flatMap(flatGroupItems),
    key: (item) => num(item.characteristica_pk),
    selectedBy: (item) => ({ table: 'groups', key: num(item.group_pk) }),
  },
  'pkdata/individuals': {
    build: (ctx) => sorted(ctx.tables.individuals, byNumber((i) => i.pk)).flatMap(flatIndividualItems),
    key: (item) => num(item.characteristica_pk),
    selectedBy: (item) => ({ table: 'individuals', key: num(item.individual_pk) }),
  },
  'pkdata/interventions': {
    build: (ctx) => sorted(ctx.tables.interventions, byNumber((i) => i.pk)).map((i) => flatInterventionItem(ctx, i)),
    key: (item) => num(item.intervention_pk),
    selectedBy: (item) => ({ table: 'interventions', key: num(item.intervention_pk) }),
  },
  'pkdata/outputs': {
    build: (ctx) =>
      sorted(ctx.tables.outputs, byNumber((o) => o.pk)).flatMap((o) =>
        flatOutputItems(ctx, o).sort(byNumber((row) => row.intervention_pk)),
      ),
    key: (item) => num(item.output_pk),
    selectedBy: (item) => ({ table: 'outputs', key: num(item.output_pk) }),
  },
  'pkdata/data': {
    build: (ctx) =>
      [...ctx.tables.timecourses.flatMap(timecourseDataItems), ...ctx.tables.scatters.flatMap(scatterDataItems)].sort(
        (a, b) => a.subset_pk - b.subset_pk || a.data_point_pk - b.data_point_pk || a.dimension - b.dimension,
      ),
    key: (item) => num(item.data_point_pk),
    selectedBy: (item) => ({ table: subsetTable(item.data_type), key: num(item.subset_pk) }),
  },
  'pkdata/timecourses': {
    build: (ctx) => sorted(ctx.tables.timecourses, byNumber((t) => t.subset_pk)).map(flatTimecourseItem),
    key: (item) => num(item.subset_pk),
    selectedBy: (item) => ({ table: 'timecourses', key: num(item.subset_pk) }),
  },
  _studies: {
    build: (ctx) => sorted(ctx.tables.studies, (a, b) => compareText(a.sid, b.sid)).map((s) => writeStudyItem(ctx, s)),
    key: (item) => str(item.sid),
  },
  _references: {
    build: (ctx) =>
      sorted(ctx.tables.studies, (a, b) => compareText(a.sid, b.sid)).map((s) => writeReferenceItem(ctx.referenceOf(s.sid))),
    key: (item) => str(item.sid),
  },
  _datafiles: {
    build: () => [],
    key: (item) => num(item.id),
  },
} satisfies Record<ResourceName, ResourceView>;

export type DatasetResource = keyof typeof DATASET_VIEWS;

export function isDatasetResource(name: string): name is DatasetResource {
  return Object.prototype.hasOwnProperty.call(DATASET_VIEWS, name);
}
