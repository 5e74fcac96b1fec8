import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import {
  migrateToLatest,
  openSqliteStore,
  openStore,
  SQLITE_BUSY_TIMEOUT_MS,
  type Store,
} from '../src/store/database.js';

// The event loop's SQLite connection waits for another connection's write lock (the event writer's
// thread, the report engine, another process) on a timer, so clicks are answered meanwhile; SQLite's own
// wait would sleep the event loop itself. A second connection on a thread of its own waits in SQLite.

const opened: { store: Store; dir: string; others: SQLite.Database[] }[] = [];
afterEach(async () => {
  for (const { store, dir, others } of opened.splice(0)) {
    for (const other of others) {
      if (other.inTransaction) other.exec('rollback');
      other.close();
    }
    await store.db.destroy();
    await rm(dir, { recursive: true, force: true });
  }
});

/** The server's store, and another connection to its file holding the write lock. */
async function lockedStore(): Promise<{ store: Store; other: SQLite.Database }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'switchyard-lock-'));
  const store = openStore({ databaseUrl: undefined, dataDir: dir });
  await migrateToLatest(store);
  const other = new SQLite(store.sqlite!.name);
  opened.push({ store, dir, others: [other] });
  other.exec('begin immediate');
  return { store, other };
}

const setting = (key: string) => ({ key, value: '"1"', updated_at: new Date().toISOString() });
const keysOf = async (store: Store) =>
  (await store.db.selectFrom('settings').select('key').where('key', 'like', 'lock-%').orderBy('key').execute()).map(
    (row) => row.key,
  );

describe("the event loop's SQLite connection", () => {
  it('waits for a write lock on a timer: a timer meanwhile releases it, and the write and a transaction go through', async () => {
    const { store, other } = await lockedStore();
    const steps: string[] = [];
    // Fires only if the event loop runs while the writes wait: in SQLite's busy handler it would not.
    setTimeout(() => {
      steps.push('released');
      other.exec('commit');
    }, 200);
    const write = store.db
      .insertInto('settings')
      .values(setting('lock-write'))
      .execute()
      .then(() => steps.push('written'));
    const transaction = store.db
      .transaction()
      .execute(async (trx) => {
        await trx.insertInto('settings').values(setting('lock-transaction-1')).execute();
        await trx.insertInto('settings').values(setting('lock-transaction-2')).execute();
      })
      .then(() => steps.push('committed'));
    await Promise.all([write, transaction]);
    expect(steps).toEqual(['released', 'written', 'committed']);
    expect(await keysOf(store)).toEqual(['lock-transaction-1', 'lock-transaction-2', 'lock-write']);
  });

  it('gives up after the busy timeout with SQLITE_BUSY, having let timers run all along, and writes nothing', async () => {
    const { store } = await lockedStore();
    let fired = 0;
    const timer = setInterval(() => {
      fired += 1;
    }, 100);
    const started = performance.now();
    try {
      await expect(store.db.insertInto('settings').values(setting('lock-refused')).execute()).rejects.toMatchObject({
        code: expect.stringMatching(/^SQLITE_BUSY/),
      });
    } finally {
      clearInterval(timer);
    }
    expect(performance.now() - started).toBeGreaterThanOrEqual(SQLITE_BUSY_TIMEOUT_MS - 50);
    // A timer every 100 ms across five seconds fired while the write waited (none would in SQLite's wait).
    expect(fired).toBeGreaterThan(10);
    opened[0]!.others[0]!.exec('rollback');
    expect(await keysOf(store)).toEqual([]);
  }, 20_000);

  it("is the only one that waits on a timer: a thread's connection waits in SQLite", async () => {
    const { store } = await lockedStore();
    expect(store.sqlite!.pragma('busy_timeout', { simple: true })).toBe(0);
    const thread = openSqliteStore(store.sqlite!.name);
    try {
      expect(thread.sqlite!.pragma('busy_timeout', { simple: true })).toBe(SQLITE_BUSY_TIMEOUT_MS);
    } finally {
      await thread.db.destroy();
    }
  });
});
