/**
 * The server's index of a dataset: every list resource's items computed once
 * at startup, so that a page request with default parameters is a slice. A
 * query with filters, search or ordering scans the precomputed items once and
 * its result is memoised (a crawl asks for many pages of the same query).
 */
import type { DatasetTables } from '../data/model.js';
import { notFound } from './errors.js';
import { fieldFilters, orderItems, searchPredicate } from './query.js';
import type { DatasetResource, ResourceView, Selection } from './resources.js';
import { DATASET_VIEWS } from './resources.js';
import type { HasTables, ViewContext } from './views.js';
import { contextOf } from './views.js';

type Item = Record<string, unknown>;

const MEMO_ENTRIES = 32;

export class Catalog {
  readonly ctx: ViewContext;
  private readonly items = new Map<DatasetResource, Item[]>();
  private readonly memo = new Map<string, Item[]>();

  constructor(dataset: HasTables) {
    this.ctx = contextOf(dataset);
    for (const name of Object.keys(DATASET_VIEWS) as DatasetResource[]) {
      this.items.set(name, DATASET_VIEWS[name].build(this.ctx) as Item[]);
    }
  }

  get tables(): DatasetTables {
    return this.ctx.tables;
  }

  /** All items of a resource in default order, plus `extra` (records POSTed to a write view). */
  all(resource: DatasetResource): Item[] {
    return this.items.get(resource) ?? [];
  }

  /** The item a detail route names, by the resource's key. */
  detail(resource: DatasetResource, id: string, extra: Item[] = []): Item {
    const view: ResourceView = DATASET_VIEWS[resource];
    const found = [...this.all(resource), ...extra].find((item) => String(view.key(item)) === id);
    if (!found) throw notFound();
    return found;
  }

  /**
   * The items a list request selects: `uuid` (an earlier filter result), `ids`,
   * field filters, `search_multi_match`/`search`, then `ordering`.
   * `extra` items (write views) are appended and never memoised.
   */
  select(
    resource: DatasetResource,
    params: URLSearchParams,
    findSelection: (uuid: string) => Selection,
    extra: Item[] = [],
  ): Item[] {
    const entries = [...params.entries()].filter(([key]) => key !== 'page' && key !== 'format' && key !== 'page_size');
    const base = extra.length > 0 ? [...this.all(resource), ...extra] : this.all(resource);
    if (entries.length === 0) return base;
    const memoKey = `${resource}?${new URLSearchParams(entries).toString()}`;
    const cached = extra.length === 0 ? this.memo.get(memoKey) : undefined;
    if (cached) return cached;
    const result = this.query(resource, base, params, findSelection);
    if (extra.length === 0) {
      if (this.memo.size >= MEMO_ENTRIES) this.memo.delete(this.memo.keys().next().value as string);
      this.memo.set(memoKey, result);
    }
    return result;
  }

  private query(resource: DatasetResource, base: Item[], params: URLSearchParams, findSelection: (uuid: string) => Selection): Item[] {
    const view: ResourceView = DATASET_VIEWS[resource];
    const tests: ((item: Item) => boolean)[] = [];

    const uuid = params.get('uuid');
    if (uuid !== null) {
      // PK-DB needs data_type on subsets to know which result table to read.
      const dataType = params.get('data_type');
      if (!view.selectedBy || (resource === 'subsets' && dataType !== 'timecourse' && dataType !== 'scatter')) throw notFound();
      const selection = findSelection(uuid);
      const selectedBy = view.selectedBy;
      tests.push((item) => {
        const { table, key } = selectedBy(item, dataType);
        return selection[table].has(key);
      });
    }
    const ids = params.get('ids');
    if (ids !== null) {
      const wanted = new Set(ids.split('__'));
      tests.push((item) => wanted.has(String(view.key(item))));
    }
    for (const filter of fieldFilters([...params.entries()], view.fields)) tests.push(filter.test);
    const search = params.get('search_multi_match') ?? params.get('search');
    if (search !== null) tests.push(searchPredicate(search, view.fields));

    const selected = tests.length === 0 ? base : base.filter((item) => tests.every((test) => test(item)));
    return orderItems(selected, params.getAll('ordering'), view.fields);
  }
}
