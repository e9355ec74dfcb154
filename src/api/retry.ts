/**
 * When and how long to wait before retrying a request.
 *
 * Backoff is "full jitter" (Brooker, "Exponential Backoff And Jitter", AWS
 * Architecture Blog 2015): delay = random(0, min(cap, base · 2^attempt)),
 * which spreads a crowd of clients retrying after the same outage. A server's
 * `Retry-After` (RFC 9110 §10.2.3: delay-seconds or an HTTP-date) is a floor.
 */

/** Statuses that mean "try again later" rather than "your request is wrong". */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

/**
 * Node / undici error codes of transient transport failures: the connection
 * dropped or the server was too slow. ECONNREFUSED is deliberately absent: a
 * server that is not listening will not be there in a second either.
 */
export const RETRYABLE_ERROR_CODES: ReadonlySet<string> = new Set([
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

export interface BackoffOptions {
  /** First ceiling in ms (attempt 0). */
  baseMs: number;
  /** Largest ceiling in ms. */
  maxMs: number;
}

/** Full-jitter delay for retry number `attempt` (0-based); `random` in [0, 1). */
export function backoffDelayMs(attempt: number, { baseMs, maxMs }: BackoffOptions, random: () => number = Math.random): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** attempt);
  return Math.floor(random() * ceiling);
}

/**
 * Milliseconds a `Retry-After` header asks for, or undefined when absent or
 * unparseable. A date in the past means "now" (0).
 */
export function parseRetryAfter(header: string | undefined, now: number = Date.now()): number | undefined {
  if (header === undefined) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** The wait before the next attempt: the jittered backoff, but never less than the server asked for. */
export function retryDelayMs(attempt: number, backoff: BackoffOptions, retryAfterMs: number | undefined, random?: () => number): number {
  return Math.max(backoffDelayMs(attempt, backoff, random), retryAfterMs ?? 0);
}

/** The error code of a transport failure (undici puts it on the error or its cause). */
export function errorCode(error: unknown): string {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  if (error instanceof Error && error.name === 'TimeoutError') return 'ETIMEDOUT';
  return 'UNKNOWN';
}
