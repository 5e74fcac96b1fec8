import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
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

type Row = Record<string, unknown>;
interface Schema {
  tables: Row[];
  columns: Row[];
  indexes: Row[];
  constraints: Row[];
}

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

  /**
   * What the migrations made, read from the database's own catalogue: every table, every column with its
   * type, nullability and default, every index and (PostgreSQL) constraint, sorted.
   */
  async function schemaOf(target: Store): Promise<Schema> {
    if (target.dialect === 'postgres') {
      const tables = await sql<Row>`
        select table_name, table_type from information_schema.tables
        where table_schema = current_schema() order by table_name`.execute(target.db);
      const columns = await sql<Row>`
        select table_name, ordinal_position, column_name, data_type, is_nullable, column_default
        from information_schema.columns
        where table_schema = current_schema() order by table_name, ordinal_position`.execute(target.db);
      const indexes = await sql<Row>`
        select tablename, indexname, indexdef from pg_indexes
        where schemaname = current_schema() order by tablename, indexname`.execute(target.db);
      const constraints = await sql<Row>`
        select table_name, constraint_name, constraint_type from information_schema.table_constraints
        where table_schema = current_schema() order by table_name, constraint_name`.execute(target.db);
      return { tables: tables.rows, columns: columns.rows, indexes: indexes.rows, constraints: constraints.rows };
    }
    const objects = sql<Row>`
      select type, name, tbl_name, sql from sqlite_master
      where name not like 'sqlite_%' and type in ('table', 'index') order by type, name`;
    const all = (await objects.execute(target.db)).rows;
    const tables = all.filter((object) => object.type === 'table');
    const columns = await sql<Row>`
      select m.name as table_name, c.cid, c.name, c.type, c."notnull", c.dflt_value, c.pk
      from sqlite_master m join pragma_table_info(m.name) c
      where m.type = 'table' and m.name not like 'sqlite_%' order by m.name, c.cid`.execute(target.db);
    const indexes = await sql<Row>`
      select m.name as table_name, i.name, i."unique", i.origin, i.partial
      from sqlite_master m join pragma_index_list(m.name) i
      where m.type = 'table' and m.name not like 'sqlite_%' order by m.name, i.name`.execute(target.db);
    return {
      tables,
      columns: columns.rows,
      indexes: [...all.filter((object) => object.type === 'index'), ...indexes.rows],
      constraints: [],
    };
  }

  it('migrating twice is harmless: the second run changes no table, column or index', async () => {
    store = openStore(loadConfig({ ...(await db.createDatabase()) }));
    await migrateToLatest(store);
    const once = await schemaOf(store);
    const applied = await sql<Row>`select name from kysely_migration order by name`.execute(store.db);

    await migrateToLatest(store);
    const twice = await schemaOf(store);

    // Something to compare: the schema was read, not an empty catalogue.
    expect(once.tables.map((table) => table.name ?? table.table_name)).toEqual(
      expect.arrayContaining(['users', 'roles', 'workspaces', 'sessions', 'kysely_migration']),
    );
    expect(once.columns.length).toBeGreaterThan(once.tables.length);
    expect(once.indexes.length).toBeGreaterThan(0);
    expect(twice).toEqual(once);
    // Each migration was recorded once, by the first run.
    expect((await sql<Row>`select name from kysely_migration order by name`.execute(store.db)).rows).toEqual(
      applied.rows,
    );
    expect(applied.rows.length).toBeGreaterThan(0);
  });

  it('0021 gives clicks whose cost changed before it the cost they were stored with', async () => {
    store = openStore(loadConfig({ ...(await db.createDatabase()) }));
    const before = Object.fromEntries(
      Object.entries(migrations(store.dialect)).filter(([name]) => name < '0021'),
    ) as Record<string, Migration>;
    const upTo = new Migrator({ db: store.db, provider: { getMigrations: async () => before } });
    expect((await upTo.migrateToLatest()).error).toBeUndefined();
    for (const [click, cost] of [
      ['c-changed', 1.75],
      ['c-same', 0.4],
    ] as const) {
      await sql`insert into tracker_clicks (click_id, created_at, campaign_external_id, visitor_id, is_unique,
          vars, cost, is_bot, reason)
        values (${click}, '2026-11-01T10:00:00.000Z', 'camp', 'v', 1, '{}', ${cost}, 0, 'matched')`.execute(store.db);
    }
    await sql`insert into tracker_click_cost_changes (click_id, delta)
      values ('c-changed', 1.0), ('c-changed', 0.25)`.execute(store.db);

    await migrateToLatest(store);
    const rows = await store.db
      .selectFrom('tracker_clicks')
      .select(['click_id', 'cost', 'original_cost'])
      .orderBy('click_id')
      .execute();
    expect(rows).toEqual([
      { click_id: 'c-changed', cost: 1.75, original_cost: 0.5 },
      { click_id: 'c-same', cost: 0.4, original_cost: null },
    ]);
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

describe('frozen migrations', () => {
  it('each is a file of its own, listed in order, importing nothing but Kysely and frozen code', async () => {
    const dir = path.join(import.meta.dirname, '../src/store/migrations');
    const files = (await readdir(dir)).filter((name) => name.endsWith('.ts')).sort();
    // One file per key, named as the key (`0043_old_links` → `0043-old-links.ts`), in the list's order.
    expect(files).toEqual(Object.keys(migrations('sqlite')).map((key) => `${key.replaceAll('_', '-')}.ts`));
    const importsOf = async (file: string) => {
      const text = await readFile(path.join(dir, file), 'utf8');
      const sources = [...text.matchAll(/\bfrom\s+['"]([^'"]+)['"]|\bimport\s*\(?\s*['"]([^'"]+)['"]/g)].map(
        (match) => match[1] ?? match[2],
      );
      return [...new Set(sources)];
    };
    // Code several migrations share is frozen beside them (frozen/), and imports nothing but Kysely either.
    for (const file of files) {
      const live = (await importsOf(file)).filter((source) => source !== 'kysely' && !source?.startsWith('./frozen/'));
      expect({ file, live }).toEqual({ file, live: [] });
    }
    for (const file of await readdir(path.join(dir, 'frozen'))) {
      expect({ file, sources: await importsOf(`frozen/${file}`) }).toEqual({ file, sources: ['kysely'] });
    }
  });
});
