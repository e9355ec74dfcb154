import { afterEach, describe, expect, it } from 'vitest';
import { PkdbClient } from '../../src/api/index.js';
import { RESOURCES, type Intervention, type Output, type ResourceItem, type Subset, type SubsetOutput } from '../../src/api/schemas/index.js';
import { crawlDataset, tablesFromApi, type ApiItems } from '../../src/data/from-api.js';
import { SAMPLE_ITEMS } from '../api/items.js';
import { envelope, sendJson, startServer, type TestServer } from '../api/test-server.js';

const term = (sid: string, name = sid, label = name) => ({ sid, name, label });
const parse = <R extends keyof typeof RESOURCES>(resource: R, item: unknown): ResourceItem<R> => RESOURCES[resource].parse(item) as ResourceItem<R>;

/** Raw dose 100 mg (pk 1) and its normed copy 0.1 g (pk 2); a second raw/normed pair (3, 4) of another name. */
function interventions(): Intervention[] {
  const base = SAMPLE_ITEMS.interventions;
  return [
    { ...base, pk: 1, normed: false, value: 100, unit: 'mg' },
    { ...base, pk: 2, normed: true, value: 0.1, unit: 'gram' },
    { ...base, pk: 3, normed: false, name: 'caf200', value: 200, unit: 'mg' },
    { ...base, pk: 4, normed: true, name: 'caf200', value: 0.2, unit: 'gram' },
  ].map((item) => parse('interventions', item));
}

/**
 * A three-point timecourse (times 1, 0.5, 2: not time-sorted) as raw outputs
 * 10-12 pointing at raw intervention 1 and normed copies 20-22 pointing at 2;
 * plus a calculated cmax (raw 13, normed 23).
 */
function outputs(): Output[] {
  const base = SAMPLE_ITEMS.outputs;
  const point = (pk: number, normed: boolean, time: number, mean: number) => ({
    ...base,
    pk,
    normed,
    time,
    mean,
    unit: normed ? 'gram / liter' : 'mg/l',
    interventions: [{ pk: normed ? 2 : 1, name: 'caf100' }],
  });
  const cmax = (pk: number, normed: boolean) => ({ ...base, pk, normed, calculated: true, label: null, output_type: null, time: null, time_unit: null, measurement_type: term('cmax'), mean: normed ? 0.003 : 3, unit: normed ? 'gram / liter' : 'mg/l', interventions: [{ pk: normed ? 2 : 1, name: 'caf100' }] });
  return [point(10, false, 1, 2), point(11, false, 0.5, 3), point(12, false, 2, 1), cmax(13, false), point(20, true, 1, 0.002), point(21, true, 0.5, 0.003), point(22, true, 2, 0.001), cmax(23, true)].map((item) => parse('outputs', item));
}

function subsetPoint(output: Output): SubsetOutput {
  const { pk, group, individual, interventions, normed, value, mean, median, min, max, se, cv, unit, time_unit, time, tissue, method, measurement_type, substance, choice, label } = output;
  return { pk, group: group ?? {}, individual: individual ?? {}, interventions, ex: { pk: pk + 100 }, normed, value, mean, median, min, max, sd: 0.0004, se, cv, unit, time_unit, time, tissue, method, measurement_type, substance, choice, label };
}

function items(): ApiItems {
  const outs = outputs();
  const normedPoints = outs.filter((o) => o.normed && !o.calculated);
  const timecourse: Subset = parse('subsets', { ...SAMPLE_ITEMS.subsets, pk: 7, array: normedPoints.map((o) => [subsetPoint(o)]) });
  const scatter: Subset = parse('subsets', {
    ...SAMPLE_ITEMS.subsets,
    pk: 8,
    name: 'mr_vs_dose',
    data_type: 'scatter',
    array: [
      [subsetPoint(outs[4]), subsetPoint(outs[7])],
      [subsetPoint(outs[5]), subsetPoint(outs[7])],
    ],
  });
  return {
    studies: [parse('studies', SAMPLE_ITEMS.studies)],
    groups: [parse('groups', SAMPLE_ITEMS.groups)],
    individuals: [parse('individuals', SAMPLE_ITEMS.individuals)],
    interventions: interventions(),
    outputs: outs,
    subsets: [timecourse, scatter],
    info_nodes: [parse('info_nodes', SAMPLE_ITEMS.info_nodes)],
    references: [parse('references', SAMPLE_ITEMS.references)],
  };
}

