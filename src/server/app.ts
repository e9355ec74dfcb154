/**
 * `pkdb serve`: the PK-DB API v1 over a dataset, on node:http (keep-alive, no
 * framework). Routes live under /api/v1/ with the trailing slash mandatory;
 * every answer is JSON except the filter download (a zip) and uploaded files.
 * Behaviour follows the spec and, where it is silent, PK-DB (PK-DB API notes);
 * the deliberate differences are listed in README.md (`pkdb serve`).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ROOT_RESOURCE_NAMES } from '../api/schemas/index.js';
import { writeExport } from '../data/export/write.js';
import { loadUsers, type UserTable } from './auth.js';
import { Catalog } from './catalog.js';
import { ApiError, invalidPage, methodNotAllowed, notFound } from './errors.js';
import type { Selection } from './filter.js';
import { decodeSelection, encodeSelection, Filter, parseFilterRequest, selectTables, summaryOf } from './filter.js';
import { InvalidPageError, paginate, pageSizeOf } from './pagination.js';
import { checkQueryLimits } from './query.js';
import { boundBaseOf, publicBaseOf, publicLink, requestUrl } from './request.js';
import { isDatasetResource, type DatasetResource } from './resources.js';
import { Store, WRITE_RESOURCES, type WriteResource } from './store.js';
import { obtainToken, TOKEN_BODY_LIMIT_BYTES, TOKEN_PATH, Tokens } from './tokens.js';
import { statisticsItem, substanceStatistics, type HasTables } from './views.js';
import { DEFAULT_BODY_LIMIT_BYTES, authenticate, createDataFile, createRecord, dataFileItem, readBody, requireJsonContentType } from './writes.js';

export const API_PREFIX = '/api/v1/';

export interface ServerOptions {
  dataset: HasTables;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** Folder of the SQLite database (writes, filter results); in memory when absent. */
  dataDir?: string;
  /** Users allowed to write: a users file path or a loaded table. No users: every write is 401. */
  users?: string | UserTable;
  bodyLimitBytes?: number;
  /** The `version` of /statistics/. */
  version?: string;
  /**
   * Base of every link the server hands out (next/previous pages, the API
   * root, data files), e.g. `https://pkdb.example.org/` behind a proxy.
   * Default: the bound address. The Host header is never used.
   */
  publicUrl?: string;
  /** One line per server error (never request headers, so never credentials). */
  log?: (line: string) => void;
}

export interface RunningServer {
  /** Base URL, e.g. `http://127.0.0.1:8000/api/v1/`. */
  url: string;
  close(): Promise<void>;
}

type Reply =
  | { kind: 'json'; status: number; body: unknown; headers?: Record<string, string> }
  | { kind: 'bytes'; status: number; body: Uint8Array; headers: Record<string, string> };

const SELECTIONS_IN_MEMORY = 32;

const json = (body: unknown, status = 200, headers?: Record<string, string>): Reply => ({ kind: 'json', status, body, headers });

/** Lists served in addition to the dataset views: the admin-only resources of the root listing. */
const ADMIN_LISTS = new Set(['_users', '_user_groups']);

interface Route {
  /** Allowed methods besides OPTIONS. */
  methods: string[];
  name: string;
  handle(req: IncomingMessage, url: URL): Promise<Reply> | Reply;
}

