/**
 * PK-DB's own Python client, pkdb_analysis 0.1.6, against `pkdb serve`: its
 * request sequence replayed over HTTP, byte for byte where it matters (paths,
 * parameter order, the lowercase `token` keyword), anonymous and with a token.
 *
 * - `PKDB.query(pkfilter)`: for each of the six pkdata lists (studies,
 *   interventions, individuals, groups, outputs, timecourses, in its order)
 *   it first POSTs `{username, password}` to `<API_BASE>/api-token-auth/`
 *   when credentials are set, GETs `?format=json&page_size=2000[&normed=true]
 *   &study_name__in=A__B` for `last_page`, then every page 1..last_page with
 *   `&page=N` appended (query.py: PKDB._get_subset, _get_data).
 * - `PKDB.query_` (the filter download): GET `/filter/?studies__name__in=A__B
 *   &concise=false&download=true` and `pd.read_csv` on every member, which
 *   raises EmptyDataError on a 0-byte file (PKData.from_download).
 *
 * Shapes and counts are checked against the served dataset's own tables.
 */
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Dataset } from '../../src/data/dataset.js';
import { parseCsv } from '../../src/data/export/csv.js';
import { readExport } from '../../src/data/export/read.js';
import { loadFixtures } from '../../src/data/fixtures.js';
import type { DatasetTables } from '../../src/data/model.js';
import { startServer, type RunningServer } from '../../src/server/app.js';
import { hashPassword, UserTable } from '../../src/server/auth.js';
import { describeShared, SHARED_EXPORT } from '../helpers/shared.js';

type Item = Record<string, unknown>;
const SUBSETS = ['studies', 'interventions', 'individuals', 'groups', 'outputs', 'timecourses'] as const;
type Subset = (typeof SUBSETS)[number];
const CSV_MEMBERS = ['studies', 'groups', 'individuals', 'interventions', 'outputs', 'timecourses', 'scatters'] as const;
type Member = (typeof CSV_MEMBERS)[number];
const USER = 'analyst';
const PASSWORD = 'pkdb analysis 0.1.6';

interface Envelope {
  current_page: number;
  last_page: number;
  next_page_url: string | null;
  prev_page_url: string | null;
  data: { count: number; data: Item[] };
}

/** pandas' read_csv as PKData.from_download meets it: a 0-byte member is EmptyDataError, `""` an empty frame. */
function readCsvLikePandas(name: string, text: string): { columns: string[]; rows: string[][] } {
  if (text.trim() === '') throw new Error(`${name}: EmptyDataError: No columns to parse from file`);
  const { header, rows } = parseCsv(text);
  for (const row of rows) if (row.error !== undefined) throw new Error(`${name} line ${row.line}: ${row.error}`);
  return { columns: header, rows: rows.map((r) => r.cells) };
}

/** One pkdb_analysis session against a server: API_BASE, optional USER/PASSWORD, and a log of every request. */
class PkdbAnalysis {
  readonly requests: string[] = [];
  readonly tokens: string[] = [];

  constructor(
    private readonly apiBase: string,
    private readonly credentials?: { username: string; password: string },
  ) {}

  private get apiUrl(): string {
    return `${this.apiBase}/api/v1`;
  }

