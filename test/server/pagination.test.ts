/** PK-DB's pagination rules as pure functions (NOTES.md §1). */
import { describe, expect, it } from 'vitest';
import { InvalidPageError, lastPageOf, MAX_PAGE_SIZE, pageNumberOf, pageSizeOf, pageUrl, paginate } from '../../src/server/pagination.js';

describe('pagination', () => {
  it('page_size: positive integers up to the maximum, everything else the default 20', () => {
    expect(pageSizeOf(null)).toBe(20);
    expect(pageSizeOf('5')).toBe(5);
    expect(pageSizeOf(String(MAX_PAGE_SIZE + 1))).toBe(MAX_PAGE_SIZE);
    for (const bad of ['0', '-3', '1.5', 'abc', '']) expect(pageSizeOf(bad), bad).toBe(20);
  });

  it('last_page = ceil(count / size), at least 1', () => {
    expect(lastPageOf(0, 20)).toBe(1);
    expect(lastPageOf(20, 20)).toBe(1);
    expect(lastPageOf(21, 20)).toBe(2);
  });

  it('page: 1-based integers and "last"; anything else is an invalid page', () => {
    expect(pageNumberOf(null, 3)).toBe(1);
    expect(pageNumberOf('last', 3)).toBe(3);
    expect(pageNumberOf('2', 3)).toBe(2);
    for (const bad of ['0', '-1', '4', '1.5', 'x']) expect(() => pageNumberOf(bad, 3), bad).toThrow(InvalidPageError);
  });

  it('links replace page in place, keep the other parameters, and drop page for page 1', () => {
    const url = new URL('http://h/api/v1/outputs/?format=api&page=3&normed=true');
    expect(pageUrl(url, 4)).toBe('http://h/api/v1/outputs/?format=api&page=4&normed=true');
    expect(pageUrl(url, 1)).toBe('http://h/api/v1/outputs/?format=api&normed=true');
    expect(pageUrl(new URL('http://h/api/v1/outputs/'), 2)).toBe('http://h/api/v1/outputs/?page=2');
  });

  it('the envelope of a middle page', () => {
    const items = Array.from({ length: 45 }, (_, i) => i);
    const page = paginate(items, { page: '2', pageSize: 20, requestUrl: new URL('http://h/api/v1/x/?page=2') });
    expect(page).toEqual({
      current_page: 2,
      last_page: 3,
      next_page_url: 'http://h/api/v1/x/?page=3',
      prev_page_url: 'http://h/api/v1/x/',
      data: { count: 45, data: items.slice(20, 40) },
    });
  });
});
