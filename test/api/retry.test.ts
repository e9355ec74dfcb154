import { describe, expect, it } from 'vitest';
import { backoffDelayMs, parseRetryAfter, retryDelayMs } from '../../src/api/index.js';

describe('retry timing', () => {
  it('Retry-After as seconds and as an HTTP date', () => {
    const now = Date.parse('Wed, 21 Oct 2015 07:28:00 GMT');
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:27:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });

  it('full jitter stays within min(cap, base·2^attempt); Retry-After is a floor', () => {
    const backoff = { baseMs: 100, maxMs: 1000 };
    expect(backoffDelayMs(0, backoff, () => 0.999)).toBe(99);
    expect(backoffDelayMs(3, backoff, () => 0.5)).toBe(400);
    expect(backoffDelayMs(10, backoff, () => 0.999)).toBe(999);
    expect(backoffDelayMs(2, backoff, () => 0)).toBe(0);
    expect(retryDelayMs(0, backoff, 2000, () => 0.5)).toBe(2000);
    expect(retryDelayMs(4, backoff, 10, () => 0.5)).toBe(500);
  });
});
