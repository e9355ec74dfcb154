/**
 * "Cache a value or an error", the one memo of the units layer: parsing,
 * conversion factors and normalisations are asked the same few questions for
 * every record, and the failures are asked as often as the successes (QA
 * tries per-kg and absolute spellings until one converts), so an expected
 * error is cached like a value instead of being rebuilt (with its stack trace)
 * each time. Only errors of the expected type are cached; any other error is a
 * bug and propagates. `compute` gets the key, so that a caller on a hot path
 * passes a module-level function and a cache hit allocates nothing.
 */

/** An error class, matched with `instanceof`. */
export type ErrorClass<E extends Error> = abstract new (...args: never[]) => E;

/** The cached value, or the cached expected error, of `compute()` under `key`. Never throws an `errorType`. */
export function cachedResult<K, V, E extends Error>(cache: Map<K, V | E>, key: K, compute: (key: K) => V, errorType: ErrorClass<E>): V | E {
  let hit = cache.get(key);
  if (hit === undefined) {
    try {
      hit = compute(key);
    } catch (e) {
      if (!(e instanceof errorType)) throw e;
      hit = e;
    }
    cache.set(key, hit);
  }
  return hit;
}

/** `cachedResult`, throwing the cached error. */
export function cachedOrThrow<K, V, E extends Error>(cache: Map<K, V | E>, key: K, compute: (key: K) => V, errorType: ErrorClass<E>): V {
  const hit = cachedResult(cache, key, compute, errorType);
  if (hit instanceof errorType) throw hit;
  return hit as V;
}