  /** PKDB.get_authentication_headers: a fresh POST per call, `{"Authorization": "token <key>"}`. */
  private async headers(): Promise<Record<string, string>> {
    if (!this.credentials) return {};
    const url = `${this.apiBase}/api-token-auth/`;
    this.requests.push(`POST ${url}`);
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(this.credentials) });
    expect(response.status, url).toBe(200);
    const { token } = (await response.json()) as { token: string };
    expect(token).toMatch(/^[0-9a-f]{40}$/);
    this.tokens.push(token);
    return { Authorization: `token ${token}` };
  }

  private async getJson(url: string, headers: Record<string, string>): Promise<Envelope> {
    this.requests.push(`GET ${url}`);
    const response = await fetch(url, { headers });
    expect(response.status, url).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    return (await response.json()) as Envelope;
  }

  /** PKDB._get_data: the first page for last_page, then pages 1..last_page. */
  private async getData(name: Subset, params: [string, string][], headers: Record<string, string>): Promise<Item[]> {
    const actualUrl = `${this.apiUrl}/pkdata/${name}/?${new URLSearchParams(params).toString()}`;
    const first = await this.getJson(actualUrl, headers);
    const lastPage = first.last_page;
    expect(Number.isInteger(lastPage) && lastPage >= 1).toBe(true);
    const items: Item[] = [];
    for (let page = 1; page <= lastPage; page++) {
      const envelope = await this.getJson(`${actualUrl}&page=${page}`, headers);
      expect(Object.keys(envelope)).toEqual(['current_page', 'last_page', 'next_page_url', 'prev_page_url', 'data']);
      expect(envelope.current_page).toBe(page);
      expect(envelope.last_page).toBe(lastPage);
      expect(envelope.data.count).toBe(first.data.count);
      expect(envelope.next_page_url === null).toBe(page === lastPage);
      items.push(...envelope.data.data);
    }
    expect(items).toHaveLength(first.data.count);
    return items;
  }

  /** PKDB.query with PKFilter(normed=True) and, given study names, add_to_all("study_name__in", "A__B"). */
  async query(studyNames?: string[]): Promise<Record<Subset, Item[]>> {
    const out = {} as Record<Subset, Item[]>;
    for (const name of SUBSETS) {
      const params: [string, string][] = [
        ['format', 'json'],
        ['page_size', '2000'],
      ];
      if (name === 'interventions' || name === 'outputs') params.push(['normed', 'true']);
      if (studyNames) params.push(['study_name__in', studyNames.join('__')]);
      out[name] = await this.getData(name, params, await this.headers());
    }
    return out;
  }

  /** The filter download of PKDB.query_, every member read as pandas reads it. */
  async download(studyNames: string[]): Promise<Record<Member, { columns: string[]; rows: string[][] }>> {
    const url = `${this.apiUrl}/filter/?${new URLSearchParams({ studies__name__in: studyNames.join('__'), concise: 'false', download: 'true' })}`;
    const headers = await this.headers();
    this.requests.push(`GET ${url}`);
    const response = await fetch(url, { headers });
    expect(response.status, url).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/x-zip-compressed');
    const files = unzipSync(new Uint8Array(await response.arrayBuffer()));
    const out = {} as Record<Member, { columns: string[]; rows: string[][] }>;
    for (const member of CSV_MEMBERS) {
      const bytes = files[`${member}.csv`];
      expect(bytes, `${member}.csv`).toBeDefined();
      out[member] = readCsvLikePandas(`${member}.csv`, strFromU8(bytes));
    }
    return out;
  }
}

/** What the six lists and the seven members must hold for these study names, from the dataset's tables. */
function expected(tables: DatasetTables, names: Set<string>) {
  const inStudies = <T extends { study_name: string }>(rows: T[]) => rows.filter((r) => names.has(r.study_name));
  return {
    studies: tables.studies.filter((s) => names.has(s.name)).length,
    interventions: inStudies(tables.interventions).filter((i) => i.normed).length,
    groups: inStudies(tables.groups).length,
    individuals: inStudies(tables.individuals).length,
    outputs: inStudies(tables.outputs).filter((o) => o.normed).length,
    timecourses: inStudies(tables.timecourses).length,
    scatters: inStudies(tables.scatters).length,
  };
}

const distinct = (items: Item[], key: string) => new Set(items.map((i) => i[key])).size;

/** Runs PKDB.query and the filter download for `names` and checks both against the tables. */
async function checkSession(session: PkdbAnalysis, tables: DatasetTables, names: string[]): Promise<void> {
  const want = expected(tables, new Set(names));
  const lists = await session.query(names);
  expect(lists.studies.map((s) => s.name).sort()).toEqual([...names].sort());
  expect(lists.studies).toHaveLength(want.studies);
  expect(Object.keys(lists.studies[0])).toEqual(
    expect.arrayContaining(['sid', 'name', 'licence', 'access', 'date', 'creator', 'curators', 'substances', 'reference_pmid']),
  );
  for (const name of SUBSETS.filter((s) => s !== 'studies')) {
    for (const item of lists[name]) expect(names, name).toContain(item.study_name);
  }
  expect(lists.interventions).toHaveLength(want.interventions);
  expect(lists.interventions.every((i) => i.normed === true)).toBe(true);
  expect(distinct(lists.groups, 'group_pk')).toBe(want.groups);
  expect(distinct(lists.individuals, 'individual_pk')).toBe(want.individuals);
  expect(distinct(lists.outputs, 'output_pk')).toBe(want.outputs);
  expect(lists.outputs.every((o) => o.normed === true)).toBe(true);
  expect(lists.timecourses).toHaveLength(want.timecourses);

  const zip = await session.download(names);
  const column = (member: Member, name: string) => {
    const at = zip[member].columns.indexOf(name);
    expect(at, `${member}.csv column ${name}`).toBeGreaterThan(0);
    return zip[member].rows.map((row) => row[at]);
  };
  expect(zip.studies.rows).toHaveLength(want.studies);
  expect(column('studies', 'name').sort()).toEqual([...names].sort());
  expect(zip.interventions.rows).toHaveLength(want.interventions);
  // The lists are the CSVs as JSON: one row per subject × characteristica and per output × intervention.
  expect(zip.groups.rows).toHaveLength(lists.groups.length);
  expect(zip.individuals.rows).toHaveLength(lists.individuals.length);
  expect(zip.outputs.rows).toHaveLength(lists.outputs.length);
  expect(new Set(column('outputs', 'output_pk')).size).toBe(want.outputs);
  expect(zip.timecourses.rows).toHaveLength(want.timecourses);
  expect(zip.scatters.rows).toHaveLength(want.scatters);
  for (const member of CSV_MEMBERS) {
    // pandas' index column comes first; an empty table is the empty frame `""` (one unnamed column, no rows).
    expect(zip[member].columns[0], member).toBe('');
    if (zip[member].rows.length === 0) expect(zip[member].columns, member).toEqual(['']);
  }
}

