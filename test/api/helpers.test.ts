import { describe, expect, it } from 'vitest';
import { applyParams, backoffDelayMs, filterParams, parseRetryAfter, retryDelayMs } from '../../src/api/index.js';
import { firstJsonErrorOffset, jsonErrorPosition } from '../../src/api/json-position.js';
import { normaliseBaseUrl } from '../../src/api/client.js';

describe('retry timing', () => {
  it('Retry-After as seconds and as an HTTP date', () => {
    const now = Date.parse('Wed, 21 Oct 2015 07:28:00 GMT');
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:27:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });

  it('full jitter stays within min(cap, base·2^attempt); Retry-After is a floor', () => {
    const backoff = { baseMs: 100, maxMs: 1000 };
    expect(backoffDelayMs(0, backoff, () => 0.999)).toBe(99);
    expect(backoffDelayMs(3, backoff, () => 0.5)).toBe(400);
    expect(backoffDelayMs(10, backoff, () => 0.999)).toBe(999);
    expect(backoffDelayMs(2, backoff, () => 0)).toBe(0);
    expect(retryDelayMs(0, backoff, 2000, () => 0.5)).toBe(2000);
    expect(retryDelayMs(4, backoff, 10, () => 0.5)).toBe(500);
  });
});

describe('query strings', () => {
  it('list parameters: page_size, repeated ordering, ids and __in joined, null skipped', () => {
    const url = applyParams(new URL('http://h/api/v1/outputs/'), { pageSize: 50, ordering: ['tissue', '-substance'], ids: [3, 4], study_name__in: ['A', 'B'], normed: false, format: 'json', skip: undefined, none: null });
    expect(url.search).toBe('?page_size=50&ordering=tissue&ordering=-substance&ids=3__4&study_name__in=A__B&normed=false&format=json');
  });

  it('filter parameters: stable order, uuid on every table not given one, concise and download texts', () => {
    const params = filterParams(
      { outputs: { output_type__in: ['timecourse', 'array'] }, studies: { sid: 'PKDB00198', uuid: 'study-uuid' }, uuid: 'all-uuid', concise: true, extra: { subsets__name: 'x' } },
      { download: true },
    );
    expect([...params.entries()]).toEqual([
      ['studies__sid', 'PKDB00198'],
      ['studies__uuid', 'study-uuid'],
      ['groups__uuid', 'all-uuid'],
      ['individuals__uuid', 'all-uuid'],
      ['interventions__uuid', 'all-uuid'],
      ['outputs__output_type__in', 'timecourse__array'],
      ['outputs__uuid', 'all-uuid'],
      ['subsets__name', 'x'],
      ['concise', 'true'],
      ['download', 'true'],
    ]);
  });

  it('base URLs get /api/v1/ and lose credentials', () => {
    expect(normaliseBaseUrl('http://u:p@127.0.0.1:8000').href).toBe('http://127.0.0.1:8000/api/v1/');
    expect(normaliseBaseUrl('https://pk-db.com/api/v1').href).toBe('https://pk-db.com/api/v1/');
    expect(normaliseBaseUrl('https://pk-db.com/api/v1/?format=api').href).toBe('https://pk-db.com/api/v1/');
  });
});

describe('JSON error position', () => {
  it.each([
    ['{"a": oops}', 6],
    ['[1, 2,]', 6],
    ['{"a": 1', 7],
    ['<!doctype html>', 0],
    ['{"a": "x\\q"}', 9],
    ['{"a": 1} trailing', 9],
    ['', 0],
  ])('%j fails at %i', (text, offset) => {
    expect(() => JSON.parse(text)).toThrow();
    expect(firstJsonErrorOffset(text)).toBe(offset);
  });

  it('line and column', () => {
    expect(jsonErrorPosition('{\n  "a": 1,\n  "b": nope\n}')).toEqual({ offset: 20, line: 3, column: 9 });
  });
});
