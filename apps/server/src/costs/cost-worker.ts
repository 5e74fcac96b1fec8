// The thread of cost updates and cost imports on SQLite (started by cost-thread.ts, through
// worker-boot.mjs), with its own connection to the database file. better-sqlite3 answers synchronously:
// on the event loop, every page of clicks that SQLite had to read from the disk held the clicks up
// (up to 630 ms at 10M clicks, bench/README.md). Here the same work waits for the disk on its own.
import os from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import type { TCostUpdate } from '@switchyard/domain';
import { ApiError, type ApiErrorData, apiErrorData } from '../errors.js';
import type { CsvLine } from '../http/csv-lines.js';
import { openSqliteStore } from '../store/database.js';
import type { Scope } from '../store/scope.js';
import { commitDurably } from '../store/traffic/sqlite-durable.js';
import { importCosts } from './import.js';
import { updateCampaignCost } from './service.js';

export type CostJob =
  | { type: 'update'; campaign: string; input: TCostUpdate; scope: Scope }
  | { type: 'import'; workspaceId: number; lines: readonly CsvLine[]; timezone: string };

export interface CostWorkerSettings {
  file: string;
  /** Added to the thread's nice value (lower priority than the event loop's). */
  niceness: number;
}

/** A job, one at a time (the next is sent once this one is answered); or the end of the thread. */
export type ToCostWorker = { type: 'job'; job: CostJob } | { type: 'close' };

export type FromCostWorker =
  | { type: 'done'; result: unknown }
  | { type: 'refused'; error: ApiErrorData }
  | { type: 'failed'; message: string };

/** How long this connection waits for another's write lock. */
const THREAD_BUSY_TIMEOUT_MS = 120_000;

const port = parentPort;
if (!port) throw new Error('cost-worker.ts runs as a worker thread');
const settings = workerData as CostWorkerSettings;
const send = (message: FromCostWorker) => port.postMessage(message);

// On Linux a nice value belongs to a thread: this lowers the update's priority alone, as the event writer's.
try {
  os.setPriority(settings.niceness);
} catch {
  // Not allowed here (some containers): the update runs at the process's priority.
}

const store = openSqliteStore(settings.file);
const sqlite = store.sqlite!;
// Waiting here holds no click up, so the update waits out another process's long write (its own cost
// update, say) rather than failing after the event loop's five seconds.
sqlite.pragma(`busy_timeout = ${THREAD_BUSY_TIMEOUT_MS}`);
// The commit made durable here, and the change copied into the database file here too: left to the
// automatic checkpoint, the next commit on the event loop's connection would copy it there.
const durable = async () => {
  commitDurably(sqlite);
  sqlite.pragma('wal_checkpoint(PASSIVE)');
};

async function run(job: CostJob): Promise<void> {
  try {
    const result =
      job.type === 'update'
        ? await updateCampaignCost(store, job.campaign, job.input, job.scope, durable)
        : await importCosts(store, job.workspaceId, job.lines, job.timezone, durable);
    send({ type: 'done', result });
  } catch (error) {
    if (error instanceof ApiError) send({ type: 'refused', error: apiErrorData(error) });
    else send({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
  }
}

port.on('message', (message: ToCostWorker) => {
  if (message.type === 'job') void run(message.job);
  else void store.db.destroy().finally(() => port.close());
});
