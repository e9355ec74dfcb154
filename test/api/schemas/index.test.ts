import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  FilterSummary,
  InfoNode,
  Paginated,
  parseOrThrow,
  parseStrict,
  RESOURCES,
  RESOURCE_NAMES,
  Statistics,
  SubstanceStatisticsList,
  unknownKeys,
} from '../../../src/api/schemas/index.js';
import { SchemaError } from '../../../src/api/errors.js';
import { describeShared, SHARED_API_EXAMPLES } from '../../helpers/shared.js';
import { SAMPLE_ITEMS } from '../items.js';

const request = { method: 'GET', url: 'http://127.0.0.1/api/v1/outputs/?page=3' };
const example = (name: string): unknown => JSON.parse(readFileSync(join(SHARED_API_EXAMPLES, name), 'utf8'));

describeShared('schemas parse the real PK-DB responses', SHARED_API_EXAMPLES, () => {
  it('info_nodes page 1 with its envelope, no unknown keys', () => {
    const raw = example('info_nodes_page1.json');
    const page = parseOrThrow(Paginated(InfoNode), raw, request);
    expect(page.current_page).toBe(1);
    expect(page.last_page).toBe(Math.ceil(page.data.count / 20));
    expect(page.data.data).toHaveLength(20);
    expect(page.data.data.filter((node) => node.parents.length > 0).length).toBeGreaterThan(0);
    expect(unknownKeys(Paginated(InfoNode), raw)).toEqual([]);
  });

  it('info node caf: substance without the omitted `derived` key', () => {
    const node = parseOrThrow(InfoNode, example('info_nodes_caf.json'), request);
    expect(node.substance).toEqual({ mass: 194.19076, charge: 0, formula: 'C8H10N4O2' });
    expect(node.substance && 'derived' in node.substance).toBe(false);
    expect(node.xrefs.length).toBeGreaterThan(10);
  });

  it.each(['statistics.json', 'statistics_dev_2020-09-24.json'])('statistics %s', (name) => {
    const raw = example(name) as Record<string, unknown>;
    const statistics = parseOrThrow(Statistics, raw, request);
    expect(statistics.study_count).toBe(raw.study_count);
    expect(unknownKeys(Statistics, raw)).toEqual([]);
  });

  it('filter summary of Sept 2020 maps `scatter` to `scatters`', () => {
    const raw = example('filter_studies__name_Abernethy1982.json') as Record<string, unknown>;
    const summary = parseOrThrow(FilterSummary, raw, request);
    expect(summary.scatters).toBe(raw.scatter);
    expect(summary.outputs).toBe(raw.outputs);
    expect('scatter' in summary).toBe(false);
  });
});

describe('schemas against hand-written items of every resource (NOTES §6 shapes)', () => {
  it.each(RESOURCE_NAMES)('%s parses strictly', (name) => {
    const item = SAMPLE_ITEMS[name];
    expect(() => parseStrict(RESOURCES[name], item, request)).not.toThrow();
  });

  it('keeps unknown keys and lists them with their JSON paths', () => {
    const item = structuredClone(SAMPLE_ITEMS.subsets) as { array: Record<string, unknown>[][]; novel?: number };
    item.novel = 1;
    item.array[0][0].shiny = true;
    const parsed = parseOrThrow(RESOURCES.subsets, item, request) as Record<string, unknown>;
    expect(parsed.novel).toBe(1);
    expect(unknownKeys(RESOURCES.subsets, item)).toEqual(['array[0][0].shiny', 'novel']);
    expect(() => parseStrict(RESOURCES.subsets, item, request)).toThrow(/array\[0\]\[0\]\.shiny: unknown key/);
  });

  it('a subset point with a group has {} as individual and vice versa', () => {
    const item = structuredClone(SAMPLE_ITEMS.subsets) as { array: Record<string, unknown>[][] };
    item.array[0][0].group = {};
    item.array[0][0].individual = { pk: 6, name: 'S1' };
    expect(RESOURCES.subsets.safeParse(item).success).toBe(true);
    item.array[0][0].group = null;
    expect(RESOURCES.subsets.safeParse(item).success).toBe(false);
  });

  it('statistics/substances is a bare array', () => {
    const list = [{ info_node__label: 'caffeine', output_count: 3, intervention_count: 1 }];
    expect(parseOrThrow(SubstanceStatisticsList, list, request)).toEqual(list);
    expect(() => parseOrThrow(SubstanceStatisticsList, { data: list }, request)).toThrow(SchemaError);
  });

  it('filter summary: current `scatters` key, missing count rejected', () => {
    const summary = { uuid: '0c178b63-6a93-4d75-92b0-e2f42372b0ea', studies: 1, groups: 0, individuals: 0, interventions: 0, outputs: 2, timecourses: 1, scatters: 3 };
    expect(parseOrThrow(FilterSummary, summary, request).scatters).toBe(3);
    const { scatters: _dropped, ...withoutScatters } = summary;
    expect(() => parseOrThrow(FilterSummary, withoutScatters, request)).toThrow(/scatters/);
  });

  it('a mistyped field names endpoint, page and JSON path', () => {
    const outputs = Array.from({ length: 8 }, () => structuredClone(SAMPLE_ITEMS.outputs));
    outputs[7].unit = 5;
    const page = { current_page: 3, last_page: 3, next_page_url: null, prev_page_url: null, data: { count: 48, data: outputs } };
    expect(() => parseOrThrow(Paginated(RESOURCES.outputs), page, request)).toThrow(
      'GET http://127.0.0.1/api/v1/outputs/?page=3: data.data[7].unit: expected string or null, got number',
    );
  });

  it('a missing field is reported as missing', () => {
    const { pk: _pk, ...withoutPk } = SAMPLE_ITEMS.groups;
    expect(() => parseOrThrow(RESOURCES.groups, withoutPk, request)).toThrow('pk: expected integer, got nothing (key missing)');
  });

  it('study pk is a string in the full view, an integer elsewhere', () => {
    expect(RESOURCES.studies.safeParse({ ...SAMPLE_ITEMS.studies, pk: 1 }).success).toBe(false);
    expect(RESOURCES.interventions.safeParse({ ...SAMPLE_ITEMS.interventions, pk: '2' }).success).toBe(false);
  });
});
