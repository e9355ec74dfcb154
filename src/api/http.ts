/**
 * The HTTP layer of the client: one keep-alive undici Agent, retries
 * (./retry.ts), typed errors (./errors.ts) and the bounds that keep a hostile
 * or broken server from holding the client forever or filling its memory:
 * - `timeoutMs`: per attempt, to the response headers and between body chunks;
 * - `deadlineMs`: the whole request, every attempt, redirect and backoff wait included;
 * - `maxResponseBytes`: the body is read only this far, then the stream is cut;
 * - `maxRedirects`: GET/HEAD follow at most this many, a loop is an error at once.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, type Dispatcher, type FormData } from 'undici';
import { scrubSecrets } from './auth.js';
import { excerpt, HttpError, LimitError, NetworkError, type RequestContext } from './errors.js';
import { errorCode, parseRetryAfter, RETRYABLE_ERROR_CODES, RETRYABLE_STATUSES, retryDelayMs } from './retry.js';

export interface TransportOptions {
  /** Connections per origin (and the client's page concurrency). */
  connections: number;
  /** Time to the response headers and between body chunks, per attempt. */
  timeoutMs: number;
  /** Total time of one `send()`: all attempts, redirects and retry waits. */
  deadlineMs: number;
  /** Largest response body read; a larger one is cut off and is a LimitError. */
  maxResponseBytes: number;
  /** Redirects followed per attempt (GET and HEAD only). */
  maxRedirects: number;
  /** Retries after the first attempt. */
  retries: number;
  /** Backoff ceiling of the first retry; doubled per retry up to `retryMaxDelayMs`. */
  retryBaseDelayMs: number;
  retryMaxDelayMs: number;
  /** A `Retry-After` longer than this is not waited for: the error is thrown at once. */
  maxRetryAfterMs: number;
  userAgent: string;
  /** Passwords and tokens: scrubbed from the body excerpts of error messages. */
  secrets?: readonly string[];
  onRequest?: (info: RequestInfo) => void;
  onRetry?: (info: RetryInfo) => void;
}

export interface RequestInfo extends RequestContext {
  /** 1 for the first try. */
  attempt: number;
}

export interface RetryInfo extends RequestInfo {
  /** HTTP status or error code that caused the retry. */
  reason: string;
  delayMs: number;
}

export interface HttpRequest {
  method: 'GET' | 'POST' | 'HEAD';
  url: URL;
  body?: string | Uint8Array | FormData;
  /** `authorization` here is sent to the request's origin only, never across a redirect to another one. */
  headers?: Record<string, string>;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  /** Where the body came from: the request URL, or the end of its redirects. */
  url: URL;
}

/** A URL as error messages and logs show it: never with user:password. */
export function publicUrl(url: URL): string {
  if (!url.username && !url.password) return url.href;
  const copy = new URL(url.href);
  copy.username = '';
  copy.password = '';
  return copy.href;
}

const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
/** Of an error status only an excerpt is shown; more is not read. */
const ERROR_BODY_BYTES = 64 * 1024;

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

type Outcome = { response: HttpResponse } | { error: unknown } | { limit: LimitError };

/**
 * The body, at most `limit` bytes. Past the limit the stream is destroyed
 * (the connection is dropped rather than drained) and the result is
 * `undefined`, or with `truncate` the first `limit` bytes.
 */
async function readBounded(body: Dispatcher.ResponseData['body'], limit: number, truncate: boolean): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  let overflow = false;
  // Leaving a for-await over a Readable early destroys it.
  for await (const chunk of body as AsyncIterable<Buffer>) {
    if (size + chunk.length > limit) {
      overflow = true;
      if (truncate) chunks.push(chunk.subarray(0, limit - size));
      break;
    }
    chunks.push(chunk);
    size += chunk.length;
  }
  if (overflow && !truncate) return undefined;
  return Buffer.concat(chunks);
}

/** Drop a body unread: the connection is closed instead of drained (undici reports that as an abort, which is expected here). */
function discard(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => undefined);
  body.destroy();
}

export class HttpTransport {
  private readonly agent: Agent;

  constructor(private readonly options: TransportOptions) {
    this.agent = new Agent({
      connections: options.connections,
      keepAliveTimeout: 10_000,
      connect: { timeout: options.timeoutMs },
    });
  }

  /**
   * Send with retries, within `deadlineMs`. POST is retried only on 429 and
   * 503 (the server refused before doing anything), never after a dropped
   * connection, which could create the record twice. A retry whose wait would
   * pass the deadline is not made: the last failure is reported instead.
   */
  async send(request: HttpRequest): Promise<HttpResponse> {
    const context: RequestContext = { method: request.method, url: publicUrl(request.url) };
    const deadline = Date.now() + this.options.deadlineMs;
    const idempotent = request.method !== 'POST';
    const maxAttempts = this.options.retries + 1;
    for (let attempt = 1; ; attempt++) {
      this.options.onRequest?.({ ...context, attempt });
      const outcome = await this.attempt(request, context, deadline);
      if ('limit' in outcome) throw outcome.limit;
      const retryable =
        'response' in outcome
          ? RETRYABLE_STATUSES.has(outcome.response.status) && (idempotent || [429, 503].includes(outcome.response.status))
          : idempotent && RETRYABLE_ERROR_CODES.has(errorCode(outcome.error));
      const retryAfterMs = 'response' in outcome ? parseRetryAfter(headerValue(outcome.response.headers['retry-after'])) : undefined;
      const delayMs = retryDelayMs(attempt - 1, { baseMs: this.options.retryBaseDelayMs, maxMs: this.options.retryMaxDelayMs }, retryAfterMs);
      const giveUp = !retryable || attempt >= maxAttempts || (retryAfterMs ?? 0) > this.options.maxRetryAfterMs || Date.now() + delayMs >= deadline;
      if (giveUp) return this.settle(outcome, context, attempt);
      const reason = 'response' in outcome ? `HTTP ${outcome.response.status}` : errorCode(outcome.error);
      this.options.onRetry?.({ ...context, attempt, reason, delayMs });
      await sleep(delayMs);
    }
  }

