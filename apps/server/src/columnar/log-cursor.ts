// Where a node's following of a PostgreSQL change log (cost changes, conversion changes) resumes.
// A change's id is taken from a sequence before its transaction commits, so an id missing below one that
// is visible is a transaction still open (its change will appear) or rolled back (it never will).
// PostgreSQL's snapshots tell the two apart: once every transaction that was open when the id was first
// missed has ended, a read that still lacks it never will see it. Until then the cursor stops there, so a
// change is never passed over, however long its transaction stays open (a cost update over millions of
// clicks). Changes after the missing one are still sent meanwhile (the feed remembers which).
//
// This holds because each log row is written after its transaction's first write, which gave the
// transaction its id: a cost update moves the clicks' cost first, and the conversion triggers fire after
// the conversion's own write.
import { sql } from 'kysely';

/** The read's snapshot, as each row of it carries it: transactions below xmin had ended. */
export const SNAPSHOT_COLUMNS = sql.raw(
  'pg_snapshot_xmin(pg_current_snapshot())::text as snapshot_xmin, pg_snapshot_xmax(pg_current_snapshot())::text as snapshot_xmax',
);

export interface SnapshotColumns {
  snapshot_xmin: string;
  snapshot_xmax: string;
}

/** A change missed for this long is logged: a transaction held open that long is worth knowing of. */
const WAIT_LOGGED_MS = 60_000;

export class LogCursor {
  /** The last id passed: every change up to it was read (or its transaction rolled back). */
  last: number | null = null;
  /** The first id missed, and the snapshot's xmax when it was first missed. */
  private gap: { id: number; xmax: bigint; since: number; logged: boolean } | null = null;

  /**
   * Moves past `ids` (read in order by one statement, whose snapshot `snapshot` is) as far as it may;
   * answers whether it moved.
   */
  advance(ids: readonly number[], snapshot: SnapshotColumns | undefined): boolean {
    const before = this.last ?? 0;
    let last = before;
    for (const id of ids) {
      if (id !== last + 1) {
        const known = this.gap?.id === last + 1 ? this.gap : null;
        // Ended: every transaction open when it was first missed ended before this read began.
        const ended = known !== null && snapshot !== undefined && BigInt(snapshot.snapshot_xmin) >= known.xmax;
        if (!ended) {
          this.gap = known ?? {
            id: last + 1,
            xmax: BigInt(snapshot?.snapshot_xmax ?? '0'),
            since: Date.now(),
            logged: false,
          };
          break;
        }
      }
      last = id;
    }
    this.last = last;
    if (this.gap && this.gap.id <= last) this.gap = null;
    return last > before;
  }

  /** The id this cursor has waited on for long, once (to be logged); null otherwise. */
  longWait(): { id: number; seconds: number } | null {
    const gap = this.gap;
    if (!gap || gap.logged || Date.now() - gap.since < WAIT_LOGGED_MS) return null;
    gap.logged = true;
    return { id: gap.id, seconds: Math.round((Date.now() - gap.since) / 1000) };
  }
}
