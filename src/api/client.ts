/**
 * `PkdbClient`: typed access to a PK-DB API v1 server (the real one or
 * `pkdb serve`) over undici, with validation, retries and an optional cache.
 *
 * Every response is validated with the resource's zod schema
 * (./schemas/resources.ts), so callers get typed items or an error that
 * names the URL and the JSON path.
 */
import { Blob } from 'node:buffer';
import { FormData } from 'undici';
import type { z } from 'zod';
import { readExport, type ExportReadResult } from '../data/export/read.js';
import { ResponseCache } from './cache.js';
import { SchemaError, type RequestContext } from './errors.js';
import { filterParams, type FilterQuery } from './filter.js';
import { basicAuthorization, HttpTransport, publicUrl, type HttpRequest, type RequestInfo, type RetryInfo } from './http.js';
import { jsonErrorPosition } from './json-position.js';
import { applyParams, type ListParams } from './query.js';
import {
  DataFile,
  FilterSummary,
  Paginated,
  RESOURCES,
  RootListing,
  Statistics,
  SubstanceStatisticsList,
  WriteReference,
  WriteStudy,
  type Page,
  type ResourceItem,
  type ResourceName,
  type SubstanceStatistics,
} from './schemas/index.js';
import { parseOrThrow } from './schemas/validate.js';

export interface PkdbClientOptions {
  /** e.g. `https://pk-db.com/api/v1/`; `/api/v1/` is appended when the path lacks it. */
  baseUrl: string;
  username?: string;
  password?: string;
  /** Pages fetched at once by `all()`, and connections kept open. */
  concurrency?: number;
  /** Per attempt: time to the response headers and between body chunks. */
  timeoutMs?: number;
  /** Retries after the first attempt on 429/502/503/504 and dropped connections. */
  retries?: number;
  /** Backoff ceiling of the first retry (doubles each retry, full jitter). Default 500 ms. */
  retryBaseDelayMs?: number;
  /** Largest backoff ceiling. Default 30 s. */
  retryMaxDelayMs?: number;
  /** Longest `Retry-After` the client waits for; a longer one fails at once. Default 120 s. */
  maxRetryAfterMs?: number;
  /** Folder of the on-disk GET response cache; no cache when absent. */
  cacheDir?: string;
  userAgent?: string;
  /** Before every HTTP attempt (not for cache hits). */
  onRequest?: (info: RequestInfo) => void;
  /** Before waiting for a retry. */
  onRetry?: (info: RetryInfo) => void;
  /** After each page of `all()`: pages done out of the list's `last_page`. */
  onPage?: (info: PageProgress) => void;
}

export interface PageProgress {
  resource: ResourceName;
  page: number;
  pagesDone: number;
  pagesTotal: number;
  /** Items in the whole list. */
  count: number;
  fromCache: boolean;
}

/** Per-call options of `all()` and `list()`. */
export interface AllOptions {
  /** After each page, in addition to the client's `onPage`. */
  onPage?: (info: PageProgress) => void;
}

/** `client.statistics()` is the overview; `client.statistics.substances()` the bare per-substance array. */
export type StatisticsAccessor = (() => Promise<Statistics>) & {
  overview(): Promise<Statistics>;
  substances(): Promise<SubstanceStatistics[]>;
};

/** A file for `uploadDataFile`. */
export interface DataFileUpload {
  filename: string;
  data: Uint8Array;
  /** PK-DB's `filetype` field, when the server wants one. */
  filetype?: string;
}

const DEFAULT_USER_AGENT = 'pkdb-toolkit (+https://github.com/matthiaskoenig/pkdb)';

/** `http://host:8000` -> `http://host:8000/api/v1/`; credentials in the URL are removed. */
export function normaliseBaseUrl(baseUrl: string): URL {
  const url = new URL(baseUrl);
  url.username = '';
  url.password = '';
  url.search = '';
  url.hash = '';
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  if (!url.pathname.endsWith('/api/v1/')) url.pathname += 'api/v1/';
  return url;
}

export class PkdbClient {
  readonly baseUrl: string;
  readonly concurrency: number;
  readonly statistics: StatisticsAccessor;
  private readonly base: URL;
  private readonly transport: HttpTransport;
  private readonly cache: ResponseCache | undefined;
  private readonly onPage: PkdbClientOptions['onPage'];
  private readonly pageSchemas = new Map<ResourceName, z.ZodType>();

