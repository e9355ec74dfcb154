/**
 * List query parameters over precomputed API items: field filters with
 * django-elasticsearch-dsl-drf lookups, `ids`, `search_multi_match`,
 * `ordering` (PK-DB API notes §1, §2). Fields are resolved on the item itself, so a
 * filter means the same on every view that shows the field.
 *
 * Unknown fields and lookups are ignored, as PK-DB ignores them. Every name a
 * request supplies is looked up as an *own* key (`ownValue`), so `constructor`,
 * `toString` or `__proto__` are unknown fields like any other, never
 * `Object.prototype` members. Work per request is bounded: a key is split once
 * (linear in its length), field names are short with few `_`, and the query
 * as a whole is capped by `checkQueryLimits`.
 */
import { ApiError } from './errors.js';

type Item = Record<string, unknown>;

/** Parameters that are not field filters. `uuid` is applied by the caller. */
export const RESERVED_PARAMS = new Set(['page', 'page_size', 'format', 'ordering', 'search_multi_match', 'search', 'ids', 'uuid']);

const LOOKUPS = new Set([
  'in', 'terms', 'exclude', 'gt', 'gte', 'lt', 'lte', 'range', 'exists', 'isnull',
  'prefix', 'startswith', 'contains', 'endswith', 'wildcard',
]);

/**
 * Request-wide caps. 8 KiB of query is the request-line budget of common
 * proxies (nginx's default header buffer), which PK-DB sits behind; every
 * study name of the shared export as one `study_name__in` takes 4.5 KiB.
 */
export const MAX_QUERY_BYTES = 8 * 1024;
export const MAX_QUERY_PARAMS = 100;
/** `search_multi_match` words (after de-duplication); each word is a substring scan of every item. */
export const MAX_SEARCH_WORDS = 16;
/** A `wildcard` pattern's length; matching is O(value length x pattern length) at worst. */
export const MAX_WILDCARD_LENGTH = 256;
/** Field names: longer than any real one (`measurement_type_label`: 22 chars, 2 underscores). */
const MAX_FIELD_LENGTH = 64;
const MAX_FIELD_UNDERSCORES = 4;

/** 414/400 for a query over the caps; called once per request before anything parses it. */
export function checkQueryLimits(search: string, params: URLSearchParams): void {
  if (search.length > MAX_QUERY_BYTES) {
    throw new ApiError(414, { detail: `Query string too long: the limit is ${MAX_QUERY_BYTES} bytes.` });
  }
  let count = 0;
  for (const _ of params.keys()) {
    if (++count > MAX_QUERY_PARAMS) throw new ApiError(400, { detail: `Too many query parameters: the limit is ${MAX_QUERY_PARAMS}.` });
  }
}

/** A value compared against query text; term objects compare by sid and name. */
type Scalar = string | number | boolean;

/** Extra fields some views filter on that are not item keys (PK-DB API notes §2 field table). */
export type ExtraFields = Record<string, (item: Item) => Scalar[]>;

/** `obj[key]` only when `key` is the object's own property (never an Object.prototype member). */
export function ownValue(obj: object, key: string): unknown {
  return Object.hasOwn(obj, key) ? (obj as Item)[key] : undefined;
}

function scalarsOf(value: unknown, sub?: string): Scalar[] {
  if (value === null || value === undefined) return [];
  if (Array.isArray(value)) return value.flatMap((v) => scalarsOf(v, sub));
  if (typeof value === 'object') {
    if (sub !== undefined) return scalarsOf(ownValue(value, sub));
    const sid = ownValue(value, 'sid');
    if (typeof sid === 'string') return scalarsOf([sid, ownValue(value, 'name')]);
    if (Object.hasOwn(value, 'pk')) return scalarsOf(ownValue(value, 'pk'));
    return [];
  }
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? [value] : [];
}

/** Reads one field of an item; undefined when the item has no such field. */
export type FieldAccessor = (item: Item) => Scalar[] | undefined;

/** True for a name that can be a field: word characters, bounded length and `_` count. */
function isFieldName(field: string): boolean {
  if (field.length === 0 || field.length > MAX_FIELD_LENGTH || !/^\w+$/.test(field)) return false;
  let underscores = 0;
  for (const ch of field) if (ch === '_' && ++underscores > MAX_FIELD_UNDERSCORES) return false;
  return true;
}

/**
 * How to read `field` from items: a custom field of the view, a key of the
 * item, or `<key>_<sub>` into a nested object (study_sid, group_pk,
 * interventions_pk, substance_sid), longest key first. The candidate splits
 * are computed once per query, not per item. Null for a name no view can have.
 */
export function fieldAccessor(field: string, extra: ExtraFields = {}): FieldAccessor | null {
  if (!isFieldName(field)) return null;
  const custom = ownValue(extra, field);
  if (typeof custom === 'function') return custom as FieldAccessor;
  const splits: [head: string, sub: string][] = [];
  for (let cut = field.lastIndexOf('_'); cut > 0; cut = field.lastIndexOf('_', cut - 1)) {
    splits.push([field.slice(0, cut), field.slice(cut + 1)]);
  }
  return (item) => {
    if (Object.hasOwn(item, field)) return scalarsOf(item[field]);
    for (const [head, sub] of splits) {
      if (!Object.hasOwn(item, head)) continue;
      const nested = item[head];
      return nested === null || typeof nested !== 'object' ? [] : scalarsOf(nested, sub);
    }
    return undefined;
  };
}