  /** One attempt: the request and its redirects, aborted when the deadline passes. */
  private async attempt(request: HttpRequest, context: RequestContext, deadline: number): Promise<Outcome> {
    const { deadlineMs, maxResponseBytes } = this.options;
    const remaining = deadline - Date.now();
    const deadlineError = () => new LimitError(context, 'deadlineMs', `no complete response within the deadline of ${deadlineMs} ms (deadlineMs)`);
    if (remaining <= 0) return { limit: deadlineError() };
    const controller = new AbortController();
    // setTimeout fires at once for delays past 2^31 - 1 ms (~24.8 days).
    const timer = setTimeout(() => controller.abort(), Math.min(remaining, 2 ** 31 - 1));
    const headers: Record<string, string> = { 'user-agent': this.options.userAgent, accept: 'application/json', ...request.headers };
    let url = new URL(request.url.href);
    url.username = '';
    url.password = '';
    const visited = [url.href];
    try {
      for (;;) {
        const response = await this.agent.request({
          origin: url.origin,
          path: `${url.pathname}${url.search}`,
          method: request.method,
          headers,
          body: request.body,
          headersTimeout: this.options.timeoutMs,
          bodyTimeout: this.options.timeoutMs,
          signal: controller.signal,
        });
        const location = headerValue(response.headers.location);
        if (REDIRECT_STATUSES.has(response.statusCode) && location !== undefined && request.method !== 'POST') {
          discard(response.body);
          const next = this.redirectTarget(context, url, location, visited);
          // Credentials belong to the origin they were given for (as fetch does on a cross-origin redirect).
          if (next.origin !== url.origin) delete headers.authorization;
          url = next;
          continue;
        }
        const ok = response.statusCode >= 200 && response.statusCode < 300;
        const declared = Number(headerValue(response.headers['content-length']));
        const tooLarge = () =>
          new LimitError(context, 'maxResponseBytes', `response body larger than ${maxResponseBytes} bytes (maxResponseBytes)${url.href === visited[0] ? '' : ` from ${publicUrl(url)}`}; not read further`);
        if (ok && declared > maxResponseBytes) {
          discard(response.body);
          return { limit: tooLarge() };
        }
        const body = await readBounded(response.body, ok ? maxResponseBytes : Math.min(maxResponseBytes, ERROR_BODY_BYTES), !ok);
        if (body === undefined) return { limit: tooLarge() };
        return { response: { status: response.statusCode, headers: response.headers, body, url } };
      }
    } catch (error) {
      if (error instanceof LimitError) return { limit: error };
      if (controller.signal.aborted) return { limit: deadlineError() };
      return { error };
    } finally {
      clearTimeout(timer);
    }
  }

  /** The URL a redirect leads to; a loop, a chain past `maxRedirects` or a non-HTTP target is a LimitError. */
  private redirectTarget(context: RequestContext, from: URL, location: string, visited: string[]): URL {
    const chain = (last: string) => [...visited, last].map((href) => publicUrl(new URL(href))).join(' -> ');
    let next: URL;
    try {
      next = new URL(location, from);
    } catch {
      throw new LimitError(context, 'maxRedirects', `redirect to an invalid URL ${JSON.stringify(excerpt(location, 200))}`);
    }
    if (next.protocol !== 'http:' && next.protocol !== 'https:') throw new LimitError(context, 'maxRedirects', `redirect to a non-HTTP URL ${publicUrl(next)}`);
    next.hash = '';
    if (visited.includes(next.href)) throw new LimitError(context, 'maxRedirects', `redirect loop: ${chain(next.href)}`);
    if (visited.length > this.options.maxRedirects) throw new LimitError(context, 'maxRedirects', `more than ${this.options.maxRedirects} redirects (maxRedirects): ${chain(next.href)}`);
    visited.push(next.href);
    return next;
  }

  private settle(outcome: Exclude<Outcome, { limit: LimitError }>, context: RequestContext, attempts: number): HttpResponse {
    if ('error' in outcome) throw new NetworkError(context, errorCode(outcome.error), attempts, { cause: outcome.error });
    const { response } = outcome;
    if (response.status >= 200 && response.status < 300) return response;
    throw new HttpError(context, response.status, excerpt(scrubSecrets(response.body.toString('utf8'), this.options.secrets ?? [])));
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}
