/**
 * The toolkit's client against `pkdb serve` over real HTTP on 127.0.0.1, on a
 * small dataset whose every expected value is visible in tiny-dataset.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { PkdbClient } from '../../src/api/client.js';
import { Paginated, RESOURCE_NAMES, RESOURCES, RootListing, ROOT_RESOURCE_NAMES, SubstanceStatisticsList, Statistics } from '../../src/api/schemas/index.js';
import { startServer, type RunningServer } from '../../src/server/app.js';
import { DATASET_VIEWS } from '../../src/server/resources.js';
import { resourceItems } from '../../src/server/views.js';
import { tinyDataset, tinyTables } from './tiny-dataset.js';

let server: RunningServer;
let client: PkdbClient;

beforeAll(async () => {
  server = await startServer({ dataset: tinyDataset(), port: 0 });
  client = new PkdbClient({ baseUrl: server.url, concurrency: 4, retries: 0 });
});
afterAll(async () => {
  await client.close();
  await server.close();
});

const get = (path: string, init?: RequestInit) => fetch(new URL(path, server.url), init);
/** Any page, with the pk or sid of its items typed for assertions. */
const AnyPage = Paginated(z.looseObject({ pk: z.union([z.number(), z.string()]).optional(), sid: z.string().optional() }));
const page = async (path: string | URL) => AnyPage.parse(await (await fetch(new URL(path, server.url))).json());
const FilterCounts = z.record(z.string(), z.union([z.number(), z.string()]));

describe('listing and schemas', () => {
  it('the root lists every resource of the spec with absolute URLs that answer', async () => {
    const root = RootListing.parse(await (await get('')).json());
    expect(Object.keys(root).sort()).toEqual([...ROOT_RESOURCE_NAMES].sort());
    for (const name of ['studies', 'pkdata/outputs', 'statistics/substances'] as const) {
      expect(root[name]).toBe(new URL(`${name}/`, server.url).href);
      expect((await fetch(root[name])).status).toBe(200);
    }
  });

  it('every list parses with its zod schema, page by page, and yields each item once', async () => {
    for (const resource of RESOURCE_NAMES) {
      const items = await client.list(resource, { pageSize: 2 });
      const expected = resourceItems(tinyDataset(), resource);
      expect(items.length, resource).toBe(expected.length);
      const keys = items.map((item) => JSON.stringify(item));
      expect(new Set(keys).size, resource).toBe(keys.length);
      for (const item of items) RESOURCES[resource].parse(item);
      const key = DATASET_VIEWS[resource].key as (item: Record<string, unknown>) => unknown;
      expect(items.map((i) => key(i as Record<string, unknown>))).toEqual(expected.map((i) => key(i as Record<string, unknown>)));
    }
  });

  it('statistics are an object and substances a bare array sorted by label', async () => {
    const stats = Statistics.parse(await client.statistics());
    expect(stats.study_count).toBe(2);
    expect(stats.output_count).toBe(tinyTables().outputs.filter((o) => o.normed).length);
    expect(stats.output_calculated_count).toBe(1);
    const substances = SubstanceStatisticsList.parse(await client.statistics.substances());
    expect(substances.map((s) => s.info_node__label)).toEqual(['caffeine', 'midazolam']);
    expect(substances[1]).toMatchObject({ output_count: 2, intervention_count: 1 });
  });

  it('counts agree with the dataset: /pkdata/studies/ = studies, one /pkdata/outputs/ row per output x intervention', async () => {
    const t = tinyTables();
    expect((await client.page('pkdata/studies')).data.count).toBe(t.studies.length);
    const rows = t.outputs.reduce((n, o) => n + o.intervention_pks.length, 0);
    expect((await client.page('pkdata/outputs')).data.count).toBe(rows);
  });
});

