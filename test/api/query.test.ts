import { describe, expect, it } from 'vitest';
import { applyParams, filterParams } from '../../src/api/index.js';
import { normaliseBaseUrl } from '../../src/api/client.js';

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
