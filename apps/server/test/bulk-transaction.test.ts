import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql, type Transaction } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { bulkTransaction } from '../src/store/bulk-transaction.js';
import { migrateToLatest, openStore, type Store } from '../src/store/database.js';
import type { Database } from '../src/store/schema.js';

// A transaction over many rows on the event loop's SQLite connection: while it runs, that connection
// neither waits for the disk at its commit nor checkpoints the log (the settings are its own, restored
// after); the change is made durable by the function given, before the transaction's answer.

const opened: { store: Store; dir: string }[] = [];
afterEach(async () => {
  for (const { store, dir } of opened.splice(0)) {
    await store.db.destroy();
    await rm(dir, { recursive: true, force: true });
  }
});

async function sqliteStore(): Promise<Store> {
  const dir = await mkdtemp(path.join(tmpdir(), 'switchyard-bulk-'));
  const store = openStore({ databaseUrl: undefined, dataDir: dir });
  opened.push({ store, dir });
  await migrateToLatest(store);
  // Not the driver's default (NORMAL), so that restoring it shows.
  store.sqlite!.pragma('synchronous = FULL');
  return store;
}

const settingsOf = (store: Store) => ({
  synchronous: Number(store.sqlite!.pragma('synchronous', { simple: true })),
  checkpointAt: Number(store.sqlite!.pragma('wal_autocheckpoint', { simple: true })),
});
/** A settings row written in the transaction, to see whether it was kept. */
const insertSetting = (trx: Transaction<Database>, key: string) =>
  trx.insertInto('settings').values({ key, value: '1', updated_at: new Date().toISOString() }).execute();
const countOf = async (store: Store, key: string) =>
  (await store.db.selectFrom('settings').select('key').where('key', '=', key).execute()).length;

describe('bulk transactions on SQLite', () => {
  it('commit without a sync or a checkpoint on this connection, then are made durable before they answer', async () => {
    const store = await sqliteStore();
    const before = settingsOf(store);
    expect(before).toEqual({ synchronous: 2, checkpointAt: 1000 });
    const steps: string[] = [];
    const inside = await bulkTransaction(
      store,
      async (trx) => {
        await insertSetting(trx, 'bulk.test');
        steps.push('work');
        return settingsOf(store);
      },
      async () => {
        // Committed already (read on the handle itself: the store's connection is held until this ends).
        const rows = store.sqlite!.prepare("select count(*) as n from settings where key = 'bulk.test'").get();
        steps.push(`durable, ${(rows as { n: number }).n} row`);
      },
    );
    expect(inside).toEqual({ synchronous: 1, checkpointAt: 0 });
    expect(steps).toEqual(['work', 'durable, 1 row']);
    expect(settingsOf(store)).toEqual(before);
  });

  it('keep nothing of a transaction that fails, and restore the settings', async () => {
    const store = await sqliteStore();
    let durableCalls = 0;
    await expect(
      bulkTransaction(
        store,
        async (trx) => {
          await insertSetting(trx, 'bulk.failed');
          await sql`select no_such_function()`.execute(trx);
        },
        async () => {
          durableCalls += 1;
        },
      ),
    ).rejects.toThrow(/no_such_function/);
    expect(durableCalls).toBe(0);
    expect(await countOf(store, 'bulk.failed')).toBe(0);
    expect(settingsOf(store)).toEqual({ synchronous: 2, checkpointAt: 1000 });
  });

  it('hold the connection: a query asked meanwhile runs after the transaction and its settings', async () => {
    const store = await sqliteStore();
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const bulk = bulkTransaction(store, async (trx) => {
      await insertSetting(trx, 'bulk.held');
      await held;
    });
    // Asked while the bulk transaction waits: it must not run inside it, nor with its settings.
    const meanwhile = (async () => {
      const rows = await countOf(store, 'bulk.held');
      return { rows, ...settingsOf(store) };
    })();
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    await bulk;
    expect(await meanwhile).toEqual({ rows: 1, synchronous: 2, checkpointAt: 1000 });
  });
});
