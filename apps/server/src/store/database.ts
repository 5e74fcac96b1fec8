import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  type DialectAdapter,
  type Driver,
  Kysely,
  Migrator,
  PostgresDialect,
  type QueryResult,
  SqliteAdapter,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
} from 'kysely';
import pg from 'pg';
import { type Config, type DatabaseDialect, databaseDialect } from '../config.js';
import { InCodeMigrationProvider } from './migrations.js';
import type { Database } from './schema.js';

export interface Store {
  db: Kysely<Database>;
  dialect: DatabaseDialect;
  /** The better-sqlite3 database behind `db` on SQLite (the tracker's event writer uses it directly). */
  sqlite?: SQLite.Database;
}

export const SQLITE_FILE_NAME = 'switchyard.db';
/**
 * A new database's page size: 16 KiB rather than SQLite's 4 KiB. Every click is a row of ~600 bytes
 * written through the WAL, where each page costs write calls (the frame and its header) and a copy at
 * the checkpoint: with 4 KiB pages, 2.3–3.1 µs of system time per stored click on the writer thread;
 * with 16 KiB, 1.2 (the stored rows of a click benchmark, written again by the same code).
 */
export const SQLITE_PAGE_SIZE = 16_384;

/** How long a connection waits for another's write lock (every connection to the file: main, writer, reports). */
export const SQLITE_BUSY_TIMEOUT_MS = 5000;

/**
 * SQLite runs DDL inside transactions, but Kysely's adapter says it cannot, so its migrator would run
 * each migration statement by statement: one failing (or a process stopped) half-way would leave a
 * schema that no later start can migrate. Saying so makes every migration all or nothing.
 */
class TransactionalSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

/** The longest pause between two attempts of a statement the write lock refused (PatientConnection). */
const BUSY_PAUSE_MAX_MS = 16;

function isBusy(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    'code' in error &&
    String((error as { code: unknown }).code).startsWith('SQLITE_BUSY')
  );
}

/**
 * The event loop's connection waits for another connection's write lock on a timer. SQLite's own wait
 * (busy_timeout) sleeps the thread that asked, and on the event loop every click waited as long: during
 * bench part (c), a rule run's DELETE once held the clicks up for the whole five seconds, and failed.
 * A statement refused outside a transaction (a BEGIN IMMEDIATE, or a write on its own) changed nothing,
 * so it is asked again after a pause, for as long as SQLITE_BUSY_TIMEOUT_MS.
 */
class PatientConnection implements DatabaseConnection {
  constructor(
    private readonly inner: DatabaseConnection,
    private readonly database: SQLite.Database,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const deadline = performance.now() + SQLITE_BUSY_TIMEOUT_MS;
    for (let pause = 1; ; pause = Math.min(pause * 2, BUSY_PAUSE_MAX_MS)) {
      try {
        return await this.inner.executeQuery<R>(query);
      } catch (error) {
        if (!isBusy(error) || this.database.inTransaction || performance.now() + pause > deadline) throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

/**
 * Transactions take the write lock when they begin (`BEGIN IMMEDIATE`), so a second process on the same
 * file waits for it instead of failing when its read turns into a write, or migrating a schema the first
 * one is migrating. On the event loop's connection (`patient`), it waits on a timer (PatientConnection).
 */
class ImmediateSqliteDriver extends SqliteDriver {
  private connection: DatabaseConnection | null = null;

  constructor(
    config: SqliteDialectConfig,
    private readonly patient: SQLite.Database | null,
  ) {
    super(config);
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await super.acquireConnection();
    if (!this.patient) return connection;
    this.connection ??= new PatientConnection(connection, this.patient);
    return this.connection;
  }

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class SwitchyardSqliteDialect extends SqliteDialect {
  constructor(
    private readonly settings: SqliteDialectConfig & { database: SQLite.Database },
    private readonly patient: boolean,
  ) {
    super(settings);
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.settings, this.patient ? this.settings.database : null);
  }

  override createAdapter(): DialectAdapter {
    return new TransactionalSqliteAdapter();
  }
}

export function openStore(config: Pick<Config, 'databaseUrl' | 'dataDir'>): Store {
  const dialect = databaseDialect(config);
  if (dialect === 'postgres') {
    const pool = new pg.Pool({ connectionString: config.databaseUrl, max: 10 });
    // An idle connection the server ends (restart, failover, a dropped test database) must not take the
    // process down: the pool replaces it on the next query, so it is only worth a warning.
    pool.on('error', (error) => {
      console.warn(`PostgreSQL closed an idle connection: ${error.message}`);
    });
    return { dialect, db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }) };
  }
  mkdirSync(config.dataDir, { recursive: true });
  return openSqliteStore(path.join(config.dataDir, SQLITE_FILE_NAME), { eventLoop: true });
}

/**
 * The store on the SQLite file `file`. A connection used from an event loop (`eventLoop`: the server's
 * own, the report engine's pruner) waits for another connection's write lock on a timer, never in
 * SQLite's busy handler; a connection on a thread of its own waits in SQLite.
 */
export function openSqliteStore(file: string, options: { eventLoop?: boolean } = {}): Store {
  const database = new SQLite(file, { timeout: SQLITE_BUSY_TIMEOUT_MS });
  // Set before anything is written; a database that has pages already keeps its size (SQLite ignores it).
  database.pragma(`page_size = ${SQLITE_PAGE_SIZE}`);
  database.pragma('journal_mode = WAL');
  database.pragma('foreign_keys = ON');
  database.pragma(`busy_timeout = ${options.eventLoop ? 0 : SQLITE_BUSY_TIMEOUT_MS}`);
  return {
    dialect: 'sqlite',
    sqlite: database,
    db: new Kysely<Database>({ dialect: new SwitchyardSqliteDialect({ database }, options.eventLoop ?? false) }),
  };
}

export async function migrateToLatest(store: Store): Promise<void> {
  const migrator = new Migrator({ db: store.db, provider: new InCodeMigrationProvider(store.dialect) });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    const cause = error instanceof Error ? error : new Error(String(error ?? 'unknown'));
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${cause.message}`, { cause });
  }
}

/** Unique-index violation, in either dialect. */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('code' in error)) return false;
  const code = (error as { code: unknown }).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

export function now(): string {
  return new Date().toISOString();
}

export function toBoolean(value: number): boolean {
  return value !== 0;
}

export function fromBoolean(value: boolean): number {
  return value ? 1 : 0;
}

export function parseStringList(json: string): string[] {
  const parsed: unknown = JSON.parse(json);
  return Array.isArray(parsed) ? parsed.filter((item): item is string => typeof item === 'string') : [];
}
