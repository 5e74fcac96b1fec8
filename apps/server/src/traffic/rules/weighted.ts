/** A source of numbers in [0, 1); tests pass a seeded one. */
export type Random = () => number;

/**
 * Picks one row with probability proportional to its weight; rows of weight 0 (or less) are never
 * picked. Undefined when no row has a positive weight.
 */
export function pickWeighted<T extends { weight: number }>(rows: readonly T[], random: Random): T | undefined {
  let total = 0;
  for (const row of rows) if (row.weight > 0) total += row.weight;
  if (total <= 0) return undefined;
  let point = random() * total;
  let last: T | undefined;
  for (const row of rows) {
    if (row.weight <= 0) continue;
    last = row;
    point -= row.weight;
    if (point < 0) return row;
  }
  // Rounding can leave `point` at exactly 0 after the last row.
  return last;
}

/** A small, fast seeded generator (mulberry32) for reproducible draws in tests and benchmarks. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
