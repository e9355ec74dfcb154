/**
 * The record rules every layer shares, each defined once: the Stats block of
 * a record, indexing and grouping records by a key (one rule for duplicates),
 * the representative value or series of a record (mean, else median, else
 * value), and a lazily built value. Raw↔normed pairing is in `pairing.ts`.
 */
import type { Stats, TimecourseRecord } from './model.js';

/** The Stats block of a record (or API item), in the API's key order, without the record's other fields. */
export function statsOf(r: Stats): Stats {
  return { value: r.value, mean: r.mean, median: r.median, min: r.min, max: r.max, sd: r.sd, se: r.se, cv: r.cv, unit: r.unit };
}

/**
 * Records by key; on a duplicate key the **first** record wins (as the export
 * reader keeps the first row of a pk and reports the later one, and as terms
 * keep the first seen).
 */
export function indexFirst<T, K>(items: Iterable<T>, key: (item: T) => K): Map<K, T> {
  const map = new Map<K, T>();
  // Arrays by index: a table's index (58,000 outputs of the shared export) is built once, before the loop is
  // optimised, when for…of allocates per element.
  const list = Array.isArray(items) ? (items as readonly T[]) : [...items];
  for (let i = 0; i < list.length; i++) {
    const item = list[i];
    const k = key(item);
    if (!map.has(k)) map.set(k, item);
  }
  return map;
}

/** Appends `value` to the list of `key`. */
export function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Records by key, each list in input order. */
export function groupBy<T, K>(items: Iterable<T>, key: (item: T) => K): Map<K, T[]> {
  const map = new Map<K, T[]>();
  const list = Array.isArray(items) ? (items as readonly T[]) : [...items];
  for (let i = 0; i < list.length; i++) pushTo(map, key(list[i]), list[i]);
  return map;
}

/** The fields a record's representative value is taken from, in order (PK-DB calculation: mean, else median, else value). */
export const REPRESENTATIVE_FIELDS = ['mean', 'median', 'value'] as const;
export type RepresentativeField = (typeof REPRESENTATIVE_FIELDS)[number];

/** A single value record's representative value: mean, else median, else value; null when none is set. */
export function representativeValue(r: Pick<Stats, RepresentativeField>): number | null {
  return r.mean ?? r.median ?? r.value ?? null;
}

/** The concentration series PK-DB uses (PK-DB calculation): mean, else median, else value; null when the timecourse has none. */
export function representativeSeries(tc: Pick<TimecourseRecord, RepresentativeField>): { field: RepresentativeField; values: (number | null)[] } | null {
  for (const field of REPRESENTATIVE_FIELDS) {
    const values = tc[field];
    if (Array.isArray(values)) return { field, values };
  }
  return null;
}

/** Memoises a zero-argument builder: built on the first call, the same value after. */
export function lazy<T>(build: () => T): () => T {
  let value: T | undefined;
  let built = false;
  return () => {
    if (!built) {
      value = build();
      built = true;
    }
    return value as T;
  };
}

/**
 * The value of `key` in `cache`, computed (and stored) on the first ask; null and other falsy values are cached
 * like any value. Expected errors of the unit layer are cached by `cachedResult` (src/units/memo.ts).
 */
export function cached<K, V>(cache: Map<K, V>, key: K, compute: () => V): V {
  if (cache.has(key)) return cache.get(key) as V;
  const value = compute();
  cache.set(key, value);
  return value;
}
