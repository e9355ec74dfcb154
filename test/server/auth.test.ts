/** The failed-login limiter of `pkdb serve` (per username, per address, in flight, bounded memory), on a fake clock. */
import { describe, expect, it } from 'vitest';
import { LoginLimiter, LoginThrottled } from '../../src/server/auth.js';

const limit = { failures: 3, windowSeconds: 60, maxInFlight: 5, maxTracked: 100 };

function limiterAt(start = 1_000_000) {
  const clock = { now: start };
  return { clock, limiter: new LoginLimiter(limit, () => clock.now) };
}

/** Seconds the limiter asks to wait before this attempt (0: let through, and the attempt is left open). */
const waitFor = (limiter: LoginLimiter, user: string, client: string): number => {
  try {
    limiter.begin(user, client);
  } catch (error) {
    if (error instanceof LoginThrottled) return error.retryAfterSeconds;
    throw error;
  }
  return 0;
};

/** One complete attempt; the wait when throttled, else 0. */
const attempt = (limiter: LoginLimiter, user: string, client: string, succeeds: boolean): number => {
  const wait = waitFor(limiter, user, client);
  if (wait === 0) limiter.end(user, client, succeeds);
  return wait;
};

describe('LoginLimiter', () => {
  it('locks a username after `failures` failures, from any address, for the rest of its window', () => {
    const { clock, limiter } = limiterAt();
    for (let i = 0; i < 3; i++) expect(attempt(limiter, 'alice', `10.0.0.${i}`, false)).toBe(0);
    clock.now += 20_000;
    expect(attempt(limiter, 'alice', '10.0.0.9', true)).toBe(40);
    clock.now += 40_000;
    expect(attempt(limiter, 'alice', '10.0.0.9', true)).toBe(0);
  });

  it('a success clears its username but not the failures of its address', () => {
    const { limiter } = limiterAt();
    attempt(limiter, 'mallory', 'evil', false);
    attempt(limiter, 'mallory', 'evil', false);
    expect(attempt(limiter, 'mallory-own', 'evil', true)).toBe(0);
    // Two failures stand for the address: the valid login in between did not reset them.
    expect(attempt(limiter, 'other', 'evil', false)).toBe(0);
    expect(attempt(limiter, 'other2', 'evil', true)).toBeGreaterThan(0);
    expect(attempt(limiter, 'mallory-own', 'elsewhere', true)).toBe(0);
    expect(attempt(limiter, 'mallory', 'elsewhere', true)).toBe(0);
  });

  it('parallel attempts: at most maxInFlight pass the check at once; parallel successes are never throttled', () => {
    const { limiter } = limiterAt();
    const passed = Array.from({ length: 50 }, () => waitFor(limiter, 'bob', 'x')).filter((w) => w === 0).length;
    expect(passed).toBe(5);
    for (let i = 0; i < 5; i++) limiter.end('bob', 'x', false);
    expect(waitFor(limiter, 'bob', 'y')).toBeGreaterThan(1);
    for (let round = 0; round < 10; round++) {
      for (let i = 0; i < 5; i++) expect(waitFor(limiter, 'carol', 'z')).toBe(0);
      for (let i = 0; i < 5; i++) limiter.end('carol', 'z', true);
    }
  });

  it('tracks at most maxTracked keys of each kind, whatever is sprayed; long usernames are cut', () => {
    const { limiter } = limiterAt();
    for (let i = 0; i < 5000; i++) attempt(limiter, `user${i}-${'x'.repeat(1000)}`, `addr${i}`, false);
    expect(limiter.tracked).toEqual({ users: 100, clients: 100 });
    for (const c of 'abc') attempt(limiter, `${'y'.repeat(256)}${c}`, `a-${c}`, false);
    expect(attempt(limiter, `${'y'.repeat(256)}d`, 'a-d', true)).toBeGreaterThan(0);
    // Successful logins leave nothing behind.
    const { limiter: fresh } = limiterAt();
    for (let i = 0; i < 500; i++) attempt(fresh, `u${i}`, `c${i}`, true);
    expect(fresh.tracked).toEqual({ users: 0, clients: 0 });
  });
});
