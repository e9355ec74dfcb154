/**
 * List query parameters over precomputed API items: field filters with
 * django-elasticsearch-dsl-drf lookups, `ids`, `search_multi_match`,
 * `ordering` (NOTES.md §1, §2). Fields are resolved on the item itself, so a
 * filter means the same on every view that shows the field.
 *
 * Unknown fields and lookups are ignored, as PK-DB ignores them.
 */

type Item = Record<string, unknown>;

/** Parameters that are not field filters. `uuid` is applied by the caller. */
export const RESERVED_PARAMS = new Set(['page', 'page_size', 'format', 'ordering', 'search_multi_match', 'search', 'ids', 'uuid']);

const LOOKUPS = new Set([
  'in', 'terms', 'exclude', 'gt', 'gte', 'lt', 'lte', 'range', 'exists', 'isnull',
  'prefix', 'startswith', 'contains', 'endswith', 'wildcard',
]);

/** A value compared against query text; term objects compare by sid and name. */
type Scalar = string | number | boolean;

/** Extra fields some views filter on that are not item keys (NOTES.md §2 field table). */
export type ExtraFields = Record<string, (item: Item) => Scalar[]>;

function scalarsOf(value: unknown, sub?: string): Scalar[] {
  if (value === null || value === undefined) return [];
  if (Array.isArray(value)) return value.flatMap((v) => scalarsOf(v, sub));
  if (typeof value === 'object') {
    const obj = value as Item;
    if (sub !== undefined) return scalarsOf(obj[sub]);
    if (typeof obj.sid === 'string') return scalarsOf([obj.sid, obj.name]);
    if ('pk' in obj) return scalarsOf(obj.pk);
    return [];
  }
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? [value] : [];
}

/**
 * The values of `field` on an item: a key of the item, or `<key>_<sub>` into
 * a nested object (study_sid, group_pk, interventions_pk, substance_sid).
 * Undefined when the view has no such field.
 */
export function fieldValues(item: Item, field: string, extra: ExtraFields = {}): Scalar[] | undefined {
  const custom = extra[field];
  if (custom) return custom(item);
  if (field in item) return scalarsOf(item[field]);
  for (let cut = field.lastIndexOf('_'); cut > 0; cut = field.lastIndexOf('_', cut - 1)) {
    const head = field.slice(0, cut);
    if (head in item) {
      const nested = item[head];
      if (nested === null || typeof nested !== 'object') return scalarsOf(null);
      return scalarsOf(nested, field.slice(cut + 1));
    }
  }
  return undefined;
}

function equals(value: Scalar, query: string): boolean {
  if (typeof value === 'number') return query.trim() !== '' && Number(query) === value;
  if (typeof value === 'boolean') return query.toLowerCase() === String(value);
  return value === query;
}

function numeric(value: Scalar): number {
  return typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
}