/** A percent-decoded path segment, or null when the escapes are malformed. */
function safeDecode(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

class Api {
  private readonly filter: Filter;
  /** Recently used filter results; older ones are read back from the store. */
  private readonly selections = new Map<string, Selection>();
  private readonly statistics: unknown;
  private readonly substances: unknown;
  private readonly tokens: Tokens;
  /** The user each request's valid `Authorization: Token` header named (see `checkToken`). */
  private readonly tokenUsers = new WeakMap<IncomingMessage, string>();
  /** Public base URL of links; set once the server listens (see startServer). */
  base = new URL('http://localhost/');

  constructor(
    private readonly catalog: Catalog,
    private readonly store: Store,
    private readonly users: UserTable | undefined,
    private readonly options: ServerOptions,
  ) {
    this.filter = new Filter(catalog);
    this.statistics = statisticsItem(catalog.ctx, options.version ?? 'pkdb-toolkit');
    this.substances = substanceStatistics(catalog.ctx);
    this.tokens = new Tokens(store, users);
  }

  /** POST /api-token-auth/ (tokens.ts). */
  readonly tokenRoute: Route = {
    methods: ['POST'],
    name: 'Obtain Auth Token',
    handle: async (req) => json(await obtainToken(req, await readBody(req, TOKEN_BODY_LIMIT_BYTES), this.users, this.tokens)),
  };

  /** Fails the request (401) when it carries a bad token, on every route as DRF does; remembers a good token's user. */
  checkToken(req: IncomingMessage): void {
    const username = this.tokens.userOf(req);
    if (username !== null) this.tokenUsers.set(req, username);
  }

  /** The authenticated user: by token, else by HTTP Basic (401 without valid credentials). */
  private user(req: IncomingMessage): Promise<string> {
    const byToken = this.tokenUsers.get(req);
    return byToken !== undefined ? Promise.resolve(byToken) : authenticate(req, this.users);
  }

  /** The selection a uuid names (memory, then the database); 404 when unknown or expired. */
  readonly findSelection = (uuid: string): Selection => {
    const cached = this.selections.get(uuid);
    if (cached) return cached;
    const stored = this.store.filterResult(uuid);
    if (stored === null) throw notFound();
    return this.remember(uuid, decodeSelection(stored));
  };

  /** A full selection of a large dataset holds ~10^5 keys, so only the most recent few stay in memory. */
  private remember(uuid: string, selection: Selection): Selection {
    if (this.selections.size >= SELECTIONS_IN_MEMORY) this.selections.delete(this.selections.keys().next().value as string);
    this.selections.set(uuid, selection);
    return selection;
  }

  route(path: string): Route | null {
    if (path === '') return { methods: ['GET'], name: 'Api Root', handle: (_req, url) => this.root(url) };
    if (!path.endsWith('/')) return null;
    const name = path.slice(0, -1);
    if (name === 'statistics') return { methods: ['GET'], name: 'Statistics', handle: () => json(this.statistics) };
    if (name === 'statistics/substances') return { methods: ['GET'], name: 'Substance Statistics', handle: () => json(this.substances) };
    if (name === 'filter') return { methods: ['GET'], name: 'Pk Data', handle: (_req, url) => this.runFilter(url) };
    if (name === '_info_nodes') return { methods: ['GET'], name: 'Info Node List', handle: (_req, url) => this.list('info_nodes', url) };
    if (ADMIN_LISTS.has(name)) return { methods: ['GET'], name, handle: (req, url) => this.adminList(name, req, url) };
    if (isDatasetResource(name)) {
      const writable = (WRITE_RESOURCES as readonly string[]).includes(name);
      return {
        methods: writable ? ['GET', 'POST'] : ['GET'],
        name,
        handle: (req, url) => (req.method === 'POST' ? this.create(name as WriteResource, req) : this.list(name, url)),
      };
    }
    const detail = /^(.+)\/([^/]+)$/.exec(name);
    if (detail && isDatasetResource(detail[1])) {
      const resource = detail[1];
      const id = safeDecode(detail[2]);
      if (id === null) return null;
      return { methods: ['GET'], name: `${resource} instance`, handle: () => json(this.catalog.detail(resource, id, this.written(resource))) };
    }
    return null;
  }

  private root(url: URL): Reply {
    const format = url.searchParams.get('format');
    const links = Object.fromEntries(
      ROOT_RESOURCE_NAMES.map((name) => {
        const link = publicLink(this.base, `${API_PREFIX}${name}/`);
        if (format !== null) link.searchParams.set('format', format);
        return [name, link.href];
      }),
    );
    return json(links);
  }

  /** The public base without its trailing slash, as data file URLs start. */
  private get origin(): string {
    return this.base.href.replace(/\/$/, '');
  }

  /** Items POSTed to a write view, as its GET lists them. */
  private written(resource: DatasetResource): Record<string, unknown>[] {
    if (!(WRITE_RESOURCES as readonly string[]).includes(resource)) return [];
    const records = this.store.list(resource as WriteResource);
    if (resource === '_datafiles') return records.map((r) => dataFileItem(this.origin, r.id, r.body));
    return records.map((r) => r.body);
  }

  private list(resource: DatasetResource, url: URL): Reply {
    const items = this.catalog.select(resource, url.searchParams, this.findSelection, this.written(resource));
    try {
      return json(paginate(items, { page: url.searchParams.get('page'), pageSize: pageSizeOf(url.searchParams.get('page_size')), requestUrl: url }));
    } catch (error) {
      if (error instanceof InvalidPageError) throw invalidPage();
      throw error;
    }
  }

  private async adminList(name: string, req: IncomingMessage, url: URL): Promise<Reply> {
    await this.user(req);
    // Users are configured by file; user groups do not exist here. Only the username is disclosed.
    const items = name === '_users' ? (this.users?.usernames ?? []).map((username) => ({ username })) : [];
    try {
      return json(paginate(items, { page: url.searchParams.get('page'), pageSize: pageSizeOf(url.searchParams.get('page_size')), requestUrl: url }));
    } catch (error) {
      if (error instanceof InvalidPageError) throw invalidPage();
      throw error;
    }
  }

  private async runFilter(url: URL): Promise<Reply> {
    const request = parseFilterRequest(url.searchParams);
    const selection = this.filter.run(request, this.findSelection);
    if (!request.download) {
      // One small row per result; a download stores nothing, as its uuid is never returned.
      const uuid = randomUUID();
      this.remember(uuid, selection);
      await this.store.saveFilterResult(uuid, encodeSelection(selection));
      return json(summaryOf(uuid, selection));
    }
    const zip = writeExport(selectTables(this.catalog.tables, selection));
    return {
      kind: 'bytes',
      status: 200,
      body: zip,
      headers: { 'Content-Type': 'application/x-zip-compressed', 'Content-Disposition': 'attachment; filename=pkdata.zip' },
    };
  }

  private async create(resource: WriteResource, req: IncomingMessage): Promise<Reply> {
    const username = await this.user(req);
    if (resource !== '_datafiles') requireJsonContentType(req);
    const body = await readBody(req, this.options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES);
    if (resource === '_datafiles') {
      const id = await createDataFile(req, body, username, this.store);
      const stored = this.store.list('_datafiles').find((r) => r.id === id);
      return json(dataFileItem(this.origin, id, stored?.body ?? {}), 201);
    }
    const tables = this.catalog.tables;
    const item = await createRecord(resource, body, username, {
      store: this.store,
      datasetHasStudy: (sid) => this.catalog.ctx.studiesBySid.has(sid),
      datasetHasReference: (sid) => tables.studies.some((s) => this.catalog.ctx.referenceOf(s.sid).sid === sid),
    });
    return json(item, 201);
  }

  /** GET /media/datafiles/<id>/<name>: an uploaded file, to authenticated users only. */
  async mediaFile(req: IncomingMessage, path: string): Promise<Reply> {
    const m = /^\/media\/datafiles\/(\d+)\/[^/]+$/.exec(path);
    if (!m) throw notFound();
    await this.user(req);
    const content = this.store.fileContent(Number(m[1]));
    if (!content) throw notFound();
    return { kind: 'bytes', status: 200, body: content, headers: { 'Content-Type': 'application/octet-stream' } };
  }
}

function send(req: IncomingMessage, res: ServerResponse, reply: Reply): void {
  const body = reply.kind === 'json' ? Buffer.from(JSON.stringify(reply.body)) : reply.body;
  const headers: Record<string, string | number> = {
    'Content-Type': 'application/json',
    ...(reply.headers ?? {}),
    'Content-Length': body.byteLength,
  };
  res.writeHead(reply.status, headers);
  res.end(req.method === 'HEAD' ? undefined : body);
}

async function dispatch(api: Api, req: IncomingMessage, res: ServerResponse, log: (line: string) => void): Promise<void> {
  const method = req.method ?? 'GET';
  let path = '(unparsed target)';
  try {
    // Inside the try: a bad Host header or target is a 400, never an exception out of the handler.
    const local = requestUrl(req.url, req.headers.host);
    path = local.pathname;
    checkQueryLimits(local.search, local.searchParams);
    // Handlers read parameters from, and build links on, the request's public URL.
    const url = publicLink(api.base, `${local.pathname}${local.search}`);
    if (local.pathname.startsWith('/media/') && (method === 'GET' || method === 'HEAD')) {
      api.checkToken(req);
      send(req, res, await api.mediaFile(req, local.pathname));
      return;
    }
    const route =
      local.pathname === TOKEN_PATH
        ? api.tokenRoute
        : local.pathname.startsWith(API_PREFIX)
          ? api.route(local.pathname.slice(API_PREFIX.length))
          : null;
    if (!route) throw notFound();
    api.checkToken(req);
    const format = url.searchParams.get('format');
    if (format !== null && format !== 'json' && format !== 'api') throw notFound();
    const allowed = [...route.methods, ...(route.methods.includes('GET') ? ['HEAD'] : []), 'OPTIONS'];
    if (method === 'OPTIONS') {
      const parses = route.methods.includes('POST') ? ['application/json', 'multipart/form-data'] : ['application/json'];
      send(req, res, json({ name: route.name, description: '', renders: ['application/json'], parses }, 200, { Allow: allowed.join(', ') }));
      return;
    }
    if (!allowed.includes(method)) throw methodNotAllowed(method, allowed);
    const reply = await route.handle(req, url);
    send(req, res, { ...reply, headers: { Allow: allowed.join(', '), ...(reply.headers ?? {}) } } as Reply);
  } catch (error) {
    if (error instanceof ApiError) {
      send(req, res, json(error.body, error.status, error.headers));
      return;
    }
    log(`pkdb serve: ${method} ${path}: ${error instanceof Error ? error.message : String(error)}`);
    send(req, res, json({ detail: 'A server error occurred.' }, 500));
  }
}

/** Runs one request; nothing it throws (a failed send included) escapes as an unhandled rejection. */
async function handle(api: Api, req: IncomingMessage, res: ServerResponse, log: (line: string) => void): Promise<void> {
  try {
    await dispatch(api, req, res, log);
  } catch (error) {
    log(`pkdb serve: ${req.method ?? 'GET'}: answer failed: ${error instanceof Error ? error.message : String(error)}`);
    if (!res.headersSent) send(req, res, json({ detail: 'A server error occurred.' }, 500));
    else res.destroy();
  }
}

/** Starts the API; resolves once it listens. `close()` stops it and flushes the database. */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  // Checked first: a bad public URL must fail before anything is opened.
  const publicBase = options.publicUrl === undefined ? undefined : publicBaseOf(options.publicUrl);
  const users = typeof options.users === 'string' ? await loadUsers(options.users) : options.users;
  const store = await Store.open(options.dataDir);
  const api = new Api(new Catalog(options.dataset), store, users, options);
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const server = createServer((req, res) => {
    handle(api, req, res, log).catch(() => res.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 8000, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const bound = boundBaseOf(address.address, address.family, address.port);
  api.base = publicBase ?? bound;
  return {
    url: new URL(API_PREFIX.slice(1), bound).href,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await store.close();
    },
  };
}

