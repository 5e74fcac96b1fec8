// The tuner runs on one node at a time: on PostgreSQL the node that takes an advisory lock for the round
// (the others skip it), on SQLite the process itself.
import { OPTIMIZE_INTERVAL_MS } from '@switchyard/domain';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../store/schema.js';
import type { WeightTuner } from './tuner.js';

/** The advisory lock of a tuning round (any number no other lock on the database uses). */
const TUNER_LOCK = 7_264_093_511;

/** Runs one round under the lease; answers the groups weighed, or null when another node holds it. */
export async function tuneUnderLease(
  db: Kysely<Database>,
  postgres: boolean,
  tuner: WeightTuner,
): Promise<number | null> {
  if (!postgres) return tuner.runOnce();
  return db.connection().execute(async (connection) => {
    const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_lock(${TUNER_LOCK}) as locked`.execute(
      connection,
    );
    if (!rows[0]?.locked) return null;
    try {
      return await tuner.runOnce();
    } finally {
      await sql`select pg_advisory_unlock(${TUNER_LOCK})`.execute(connection);
    }
  });
}

/** Tunes every `intervalMs` until stopped; a failed round is logged and the next one tries again. */
export function scheduleTuning(
  db: Kysely<Database>,
  postgres: boolean,
  tuner: WeightTuner,
  log: { warn(object: object, message: string): void },
  intervalMs = OPTIMIZE_INTERVAL_MS,
): () => Promise<void> {
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = tuneUnderLease(db, postgres, tuner).catch((error: unknown) => {
      log.warn({ err: error }, 'live weights not recomputed; the previous ones stay in force');
    });
  }, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
