import { describe, expect, it } from 'vitest';
import { InMemoryUniqueClicks } from '../src/traffic/visitor/uniques.js';

// The in-memory uniqueness store keeps its keys in typed arrays, in two generations that rotate instead
// of a sweep: a key must match within its window however the generations turn, and be forgotten after.

const HOUR = 60 * 60 * 1000;
const START = 1_700_000_000_000;

describe('InMemoryUniqueClicks', () => {
  it('holds 100,000 keys through its growth, 0 and 2^53 - 1 among them', () => {
    const store = new InMemoryUniqueClicks();
    const keys = [
      0,
      2 ** 53 - 1,
      ...Array.from({ length: 100_000 }, (_, index) => (index + 1) * 4_294_967_296 + ((index * 2_654_435_761) >>> 0)),
    ];
    for (const key of keys) expect(store.note([key], START, HOUR)).toBe(true);
    expect(store.size).toBe(keys.length);
    const repeated = keys.filter((key) => store.note([key], START + 1, HOUR));
    expect(repeated).toEqual([]);
    expect(store.wouldBe([12_345_678], START + 2, HOUR)).toBe(true);
  });

  it('matches a key within the longest window across a generation, and forgets it two generations on', () => {
    const store = new InMemoryUniqueClicks();
    store.retainMs = 24 * HOUR;
    expect(store.note([42], START, 24 * HOUR)).toBe(true);
    // A new generation starts (retainMs after the first): the key, noted just before, still matches.
    expect(store.note([7], START + 24 * HOUR - 1, 24 * HOUR)).toBe(true);
    expect(store.wouldBe([42], START + 24 * HOUR - 1, 24 * HOUR)).toBe(false);
    expect(store.note([8], START + 24 * HOUR, 24 * HOUR)).toBe(true);
    expect(store.wouldBe([42], START + 24 * HOUR, 24 * HOUR)).toBe(true); // 24 hours on: outside the window
    expect(store.wouldBe([42], START + 24 * HOUR, 48 * HOUR)).toBe(false); // still held, in the previous one
    expect(store.wouldBe([7], START + 30 * HOUR, 24 * HOUR)).toBe(false);
    // Two generations on, the first one's keys are gone (7 was noted 24 hours and 1 ms before, the
    // longest window); the second's are still held.
    expect(store.note([9], START + 48 * HOUR, 24 * HOUR)).toBe(true);
    expect(store.wouldBe([42], START + 48 * HOUR, 72 * HOUR)).toBe(true);
    expect(store.wouldBe([7], START + 48 * HOUR, 72 * HOUR)).toBe(true);
    expect(store.wouldBe([8], START + 48 * HOUR, 48 * HOUR)).toBe(false);
  });

  it('keeps the later of two times for a key, from warming or clicks alike', async () => {
    const store = new InMemoryUniqueClicks();
    await store.warm([{ keys: [5], at: START + 10 * HOUR }]);
    expect(store.note([5], START + 11 * HOUR, 2 * HOUR)).toBe(false);
    await store.warm([{ keys: [5], at: START }]);
    expect(store.wouldBe([5], START + 12 * HOUR, 2 * HOUR)).toBe(false); // the 11-hour click, not the warmed start
    expect(store.wouldBe([5], START + 13 * HOUR, 2 * HOUR)).toBe(true);
  });
});
