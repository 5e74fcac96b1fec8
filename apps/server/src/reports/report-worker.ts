// The report reader's thread on SQLite (started by reports/runner.ts, through worker-boot.mjs).
// better-sqlite3 runs synchronously: on the event loop, a report over millions of events (one no rollup
// cube holds: by subaff, by var, four groups at once) would hold up every click and API request for as
// long as it reads. Here reports run on their own connection to the same file (WAL: reading never waits
// for the writers), one at a time, and the event loop only waits for the answer.
import { parentPort, workerData } from 'node:worker_threads';
import type { TReportQuery } from '@switchyard/domain';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { Database } from '../store/schema.js';
import { type ReportScope, ReportsService } from './service.js';

export interface ReportWorkerSettings {
  file: string;
  busyTimeoutMs: number;
}

export type ToReportWorker =
  | { type: 'run'; id: number; query: TReportQuery; scope: ReportScope | undefined }
  | { type: 'close' };

export type FromReportWorker =
  | { type: 'answer'; id: number; response: Awaited<ReturnType<ReportsService['run']>> }
  | { type: 'failed'; id: number; message: string };

const port = parentPort;
if (!port) throw new Error('report-worker.ts runs as a worker thread');
const settings = workerData as ReportWorkerSettings;

const connection = new SQLite(settings.file, { timeout: settings.busyTimeoutMs, fileMustExist: true });
// This connection only reads.
connection.pragma('query_only = ON');
const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: connection }) });
const reports = new ReportsService(db);

const send = (message: FromReportWorker) => port.postMessage(message);

port.on('message', (message: ToReportWorker) => {
  if (message.type === 'close') {
    void db.destroy().finally(() => port.close());
    return;
  }
  reports.run(message.query, message.scope).then(
    (response) => send({ type: 'answer', id: message.id, response }),
    (error: unknown) =>
      send({ type: 'failed', id: message.id, message: error instanceof Error ? error.message : String(error) }),
  );
});
