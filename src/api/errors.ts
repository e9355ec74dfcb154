/**
 * Typed errors of the PK-DB client. Every message names the request
 * (`GET <url>`) so that a failure inside a 5000-page crawl can be found;
 * URLs never contain credentials because auth travels in a header only.
 */

/** What the error message says about the request that failed. */
export interface RequestContext {
  method: string;
  /** Absolute URL without credentials. */
  url: string;
}

function describeRequest({ method, url }: RequestContext): string {
  return `${method} ${url}`;
}

/** The server answered with a non-2xx status. `bodyExcerpt` is at most 300 characters. */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  constructor(
    readonly request: RequestContext,
    readonly status: number,
    readonly bodyExcerpt: string,
  ) {
    super(`${describeRequest(request)}: HTTP ${status}${bodyExcerpt ? `: ${bodyExcerpt}` : ''}`);
  }
  get url(): string {
    return this.request.url;
  }
}

/** The body is not JSON, or not JSON of the expected shape; `path` is the JSON path of the first problem. */
export class SchemaError extends Error {
  override readonly name = 'SchemaError';
  constructor(
    readonly request: RequestContext,
    readonly path: string,
    readonly problem: string,
    /** Further problems beyond the first, already formatted. */
    readonly more: string[] = [],
  ) {
    super(`${describeRequest(request)}: ${path ? `${path}: ` : ''}${problem}${more.length ? ` (and ${more.length} more: ${more.slice(0, 3).join('; ')})` : ''}`);
  }
  get url(): string {
    return this.request.url;
  }
}

/** The request never got an answer: connection refused or reset, DNS, timeout; after `attempts` tries. */
export class NetworkError extends Error {
  override readonly name = 'NetworkError';
  constructor(
    readonly request: RequestContext,
    /** undici / Node error code, e.g. ECONNRESET, UND_ERR_HEADERS_TIMEOUT. */
    readonly code: string,
    readonly attempts: number,
    options?: { cause?: unknown },
  ) {
    super(`${describeRequest(request)}: ${code} after ${attempts} attempt${attempts === 1 ? '' : 's'}`, options);
  }
  get url(): string {
    return this.request.url;
  }
}

/** The client option whose bound a request reached. */
export type ClientLimit = 'maxResponseBytes' | 'deadlineMs' | 'maxRedirects';

/**
 * A request stopped at one of the client's bounds: a body larger than
 * `maxResponseBytes`, no complete answer within `deadlineMs`, or a redirect
 * chain that loops or is longer than `maxRedirects`. Never retried: the same
 * request would hit the same bound again.
 */
export class LimitError extends Error {
  override readonly name = 'LimitError';
  constructor(
    readonly request: RequestContext,
    /** The option that sets the bound. */
    readonly limit: ClientLimit,
    readonly problem: string,
  ) {
    super(`${describeRequest(request)}: ${problem}`);
  }
  get url(): string {
    return this.request.url;
  }
}

/** Excerpt of a response body for messages: whitespace collapsed, at most `max` characters. */
export function excerpt(body: string, max = 300): string {
  const flat = body.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}