  constructor(options: PkdbClientOptions) {
    this.base = normaliseBaseUrl(options.baseUrl);
    this.baseUrl = this.base.href;
    const inUrl = new URL(options.baseUrl);
    const username = options.username ?? (inUrl.username ? decodeURIComponent(inUrl.username) : undefined);
    const password = options.password ?? (inUrl.password ? decodeURIComponent(inUrl.password) : undefined);
    this.concurrency = Math.max(1, options.concurrency ?? 4);
    this.transport = new HttpTransport({
      connections: this.concurrency,
      timeoutMs: options.timeoutMs ?? 30_000,
      retries: Math.max(0, options.retries ?? 4),
      retryBaseDelayMs: options.retryBaseDelayMs ?? 500,
      retryMaxDelayMs: options.retryMaxDelayMs ?? 30_000,
      maxRetryAfterMs: options.maxRetryAfterMs ?? 120_000,
      userAgent: options.userAgent ?? DEFAULT_USER_AGENT,
      authorization: username !== undefined ? basicAuthorization(username, password ?? '') : undefined,
      onRequest: options.onRequest,
      onRetry: options.onRetry,
    });
    this.cache = options.cacheDir ? new ResponseCache(options.cacheDir, options.username ?? null) : undefined;
    this.onPage = options.onPage;
    const overview = () => this.getJson(this.url('statistics/'), Statistics).then(({ value }) => value);
    const substances = () => this.getJson(this.url('statistics/substances/'), SubstanceStatisticsList).then(({ value }) => value);
    this.statistics = Object.assign(overview, { overview, substances });
  }

  /** Absolute URL of `path` (relative to /api/v1/) with `params`. */
  url(path: string, params?: ListParams): URL {
    return applyParams(new URL(path, this.base), params);
  }

  /** One page of a list (page 1 unless `page` is given; `'last'` works too). */
  async page<R extends ResourceName>(resource: R, params: ListParams & { page?: number | 'last' } = {}): Promise<Page<(typeof RESOURCES)[R]>> {
    // Page 1 is asked for explicitly so that page() and all() share cache entries.
    const { value } = await this.fetchPage(resource, { ...params, page: params.page ?? 1 });
    return value;
  }

  /**
   * Every item of every page, in page order. Page 1 tells `last_page`; the
   * other pages are fetched up to `concurrency` at a time and yielded in order.
   */
  async *all<R extends ResourceName>(resource: R, params: ListParams = {}, options: AllOptions = {}): AsyncGenerator<ResourceItem<R>, void, undefined> {
    const report = (progress: PageProgress) => {
      this.onPage?.(progress);
      options.onPage?.(progress);
    };
    const first = await this.fetchPage(resource, { ...params, page: 1 });
    const pagesTotal = Math.max(1, first.value.last_page);
    const count = first.value.data.count;
    let pagesDone = 1;
    report({ resource, page: 1, pagesDone, pagesTotal, count, fromCache: first.fromCache });
    yield* first.value.data.data as ResourceItem<R>[];

    const inFlight = new Map<number, Promise<Awaited<ReturnType<typeof this.fetchPage<R>>>>>();
    let nextToStart = 2;
    const startMore = () => {
      while (nextToStart <= pagesTotal && inFlight.size < this.concurrency) {
        const pending = this.fetchPage(resource, { ...params, page: nextToStart });
        // Marks the rejection handled while an earlier page is awaited; it is re-thrown in order below.
        pending.catch(() => undefined);
        inFlight.set(nextToStart++, pending);
      }
    };
    for (let page = 2; page <= pagesTotal; page++) {
      startMore();
      const result = await inFlight.get(page)!;
      inFlight.delete(page);
      pagesDone++;
      report({ resource, page, pagesDone, pagesTotal, count, fromCache: result.fromCache });
      yield* result.value.data.data as ResourceItem<R>[];
    }
  }

  /** Every item of a list as an array. */
  async list<R extends ResourceName>(resource: R, params: ListParams = {}, options: AllOptions = {}): Promise<ResourceItem<R>[]> {
    const items: ResourceItem<R>[] = [];
    for await (const item of this.all(resource, params, options)) items.push(item);
    return items;
  }

  /** One item by its detail route: sid for studies, references and info nodes; integer id otherwise. */
  async get<R extends ResourceName>(resource: R, id: string | number): Promise<ResourceItem<R>> {
    const { value } = await this.getJson(this.url(`${resource}/${encodeURIComponent(String(id))}/`), RESOURCES[resource]);
    return value as ResourceItem<R>;
  }

  /** GET /api/v1/: resource names and their URLs. */
  async root(): Promise<RootListing> {
    return (await this.getJson(this.url(''), RootListing)).value;
  }

  /** GET /filter/: counts per table and the uuid that selects this result later. */
  async filter(query: FilterQuery = {}): Promise<FilterSummary> {
    const url = this.url('filter/');
    url.search = filterParams(query).toString();
    return (await this.getJson(url, FilterSummary)).value;
  }