/** Study names for a narrow query: `wanted`, then one without timecourses, one with scatters, one with timecourses (those that exist; at least two). */
function pickStudies(tables: DatasetTables, wanted: string[]): string[] {
  const names = new Set(wanted);
  const withTimecourses = new Set(tables.timecourses.map((t) => t.study_name));
  const withScatters = new Set(tables.scatters.map((s) => s.study_name));
  const sorted = tables.studies.map((s) => s.name).sort();
  const add = (name: string | undefined) => name !== undefined && names.add(name);
  add(sorted.find((n) => !withTimecourses.has(n) && !names.has(n)));
  add(sorted.find((n) => withScatters.has(n) && !names.has(n)));
  add(sorted.find((n) => withTimecourses.has(n) && !names.has(n)));
  if (names.size < 2) add(sorted.find((n) => !names.has(n)));
  return [...names];
}

function suite(load: () => Promise<DatasetTables>, fixedNames: string[], options: { unfiltered: boolean }) {
  let server: RunningServer;
  let apiBase: string;
  let tables: DatasetTables;
  let names: string[];

  beforeAll(async () => {
    tables = await load();
    server = await startServer({
      dataset: { tables },
      port: 0,
      users: new UserTable({ users: [{ username: USER, hash: await hashPassword(PASSWORD) }] }),
    });
    apiBase = server.url.replace(/\/api\/v1\/$/, '');
    names = pickStudies(tables, fixedNames);
    expect(names.length).toBeGreaterThanOrEqual(2);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('anonymous: PKDB.query over the six pkdata lists and the filter download match the dataset', { timeout: 60_000 }, async () => {
    const session = new PkdbAnalysis(apiBase);
    await checkSession(session, tables, names);
    expect(session.requests.filter((r) => r.startsWith('POST'))).toEqual([]);
    expect(session.requests[0]).toBe(
      `GET ${apiBase}/api/v1/pkdata/studies/?format=json&page_size=2000&study_name__in=${encodeURIComponent(names.join('__'))}`,
    );
  });

  it('with a token: one login per list and per download, the same key each time, then the same answers', { timeout: 60_000 }, async () => {
    const session = new PkdbAnalysis(apiBase, { username: USER, password: PASSWORD });
    await checkSession(session, tables, names);
    expect(session.tokens).toHaveLength(SUBSETS.length + 1);
    expect(new Set(session.tokens).size).toBe(1);
    expect(session.requests[0]).toBe(`POST ${apiBase}/api-token-auth/`);
    const wrong = new PkdbAnalysis(apiBase, { username: USER, password: 'wrong' });
    await expect(wrong.query(names)).rejects.toThrow(/expected 400 to be 200/);
  });

  if (options.unfiltered) {
    it('anonymous PKDB.query() without a filter pages through every list of the whole dataset', { timeout: 120_000 }, async () => {
      const session = new PkdbAnalysis(apiBase);
      const lists = await session.query();
      const all = new Set(tables.studies.map((s) => s.name));
      const want = expected(tables, all);
      expect(lists.studies).toHaveLength(want.studies);
      expect(lists.interventions).toHaveLength(want.interventions);
      expect(distinct(lists.groups, 'group_pk')).toBe(want.groups);
      expect(distinct(lists.individuals, 'individual_pk')).toBe(want.individuals);
      expect(distinct(lists.outputs, 'output_pk')).toBe(want.outputs);
      expect(lists.timecourses).toHaveLength(want.timecourses);
      // page_size=2000 is served as 1000 (README: deviations), so the outputs take many pages.
      expect(session.requests.filter((r) => r.includes('/pkdata/outputs/') && r.includes('&page=')).length).toBe(
        Math.ceil(lists.outputs.length / 1000),
      );
    });
  }
}

describe('pkdb_analysis 0.1.6 against pkdb serve (bundled fixtures)', () => {
  suite(async () => (await loadFixtures()).tables, [], { unfiltered: false });
});

describeShared('pkdb_analysis 0.1.6 against pkdb serve (shared export)', SHARED_EXPORT, () => {
  suite(
    async () => Dataset.fromTables((await readExport(SHARED_EXPORT)).tables, { kind: 'export', location: SHARED_EXPORT }).tables,
    ['Abernethy1982'],
    { unfiltered: true },
  );
});
