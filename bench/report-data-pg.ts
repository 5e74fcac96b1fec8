// Part (b) with BENCH_REPORT_STORE=clickhouse: the server on a PostgreSQL database of the run's own, its
// columnar reports on a ClickHouse database of the run's own. The events are generated as for SQLite
// (bench/report-data.ts) into a scratch SQLite file migrated by the server's own migrations, then copied
// table by table into PostgreSQL, so that both modes report on the same rows and the same rollups.
import Database from 'better-sqlite3';
import pg from 'pg';
import { ClickHouseClient, parseClickHouseUrl } from '../apps/server/src/columnar/clickhouse-client.js';
import { literal } from '../apps/server/src/columnar/clickhouse-sql.js';
import { migrateToLatest, openStore, SQLITE_FILE_NAME } from '../apps/server/src/store/database.js';
import { BenchFailure } from './support.js';

export type ReportStore = 'duckdb' | 'clickhouse';

/** BENCH_REPORT_STORE: `duckdb` (SQLite and its embedded store, the default) or `clickhouse`. */
export function reportStore(): ReportStore {
  const store = process.env.BENCH_REPORT_STORE ?? 'duckdb';
  if (store === 'duckdb' || store === 'clickhouse') return store;
  throw new BenchFailure(`BENCH_REPORT_STORE: unknown store ${store} (duckdb, clickhouse)`);
}

/** Where the run's databases are created: any database of the server (trust auth, or a password in the URL). */
const POSTGRES_ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const CLICKHOUSE_SERVER_URL = process.env.BENCH_CLICKHOUSE_URL ?? 'http://default:@127.0.0.1:8123';

/** The tables generateEvents writes. conversion_changes is left out: PostgreSQL's trigger fills it as SQLite's did. */
const COPIED_TABLES = ['tracker_clicks', 'conversions', 'report_rollups'] as const;
/** Rows per INSERT (one array parameter per column, so the row count is not held to 65,535 parameters). */
const COPY_BATCH = 10_000;
/**
 * PostgreSQL's column types that SQLite's values go into unchanged, with the array type of their
 * parameter. Any other type (a boolean, a timestamp, JSON) would need converting here: the copy stops.
 */
const ARRAY_TYPES: Record<string, string> = {
  text: 'text[]',
  integer: 'int4[]',
  bigint: 'int8[]',
  'double precision': 'float8[]',
};

export interface ServerDatabases {
  databaseUrl: string;
  clickhouseUrl: string;
  /** What the bench prints as the store. */
  label: string;
}

function withDatabase(base: string, database: string): string {
  const url = new URL(base);
  url.pathname = `/${database}`;
  return url.toString();
}

