import { describe, expect, it } from 'vitest';
import { STEP, sortInTurns } from '../src/costs/turns.js';

// Cube keys sorted a step at a time (costs/turns.ts): the same order as one native sort, whatever the
// keys hold, with turns of the event loop between the steps.

/** Keys of 1 to 12 characters from an alphabet with NUL, digits, letters, an accent and a surrogate pair. */
function randomKeys(count: number, seed: number): string[] {
  const alphabet = ['\u0000', '0', '9', 'a', 'Z', 'é', '\u{1F600}', '/', ' '];
  let state = seed;
  const next = () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 4294967296;
  };
  return Array.from({ length: count }, () =>
    Array.from({ length: 1 + Math.floor(next() * 12) }, () => alphabet[Math.floor(next() * alphabet.length)]).join(''),
  );
}

describe('sortInTurns', () => {
  it('sorts as Array.prototype.sort does, duplicates kept, across many runs', async () => {
    for (const count of [0, 1, STEP - 1, STEP, STEP + 1, 5 * STEP + 123]) {
      const keys = randomKeys(count, count + 7);
      const sorted = await sortInTurns(keys);
      expect(sorted).toEqual([...keys].sort());
    }
  });

  it('lets the event loop run between its steps', async () => {
    const keys = randomKeys(16 * STEP, 3);
    let turns = 0;
    const sorted = await sortInTurns(keys, async () => {
      turns += 1;
      await new Promise<void>((resolve) => setImmediate(resolve));
    });
    expect(sorted).toEqual([...keys].sort());
    // Fifteen turns between the sixteen runs' sorts, and one at least within the last merge (of 2 × 8 runs).
    expect(turns).toBeGreaterThanOrEqual(16);
  });
});
