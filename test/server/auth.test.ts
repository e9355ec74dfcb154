/** The failed-login limiter of `pkdb serve` (per username, per address, bounded memory), on a fake clock. */
import { describe, expect, it } from 'vitest';
import { LoginLimiter, LoginThrottled } from '../../src/server/auth.js';

const limit = { failures: 3, windowSeconds: 60, maxTracked: 100 };

function limiterAt(start = 1_000_000) {
  const clock = { now: start };
  return { clock, limiter: new LoginLimiter(limit, () => clock.now) };
}

const throttled = (fn: () => void): number => {
  try {
    fn();
  } catch (error) {
    if (error instanceof LoginThrottled) return error.retryAfterSeconds;
    throw error;
  }
  return 0;
};

describe('LoginLimiter', () => {
  it('locks a username after `failures` attempts, for the rest of its window', () => {
    const { clock, limiter } = limiterAt();
    for (let i = 0; i < 3; i++) limiter.begin('alice', `10.0.0.${i}`);
    clock.now += 20_000;
    expect(throttled(() => limiter.begin('alice', '10.0.0.9'))).toBe(40);
    clock.now += 40_000;
    expect(throttled(() => limiter.begin('alice', '10.0.0.9'))).toBe(0);
  });

  it('a success clears its username but takes back only its own attempt from the address', () => {
    const { limiter } = limiterAt();
    limiter.begin('mallory', 'evil');
    limiter.begin('mallory', 'evil');
    limiter.begin('mallory-own', 'evil');
    limiter.succeeded('mallory-own', 'evil');
    // Two failures stand for the address; a valid login in between did not reset them.
    limiter.begin('other', 'evil');
    expect(throttled(() => limiter.begin('other2', 'evil'))).toBeGreaterThan(0);
    expect(throttled(() => limiter.begin('mallory-own', 'elsewhere'))).toBe(0);
  });

  it('parallel attempts count from their start, so they cannot all pass the check', () => {
    const { limiter } = limiterAt();
    let passed = 0;
    for (let i = 0; i < 50; i++) if (throttled(() => limiter.begin('bob', 'x')) === 0) passed++;
    expect(passed).toBe(3);
  });

  it('tracks at most maxTracked keys of each kind, whatever is sprayed; long usernames are cut', () => {
    const { limiter } = limiterAt();
    for (let i = 0; i < 5000; i++) limiter.begin(`user${i}-${'x'.repeat(1000)}`, `addr${i}`);
    expect(limiter.tracked).toEqual({ users: 100, clients: 100 });
    limiter.begin(`${'y'.repeat(256)}a`, 'a1');
    limiter.begin(`${'y'.repeat(256)}b`, 'a2');
    limiter.begin(`${'y'.repeat(256)}c`, 'a3');
    expect(throttled(() => limiter.begin(`${'y'.repeat(256)}d`, 'a4'))).toBeGreaterThan(0);
  });
});
