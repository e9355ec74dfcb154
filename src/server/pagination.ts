/**
 * PK-DB's page-number pagination (pagination.py: CustomPagination on DRF's
 * PageNumberPagination; PK-DB API notes §1), as a pure function of the item list and
 * the request URL.
 */
import type { z } from 'zod';
import type { Page } from '../api/schemas/index.js';

export const DEFAULT_PAGE_SIZE = 20;
/** PK-DB has no maximum (only Elasticsearch's result window); ours keeps one page's JSON bounded. */
export const MAX_PAGE_SIZE = 1000;

/** A bad `page` value: the server answers 404 {"detail": "Invalid page."}. */
export class InvalidPageError extends Error {
  override name = 'InvalidPageError';
  constructor() {
    super('Invalid page.');
  }
}

/**
 * `page_size`: a positive integer, capped at MAX_PAGE_SIZE; 0, negatives and
 * non-integers fall back to the default, as DRF's `_positive_int(strict=True)`.
 */
export function pageSizeOf(raw: string | null): number {
  if (raw === null || !/^\s*\+?\d+\s*$/.test(raw)) return DEFAULT_PAGE_SIZE;
  const n = Number(raw);
  return n > 0 ? Math.min(n, MAX_PAGE_SIZE) : DEFAULT_PAGE_SIZE;
}

/** last_page = ceil(count / size), and 1 for an empty result (Django's Paginator allows an empty first page). */
export function lastPageOf(count: number, pageSize: number): number {
  return Math.max(1, Math.ceil(count / pageSize));
}

/** `page`: 1-based integer or `last`; anything else, or a page past the last, is invalid. */
export function pageNumberOf(raw: string | null, lastPage: number): number {
  if (raw === null) return 1;
  if (raw === 'last') return lastPage;
  if (!/^\s*\+?\d+\s*$/.test(raw)) throw new InvalidPageError();
  const n = Number(raw);
  if (n < 1 || n > lastPage) throw new InvalidPageError();
  return n;
}

/** The request URL with `page` replaced; page 1 drops the parameter, as DRF's `remove_query_param`. */
export function pageUrl(requestUrl: URL, page: number): string {
  const url = new URL(requestUrl.href);
  if (page === 1) url.searchParams.delete('page');
  else if (url.searchParams.has('page')) url.searchParams.set('page', String(page));
  else url.searchParams.append('page', String(page));
  return url.href;
}

export interface PageRequest {
  /** The `page` parameter as given (null when absent), or a page number. */
  page: string | number | null;
  pageSize: number;
  /** Absolute URL of the request: next/previous links keep all its other parameters (format included). */
  requestUrl: URL;
}

/** One page of `items` in the API envelope; throws InvalidPageError for a bad page. */
export function paginate<T>(items: readonly T[], request: PageRequest): Page<z.ZodType<T>> {
  const lastPage = lastPageOf(items.length, request.pageSize);
  const page = pageNumberOf(typeof request.page === 'number' ? String(request.page) : request.page, lastPage);
  const start = (page - 1) * request.pageSize;
  return {
    current_page: page,
    last_page: lastPage,
    next_page_url: page < lastPage ? pageUrl(request.requestUrl, page + 1) : null,
    prev_page_url: page > 1 ? pageUrl(request.requestUrl, page - 1) : null,
    data: { count: items.length, data: items.slice(start, start + request.pageSize) },
  };
}
