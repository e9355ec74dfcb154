import { describe, expect, it } from 'vitest';
import { cachedOrThrow, cachedResult } from '../../src/units/memo.js';

class ExpectedError extends Error {}

describe('cachedResult / cachedOrThrow', () => {
  it('computes once per key and returns the cached value after', () => {
    const cache = new Map<string, number | ExpectedError>();
    let calls = 0;
    const compute = () => (calls++, 42);
    expect(cachedOrThrow(cache, 'a', compute, ExpectedError)).toBe(42);
    expect(cachedOrThrow(cache, 'a', compute, ExpectedError)).toBe(42);
    expect(calls).toBe(1);
  });

  it('caches an expected error: returned by cachedResult, thrown (the same object) by cachedOrThrow, computed once', () => {
    const cache = new Map<string, number | ExpectedError>();
    let calls = 0;
    const failing = (): number => {
      calls++;
      throw new ExpectedError('no');
    };
    const error = cachedResult(cache, 'b', failing, ExpectedError);
    expect(error).toBeInstanceOf(ExpectedError);
    expect(() => cachedOrThrow(cache, 'b', failing, ExpectedError)).toThrow(error as ExpectedError);
    expect(calls).toBe(1);
  });

  it('lets any other error through, uncached', () => {
    const cache = new Map<string, number | ExpectedError>();
    let calls = 0;
    const buggy = (): number => {
      calls++;
      throw new TypeError('bug');
    };
    expect(() => cachedResult(cache, 'c', buggy, ExpectedError)).toThrow(TypeError);
    expect(() => cachedOrThrow(cache, 'c', buggy, ExpectedError)).toThrow(TypeError);
    expect(calls).toBe(2);
    expect(cache.has('c')).toBe(false);
  });
});
