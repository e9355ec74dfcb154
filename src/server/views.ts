/**
 * The API items of a dataset, exactly as `pkdb serve` returns them: used by
 * the server's index and by the fixtures generator to write API JSON pages.
 */
import type { HasTables, ViewContext } from './views/context.js';
import { buildContext } from './views/context.js';
import { DATASET_VIEWS, isDatasetResource } from './resources.js';

export type { HasTables, ViewContext } from './views/context.js';
export { buildContext } from './views/context.js';
export { statisticsItem, substanceStatistics } from './views/meta.js';

const contexts = new WeakMap<object, ViewContext>();

/** The lookup context of a dataset, built once per dataset object. */
export function contextOf(dataset: HasTables): ViewContext {
  let ctx = contexts.get(dataset);
  if (!ctx) contexts.set(dataset, (ctx = buildContext(dataset)));
  return ctx;
}

/**
 * Every item of a list resource (e.g. `studies`, `pkdata/outputs`) in the
 * server's default order with default parameters (raw and normed rows).
 * Write views list only the dataset's own records here.
 */
export function resourceItems(dataset: HasTables, resource: string): unknown[] {
  if (!isDatasetResource(resource)) throw new Error(`unknown API resource "${resource}"`);
  return DATASET_VIEWS[resource].build(contextOf(dataset));
}
