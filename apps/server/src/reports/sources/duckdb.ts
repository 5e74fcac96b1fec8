// DuckDB, the embedded columnar store, as the report engine keeps it on SQLite: opened, rebuilt from the
// event tables when missing, caught up before each report, and the change logs it passed pruned. Its
// reader becomes the engine's `duckdb` report source (wiring.ts).
import { DuckDBStore } from '../../columnar/duckdb.js';
import { ColumnarFollower } from '../../columnar/follower.js';
import type { ColumnarReader } from '../../report-plan/columnar-reader.js';
import { ChangeLogPruner } from '../../store/change-logs.js';
import { openSqliteStore } from '../../store/database.js';

/** How long a store locked by another process (an engine still ending) is waited for. */
const LOCK_WAIT_MS = 30_000;

/**
 * The store at `file`; while another process holds its lock (the engine of a server that just died, still
 * ending), tried again for up to LOCK_WAIT_MS.
 */
async function openLocked(file: string, threads: number, log: (message: string) => void): Promise<DuckDBStore> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      return await DuckDBStore.open(file, { threads });
    } catch (error) {
      if (!/lock/i.test(String(error)) || Date.now() > deadline) throw error;
      log(`columnar store: locked by another process, trying again: ${String(error)}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

/**
 * The columnar store, opened and caught up in the background: until it holds every event (a rebuild),
 * reports read the event tables.
 */
export async function openEmbeddedColumnar(
  file: string,
  columnarFile: string,
  threads: number,
  log: (message: string) => void,
): Promise<{ reader: ColumnarReader; close: () => Promise<void> }> {
  const store = await openLocked(columnarFile, threads, log);
  if (store.relaid) log('columnar store: written in an older layout, emptied to be copied again');
  const follower = await ColumnarFollower.start(file, store, { info: log });
  // The change logs the follower has passed are pruned on a connection of their own (the reports' only
  // reads), after the rebuild and then now and then after a catch-up. Its deletes wait for the event
  // writer's lock on a timer, as the server's own connection does: in SQLite's busy handler they slept the
  // engine's event loop, and every report and catch-up with it, for up to five seconds.
  const writer = openSqliteStore(file, { eventLoop: true });
  const pruner = new ChangeLogPruner(writer.db, () => (follower.ready ? follower.followed : null), { info: log });
  void follower
    .rebuild()
    .then(() => pruner.prune())
    .catch((error: unknown) => log(`columnar store: ${String(error)}`));
  return {
    reader: {
      kind: 'duckdb',
      get ready() {
        return follower.ready;
      },
      conversions: true,
      catchUp: () =>
        follower.catchUp().then((copied) => {
          pruner.maybePrune();
          return copied;
        }),
      aggregate: (plan) => store.aggregate(plan),
      report: (paged) => store.report(paged),
    },
    close: async () => {
      await follower.stop();
      await pruner.idle();
      await writer.db.destroy();
      await store.close();
    },
  };
}
