// Background work that runs on one node at a time: on PostgreSQL the node that takes an advisory lock for
// the round (the others skip it), on SQLite the process itself.
import { type Kysely, sql } from 'kysely';
import type { Database } from '../store/schema.js';

/** How long a stop waits for a round under way. */
const ROUND_GRACE_MS = 5_000;

/** Advisory lock ids: any numbers no other lock on the database uses. */
export const LOCKS = { tuner: 7_264_093_511, monitors: 7_264_093_512, rules: 7_264_093_513 } as const;

/** How often the rule engine looks for due rules (each rule runs on its own schedule). */
export const RULES_INTERVAL_MS = 60_000;

/** Runs `work` under the lease; answers its result, or null when another node holds the lease. */
export async function underLease<T>(
  db: Kysely<Database>,
  postgres: boolean,
  lock: number,
  work: () => Promise<T>,
): Promise<T | null> {
  if (!postgres) return work();
  return db.connection().execute(async (connection) => {
    const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_lock(${lock}) as locked`.execute(connection);
    if (!rows[0]?.locked) return null;
    try {
      return await work();
    } finally {
      await sql`select pg_advisory_unlock(${lock})`.execute(connection);
    }
  });
}

/** Runs `round` every `intervalMs` under the lease until stopped; a failed round is logged, the next tries again. */
export function everyUnderLease(
  db: Kysely<Database>,
  postgres: boolean,
  lock: number,
  round: () => Promise<unknown>,
  intervalMs: number,
  onError: (error: unknown) => void,
): () => Promise<void> {
  let running: Promise<unknown> = Promise.resolve();
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    running = underLease(db, postgres, lock, round)
      .catch(onError)
      .finally(() => {
        busy = false;
      });
  }, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    // A round under way gets a moment to finish; it never holds a stop up (it may wait on a report that a
    // draining worker no longer answers), and what it fails to do after the close is only logged.
    await Promise.race([running, new Promise((resolve) => setTimeout(resolve, ROUND_GRACE_MS).unref())]);
  };
}
