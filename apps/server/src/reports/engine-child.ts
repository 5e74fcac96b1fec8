// The report engine: a child process of the server (started by reports/runner.ts) that runs every
// report — from whichever source answers it (sources/): the event SQL, the rollups, DuckDB, ClickHouse's
// answers decoded — at a lower scheduling priority than the server, with its own connections and a
// bounded number of threads. A report over millions of events then takes the CPU the clicks leave, and
// the server's event loop only receives the answer. It ends when the server closes it or goes away (its
// IPC channel closes).
import { readdirSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Database } from '../store/schema.js';
import type { EngineSettings, FromEngine, ToEngine } from './engine-protocol.js';
import { ReportsService } from './service.js';

const settings = JSON.parse(process.env.SWITCHYARD_REPORT_ENGINE ?? 'null') as EngineSettings | null;
if (!settings || !process.send) throw new Error('engine-child.ts runs as the report engine, forked by runner.ts');

const send = (message: FromEngine) => {
  if (process.connected) process.send?.(message);
};
const log = (message: string) => send({ type: 'log', message });

/**
 * Every thread of this process at the engine's priority. On Linux a nice value belongs to a thread, and a
 * new thread takes its creator's: the threads there now (V8's, libuv's, DuckDB's) are set one by one, and
 * those made later inherit it.
 */
function lowerPriority(nice: number): void {
  let threads: number[] = [];
  try {
    threads = readdirSync('/proc/self/task').map(Number);
  } catch {
    // Not Linux: the process's priority (its main thread, elsewhere the whole process).
  }
  for (const thread of threads.length > 0 ? threads : [0]) {
    try {
      if (getPriority(thread) < nice) setPriority(thread, nice);
    } catch {
      // A thread that ended meanwhile, or a platform that refuses: the report still runs.
    }
  }
}

lowerPriority(settings.nice);

interface Engine {
  service: ReportsService;
  close(): Promise<void>;
}

/** Catch-ups the server was asked for (ClickHouse), by id. */
const catchUps = new Map<number, { resolve(): void; reject(error: Error): void }>();
let nextCatchUp = 0;
/** Whether the server's ClickHouse copy is complete, as the last report asked said. */
let clickhouseReady = false;

async function openEngine(): Promise<Engine> {
  const database = settings!.database;
  if (database.kind === 'sqlite') {
    const connection = new SQLite(database.file, { timeout: database.busyTimeoutMs, fileMustExist: true });
    // This connection only reads.
    connection.pragma('query_only = ON');
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: connection }) });
    const columnar = database.columnarFile
      ? await import('./sources/duckdb.js')
          .then(({ openEmbeddedColumnar }) =>
            openEmbeddedColumnar(database.file, database.columnarFile!, settings!.threads, log),
          )
          .catch((error: unknown) => {
            log(`columnar store not opened, reports read the event tables: ${String(error)}`);
            return null;
          })
      : null;
    lowerPriority(settings!.nice);
    return {
      service: new ReportsService(db, columnar ? { columnar: columnar.reader } : {}),
      close: async () => {
        await columnar?.close();
        await db.destroy();
      },
    };
  }
  // Each report reads its three tables at once; the pool holds that for every report running.
  const pool = new pg.Pool({ connectionString: database.url, max: settings!.concurrency * 3 + 1 });
  pool.on('error', (error) => log(`PostgreSQL closed an idle connection of the report engine: ${error.message}`));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const clickhouse = database.clickhouseUrl
    ? await import('./sources/clickhouse.js').then(({ engineClickHouse }) =>
        engineClickHouse(database.clickhouseUrl!, {
          ready: () => clickhouseReady,
          // The server's feed sends the cost and conversion changes made before this report.
          catchUp: () =>
            new Promise<void>((resolve, reject) => {
              const id = ++nextCatchUp;
              catchUps.set(id, { resolve, reject });
              send({ type: 'catchUp', id });
            }),
        }),
      )
    : null;
  return {
    service: new ReportsService(db, clickhouse ? { columnar: clickhouse.reader } : {}),
    close: async () => {
      await clickhouse?.close();
      await db.destroy();
    },
  };
}

const engine = openEngine();
/** The engine once open: one still opening (a store waited for, a rebuild's first pass) is not waited for. */
let opened: Engine | null = null;
void engine.then((done) => {
  opened = done;
});
let closing = false;

async function close(): Promise<void> {
  if (closing) return;
  closing = true;
  for (const waiter of catchUps.values()) waiter.reject(new Error('the report engine is closing'));
  catchUps.clear();
  try {
    await opened?.close();
  } finally {
    process.exit(0);
  }
}

process.on('message', (message: ToEngine) => {
  if (message.type === 'close') {
    void close();
    return;
  }
  if (message.type === 'caughtUp') {
    const waiter = catchUps.get(message.id);
    catchUps.delete(message.id);
    if (message.error === null) waiter?.resolve();
    else waiter?.reject(new Error(message.error));
    return;
  }
  clickhouseReady = message.columnarReady;
  lowerPriority(settings.nice);
  engine
    .then((opened) => opened.service.answer(message.query, message.scope))
    .then(
      (response) => send({ type: 'answer', id: message.id, response }),
      (error: unknown) =>
        send({ type: 'failed', id: message.id, message: error instanceof Error ? error.message : String(error) }),
    );
});
// The server went away (a crash, kill -9): nothing is left to answer, and the server started next needs
// the columnar store's file, which this process locks. Ended at once, as the server was: DuckDB and SQLite
// recover what a write in progress left, and the follower resumes from what the store holds.
process.on('disconnect', () => {
  if (!closing) process.exit(0);
});

engine.then(
  () => send({ type: 'ready' }),
  (error: unknown) => {
    log(`the report engine did not start: ${String(error)}`);
    process.exit(1);
  },
);
