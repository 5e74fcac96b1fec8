// A transaction that changes many rows (a cost update over a million clicks) on the connection the event
// loop uses. On SQLite its commit would then copy the whole change from the write-ahead log into the
// database file (the automatic checkpoint), synchronously: a second and more during which no click is
// answered. So, while it runs, this connection leaves the checkpoint to others and commits without
// waiting for the disk; once it has committed, `durable` syncs the log off the event loop (the event
// writer's thread, which also checkpoints at its commits) before the caller answers.
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Store } from './database.js';
import type { Database } from './schema.js';
import { commitDurably } from './traffic/sqlite-durable.js';

export async function bulkTransaction<T>(
  store: Store,
  work: (trx: Transaction<Database>) => Promise<T>,
  /**
   * Makes every commit so far durable (the engine's, off the event loop); without it, on this connection.
   * Called while the connection is still held: it must not query through `store.db`.
   */
  durable?: () => Promise<void>,
): Promise<T> {
  const sqlite = store.sqlite;
  if (store.dialect !== 'sqlite' || !sqlite) return store.db.transaction().execute(work);
  // The connection held throughout, so that nothing else commits on it with these settings.
  return store.db.connection().execute(async (connection: Kysely<Database>) => {
    const synchronous = Number(sqlite.pragma('synchronous', { simple: true }));
    const checkpointAt = Number(sqlite.pragma('wal_autocheckpoint', { simple: true }));
    await sql`pragma synchronous = NORMAL`.execute(connection);
    await sql`pragma wal_autocheckpoint = 0`.execute(connection);
    try {
      const result = await connection.transaction().execute(work);
      if (durable) await durable();
      else commitDurably(sqlite);
      return result;
    } finally {
      await sql.raw(`pragma synchronous = ${synchronous}`).execute(connection);
      await sql.raw(`pragma wal_autocheckpoint = ${checkpointAt}`).execute(connection);
    }
  });
}
