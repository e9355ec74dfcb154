/**
 * GET /filter/: PK-DB's PKData selection (studies/views.py: PKData.__init__,
 * PK-DB API notes §2) over the catalog. Prefixed parameters run as list queries of
 * the matching view; the results narrow the normed outputs (concise) or the
 * studies (not concise), and every table of the answer derives from those.
 */
import { deflateSync, inflateSync, strFromU8, strToU8 } from 'fflate';
import type { DatasetTables } from '../data/model.js';
import type { Catalog } from './catalog.js';
import type { DatasetResource, Key, Selection } from './resources.js';
import { DATASET_VIEWS, FILTER_TABLES } from './resources.js';
import { pushTo } from '../data/records.js';

// The catalog runs the prefixed queries; the type of a result lives in ./resources.ts, so catalog.ts need not import this file.
export type { Selection } from './resources.js';

const PREFIXES = ['studies', 'groups', 'individuals', 'interventions', 'outputs'] as const satisfies readonly DatasetResource[];
type Prefix = (typeof PREFIXES)[number];

export interface FilterRequest {
  /** Parameters per prefix, prefix stripped; a repeated key keeps its last value (`request.GET.items()`). */
  prefixed: Map<Prefix, Map<string, string>>;
  /** False only for the exact string `false`. */
  concise: boolean;
  /** True only for the exact string `true`. */
  download: boolean;
}

export function parseFilterRequest(params: URLSearchParams): FilterRequest {
  const prefixed = new Map<Prefix, Map<string, string>>();
  for (const [key, value] of params) {
    const prefix = PREFIXES.find((p) => key.startsWith(`${p}__`));
    if (!prefix) continue;
    let entries = prefixed.get(prefix);
    if (!entries) prefixed.set(prefix, (entries = new Map()));
    entries.set(key.slice(prefix.length + 2), value);
  }
  const last = (key: string) => params.getAll(key).at(-1) ?? null;
  return { prefixed, concise: last('concise') !== 'false', download: last('download') === 'true' };
}

function emptySelection(): Selection {
  return Object.fromEntries(FILTER_TABLES.map((t) => [t, new Set<Key>()])) as Selection;
}

/** Output pk -> the subsets (timecourses, scatters) it is a point of. */
function subsetsByOutput(tables: DatasetTables): { timecourses: Map<number, number[]>; scatters: Map<number, number[]> } {
  const add = (map: Map<number, number[]>, outputPk: unknown, subsetPk: number) => {
    if (typeof outputPk !== 'number') return;
    pushTo(map, outputPk, subsetPk);
  };
  const timecourses = new Map<number, number[]>();
  const scatters = new Map<number, number[]>();
  for (const tc of tables.timecourses) for (const pk of tc.output_pk) add(timecourses, pk, tc.subset_pk);
  for (const s of tables.scatters) {
    for (const side of [s.x.outputs_pk, s.y.outputs_pk]) {
      for (const pk of Array.isArray(side) ? side : [side]) add(scatters, pk, s.subset_pk);
    }
  }
  return { timecourses, scatters };
}

export class Filter {
  private readonly subsetIndex: ReturnType<typeof subsetsByOutput>;

  constructor(private readonly catalog: Catalog) {
    this.subsetIndex = subsetsByOutput(catalog.tables);
  }

  /** The keys a prefixed query selects in its list view (normed=true forced where PK-DB forces it). */
  private match(prefix: Prefix, entries: Map<string, string> | undefined, findSelection: (uuid: string) => Selection): Set<Key> {
    const params = new URLSearchParams([...(entries ?? new Map<string, string>())]);
    if (prefix === 'interventions' || prefix === 'outputs') params.set('normed', 'true');
    const view = DATASET_VIEWS[prefix];
    return new Set(this.catalog.select(prefix, params, findSelection).map((item) => view.key(item)));
  }

  run(request: FilterRequest, findSelection: (uuid: string) => Selection): Selection {
    const tables = this.catalog.tables;
    const { prefixed, concise } = request;
    const match = (prefix: Prefix) => this.match(prefix, prefixed.get(prefix), findSelection);

    let studySids: Set<Key> = prefixed.has('studies') ? match('studies') : new Set(tables.studies.map((s) => s.sid));
    let outputs = tables.outputs.filter((o) => o.normed && studySids.has(o.study_sid));
    const keepStudies = (sids: Iterable<string>) => {
      const keep = new Set(sids);
      studySids = new Set([...studySids].filter((sid) => keep.has(sid as string)));
    };

    if (prefixed.has('groups') || prefixed.has('individuals')) {
      const groupPks = match('groups');
      const individualPks = match('individuals');
      if (concise) {
        outputs = outputs.filter(
          (o) => (o.group_pk !== null && groupPks.has(o.group_pk)) || (o.individual_pk !== null && individualPks.has(o.individual_pk)),
        );
      } else {
        keepStudies([
          ...tables.groups.filter((g) => groupPks.has(g.pk)).map((g) => g.study_sid),
          ...tables.individuals.filter((i) => individualPks.has(i.pk)).map((i) => i.study_sid),
        ]);
      }
    }
    if (prefixed.has('interventions')) {
      const pks = match('interventions');
      if (concise) outputs = outputs.filter((o) => o.intervention_pks.some((pk) => pks.has(pk)));
      else keepStudies(tables.interventions.filter((i) => pks.has(i.pk)).map((i) => i.study_sid));
    }
    if (prefixed.has('outputs')) {
      const pks = match('outputs');
      if (concise) outputs = outputs.filter((o) => pks.has(o.pk));
      else keepStudies(tables.outputs.filter((o) => pks.has(o.pk)).map((o) => o.study_sid));
    }
    return concise ? this.fromOutputs(outputs) : this.wholeStudies(studySids);
  }

