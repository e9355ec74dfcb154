/**
 * A seeded pseudo-random generator: the same seed gives the same stream on
 * every machine and Node version (no Math.random, no clock). The library's
 * bootstrap, the fixtures generator, the notebooks' simulations and the
 * benches' slip planner all draw from it.
 */

/** mulberry32 (Tommy Ettinger, public domain): 32-bit state, period 2^32; floats uniform in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
