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
import {
  basicAuthorization,
  cacheScope,
  normaliseBaseUrl,
  resolveCredentials,
  scrubSecrets,
  secretsOf,
  tokenAuthorization,
  tokenExchangeUrl,
  type AuthMode,
  type Credentials,
} from './auth.js';
import { ResponseCache } from './cache.js';
import { SchemaError, type RequestContext } from './errors.js';
import { filterParams, type FilterQuery } from './filter.js';
import { HttpTransport, publicUrl, type HttpRequest, type HttpResponse, type RequestInfo, type RetryInfo } from './http.js';
import { jsonErrorPosition } from './json-position.js';
import { laterPageProblem, pageCountProblem, pageProblem, type PageProblem } from './pages.js';
import { applyParams, type ListParams } from './query.js';
import {
  DataFile,
  FilterSummary,
  Paginated,
  RESOURCES,
  RootListing,
  Statistics,
  SubstanceStatisticsList,
  TokenResponse,
  WriteReference,
  WriteStudy,
  type Page,
  type ResourceItem,
  type ResourceName,
  type SubstanceStatistics,
} from './schemas/index.js';
import { parseOrThrow } from './schemas/validate.js';

export interface PkdbClientOptions {
  /**
   * e.g. `https://pk-db.com/api/v1/`; `/api/v1/` is appended when the path
   * lacks it. User info (`http://alice:pw@host/`) is taken out and used as
   * `username`/`password` (which win when given too).
   */
  baseUrl: string;
  username?: string;
  password?: string;
  /** How username/password are sent: `'basic'` (default) on every request, or `'token'`: exchanged once at `<root>/api-token-auth/`. */
  auth?: AuthMode;
  /** A PK-DB API token, sent as `Authorization: Token <token>`; excludes username/password. */
  token?: string;
  /** Pages fetched at once by `all()`, and connections kept open. */
  concurrency?: number;
  /** Per attempt: time to the response headers and between body chunks. Default 30 s. */
  timeoutMs?: number;
  /** Total time of one request: every attempt, redirect, retry wait and the whole body. Default 5 min. */
  deadlineMs?: number;
  /** Largest response body read (JSON page or filter zip). Default 256 MiB. */
  maxResponseBytes?: number;
  /** Redirects followed by a GET; a loop fails at once. Default 5. */
  maxRedirects?: number;
  /** Most pages `all()` fetches of one list; a larger `last_page` is a SchemaError. Default 100 000. */
  maxPages?: number;
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

/** What `filterDownload` returns: the zip's bytes and how messages name them. */
export interface FilterDownload {
  bytes: Uint8Array;
  /** `GET <url>` without credentials. */
  source: string;
}

/** A file for `uploadDataFile`. */
export interface DataFileUpload {
  filename: string;
  data: Uint8Array;
  /** PK-DB's `filetype` field, when the server wants one. */
  filetype?: string;
}

const DEFAULT_USER_AGENT = 'pkdb-toolkit (+https://github.com/matthiaskoenig/pkdb)';

export { normaliseBaseUrl };

/** Default bounds; README "Limits". */
export const CLIENT_DEFAULTS = {
  timeoutMs: 30_000,
  deadlineMs: 5 * 60_000,
  maxResponseBytes: 256 * 1024 * 1024,
  maxRedirects: 5,
  maxPages: 100_000,
} as const;

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!(value > 0)) throw new TypeError(`${name} must be a positive number, got ${value}`);
  return value;
}

type Fetched<T> = { value: T; fromCache: boolean };

export class PkdbClient {
  readonly baseUrl: string;
  readonly concurrency: number;
  readonly statistics: StatisticsAccessor;
  private readonly base: URL;
  private readonly transport: HttpTransport;
  private readonly cache: ResponseCache | undefined;
  private readonly onPage: PkdbClientOptions['onPage'];
  private readonly pageSchemas = new Map<ResourceName, z.ZodType>();
  private readonly credentials: Credentials;
  private readonly secrets: readonly string[];
  private readonly maxPages: number;
  /** The `Authorization` header once known; the token exchange runs once, on the first request that needs it. */
  private authorization: Promise<string | undefined> | undefined;