describe('tablesFromApi', () => {
  it('studies, subjects and terms by name', () => {
    const tables = tablesFromApi(items());
    expect(tables.studies[0]).toMatchObject({ sid: 'SYN0001', creator: 'curator', curators: ['curator'], substances: ['caffeine'], reference_pmid: '123', reference_title: 'A synthetic study' });
    expect(tables.studies[0].detail?.pk).toBe('1');
    expect(tables.groups[0]).toMatchObject({ pk: 5, parent_pk: null, study_sid: 'SYN0001', characteristica: [{ measurement_type: 'sex', choice: 'M', group_count: 12 }] });
    expect(tables.individuals[0]).toMatchObject({ pk: 6, group_pk: 5 });
    expect(tables.interventions[0]).toMatchObject({ route: 'oral', application: 'single dose', substance: 'caffeine', measurement_type: 'dosing' });
    const substance = tables.terms.find((t) => t.sid === 'caf');
    expect(substance).toEqual({ sid: 'caf', name: 'caffeine', label: 'caffeine', ntype: 'substance' });
    expect(tables.terms.find((t) => t.sid === 'single-dose')).toEqual({ sid: 'single-dose', name: 'single dose', label: 'single dose', ntype: 'application' });
    expect(new Set(tables.terms.map((t) => `${t.ntype}:${t.sid}`)).size).toBe(tables.terms.length);
    expect(tables.info_nodes?.[0]).toMatchObject({ sid: 'caf', mass: 194.19076 });
    expect(tables.references?.[0].pk).toBe(3);
  });

  it('normed interventions get the raw pk of the same name, by pk order', () => {
    const tables = tablesFromApi(items());
    const rawPk = Object.fromEntries(tables.interventions.map((i) => [i.pk, i.raw_pk]));
    expect(rawPk).toEqual({ 1: null, 2: 1, 3: null, 4: 3 });
  });

  it('/pkdata/interventions/ raw_pk wins over the inference', () => {
    const flat = parse('pkdata/interventions', { ...SAMPLE_ITEMS['pkdata/interventions'], intervention_pk: 4, raw_pk: 99 });
    const tables = tablesFromApi({ ...items(), flatInterventions: [flat] });
    expect(tables.interventions.find((i) => i.pk === 4)?.raw_pk).toBe(99);
    expect(tables.interventions.find((i) => i.pk === 2)?.raw_pk).toBe(1);
  });

  it('normed outputs pair with raw outputs of identical keys, intervention compared by name', () => {
    const tables = tablesFromApi(items());
    const rawPk = Object.fromEntries(tables.outputs.map((o) => [o.pk, o.raw_pk]));
    expect(rawPk).toEqual({ 10: null, 11: null, 12: null, 13: null, 20: 10, 21: 11, 22: 12, 23: 13 });
  });

  it('timecourses keep the subset point order, lists aligned (equal sd values stay a list, as in the real export)', () => {
    const tables = tablesFromApi(items());
    expect(tables.timecourses).toHaveLength(1);
    const [tc] = tables.timecourses;
    expect(tc.output_pk).toEqual([20, 21, 22]);
    expect(tc.time).toEqual([1, 0.5, 2]);
    expect(tc.mean).toEqual([0.002, 0.003, 0.001]);
    expect(tc.value).toBeNull();
    expect(tc.sd).toEqual([0.0004, 0.0004, 0.0004]);
    expect(tc).toMatchObject({ subset_pk: 7, intervention_pk: [2], group_pk: 5, individual_pk: null, substance: 'caf', substance_label: 'caffeine', tissue: 'plasma', measurement_type: 'concentration', unit: 'gram / liter' });
    const subsetOf = Object.fromEntries(tables.outputs.map((o) => [o.pk, o.subset_pk]));
    expect(subsetOf).toEqual({ 10: 7, 11: 7, 12: 7, 13: null, 20: 7, 21: 7, 22: 7, 23: null });
  });

  it('scatters: x and y axes, identical values collapsed, value lists kept, all-null columns null', () => {
    const dataPoints = [parse('pkdata/data', { ...SAMPLE_ITEMS['pkdata/data'], data_type: 'scatter', subset_pk: 8, output_pk: 23, data_point_pk: 30 })];
    const tables = tablesFromApi({ ...items(), dataPoints });
    expect(tables.scatters).toHaveLength(1);
    const [scatter] = tables.scatters;
    expect(scatter.x).toMatchObject({ outputs_pk: [20, 21], group_pk: 5, substance: 'caf', measurement_type__label: 'concentration', mean: [0.002, 0.003], dimension: 0 });
    expect(scatter.y).toMatchObject({ outputs_pk: 23, calculated: true, mean: [0.003, 0.003], measurement_type: 'cmax', dimension: 1, data_point: 30 });
    expect(scatter.x.value).toBeNull();
    expect(scatter.x.data_point).toBeNull();
  });
});

