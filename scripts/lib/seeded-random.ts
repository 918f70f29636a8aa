/**
 * Seeded pseudo-random numbers in [0, 1) (mulberry32): tests that draw random inputs print their seed, and
 * the same seed replays the same inputs; the benchmarks' synthetic inputs are the same for the same seed. No Node
 * API, so Worker tests and bench Workers use it too.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}