/** A fresh PostgreSQL database and a fresh ClickHouse database for this run, both dropped by the cleanups. */
export async function createServerDatabases(cleanups: (() => Promise<unknown>)[]): Promise<ServerDatabases> {
  const name = `switchyard_bench_${process.pid}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  cleanups.push(async () => {
    const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
    await client.connect();
    try {
      // A server killed by a failed run may still hold connections.
      await client.query(`drop database if exists ${name} with (force)`);
    } finally {
      await client.end();
    }
  });
  const clickhouseUrl = withDatabase(CLICKHOUSE_SERVER_URL, name);
  const clickhouse = new ClickHouseClient(parseClickHouseUrl(clickhouseUrl));
  // Created here rather than by the server, so that a database left by another run is an error, not reused.
  await clickhouse.execute(`CREATE DATABASE ${name}`, { inDatabase: false });
  // BENCH_KEEP_CLICKHOUSE=1 keeps it, to study the reports' statements on it after the run.
  if (process.env.BENCH_KEEP_CLICKHOUSE === '1') console.log(`ClickHouse database ${name} is kept`);
  else cleanups.push(() => clickhouse.execute(`DROP DATABASE IF EXISTS ${name}`, { inDatabase: false }));
  const databaseUrl = withDatabase(POSTGRES_ADMIN_URL, name);
  // ClickHouse sizes its threads by the physical cores it finds: 2 on some VMs here, 1 on others, and the
  // ratio to the plain GROUP BY moves with it.
  const [threads] = await clickhouse.select("SELECT value FROM system.settings WHERE name = 'max_threads'");
  return {
    databaseUrl,
    clickhouseUrl,
    label: `ClickHouse (PostgreSQL), databases ${name} in both; ClickHouse max_threads ${String(threads?.value)}`,
  };
}

/**
 * Waits until ClickHouse has no merge running in the run's database (three looks a second apart), at
 * most `limitMs`: a backfill leaves hundreds of parts, and their merges would be timed with the first
 * reports. Answers the seconds waited and the active parts of clicks then.
 */
export async function settledClickHouse(
  clickhouseUrl: string,
  limitMs = 900_000,
): Promise<{ seconds: number; parts: number }> {
  const client = new ClickHouseClient(parseClickHouseUrl(clickhouseUrl));
  const database = literal(client.target.database);
  const started = performance.now();
  let quiet = 0;
  while (quiet < 3 && performance.now() - started < limitMs) {
    const [running] = await client.select(`SELECT count() AS n FROM system.merges WHERE database = ${database}`);
    quiet = Number(running?.n ?? 0) === 0 ? quiet + 1 : 0;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  const [parts] = await client.select(
    `SELECT count() AS n FROM system.parts WHERE database = ${database} AND table = 'clicks' AND active`,
  );
  return { seconds: (performance.now() - started) / 1000, parts: Number(parts?.n ?? 0) };
}

/** A SQLite database in `dir` with the schema the server would give it; answers its file. */
export async function migratedSqlite(dir: string): Promise<string> {
  const store = openStore({ databaseUrl: undefined, dataDir: dir });
  try {
    await migrateToLatest(store);
  } finally {
    await store.db.destroy();
  }
  return `${dir}/${SQLITE_FILE_NAME}`;
}

interface Column {
  name: string;
  arrayType: string;
  identity: boolean;
}

async function targetColumns(client: pg.Client, table: string, sqliteNames: Set<string>): Promise<Column[]> {
  const { rows } = await client.query<{ column_name: string; data_type: string; is_identity: string }>(
    `select column_name, data_type, is_identity from information_schema.columns
     where table_schema = current_schema() and table_name = $1 order by ordinal_position`,
    [table],
  );
  const columns = rows.map((row) => {
    const arrayType = ARRAY_TYPES[row.data_type];
    if (!arrayType) throw new BenchFailure(`copy to PostgreSQL: ${table}.${row.column_name} is ${row.data_type}`);
    return { name: row.column_name, arrayType, identity: row.is_identity === 'YES' };
  });
  const names = new Set(columns.map((column) => column.name));
  const differ = [...sqliteNames]
    .filter((name) => !names.has(name))
    .concat([...names].filter((n) => !sqliteNames.has(n)));
  if (differ.length > 0) throw new BenchFailure(`copy to PostgreSQL: ${table} differs in ${differ.join(', ')}`);
  return columns;
}

/**
 * Copies the generated tables from the SQLite file into PostgreSQL's (empty) ones, ids included; then
 * moves each identity past the copied ids, so that rows the server adds later do not collide.
 */
export async function copyToPostgres(
  file: string,
  databaseUrl: string,
  onProgress?: (table: string, copied: number) => void,
): Promise<Record<string, { rows: number; seconds: number }>> {
  const sqlite = new Database(file, { readonly: true, fileMustExist: true });
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const copied: Record<string, { rows: number; seconds: number }> = {};
  try {
    // Nothing is lost if the machine stops: the run starts over.
    await client.query('set synchronous_commit = off');
    for (const table of COPIED_TABLES) {
      const started = performance.now();
      const sqliteNames = new Set((sqlite.pragma(`table_info(${table})`) as { name: string }[]).map((c) => c.name));
      const columns = await targetColumns(client, table, sqliteNames);
      const { rows: held } = await client.query(`select 1 from ${table} limit 1`);
      if (held.length > 0) throw new BenchFailure(`copy to PostgreSQL: ${table} is not empty`);
      // Secondary indexes built once at the end rather than row by row (constraints' indexes stay).
      const { rows: indexes } = await client.query<{ name: string; definition: string }>(
        `select i.relname as name, pg_get_indexdef(x.indexrelid) as definition
         from pg_index x join pg_class i on i.oid = x.indexrelid
         where x.indrelid = $1::regclass and not exists (select 1 from pg_constraint c where c.conindid = x.indexrelid)`,
        [table],
      );
      for (const index of indexes) await client.query(`drop index "${index.name}"`);
      const names = columns.map((column) => `"${column.name}"`).join(', ');
      const insert = `insert into ${table} (${names}) select * from unnest(${columns
        .map((column, index) => `$${index + 1}::${column.arrayType}`)
        .join(', ')})`;
      const send = (rows: unknown[][]) =>
        client.query(
          insert,
          columns.map((_, column) => rows.map((row) => row[column])),
        );
      const hasId = columns.some((column) => column.name === 'id');
      const read = sqlite.prepare(`select ${names} from ${table}${hasId ? ' order by id' : ''}`).raw(true);
      let count = 0;
      let batch: unknown[][] = [];
      // One insert in flight while the next batch is read.
      let sending: Promise<unknown> = Promise.resolve();
      for (const row of read.iterate() as IterableIterator<unknown[]>) {
        batch.push(row);
        if (batch.length < COPY_BATCH) continue;
        await sending;
        sending = send(batch);
        count += batch.length;
        batch = [];
        onProgress?.(table, count);
      }
      await sending;
      if (batch.length > 0) await send(batch);
      count += batch.length;
      onProgress?.(table, count);
      for (const index of indexes) await client.query(index.definition);
      for (const column of columns.filter((candidate) => candidate.identity)) {
        await client.query(
          `select setval(pg_get_serial_sequence($1, $2), (select max("${column.name}") from ${table}))`,
          [table, column.name],
        );
      }
      await client.query(`analyze ${table}`);
      copied[table] = { rows: count, seconds: (performance.now() - started) / 1000 };
    }
    // conversion_changes, filled by the trigger as the conversions went in: its statistics too.
    await client.query('analyze conversion_changes');
  } finally {
    sqlite.close();
    await client.end();
  }
  return copied;
}

/** A sum over the events in PostgreSQL, with SQLite's `?` placeholders (as reports-bench asks SQLite). */
export async function postgresSum(databaseUrl: string, query: string, values: unknown[]): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    let index = 0;
    const { rows } = await client.query(
      query.replace(/\?/g, () => `$${++index}`),
      values,
    );
    return Number(Object.values(rows[0] ?? {})[0] ?? 0);
  } finally {
    await client.end();
  }
}

/**
 * Each tracker campaign's workspace as the configuring server stored it in PostgreSQL: the scratch SQLite
 * file the events are generated into has no configuration, and events of no workspace are in
 * no workspace's reports.
 */
export async function campaignWorkspaces(databaseUrl: string): Promise<Map<string, number>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ external_id: string; workspace_id: number | null }>(
      "select external_id, workspace_id from config_records where kind = 'tracker-campaigns'",
    );
    return new Map(rows.map((row) => [row.external_id, Number(row.workspace_id ?? 0)]));
  } finally {
    await client.end();
  }
}
