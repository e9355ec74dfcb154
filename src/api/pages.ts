/**
 * Sanity of the pagination envelope (PK-DB API notes §1), checked before a page is
 * used or cached, so that a broken or hostile server cannot make `all()`
 * send a million requests (`last_page: 1e9`), skip or repeat items, or get a
 * redirected page cached under another page's URL.
 *
 * PK-DB paginates with Django's Paginator (orphans = 0): with `n` items per
 * page, `last_page = max(1, ceil(count / n))`, every page before the last
 * holds exactly `n` items and the last one `count - (last_page - 1) · n`.
 * `n` is read from the pages themselves (the server's default page size, 20,
 * need not be known).
 */

/** What the page envelope says; the items only by their number. */
export interface PageShape {
  current_page: number;
  last_page: number;
  data: { count: number; data: readonly unknown[] };
}

export interface PageProblem {
  /** JSON path of the field that disagrees. */
  path: string;
  problem: string;
}

/**
 * The problem of one page on its own, or undefined. `requested`: the page
 * number asked for (`'last'` asks for `current_page === last_page`).
 */
export function pageProblem(page: PageShape, requested: number | 'last'): PageProblem | undefined {
  const { current_page: current, last_page: last } = page;
  const { count } = page.data;
  const items = page.data.data.length;
  const expected = requested === 'last' ? last : requested;
  if (current !== expected) return { path: 'current_page', problem: `is ${current}, but page ${requested} was requested` };
  if (count < 0) return { path: 'data.count', problem: `is negative (${count})` };
  if (last < 1) return { path: 'last_page', problem: `is ${last}; a list has at least one page` };
  if (current > last) return { path: 'current_page', problem: `is ${current}, past last_page ${last}` };
  if (last === 1) {
    return items === count ? undefined : { path: 'data.data', problem: `holds ${items} items, but count is ${count} on the only page` };
  }
  if (current < last) {
    // A full page: its size n fixes last_page.
    const pages = items === 0 ? Infinity : Math.ceil(count / items);
    return pages === last ? undefined : { path: 'last_page', problem: `is ${last}, but count ${count} in pages of ${items} items makes ${pages}` };
  }
  // The last page: the pages before it hold (count - items) items, n each, and n >= items >= 1.
  const perPage = (count - items) / (last - 1);
  const consistent = items >= 1 && Number.isInteger(perPage) && perPage >= items;
  return consistent ? undefined : { path: 'last_page', problem: `is ${last}, but count ${count} with ${items} items on the last page fits no page size` };
}

/**
 * The hard cap of `all()` on a list whose pages are consistent but too many
 * (one page of a long list is fine, so `page()` does not check this).
 */
export function pageCountProblem(first: PageShape, maxPages: number): PageProblem | undefined {
  return first.last_page > maxPages ? { path: 'last_page', problem: `is ${first.last_page}, more than the ${maxPages} pages the client fetches (maxPages)` } : undefined;
}

/** A later page of a list against its first: same count, same last page, same page size. */
export function laterPageProblem(first: PageShape, page: PageShape): PageProblem | undefined {
  if (page.data.count !== first.data.count) return { path: 'data.count', problem: `is ${page.data.count}, but ${first.data.count} on page 1: the list changed during the crawl` };
  if (page.last_page !== first.last_page) return { path: 'last_page', problem: `is ${page.last_page}, but ${first.last_page} on page 1: the list changed during the crawl` };
  const size = first.data.data.length;
  const expected = page.current_page < first.last_page ? size : first.data.count - (first.last_page - 1) * size;
  if (page.data.data.length !== expected) return { path: 'data.data', problem: `holds ${page.data.data.length} items, expected ${expected} (pages of ${size})` };
  return undefined;
}