  /**
   * GET /filter/?download=true, read by the export reader: the result's
   * tables, and the rows it had to skip (each naming file, line and column).
   */
  async filterDownload(query: FilterQuery = {}, options: { strict?: boolean } = {}): Promise<ExportReadResult> {
    const url = this.url('filter/');
    url.search = filterParams(query, { download: true }).toString();
    return readExport(await this.filterDownloadBytes(query), { strict: options.strict, name: `GET ${publicUrl(url)}` });
  }

  /** The bytes of GET /filter/?download=true (a zip of CSV tables); not cached. */
  async filterDownloadBytes(query: FilterQuery = {}): Promise<Uint8Array> {
    const url = this.url('filter/');
    url.search = filterParams(query, { download: true }).toString();
    const response = await this.transport.send({ method: 'GET', url, headers: { accept: 'application/zip, application/x-zip-compressed, */*' } });
    return new Uint8Array(response.body.buffer, response.body.byteOffset, response.body.byteLength);
  }

  /** POST /_studies/ (HTTP Basic auth): the created study as the server echoes it. */
  async createStudy(body: WriteStudy): Promise<WriteStudy> {
    return this.postJson('_studies/', body, WriteStudy);
  }

  /** POST /_references/ (HTTP Basic auth). */
  async createReference(body: WriteReference): Promise<WriteReference> {
    return this.postJson('_references/', body, WriteReference);
  }

  /** POST /_datafiles/ as multipart/form-data (HTTP Basic auth): `{file, id}` of the stored file. */
  async uploadDataFile(upload: DataFileUpload): Promise<DataFile> {
    const form = new FormData();
    form.append('file', new Blob([upload.data]), upload.filename);
    if (upload.filetype !== undefined) form.append('filetype', upload.filetype);
    const url = this.url('_datafiles/');
    const response = await this.transport.send({ method: 'POST', url, body: form });
    return this.decode(response.body.toString('utf8'), DataFile, { method: 'POST', url: publicUrl(url) });
  }

  /** Close the connection pool; the client cannot be used afterwards. */
  async close(): Promise<void> {
    await this.transport.close();
  }

  private pageSchema(resource: ResourceName): z.ZodType {
    let schema = this.pageSchemas.get(resource);
    if (!schema) {
      schema = Paginated(RESOURCES[resource]);
      this.pageSchemas.set(resource, schema);
    }
    return schema;
  }

  private async fetchPage<R extends ResourceName>(resource: R, params: ListParams): Promise<{ value: Page<(typeof RESOURCES)[R]>; fromCache: boolean }> {
    if (!(resource in RESOURCES)) throw new TypeError(`unknown resource "${resource}"; known: ${Object.keys(RESOURCES).join(', ')}`);
    const result = await this.getJson(this.url(`${resource}/`, params), this.pageSchema(resource));
    return result as { value: Page<(typeof RESOURCES)[R]>; fromCache: boolean };
  }

  /** GET, validated; served from the cache when present there, cached after validation otherwise. */
  private async getJson<S extends z.ZodType>(url: URL, schema: S): Promise<{ value: z.infer<S>; fromCache: boolean }> {
    const context: RequestContext = { method: 'GET', url: publicUrl(url) };
    const cached = await this.cache?.get('GET', context.url);
    if (cached !== undefined) return { value: this.decode(cached, schema, context), fromCache: true };
    const response = await this.transport.send({ method: 'GET', url });
    const text = response.body.toString('utf8');
    const value = this.decode(text, schema, context);
    await this.cache?.set('GET', context.url, text);
    return { value, fromCache: false };
  }

  private async postJson<S extends z.ZodType>(path: string, body: unknown, schema: S): Promise<z.infer<S>> {
    const url = this.url(path);
    const request: HttpRequest = { method: 'POST', url, body: JSON.stringify(body), headers: { 'content-type': 'application/json' } };
    const response = await this.transport.send(request);
    return this.decode(response.body.toString('utf8'), schema, { method: 'POST', url: publicUrl(url) });
  }

  /** JSON.parse + schema; a parse failure names the position and shows the text around it. */
  private decode<S extends z.ZodType>(text: string, schema: S, context: RequestContext): z.infer<S> {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      const { offset, line, column } = jsonErrorPosition(text);
      const near = text.slice(Math.max(0, offset - 30), offset + 30).replace(/\s+/g, ' ');
      throw new SchemaError(context, '', `invalid JSON at position ${offset} (line ${line}, column ${column}) near ${JSON.stringify(near)}`);
    }
    return parseOrThrow(schema, json, context);
  }
}