  constructor(options: PkdbClientOptions) {
    this.base = normaliseBaseUrl(options.baseUrl);
    this.baseUrl = this.base.href;
    this.credentials = resolveCredentials(options);
    this.secrets = secretsOf(this.credentials);
    this.concurrency = Math.max(1, options.concurrency ?? 4);
    this.maxPages = positive('maxPages', options.maxPages, CLIENT_DEFAULTS.maxPages);
    this.transport = new HttpTransport({
      connections: this.concurrency,
      timeoutMs: positive('timeoutMs', options.timeoutMs, CLIENT_DEFAULTS.timeoutMs),
      deadlineMs: positive('deadlineMs', options.deadlineMs, CLIENT_DEFAULTS.deadlineMs),
      maxResponseBytes: positive('maxResponseBytes', options.maxResponseBytes, CLIENT_DEFAULTS.maxResponseBytes),
      maxRedirects: Math.max(0, options.maxRedirects ?? CLIENT_DEFAULTS.maxRedirects),
      retries: Math.max(0, options.retries ?? 4),
      retryBaseDelayMs: options.retryBaseDelayMs ?? 500,
      retryMaxDelayMs: options.retryMaxDelayMs ?? 30_000,
      maxRetryAfterMs: options.maxRetryAfterMs ?? 120_000,
      userAgent: options.userAgent ?? DEFAULT_USER_AGENT,
      secrets: this.secrets,
      onRequest: options.onRequest,
      onRetry: options.onRetry,
    });
    this.cache = options.cacheDir ? new ResponseCache(options.cacheDir, cacheScope(this.credentials)) : undefined;
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
   * Each page must agree with page 1 (./pages.ts): a list that claims more
   * pages than its count allows, or more than `maxPages`, is a SchemaError.
   */
  async *all<R extends ResourceName>(resource: R, params: ListParams = {}, options: AllOptions = {}): AsyncGenerator<ResourceItem<R>, void, undefined> {
    const report = (progress: PageProgress) => {
      this.onPage?.(progress);
      options.onPage?.(progress);
    };
    const first = await this.fetchPage(resource, { ...params, page: 1 });
    const tooMany = pageCountProblem(first.value, this.maxPages);
    if (tooMany) throw new SchemaError({ method: 'GET', url: publicUrl(this.url(`${resource}/`, { ...params, page: 1 })) }, tooMany.path, tooMany.problem);
    const pagesTotal = first.value.last_page;
    const count = first.value.data.count;
    let pagesDone = 1;
    report({ resource, page: 1, pagesDone, pagesTotal, count, fromCache: first.fromCache });
    yield* first.value.data.data as ResourceItem<R>[];

    const inFlight = new Map<number, Promise<Awaited<ReturnType<typeof this.fetchPage<R>>>>>();
    let nextToStart = 2;
    const startMore = () => {
      while (nextToStart <= pagesTotal && inFlight.size < this.concurrency) {
        const pending = this.fetchPage(resource, { ...params, page: nextToStart }, first.value);
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
   * The bytes of GET /filter/?download=true (a zip of CSV tables, not cached),
   * with `source`, how messages about its contents name it (`GET <url>`, any
   * credentials removed). Reading the zip is the data layer's work:
   * `downloadExport(client, query)` (src/data/export/download.ts) returns its tables.
   */
  async filterDownload(query: FilterQuery = {}): Promise<FilterDownload> {
    const url = this.url('filter/');
    url.search = filterParams(query, { download: true }).toString();
    // Bounded by maxResponseBytes like every response: an endless zip is cut off before it is parsed.
    const response = await this.send({ method: 'GET', url, headers: { accept: 'application/zip, application/x-zip-compressed, */*' } });
    const bytes = new Uint8Array(response.body.buffer, response.body.byteOffset, response.body.byteLength);
    return { bytes, source: `GET ${publicUrl(url)}` };
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
    const response = await this.send({ method: 'POST', url, body: form });
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

  /**
   * One page, checked on its own (./pages.ts) and, with `first`, against
   * page 1 of its list, before it is cached: a page that is not the one
   * requested (e.g. page 2 redirected to page 1) is an error, never a cache entry.
   */
  private async fetchPage<R extends ResourceName>(resource: R, params: ListParams & { page: number | 'last' }, first?: Page<z.ZodType>): Promise<Fetched<Page<(typeof RESOURCES)[R]>>> {
    if (!(resource in RESOURCES)) throw new TypeError(`unknown resource "${resource}"; known: ${Object.keys(RESOURCES).join(', ')}`);
    const requested = params.page;
    // The page schema is built per resource at run time, so its output type is `unknown` here.
    const check = (value: unknown): PageProblem | undefined => {
      const page = value as Page<z.ZodType>;
      return pageProblem(page, requested) ?? (first !== undefined ? laterPageProblem(first, page) : undefined);
    };
    const result = await this.getJson(this.url(`${resource}/`, params), this.pageSchema(resource), check);
    return result as Fetched<Page<(typeof RESOURCES)[R]>>;
  }

  /**
   * GET, validated (schema, then `check`); served from the cache when present
   * there, cached after validation otherwise. The key is the URL requested, so
   * a response that came through a redirect to another path or query is not
   * cached: it is not what that URL names.
   */
  private async getJson<S extends z.ZodType>(url: URL, schema: S, check?: (value: z.infer<S>) => PageProblem | undefined): Promise<Fetched<z.infer<S>>> {
    const context: RequestContext = { method: 'GET', url: publicUrl(url) };
    const validate = (text: string) => {
      const value = this.decode(text, schema, context);
      const problem = check?.(value);
      if (problem) throw new SchemaError(context, problem.path, problem.problem);
      return value;
    };
    const cached = await this.cache?.get('GET', context.url);
    if (cached !== undefined) return { value: validate(cached), fromCache: true };
    const response = await this.send({ method: 'GET', url });
    const text = response.body.toString('utf8');
    const value = validate(text);
    if (samePage(url, response)) await this.cache?.set('GET', context.url, text);
    return { value, fromCache: false };
  }

  private async postJson<S extends z.ZodType>(path: string, body: unknown, schema: S): Promise<z.infer<S>> {
    const url = this.url(path);
    const request: HttpRequest = { method: 'POST', url, body: JSON.stringify(body), headers: { 'content-type': 'application/json' } };
    const response = await this.send(request);
    return this.decode(response.body.toString('utf8'), schema, { method: 'POST', url: publicUrl(url) });
  }

  /** Through the transport, with the `Authorization` header of the client's credentials. */
  private async send(request: HttpRequest): Promise<HttpResponse> {
    this.authorization ??= this.authorize().catch((error: unknown) => {
      // A failed exchange is not remembered: the next request tries again.
      this.authorization = undefined;
      throw error;
    });
    const authorization = await this.authorization;
    if (authorization === undefined) return this.transport.send(request);
    return this.transport.send({ ...request, headers: { ...request.headers, authorization } });
  }

  private async authorize(): Promise<string | undefined> {
    const credentials = this.credentials;
    switch (credentials.kind) {
      case 'anonymous':
        return undefined;
      case 'basic':
        return basicAuthorization(credentials.username, credentials.password);
      case 'token':
        return tokenAuthorization(credentials.token);
      case 'token-exchange': {
        // PK-DB API notes §3: POST {username, password} -> {"token": "..."}; 400 for bad credentials.
        const url = tokenExchangeUrl(this.base);
        const { username, password } = credentials;
        const body = JSON.stringify({ username, password });
        const response = await this.transport.send({ method: 'POST', url, body, headers: { 'content-type': 'application/json' } });
        const { token } = this.decode(response.body.toString('utf8'), TokenResponse, { method: 'POST', url: publicUrl(url) });
        return tokenAuthorization(token);
      }
    }
  }

  /**
   * JSON.parse + schema; a parse failure names the position and shows the
   * text around it. A server that echoes a password or token does not get it
   * into the message.
   */
  private decode<S extends z.ZodType>(text: string, schema: S, context: RequestContext): z.infer<S> {
    try {
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        const { offset, line, column } = jsonErrorPosition(text);
        const near = text.slice(Math.max(0, offset - 30), offset + 30).replace(/\s+/g, ' ');
        throw new SchemaError(context, '', `invalid JSON at position ${offset} (line ${line}, column ${column}) near ${JSON.stringify(near)}`);
      }
      return parseOrThrow(schema, json, context);
    } catch (error) {
      if (!(error instanceof SchemaError) || this.secrets.length === 0) throw error;
      const scrub = (text: string) => scrubSecrets(text, this.secrets);
      throw new SchemaError(error.request, scrub(error.path), scrub(error.problem), error.more.map(scrub));
    }
  }
}

/** Whether a response is the page its URL names: no redirect, or one that kept path and query (e.g. http -> https). */
function samePage(requested: URL, response: HttpResponse): boolean {
  return response.url.pathname === requested.pathname && response.url.search === requested.search;
}
