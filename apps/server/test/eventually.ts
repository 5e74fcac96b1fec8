// Waiting in a test for something that happens off the caller's path (a server that starts, a timer's
// round, a log line, a notice from another node): one deadline loop for every suite, the API's and the
// browser's, so that each failure says what was awaited and what was seen instead of hanging to the
// runner's timeout.

export interface Patience {
  /** How long to wait before failing; 10 s unless told. */
  withinMs?: number;
  /** The pause between two looks; 100 ms unless told. */
  everyMs?: number;
}

/**
 * Looks at `probe` until it answers a value other than `undefined`, `null` or `false`, and answers that
 * value. After `withinMs` it throws, with `failure()` as the message: what was awaited, and whatever
 * shows why it did not come. An error thrown by `probe` ends the wait at once (a server that exited
 * will not start later).
 */
export async function eventually<T>(
  probe: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  failure: () => string,
  { withinMs = 10_000, everyMs = 100 }: Patience = {},
): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const seen = await probe();
    if (seen !== undefined && seen !== null && seen !== false) return seen;
    if (Date.now() >= deadline) throw new Error(`${failure()} (waited ${withinMs} ms)`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