  /** concise=true: every table is what the surviving outputs reference. */
  private fromOutputs(outputs: DatasetTables['outputs']): Selection {
    const s = emptySelection();
    for (const o of outputs) {
      s.studies.add(o.study_sid);
      s.outputs.add(o.pk);
      if (o.group_pk !== null) s.groups.add(o.group_pk);
      // Members of a group are not included: only individual-level outputs name individuals.
      else if (o.individual_pk !== null) s.individuals.add(o.individual_pk);
      for (const pk of o.intervention_pks) s.interventions.add(pk);
      for (const pk of this.subsetIndex.timecourses.get(o.pk) ?? []) s.timecourses.add(pk);
      for (const pk of this.subsetIndex.scatters.get(o.pk) ?? []) s.scatters.add(pk);
    }
    return s;
  }

  /** concise=false: the filters only chose studies; each keeps all its content. */
  private wholeStudies(studySids: Set<Key>): Selection {
    const t = this.catalog.tables;
    const s = emptySelection();
    const inStudy = (row: { study_sid: string }) => studySids.has(row.study_sid);
    for (const row of t.studies) if (inStudy({ study_sid: row.sid })) s.studies.add(row.sid);
    for (const row of t.groups) if (inStudy(row)) s.groups.add(row.pk);
    for (const row of t.individuals) if (inStudy(row)) s.individuals.add(row.pk);
    for (const row of t.interventions) if (row.normed && inStudy(row)) s.interventions.add(row.pk);
    for (const row of t.outputs) if (row.normed && inStudy(row)) s.outputs.add(row.pk);
    for (const row of t.timecourses) if (inStudy(row)) s.timecourses.add(row.subset_pk);
    for (const row of t.scatters) if (inStudy(row)) s.scatters.add(row.subset_pk);
    return s;
  }
}

/** The filter summary: counts of unique keys per table, in PK-DB's key order. */
export function summaryOf(uuid: string, selection: Selection) {
  return {
    uuid,
    studies: selection.studies.size,
    groups: selection.groups.size,
    individuals: selection.individuals.size,
    interventions: selection.interventions.size,
    outputs: selection.outputs.size,
    timecourses: selection.timecourses.size,
    scatters: selection.scatters.size,
  };
}

/** The tables of a filter result, for the download zip. Terms and info nodes are kept whole (HEAD's info_nodes.csv lists all). */
export function selectTables(tables: DatasetTables, s: Selection): DatasetTables {
  const sids = new Set([...s.studies].map(String));
  return {
    studies: tables.studies.filter((r) => sids.has(r.sid)),
    groups: tables.groups.filter((r) => s.groups.has(r.pk)),
    individuals: tables.individuals.filter((r) => s.individuals.has(r.pk)),
    interventions: tables.interventions.filter((r) => r.normed && s.interventions.has(r.pk)),
    outputs: tables.outputs.filter((r) => r.normed && s.outputs.has(r.pk)),
    timecourses: tables.timecourses.filter((r) => s.timecourses.has(r.subset_pk)),
    scatters: tables.scatters.filter((r) => s.scatters.has(r.subset_pk)),
    terms: tables.terms,
    ...(tables.info_nodes ? { info_nodes: tables.info_nodes } : {}),
    ...(tables.references ? { references: tables.references } : {}),
  };
}

/**
 * A selection as stored bytes: per table the sorted keys, integer pks as
 * differences from the previous one, then deflated. An unfiltered result of the
 * shared export (58 000 output pks) takes a few kB instead of ~400 kB of JSON,
 * which matters because every change rewrites the whole database file.
 */
export function encodeSelection(s: Selection): Uint8Array {
  const tables = Object.fromEntries(
    FILTER_TABLES.map((t) => {
      const keys = [...s[t]];
      if (!keys.every((k) => typeof k === 'number')) return [t, { keys: keys.map(String).sort() }];
      const sorted = (keys as number[]).sort((a, b) => a - b);
      return [t, { deltas: sorted.map((k, i) => (i === 0 ? k : k - sorted[i - 1])) }];
    }),
  );
  return deflateSync(strToU8(JSON.stringify(tables)));
}

export function decodeSelection(bytes: Uint8Array): Selection {
  const tables = JSON.parse(strFromU8(inflateSync(bytes))) as Record<string, { keys?: string[]; deltas?: number[] }>;
  return Object.fromEntries(
    FILTER_TABLES.map((t) => {
      const { keys, deltas } = tables[t] ?? {};
      if (keys) return [t, new Set<Key>(keys)];
      let running = 0;
      return [t, new Set<Key>((deltas ?? []).map((d) => (running += d)))];
    }),
  ) as Selection;
}
