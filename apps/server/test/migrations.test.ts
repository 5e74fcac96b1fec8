import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { type Kysely, type Migration, Migrator, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { migrateToLatest, openStore, SQLITE_FILE_NAME, SQLITE_PAGE_SIZE, type Store } from '../src/store/database.js';
import { migrations } from '../src/store/migrations.js';
import { forEachDatabase } from './harness.js';

// A migration that fails half-way must leave nothing behind on either database, or no later start
// could migrate: its first statements would fail with "already exists".

forEachDatabase('migrations', (db) => {
  let store: Store | undefined;
  afterEach(async () => {
    await store?.db.destroy();
    store = undefined;
  });

  async function tableNames(handle: Kysely<unknown>): Promise<string[]> {
    const tables = await handle.introspection.getTables();
    return tables.map((table) => table.name);
  }

  it('a failing migration is rolled back entirely, and a later start migrates', async () => {
    store = openStore(loadConfig({ ...(await db.createDatabase()) }));
    const broken: Migration = {
      async up(handle) {
        await handle.schema.createTable('half_done').addColumn('id', 'integer').execute();
        await sql`select * from table_that_does_not_exist`.execute(handle);
      },
    };
    const migrator = new Migrator({
      db: store.db,
      provider: { getMigrations: async () => ({ ...migrations(store!.dialect), '0002_broken': broken }) },
    });
    const { error, results } = await migrator.migrateToLatest();
    expect(error).toBeDefined();
    expect(results?.find((result) => result.migrationName === '0002_broken')?.status).toBe('Error');
    const handle = store.db as unknown as Kysely<unknown>;
    expect(await tableNames(handle)).not.toContain('half_done');

    // The real migrations still apply (0001 either committed before 0002 or is retried).
    await migrateToLatest(store);
    expect(await tableNames(handle)).toEqual(expect.arrayContaining(['users', 'roles', 'workspaces', 'sessions']));
    expect(await tableNames(handle)).not.toContain('half_done');
  });

  it('migrating twice is harmless', async () => {
    store = openStore(loadConfig({ ...(await db.createDatabase()) }));
    await migrateToLatest(store);
    await migrateToLatest(store);
  });
});

describe('SQLite page size', () => {
  let dataDir = '';
  afterEach(async () => {
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    dataDir = '';
  });

  it('a new database gets 16 KiB pages; one that exists keeps its own and still opens and migrates', async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'switchyard-pages-'));
    const fresh = openStore({ databaseUrl: undefined, dataDir: path.join(dataDir, 'new') });
    await migrateToLatest(fresh);
    expect(fresh.sqlite?.pragma('page_size', { simple: true })).toBe(SQLITE_PAGE_SIZE);
    await fresh.db.destroy();

    // A database made before (SQLite's default 4 KiB pages, already written).
    const olderDir = path.join(dataDir, 'older');
    await mkdir(olderDir);
    const older = new SQLite(path.join(olderDir, SQLITE_FILE_NAME));
    older.pragma('journal_mode = WAL');
    older.exec('create table kept (id integer)');
    older.close();
    const reopened = openStore({ databaseUrl: undefined, dataDir: olderDir });
    await migrateToLatest(reopened);
    expect(reopened.sqlite?.pragma('page_size', { simple: true })).toBe(4096);
    expect(reopened.sqlite?.pragma('journal_mode', { simple: true })).toBe('wal');
    await reopened.db.destroy();
  });
});
