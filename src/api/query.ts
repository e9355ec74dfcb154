/** Query strings of the list endpoints (PK-DB API notes §1): page, page_size, ordering, ids, search and filters. */

export type QueryValue = string | number | boolean | readonly (string | number)[] | null | undefined;

/** Parameters of a list call. `pageSize` becomes `page_size`; everything else passes through. */
export interface ListParams {
  pageSize?: number;
  [parameter: string]: QueryValue;
}

/**
 * Parameters whose list values PK-DB reads as one `a__b` string: `ids` and the
 * multi-value lookups of the filter backend. Other lists repeat the key
 * (`ordering=a&ordering=-b`, PK-DB API notes §1: no comma splitting).
 */
export function joinsWithDoubleUnderscore(key: string): boolean {
  return key === 'ids' || /__(in|exclude|range|terms)$/.test(key);
}

/** Apply `params` to `url` in the order given; `undefined` and `null` are skipped. */
export function applyParams(url: URL, params: ListParams = {}): URL {
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    const name = key === 'pageSize' ? 'page_size' : key;
    if (Array.isArray(value)) {
      if (joinsWithDoubleUnderscore(name)) url.searchParams.set(name, value.map(String).join('__'));
      else for (const item of value) url.searchParams.append(name, String(item));
    } else {
      url.searchParams.set(name, String(value));
    }
  }
  return url;
}