/** The values of `field` on an item (see `fieldAccessor`); undefined when the view has no such field. */
export function fieldValues(item: Item, field: string, extra: ExtraFields = {}): Scalar[] | undefined {
  return fieldAccessor(field, extra)?.(item);
}

/**
 * A filter key split into field and lookup, in one pass: `field` or
 * `field__lookup`. More `__` segments than that name no field of any view
 * (DEDRF takes the text before the first `__` as the field), so such a key is
 * ignored like any unknown field; so is an unknown lookup.
 */
export function parseFilterKey(key: string): { field: string; lookup: string | null } | null {
  const cut = key.indexOf('__');
  if (cut < 0) return { field: key, lookup: null };
  const lookup = key.slice(cut + 2);
  if (lookup.includes('__') || !LOOKUPS.has(lookup)) return null;
  return { field: key.slice(0, cut), lookup };
}

function equals(value: Scalar, query: string): boolean {
  if (typeof value === 'number') return query.trim() !== '' && Number(query) === value;
  if (typeof value === 'boolean') return query.toLowerCase() === String(value);
  return value === query;
}

function numeric(value: Scalar): number {
  return typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
}

/**
 * ES `wildcard` (`*` any run, `?` one character, everything else literal),
 * anchored, without a regular expression: `*a*a*…b` would make a backtracking
 * RegExp exponential. The pattern splits at `*` into segments; the first must
 * match at the start, the last at the end, and each middle one at its leftmost
 * position after the previous (leftmost is never worse for `*`). Positions
 * scanned for different segments do not overlap, so the cost is at most
 * value length x longest segment.
 */
export function wildcardMatcher(pattern: string): (text: string) => boolean {
  const segments = pattern.split('*');
  const at = (text: string, pos: number, seg: string) => {
    if (pos + seg.length > text.length) return false;
    for (let i = 0; i < seg.length; i++) if (seg[i] !== '?' && seg[i] !== text[pos + i]) return false;
    return true;
  };
  if (segments.length === 1) return (text) => text.length === pattern.length && at(text, 0, pattern);
  const first = segments[0];
  const last = segments[segments.length - 1];
  const middle = segments.slice(1, -1).filter((seg) => seg !== '');
  const minLength = segments.reduce((n, seg) => n + seg.length, 0);
  return (text) => {
    if (text.length < minLength || !at(text, 0, first) || !at(text, text.length - last.length, last)) return false;
    let pos = first.length;
    const end = text.length - last.length;
    for (const seg of middle) {
      while (pos + seg.length <= end && !at(text, pos, seg)) pos++;
      if (pos + seg.length > end) return false;
      pos += seg.length;
    }
    return true;
  };
}

/** `__in`/`__exclude` values as sets, so a long list costs one lookup per item value (same rules as `equals`). */
function termsMatcher(parts: string[]): (values: Scalar[]) => boolean {
  const strings = new Set(parts);
  const numbers = new Set(parts.filter((q) => q.trim() !== '').map(Number));
  const booleans = new Set(parts.map((q) => q.toLowerCase()));
  return (values) =>
    values.some((v) => (typeof v === 'number' ? numbers.has(v) : typeof v === 'boolean' ? booleans.has(String(v)) : strings.has(v)));
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
      return termsMatcher(parts);
    case 'exclude': {
      const matches = termsMatcher(parts);
      return (values) => !matches(values);
    }
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
      if (query.length > MAX_WILDCARD_LENGTH) {
        throw new ApiError(400, { detail: `wildcard pattern too long: the limit is ${MAX_WILDCARD_LENGTH} characters.` });
      }
      const matches = wildcardMatcher(query);
      return (values) => values.some((v) => matches(String(v)));
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
    // `field__regexp`, lookups we do not implement and over-long keys are ignored, like unknown fields.
    const parsed = parseFilterKey(key);
    if (parsed === null) continue;
    const entry = grouped.get(key) ?? { ...parsed, values: [] };
    entry.values.push(value);
    grouped.set(key, entry);
  }
  const filters: FieldFilter[] = [];
  for (const { field, lookup, values } of grouped.values()) {
    const read = fieldAccessor(field, extra);
    if (read === null) continue;
    const predicates = values.map((v) => lookupPredicate(lookup, v)).filter((p) => p !== null);
    if (predicates.length === 0) continue;
    filters.push({
      field,
      test: (item) => {
        const found = read(item);
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
  const fields = restricted ? [...new Set(restricted[1].split(','))].map((f) => fieldAccessor(f, extra)).filter((f) => f !== null) : null;
  const words = [...new Set((restricted ? restricted[2] : raw).toLowerCase().split(/\s+/).filter(Boolean))];
  if (words.length === 0) return () => true;
  if (words.length > MAX_SEARCH_WORDS) {
    throw new ApiError(400, { detail: `search_multi_match: at most ${MAX_SEARCH_WORDS} different words.` });
  }
  return (item) => {
    const text = fields
      ? fields.flatMap((read) => read(item) ?? []).map((v) => String(v).toLowerCase()).join('\u0000')
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
    .map((k) => ({ read: fieldAccessor(k.replace(/^-/, ''), extra), descending: k.startsWith('-') }))
    .filter((k): k is { read: FieldAccessor; descending: boolean } => k.read !== null)
    .filter((k) => items.some((item) => k.read(item) !== undefined));
  if (sortKeys.length === 0) return items;
  const decorated = items.map((item, index) => ({
    item,
    index,
    values: sortKeys.map((k) => k.read(item)?.[0]),
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
