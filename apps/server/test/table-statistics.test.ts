import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { migrateToLatest, openStore, type Store } from '../src/store/database.js';
import { freshStatistics } from '../src/store/statistics.js';
import { eventually } from './eventually.js';
import { DatabaseUnderTest, describePostgres } from './harness.js';

// A table filled just now has no statistics on PostgreSQL until autovacuum's turn, and its paged reads
// were planned badly (a cost update over a million clicks took minutes): such work analyzes it first,
// and only when most of its rows are new.

const ROWS = 12_000;

async function fill(store: Store, from: number, count: number): Promise<void> {
  const at = new Date().toISOString();
  for (let start = from; start < from + count; start += 1000) {
    const rows = Array.from({ length: Math.min(1000, from + count - start) }, (_, index) => ({
      key: `row-${start + index}`,
      value: 'x',
      updated_at: at,
    }));
    await store.db.insertInto('settings').values(rows).execute();
  }
}

interface TableStatistics {
  live: number;
  changed: number;
  analyzedAt: string | null;
}

async function statisticsOf(store: Store): Promise<TableStatistics> {
  const { rows } = await sql<{ live: string; changed: string; analyzed_at: Date | null }>`
    select n_live_tup as live, n_mod_since_analyze as changed, last_analyze as analyzed_at
    from pg_stat_user_tables where relid = to_regclass('settings')`.execute(store.db);
  const row = rows[0]!;
  return { live: Number(row.live), changed: Number(row.changed), analyzedAt: row.analyzed_at?.toISOString() ?? null };
}

/** A backend reports what it wrote to the statistics at most once a second: waits until `live` rows show. */
async function counted(store: Store, live: number): Promise<TableStatistics> {
  let seen: TableStatistics | undefined;
  return eventually(
    async () => {
      seen = await statisticsOf(store);
      return seen.live >= live && seen;
    },
    () => `the statistics show ${seen?.live} live rows, not ${live}`,
    { withinMs: 15_000, everyMs: 200 },
  );
}

describePostgres('table statistics [postgres]', () => {
  const db = new DatabaseUnderTest('postgres');
  let store: Store;
  afterAll(async () => {
    await store?.db.destroy();
    await db.cleanup();
  });

  it('are taken when most rows are new, and only then', async () => {
    const database = await db.createDatabase();
    store = openStore({ databaseUrl: database.DATABASE_URL, dataDir: database.SWITCHYARD_DATA_DIR });
    await migrateToLatest(store);

    // The rows the migrations wrote, if any.
    const base = Number(
      (
        await store.db
          .selectFrom('settings')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

    // A few rows: planned well enough as they are.
    await fill(store, 0, 500);
    expect((await counted(store, base + 500)).live).toBe(base + 500);
    expect(await freshStatistics(store, 'settings')).toBe(false);
    expect((await statisticsOf(store)).analyzedAt).toBeNull();

    // Filled at once, never analyzed: analyzed now.
    await fill(store, 500, ROWS);
    const filled = await counted(store, base + ROWS + 500);
    expect(filled).toMatchObject({ live: base + ROWS + 500, analyzedAt: null });
    expect(await freshStatistics(store, 'settings')).toBe(true);
    const analyzed = await statisticsOf(store);
    expect(analyzed.changed).toBe(0);
    expect(analyzed.analyzedAt).not.toBeNull();

    // A tenth more since: left to autovacuum.
    await fill(store, ROWS + 500, 1_250);
    expect((await counted(store, base + ROWS + 1_750)).changed).toBe(1_250);
    expect(await freshStatistics(store, 'settings')).toBe(false);
    expect((await statisticsOf(store)).analyzedAt).toBe(analyzed.analyzedAt);
  });
});

describe('table statistics [sqlite]', () => {
  it('are left to SQLite', async () => {
    const db = new DatabaseUnderTest('sqlite');
    const database = await db.createDatabase();
    const store = openStore({ databaseUrl: undefined, dataDir: database.SWITCHYARD_DATA_DIR });
    try {
      await migrateToLatest(store);
      await fill(store, 0, ROWS);
      expect(await freshStatistics(store, 'settings')).toBe(false);
      // SQLite's own statistics table appears only with ANALYZE.
      const analyzed = await sql<{ name: string }>`select name from sqlite_master where name = 'sqlite_stat1'`.execute(
        store.db,
      );
      expect(analyzed.rows).toEqual([]);
    } finally {
      await store.db.destroy();
      await db.cleanup();
    }
  });
});