describe('envelope and pagination', () => {
  it('20 per page by default, absolute links that keep other parameters, prev to page 1 without page', async () => {
    const first = await page('outputs/?page_size=3&format=api&normed=true');
    expect(first).toMatchObject({ current_page: 1, last_page: 3, prev_page_url: null });
    expect(first.data.count).toBe(7);
    const next = new URL(first.next_page_url ?? '');
    expect(next.searchParams.get('page')).toBe('2');
    expect(next.searchParams.get('format')).toBe('api');
    expect(next.searchParams.get('normed')).toBe('true');
    const second = await page(next);
    expect(new URL(second.prev_page_url ?? '').searchParams.has('page')).toBe(false);
    expect((await page('outputs/')).data.data.length).toBe(8);
  });

  it('page=last, empty results and bad pages', async () => {
    const last = await page('outputs/?page_size=3&page=last');
    expect(last).toMatchObject({ current_page: 3, last_page: 3, next_page_url: null });
    expect(last.data.data.map((o) => o.pk)).toEqual([7, 8]);
    const empty = await page('outputs/?study_sid=NONE');
    expect(empty).toMatchObject({ current_page: 1, last_page: 1, data: { count: 0, data: [] } });
    for (const page of ['0', '-1', 'abc', '1.5', '4']) {
      const response = await get(`outputs/?page_size=3&page=${page}`);
      expect(response.status, page).toBe(404);
      expect(await response.json()).toEqual({ detail: 'Invalid page.' });
    }
    expect((await get('outputs/?study_sid=NONE&page=2')).status).toBe(404);
  });

  it('page_size 0, negative or not an integer falls back to 20; the maximum is 1000', async () => {
    for (const size of ['0', '-5', 'x', '2.5']) {
      expect((await page(`pkdata/outputs/?page_size=${size}`)).data.data.length).toBe(8);
    }
    expect((await page('outputs/?page_size=100000')).last_page).toBe(1);
  });
});

describe('query parameters', () => {
  const pks = async (path: string) => (await page(path)).data.data.map((i) => i.pk);

  it('normed, study filters, ids and lookups', async () => {
    expect(await pks('outputs/?normed=false')).toEqual([5]);
    expect(await pks('interventions/?normed=true')).toEqual([2, 4]);
    expect(await pks('outputs/?study_sid=SYN0002')).toEqual([7, 8]);
    expect(await pks('outputs/?study_name__in=Synthetic2002__Other')).toEqual([7, 8]);
    expect(await pks('outputs/?ids=3__7__99')).toEqual([3, 7]);
    expect(await pks('outputs/?measurement_type_sid__in=thalf__cmax&normed=true')).toEqual([4, 6]);
    expect(await pks('outputs/?value__gt=0.003')).toEqual([2, 6, 7, 8]);
    expect(await pks('outputs/?measurement_type__exclude=concentration')).toEqual([4, 5, 6, 7, 8]);
    expect(await pks('outputs/?no_such_field=1')).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(await pks('groups/?parent=1')).toEqual([2]);
    expect(await pks('groups/?study=Synthetic2002')).toEqual([3]);
    expect(await pks('groups/?measurement_type_sid__in=smoking__sex')).toEqual([2]);
  });

  it('ordering (repeatable, descending, unknown keys ignored) and search', async () => {
    expect(await pks('outputs/?ordering=-value&ordering=pk&normed=true')).toEqual([8, 7, 2, 6, 3, 1, 4]);
    expect(await pks('outputs/?ordering=nonsense')).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(await pks('interventions/?search_multi_match=MIDAZ')).toEqual([3, 4]);
    expect(await pks('groups/?search_multi_match=smok')).toEqual([2]);
    expect(await pks('outputs/?search_multi_match=label:caf_s1')).toEqual([1, 2, 3]);
  });
});