describe('crawlDataset', () => {
  let server: TestServer | undefined;
  afterEach(async () => server?.close());

  it('fetches every list (raw and normed) and builds a Dataset from the items', async () => {
    const source = items();
    const flat = [parse('pkdata/interventions', { ...SAMPLE_ITEMS['pkdata/interventions'], intervention_pk: 2, raw_pk: 1 })];
    const lists: Record<string, unknown[]> = {
      studies: source.studies,
      groups: source.groups,
      individuals: source.individuals,
      interventions: source.interventions,
      'pkdata/interventions': flat,
      outputs: source.outputs,
      subsets: source.subsets,
      'pkdata/data': [
        parse('pkdata/data', { ...SAMPLE_ITEMS['pkdata/data'], data_type: 'scatter', subset_pk: 8, output_pk: 20, data_point_pk: 31 }),
        parse('pkdata/data', { ...SAMPLE_ITEMS['pkdata/data'], data_type: 'timecourse', subset_pk: 7, output_pk: 21, data_point_pk: 40 }),
      ],
      info_nodes: source.info_nodes!,
      references: source.references!,
    };
    server = await startServer((request, response) => {
      const resource = request.path.replace(/^\/api\/v1\//, '').replace(/\/$/, '');
      const list = lists[resource];
      if (!list) return sendJson(response, 404, { detail: 'Not found.' });
      const pageSize = Number(request.query.get('page_size'));
      sendJson(response, 200, envelope(list, Number(request.query.get('page')), pageSize, `http://127.0.0.1${request.path}`));
    });
    const client = new PkdbClient({ baseUrl: server.baseUrl, retries: 0 });
    const progress: string[] = [];
    try {
      const dataset = await crawlDataset(client, { studies: ['SYN0001'], pageSize: 3, onProgress: (done, total, resource) => progress.push(`${resource} ${done}/${total}`) });
      expect(dataset.source).toEqual({ kind: 'api', location: server.baseUrl });
      expect(dataset.tables.outputs).toHaveLength(8);
      expect(dataset.tables.interventions).toHaveLength(4);
      expect(dataset.tables.timecourses[0].output_pk).toEqual([20, 21, 22]);
      expect(dataset.output(21)?.raw_pk).toBe(11);
      expect(dataset.tables.scatters[0].x.data_point).toEqual([31, null]);
      expect(progress).toContain('outputs 3/3');
      const outputsRequest = server.requests.find((r) => r.path === '/api/v1/outputs/');
      expect(outputsRequest?.query.get('study_sid__in')).toBe('SYN0001');
      expect(outputsRequest?.query.has('normed')).toBe(false);
      expect(server.requests.find((r) => r.path === '/api/v1/studies/')?.query.get('sid__in')).toBe('SYN0001');
    } finally {
      await client.close();
    }
  });
});
