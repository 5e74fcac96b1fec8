import { describe, expect, it } from 'vitest';
import { eventually } from './eventually.js';

describe('eventually (the tests’ own wait)', () => {
  it('answers the first value that is not undefined, null or false, and 0 and "" are values', async () => {
    let looks = 0;
    const answers = [undefined, null, false, 0];
    expect(
      await eventually(
        () => answers[looks++],
        () => 'never',
        { everyMs: 1 },
      ),
    ).toBe(0);
    expect(looks).toBe(4);
    expect(
      await eventually(
        async () => '',
        () => 'never',
      ),
    ).toBe('');
  });

  it('fails after its time, saying what was awaited', async () => {
    const began = Date.now();
    await expect(
      eventually(
        () => false,
        () => 'the thing',
        { withinMs: 50, everyMs: 10 },
      ),
    ).rejects.toThrow('the thing (waited 50 ms)');
    expect(Date.now() - began).toBeGreaterThanOrEqual(50);
  });

  it('stops at once when the probe throws', async () => {
    let looks = 0;
    const failing = eventually(
      () => {
        looks += 1;
        throw new Error('the server exited');
      },
      () => 'never',
      { withinMs: 5_000 },
    );
    await expect(failing).rejects.toThrow('the server exited');
    expect(looks).toBe(1);
  });
});