describe('/filter/', () => {
  it('concise=true keeps what the matching outputs reference; concise=false whole studies', async () => {
    const concise = await client.filter({ outputs: { measurement_type: 'thalf' } });
    // Output 4 (normed thalf of group 2 in SYN0001, intervention 2); raw output 5 is never counted.
    expect(concise).toMatchObject({ studies: 1, groups: 1, individuals: 0, interventions: 1, outputs: 1, timecourses: 0, scatters: 0 });
    const whole = await client.filter({ outputs: { measurement_type: 'thalf' }, concise: false });
    // All of SYN0001: groups 1, 2; individuals 1, 2; normed intervention 2; normed outputs 1, 2, 3, 4, 6; timecourse 10.
    expect(whole).toMatchObject({ studies: 1, groups: 2, individuals: 2, interventions: 1, outputs: 5, timecourses: 1, scatters: 0 });
  });

  it('concise is false only for the exact string "false"', async () => {
    const summary = async (q: string) => FilterCounts.parse(await (await get(`filter/?outputs__measurement_type=thalf&${q}`)).json());
    expect((await summary('concise=False')).outputs).toBe(1);
    expect((await summary('concise=0')).outputs).toBe(1);
    expect((await summary('concise=false&concise=true')).outputs).toBe(1);
    // Not concise: the study holding the thalf output, with all its normed outputs.
    expect((await summary('concise=true&concise=false')).outputs).toBe(5);
    expect((await summary('concise=false')).outputs).toBe(5);
  });

  it('a groups-only filter keeps every individual-level output (NOTES §2 step 3)', async () => {
    const summary = await client.filter({ groups: { name: 'smokers' } });
    // Group 2's output 4, plus outputs 1, 2, 3, 6 of individual 1: the absent individuals__ query selects all individuals.
    expect(summary).toMatchObject({ studies: 1, groups: 1, individuals: 1, outputs: 5, timecourses: 1, scatters: 0 });
  });

  it('the uuid selects the result in list endpoints; subsets need data_type; unknown uuid is 404', async () => {
    const { uuid } = await client.filter({ studies: { sid: 'SYN0002' } });
    expect((await page(`outputs/?uuid=${uuid}`)).data.count).toBe(2);
    expect((await page(`studies/?uuid=${uuid}`)).data.data.map((s) => s.sid)).toEqual(['SYN0002']);
    expect((await get(`subsets/?uuid=${uuid}`)).status).toBe(404);
    expect((await page(`subsets/?uuid=${uuid}&data_type=scatter`)).data.count).toBe(1);
    expect((await page(`subsets/?uuid=${uuid}&data_type=timecourse`)).data.count).toBe(0);
    const intersected = await client.filter({ outputs: { uuid, measurement_type: 'clearance' } });
    expect(intersected.outputs).toBe(1);
    const again = await client.filter({ uuid: (await client.filter({ outputs: { measurement_type: 'thalf' } })).uuid });
    expect(again).toMatchObject({ studies: 1, groups: 1, individuals: 0, interventions: 1, outputs: 1 });
    const missing = await get('outputs/?uuid=00000000-0000-4000-8000-000000000000');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ detail: 'Not found.' });
  });
});

describe('routes and methods', () => {
  it('trailing slash is mandatory and unknown routes are 404 JSON', async () => {
    for (const path of ['studies', 'nothing/', 'pkdata/', '../x/']) {
      const response = await get(path);
      expect(response.status, path).toBe(404);
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(await response.json()).toEqual({ detail: 'Not found.' });
    }
    expect((await get('studies/?format=xml')).status).toBe(404);
  });

  it('detail routes by sid or pk', async () => {
    expect(RESOURCES.studies.parse(await (await get('studies/SYN0002/')).json()).name).toBe('Synthetic2002');
    expect(RESOURCES.outputs.parse(await (await get('outputs/7/')).json()).pk).toBe(7);
    expect((await get('outputs/999/')).status).toBe(404);
  });

  it('HEAD and OPTIONS on every GET route; other methods 405 with Allow', async () => {
    for (const path of ['', 'statistics/', 'statistics/substances/', 'filter/', ...RESOURCE_NAMES.map((r) => `${r}/`)]) {
      const head = await get(path, { method: 'HEAD' });
      expect(head.status, path).toBe(200);
      expect(await head.text()).toBe('');
      const options = await get(path, { method: 'OPTIONS' });
      expect(options.status).toBe(200);
      expect(options.headers.get('allow')).toContain('GET');
    }
    const rejected = await get('studies/', { method: 'DELETE' });
    expect(rejected.status).toBe(405);
    expect(await rejected.json()).toEqual({ detail: 'Method "DELETE" not allowed.' });
    expect(rejected.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect((await get('filter/', { method: 'POST' })).status).toBe(405);
    expect((await get('_studies/', { method: 'OPTIONS' })).headers.get('allow')).toBe('GET, POST, HEAD, OPTIONS');
  });
});
