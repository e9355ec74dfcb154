import { describe, expect, it } from 'vitest';
import { cached, groupBy, indexFirst, lazy, pushTo, representativeSeries, representativeValue, statsOf } from '../../src/data/records.js';

const NONE = { value: null, mean: null, median: null, min: null, max: null, sd: null, se: null, cv: null, unit: null };

describe('record rules', () => {
  it('statsOf keeps only the Stats block, in the API key order', () => {
    const stats = statsOf({ ...NONE, pk: 3, mean: 2, sd: 0.5, unit: 'mg', name: 'x' } as never);
    expect(Object.keys(stats)).toEqual(['value', 'mean', 'median', 'min', 'max', 'sd', 'se', 'cv', 'unit']);
    expect(stats).toEqual({ ...NONE, mean: 2, sd: 0.5, unit: 'mg' });
  });

  it('indexFirst keeps the first record of a duplicate key; groupBy keeps input order', () => {
    const rows = [{ k: 'a', n: 1 }, { k: 'b', n: 2 }, { k: 'a', n: 3 }];
    expect(indexFirst(rows, (r) => r.k).get('a')?.n).toBe(1);
    expect([...groupBy(rows, (r) => r.k)].map(([k, list]) => [k, list.map((r) => r.n)])).toEqual([['a', [1, 3]], ['b', [2]]]);
    const map = new Map<string, number[]>();
    pushTo(map, 'x', 1);
    pushTo(map, 'x', 2);
    expect(map.get('x')).toEqual([1, 2]);
  });

  it('representative value and series: mean, else median, else value', () => {
    expect(representativeValue({ mean: 1, median: 2, value: 3 })).toBe(1);
    expect(representativeValue({ mean: null, median: 2, value: 3 })).toBe(2);
    expect(representativeValue({ mean: null, median: null, value: 3 })).toBe(3);
    expect(representativeValue({ mean: null, median: null, value: null })).toBeNull();
    expect(representativeValue({ mean: 0, median: 2, value: 3 })).toBe(0);
    expect(representativeSeries({ mean: null, median: [1, null], value: [5, 6] })).toEqual({ field: 'median', values: [1, null] });
    expect(representativeSeries({ mean: null, median: null, value: null })).toBeNull();
  });

  it('lazy builds once', () => {
    let builds = 0;
    const get = lazy(() => ++builds);
    expect([get(), get()]).toEqual([1, 1]);
    expect(builds).toBe(1);
  });

  it('cached computes a key once, null included', () => {
    const cache = new Map<string, number | null>();
    let calls = 0;
    const get = (key: string) => cached(cache, key, () => (calls++, key === 'none' ? null : key.length));
    expect([get('abc'), get('abc'), get('none'), get('none')]).toEqual([3, 3, null, null]);
    expect(calls).toBe(2);
  });
});