/** ES wildcard (`*`, `?`) as an anchored regular expression, everything else literal. */
function wildcardRegExp(pattern: string): RegExp {
  const body = pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${body}$`);
}

/** A predicate for one `field[__lookup]=value` parameter, or null when the lookup is unknown. */
function lookupPredicate(lookup: string | null, query: string): ((values: Scalar[]) => boolean) | null {
  const parts = query.split('__');
  const compare = (test: (v: number, q: number) => boolean) => (values: Scalar[]) =>
    values.some((v) => test(numeric(v), Number(query)));
  switch (lookup) {
    case null:
      return (values) => values.some((v) => equals(v, query));
    case 'in':
    case 'terms':
      return (values) => values.some((v) => parts.some((q) => equals(v, q)));
    case 'exclude':
      return (values) => !values.some((v) => parts.some((q) => equals(v, q)));
    case 'gt':
      return compare((v, q) => v > q);
    case 'gte':
      return compare((v, q) => v >= q);
    case 'lt':
      return compare((v, q) => v < q);
    case 'lte':
      return compare((v, q) => v <= q);
    case 'range': {
      const [lo, hi] = parts.map((p) => (p.trim() === '' ? NaN : Number(p)));
      return (values) => values.some((v) => numeric(v) >= (Number.isNaN(lo) ? -Infinity : lo) && numeric(v) <= (Number.isNaN(hi) ? Infinity : hi));
    }
    case 'exists':
      return (values) => (values.length > 0) === (query.toLowerCase() !== 'false');
    case 'isnull':
      return (values) => (values.length === 0) === (query.toLowerCase() !== 'false');
    case 'prefix':
    case 'startswith':
      return (values) => values.some((v) => String(v).startsWith(query));
    case 'contains':
      return (values) => values.some((v) => String(v).includes(query));
    case 'endswith':
      return (values) => values.some((v) => String(v).endsWith(query));
    case 'wildcard': {
      const re = wildcardRegExp(query);
      return (values) => values.some((v) => re.test(String(v)));
    }
    default:
      return null;
  }
}

export interface FieldFilter {
  field: string;
  test(item: Item): boolean;
}

/** Field filters of a parameter list; a repeated plain field ORs its values (ES `terms`). */
export function fieldFilters(params: [string, string][], extra: ExtraFields = {}): FieldFilter[] {
  const grouped = new Map<string, { field: string; lookup: string | null; values: string[] }>();
  for (const [key, value] of params) {
    if (RESERVED_PARAMS.has(key)) continue;
    const cut = key.lastIndexOf('__');
    const suffix = cut > 0 ? key.slice(cut + 2) : null;
    // `field__regexp` and other lookups we do not implement are ignored, like unknown ones.
    if (suffix !== null && !LOOKUPS.has(suffix)) continue;
    const [field, lookup] = suffix !== null ? [key.slice(0, cut), suffix] : [key, null];
    const entry = grouped.get(key) ?? { field, lookup, values: [] };
    entry.values.push(value);
    grouped.set(key, entry);
  }
  const filters: FieldFilter[] = [];
  for (const { field, lookup, values } of grouped.values()) {
    const predicates = values.map((v) => lookupPredicate(lookup, v)).filter((p) => p !== null);
    if (predicates.length === 0) continue;
    filters.push({
      field,
      test: (item) => {
        const found = fieldValues(item, field, extra);
        return found === undefined || predicates.some((p) => p(found));
      },
    });
  }
  return filters;
}

const searchTexts = new WeakMap<object, string>();

function collectText(value: unknown, out: string[]): void {
  if (typeof value === 'string') out.push(value.toLowerCase());
  else if (Array.isArray(value)) for (const v of value) collectText(v, out);
  else if (value !== null && typeof value === 'object') for (const v of Object.values(value)) collectText(v, out);
}

/** Every text value of an item, lower-cased; cached per item. */
function searchTextOf(item: Item): string {
  let text = searchTexts.get(item);
  if (text === undefined) {
    const parts: string[] = [];
    collectText(item, parts);
    searchTexts.set(item, (text = parts.join('\u0000')));
  }
  return text;
}

/**
 * `search_multi_match`: every whitespace-separated word must occur
 * (case-insensitive substring, standing in for ES n-grams with operator AND),
 * over all text fields or, in the form `f1,f2:text`, over the named ones.
 */
export function searchPredicate(raw: string, extra: ExtraFields = {}): (item: Item) => boolean {
  const restricted = /^([\w.]+(?:,[\w.]+)*):(.*)$/s.exec(raw);
  const fields = restricted ? restricted[1].split(',') : null;
  const words = (restricted ? restricted[2] : raw).toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return () => true;
  return (item) => {
    const text = fields
      ? fields.flatMap((f) => fieldValues(item, f, extra) ?? []).map((v) => String(v).toLowerCase()).join('\u0000')
      : searchTextOf(item);
    return words.every((w) => text.includes(w));
  };
}

function compareValues(a: Scalar | undefined, b: Scalar | undefined): number {
  if (a === undefined) return b === undefined ? 0 : 1;
  if (b === undefined) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const x = String(a);
  const y = String(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * `ordering` (repeatable, `-` for descending; no comma splitting). Keys the
 * view does not have are ignored; ties keep the default (pk) order.
 */
export function orderItems(items: Item[], keys: string[], extra: ExtraFields = {}): Item[] {
  if (items.length === 0) return items;
  const sortKeys = keys
    .map((k) => ({ field: k.replace(/^-/, ''), descending: k.startsWith('-') }))
    .filter((k) => k.field !== '' && items.some((item) => fieldValues(item, k.field, extra) !== undefined));
  if (sortKeys.length === 0) return items;
  const decorated = items.map((item, index) => ({
    item,
    index,
    values: sortKeys.map((k) => fieldValues(item, k.field, extra)?.[0]),
  }));
  decorated.sort((a, b) => {
    for (let i = 0; i < sortKeys.length; i++) {
      const [x, y] = [a.values[i], b.values[i]];
      const c = compareValues(x, y);
      // Missing values sort last in both directions, as in Elasticsearch.
      if (c !== 0) return sortKeys[i].descending && x !== undefined && y !== undefined ? -c : c;
    }
    return a.index - b.index;
  });
  return decorated.map((d) => d.item);
}
