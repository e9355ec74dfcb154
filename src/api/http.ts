/**
 * The HTTP layer of the client: one keep-alive undici Agent, per-request
 * timeouts, retries (./retry.ts) and typed errors (./errors.ts).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, interceptors, type Dispatcher, type FormData } from 'undici';
import { excerpt, HttpError, NetworkError, type RequestContext } from './errors.js';
import { errorCode, parseRetryAfter, RETRYABLE_ERROR_CODES, RETRYABLE_STATUSES, retryDelayMs } from './retry.js';

export interface TransportOptions {
  /** Connections per origin (and the client's page concurrency). */
  connections: number;
  /** Time to the response headers and between body chunks, per attempt. */
  timeoutMs: number;
  /** Retries after the first attempt. */
  retries: number;
  /** Backoff ceiling of the first retry; doubled per retry up to `retryMaxDelayMs`. */
  retryBaseDelayMs: number;
  retryMaxDelayMs: number;
  /** A `Retry-After` longer than this is not waited for: the error is thrown at once. */
  maxRetryAfterMs: number;
  userAgent: string;
  /** Full `Authorization` header value, built once from the credentials. */
  authorization?: string;
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
  headers?: Record<string, string>;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A URL as error messages and logs show it: never with user:password. */
export function publicUrl(url: URL): string {
  if (!url.username && !url.password) return url.href;
  const copy = new URL(url.href);
  copy.username = '';
  copy.password = '';
  return copy.href;
}

/** `Basic base64(user:password)` (RFC 7617). */
export function basicAuthorization(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`;
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

type Outcome = { response: HttpResponse } | { error: unknown };

export class HttpTransport {
  private readonly agent: Agent;
  private readonly dispatcher: Dispatcher;

  constructor(private readonly options: TransportOptions) {
    this.agent = new Agent({
      connections: options.connections,
      keepAliveTimeout: 10_000,
      connect: { timeout: options.timeoutMs },
    });
    this.dispatcher = this.agent.compose(interceptors.redirect({ maxRedirections: 3 }));
  }

  /**
   * Send with retries. POST is retried only on 429 and 503 (the server refused
   * before doing anything), never after a dropped connection, which could
   * create the record twice.
   */
  async send(request: HttpRequest): Promise<HttpResponse> {
    const context: RequestContext = { method: request.method, url: publicUrl(request.url) };
    const idempotent = request.method !== 'POST';
    const maxAttempts = this.options.retries + 1;
    for (let attempt = 1; ; attempt++) {
      this.options.onRequest?.({ ...context, attempt });
      const outcome = await this.attempt(request);
      const retryable =
        'response' in outcome
          ? RETRYABLE_STATUSES.has(outcome.response.status) && (idempotent || [429, 503].includes(outcome.response.status))
          : idempotent && RETRYABLE_ERROR_CODES.has(errorCode(outcome.error));
      const retryAfterMs = 'response' in outcome ? parseRetryAfter(headerValue(outcome.response.headers['retry-after'])) : undefined;
      const giveUp = !retryable || attempt >= maxAttempts || (retryAfterMs ?? 0) > this.options.maxRetryAfterMs;
      if (giveUp) return this.settle(outcome, context, attempt);
      const delayMs = retryDelayMs(attempt - 1, { baseMs: this.options.retryBaseDelayMs, maxMs: this.options.retryMaxDelayMs }, retryAfterMs);
      const reason = 'response' in outcome ? `HTTP ${outcome.response.status}` : errorCode(outcome.error);
      this.options.onRetry?.({ ...context, attempt, reason, delayMs });
      await sleep(delayMs);
    }
  }

  private async attempt(request: HttpRequest): Promise<Outcome> {
    const headers: Record<string, string> = { 'user-agent': this.options.userAgent, accept: 'application/json', ...request.headers };
    if (this.options.authorization) headers.authorization = this.options.authorization;
    const target = new URL(request.url.href);
    target.username = '';
    target.password = '';
    try {
      const response = await this.dispatcher.request({
        origin: target.origin,
        path: `${target.pathname}${target.search}`,
        method: request.method,
        headers,
        body: request.body,
        headersTimeout: this.options.timeoutMs,
        bodyTimeout: this.options.timeoutMs,
      });
      const body = Buffer.from(await response.body.arrayBuffer());
      return { response: { status: response.statusCode, headers: response.headers, body } };
    } catch (error) {
      return { error };
    }
  }

  private settle(outcome: Outcome, context: RequestContext, attempts: number): HttpResponse {
    if ('error' in outcome) throw new NetworkError(context, errorCode(outcome.error), attempts, { cause: outcome.error });
    const { response } = outcome;
    if (response.status >= 200 && response.status < 300) return response;
    throw new HttpError(context, response.status, excerpt(response.body.toString('utf8')));
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}
