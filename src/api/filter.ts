/**
 * Typed query builder for `GET /api/v1/filter/` (PK-DB API notes §2).
 *
 * A parameter is `<table>__<field>` or `<table>__<field>__<lookup>`; lists of
 * values are joined with a double underscore (`outputs__measurement_type_sid__in=auc_inf__cmax`).
 * The field names and the lookups each field allows are the ones the PK-DB
 * code declares; fields that map to nothing in ES (e.g. `studies__collaborator`)
 * are left out because they never match.
 */

/** Lookups of fields declared as plain strings in the DEDRF filter backend. */
type AnyLookup = 'terms' | 'in' | 'exclude' | 'range' | 'gt' | 'gte' | 'lt' | 'lte' | 'exists' | 'isnull' | 'prefix' | 'startswith' | 'wildcard' | 'contains' | 'endswith' | 'regexp';

/** A value: scalars as they are, lists joined with `__` (for `in`, `exclude`, `range`, `terms`). */
export type FilterValue = string | number | boolean | readonly (string | number)[];

type Keys<All extends string, InOnly extends string, InExclude extends string> =
  | All
  | `${All}__${AnyLookup}`
  | InOnly
  | `${InOnly}__in`
  | InExclude
  | `${InExclude}__${'in' | 'exclude'}`;

/** Any list parameter also works behind a prefix (PK-DB API notes §2), these are the useful ones. */
type Common = 'uuid' | 'ids' | 'search_multi_match';
type Params<K extends string> = Partial<Record<K | Common, FilterValue>>;

export type StudiesFilter = Params<Keys<'sid' | 'substance', 'name' | 'reference_name' | 'creator' | 'curators' | 'licence' | 'access', never>>;
export type GroupsFilter = Params<Keys<'pk' | 'name', never, 'measurement_type_sid' | 'choice_sid'>>;
export type IndividualsFilter = Params<Keys<'pk' | 'name' | 'group_name', never, 'measurement_type_sid' | 'choice_sid'>>;
export type InterventionsFilter = Params<
  Keys<
    | 'normed' | 'name' | 'time_unit' | 'time' | 'value' | 'mean' | 'median' | 'min' | 'max' | 'se' | 'sd' | 'cv' | 'unit'
    | 'substance' | 'form' | 'route' | 'application' | 'measurement_type',
    'substance_sid' | 'form_sid' | 'route_sid' | 'application_sid' | 'measurement_type_sid',
    'pk'
  >
>;
export type OutputsFilter = Params<
  Keys<
    'study_name' | 'study_sid' | 'tissue' | 'choice' | 'substance' | 'measurement_type' | 'normed' | 'calculated' | 'unit',
    'group_pk' | 'individual_pk' | 'interventions_pk' | 'substance_sid' | 'measurement_type_sid' | 'method_sid' | 'tissue_sid',
    'output_type'
  >
>;

export const FILTER_TABLES = ['studies', 'groups', 'individuals', 'interventions', 'outputs'] as const;
export type FilterTable = (typeof FILTER_TABLES)[number];

export interface FilterQuery {
  studies?: StudiesFilter;
  groups?: GroupsFilter;
  individuals?: IndividualsFilter;
  interventions?: InterventionsFilter;
  outputs?: OutputsFilter;
  /**
   * Select the result of an earlier filter call: sets `<table>__uuid` for every
   * table not given one explicitly, so further parameters narrow that result.
   */
  uuid?: string;
  /**
   * true (PK-DB's default): every table reduced to what the matching outputs use.
   * false: the matching studies with all their content.
   */
  concise?: boolean;
  /** Parameters beyond the typed ones, passed verbatim (already prefixed). */
  extra?: Record<string, FilterValue>;
}

/** The text PK-DB expects for a value: lists joined with `__`, booleans lower-case. */
export function encodeFilterValue(value: FilterValue): string {
  if (Array.isArray(value)) return value.map(String).join('__');
  return String(value);
}

/**
 * The query parameters of a filter call, in a stable order (tables in
 * FILTER_TABLES order, then fields as given) so that cache keys are stable.
 * PK-DB keeps only the last of repeated keys, so each key appears once.
 */
export function filterParams(query: FilterQuery, options: { download?: boolean } = {}): URLSearchParams {
  const params = new URLSearchParams();
  for (const table of FILTER_TABLES) {
    const fields: Record<string, FilterValue | undefined> = { ...(query[table] ?? {}) };
    if (query.uuid !== undefined && fields.uuid === undefined) fields.uuid = query.uuid;
    for (const [field, value] of Object.entries(fields)) {
      if (value !== undefined) params.set(`${table}__${field}`, encodeFilterValue(value));
    }
  }
  for (const [key, value] of Object.entries(query.extra ?? {})) params.set(key, encodeFilterValue(value));
  // PK-DB reads concise as false only for the exact text "false", download as true only for "true".
  if (query.concise !== undefined) params.set('concise', query.concise ? 'true' : 'false');
  if (options.download) params.set('download', 'true');
  return params;
}
