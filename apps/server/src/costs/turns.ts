// Work over a million clicks on the event loop that answers clicks, cut into steps with a turn of the
// loop between them: SQLite's driver answers synchronously, so a cost update awaited query by query would
// otherwise hold every click up until it ends.

/**
 * A turn of the event loop (setImmediate): clicks that arrived meanwhile are answered (they need only the
 * journal); a SQLite transaction still holds the write lock, and the event writer stores what waited once
 * it commits.
 */
export const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Items a step of simple work (a lookup each) handles between two turns; a step of sorting, a run. */
export const STEP = 8_192;
/** Keys merged between two turns. */
const MERGE_STEP = 16_384;

/**
 * `keys` sorted as `Array.prototype.sort` sorts strings (by UTF-16 code units), a step at a time: runs
 * sorted natively, then merged two by two. One native sort of the 190,000 cube keys of 100,000 clicks
 * held the event loop for 130 ms (bench/README.md).
 */
export async function sortInTurns(keys: readonly string[], between = turn): Promise<string[]> {
  let runs: string[][] = [];
  for (let start = 0; start < keys.length; start += STEP) {
    if (start > 0) await between();
    runs.push(keys.slice(start, start + STEP).sort());
  }
  while (runs.length > 1) {
    const merged: string[][] = [];
    for (let index = 0; index < runs.length; index += 2) {
      const right = runs[index + 1];
      merged.push(right ? await mergeInTurns(runs[index]!, right, between) : runs[index]!);
    }
    runs = merged;
  }
  return runs[0] ?? [];
}

/** Two sorted runs as one; on equal keys the left's first, as a stable sort keeps them. */
async function mergeInTurns(left: string[], right: string[], between: () => Promise<void>): Promise<string[]> {
  const merged: string[] = [];
  let l = 0;
  let r = 0;
  while (l < left.length && r < right.length) {
    merged.push(left[l]! <= right[r]! ? left[l++]! : right[r++]!);
    if (merged.length % MERGE_STEP === 0) await between();
  }
  while (l < left.length) merged.push(left[l++]!);
  while (r < right.length) merged.push(right[r++]!);
  return merged;
}
