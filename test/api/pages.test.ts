/** Pagination sanity (src/api/pages.ts) against Django's Paginator arithmetic. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { laterPageProblem, pageCountProblem, pageProblem, type PageShape } from '../../src/api/pages.js';

/** Page `page` of `count` items in pages of `size`, as Django's Paginator (orphans 0) cuts them. */
function djangoPage(count: number, size: number, page: number): PageShape {
  const last = Math.max(1, Math.ceil(count / size));
  const items = Math.max(0, Math.min(size, count - (page - 1) * size));
  return { current_page: page, last_page: last, data: { count, data: Array(items).fill(0) } };
}

describe('pageProblem', () => {
  it('accepts every page of every list Django paginates', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 5000 }), fc.integer({ min: 1, max: 300 }), fc.nat(), (count, size, pick) => {
        const last = Math.max(1, Math.ceil(count / size));
        const page = (pick % last) + 1;
        const shape = djangoPage(count, size, page);
        expect(pageProblem(shape, page)).toBeUndefined();
        expect(laterPageProblem(djangoPage(count, size, 1), shape)).toBeUndefined();
        if (page === last) expect(pageProblem(shape, 'last')).toBeUndefined();
      }),
      { numRuns: 2000 },
    );
  });

  it('names the field of each inconsistency', () => {
    const page = (current: number, last: number, count: number, items: number): PageShape => ({ current_page: current, last_page: last, data: { count, data: Array(items).fill(0) } });
    expect(pageProblem(page(1, 1e9, 45, 20), 1)).toEqual({ path: 'last_page', problem: 'is 1000000000, but count 45 in pages of 20 items makes 3' });
    expect(pageCountProblem(page(1, 500, 10_000, 20), 100)).toEqual({ path: 'last_page', problem: 'is 500, more than the 100 pages the client fetches (maxPages)' });
    expect(pageCountProblem(page(1, 100, 2_000, 20), 100)).toBeUndefined();
    expect(pageProblem(page(1, 50, 45, 20), 1)).toEqual({ path: 'last_page', problem: 'is 50, but count 45 in pages of 20 items makes 3' });
    expect(pageProblem(page(1, 3, 45, 20), 2)).toEqual({ path: 'current_page', problem: 'is 1, but page 2 was requested' });
    expect(pageProblem(page(2, 3, 45, 20), 'last')).toEqual({ path: 'current_page', problem: 'is 2, but page last was requested' });
    expect(pageProblem(page(1, 1, 45, 20), 1)).toEqual({ path: 'data.data', problem: 'holds 20 items, but count is 45 on the only page' });
    expect(pageProblem(page(1, 0, 0, 0), 1)?.path).toBe('last_page');
    expect(pageProblem(page(1, 3, -1, 0), 1)?.path).toBe('data.count');
    expect(pageProblem(page(1, 3, 45, 0), 1)?.problem).toBe('is 3, but count 45 in pages of 0 items makes Infinity');
    expect(pageProblem(page(4, 3, 45, 5), 4)?.problem).toBe('is 4, past last_page 3');
    // A last page of 15 after 30 items in 2 pages: pages of 15, fine; 16 after 30: pages of 15 < 16, no page size fits.
    expect(pageProblem(page(3, 3, 45, 15), 3)).toBeUndefined();
    expect(pageProblem(page(3, 3, 46, 16), 3)?.problem).toBe('is 3, but count 46 with 16 items on the last page fits no page size');
    expect(pageProblem(page(3, 3, 45, 0), 3)?.path).toBe('last_page');
  });

  it('laterPageProblem: the list must not change between pages', () => {
    const first = djangoPage(45, 20, 1);
    expect(laterPageProblem(first, djangoPage(41, 20, 3))?.problem).toBe('is 41, but 45 on page 1: the list changed during the crawl');
    expect(laterPageProblem(first, djangoPage(45, 10, 2))?.problem).toBe('is 5, but 3 on page 1: the list changed during the crawl');
    expect(laterPageProblem(first, { ...djangoPage(45, 20, 2), data: { count: 45, data: Array(19).fill(0) } })?.problem).toBe('holds 19 items, expected 20 (pages of 20)');
  });
});
