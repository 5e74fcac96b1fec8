// The report reader's thread on SQLite (started by reports/runner.ts, through worker-boot.mjs).
// better-sqlite3 runs synchronously: on the event loop, a report over millions of events (one no rollup
// cube holds: by subaff, by var, four groups at once) would hold up every click and API request for as
// long as it reads. Here reports run on their own connection to the same file (WAL: reading never waits
// for the writers), one at a time, and the event loop only waits for the answer.
import { parentPort, workerData } from 'node:worker_threads';
import type { TReportQuery } from '@switchyard/domain';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { ChangeLogPruner } from '../store/change-logs.js';
import type { Database } from '../store/schema.js';
import { type ColumnarReader, type ReportScope, ReportsService } from './service.js';

export interface ReportWorkerSettings {
  file: string;
  busyTimeoutMs: number;
  /** Issue 23: the embedded columnar store's file, which this thread keeps following the event tables. */
  columnarFile: string | null;
}

export type ToReportWorker = { type: 'run'; id: number; query: TReportQuery; scope: ReportScope } | { type: 'close' };

export type FromReportWorker =
  | { type: 'answer'; id: number; response: Awaited<ReturnType<ReportsService['run']>> }
  | { type: 'failed'; id: number; message: string }
  | { type: 'log'; message: string };

const port = parentPort;
if (!port) throw new Error('report-worker.ts runs as a worker thread');
const settings = workerData as ReportWorkerSettings;

const connection = new SQLite(settings.file, { timeout: settings.busyTimeoutMs, fileMustExist: true });
// This connection only reads.
connection.pragma('query_only = ON');
const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: connection }) });
const send = (message: FromReportWorker) => port.postMessage(message);

/**
 * The columnar store, opened and caught up in the background: until it holds every event (a rebuild),
 * reports read the event tables. A store that cannot open is logged, and reports read the event tables.
 */
async function openColumnar(file: string): Promise<{ reader: ColumnarReader; close: () => Promise<void> }> {
  // Loaded here, not imported above: an engine that cannot load on this machine leaves reports working.
  const { DuckDBStore } = await import('../columnar/duckdb.js');
  const { ColumnarFollower } = await import('../columnar/follower.js');
  const store = await DuckDBStore.open(file);
  const log = { info: (message: string) => send({ type: 'log', message }) };
  if (store.relaid) log.info('columnar store: written in an older layout, emptied to be copied again');
  const follower = await ColumnarFollower.start(settings.file, store, log);
  // The change logs the follower has passed are pruned on a connection of their own (the one above only
  // reads), after the rebuild and then now and then after a catch-up.
  const writer = new SQLite(settings.file, { timeout: settings.busyTimeoutMs, fileMustExist: true });
  const pruner = new ChangeLogPruner(
    new Kysely<Database>({ dialect: new SqliteDialect({ database: writer }) }),
    () => (follower.ready ? follower.followed : null),
    log,
  );
  void follower
    .rebuild()
    .then(() => pruner.prune())
    .catch((error: unknown) => send({ type: 'log', message: `columnar store: ${String(error)}` }));
  return {
    reader: {
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
      writer.close();
      await store.close();
    },
  };
}

const columnar = settings.columnarFile
  ? openColumnar(settings.columnarFile).catch((error: unknown) => {
      send({ type: 'log', message: `columnar store not opened, reports read the event tables: ${String(error)}` });
      return null;
    })
  : Promise.resolve(null);
const reports = columnar.then((opened) => new ReportsService(db, opened ? { columnar: opened.reader } : {}));

port.on('message', (message: ToReportWorker) => {
  if (message.type === 'close') {
    void columnar
      .then((opened) => opened?.close())
      .finally(() => db.destroy())
      .finally(() => port.close());
    return;
  }
  reports
    .then((service) => service.run(message.query, message.scope))
    .then(
      (response) => send({ type: 'answer', id: message.id, response }),
      (error: unknown) =>
        send({ type: 'failed', id: message.id, message: error instanceof Error ? error.message : String(error) }),
    );
});
