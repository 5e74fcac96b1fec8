// The SQLite event writer's thread (started by EventWriter, through worker-boot.mjs). better-sqlite3
// runs synchronously: on the event loop, every insert, commit and WAL checkpoint would hold up the
// clicks waiting behind it. Here they run on a second thread with its own connection to the same file
// (WAL: the main connection keeps reading while this one writes), and the event loop only hands rows over.
//
// Rows arrive in numbered batches; they are written when `maxBatch` rows wait or the oldest has waited
// `flushIntervalMs`, several batches to a transaction, and each batch is acknowledged once committed (the
// main thread counts what is still to be written). When the database refuses them (locked for longer
// than the busy timeout, disk full), they stay queued here and are tried again a second later.
import os from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import { commitDurably } from './sqlite-durable.js';
import { payloadBatches, SqliteEventStore } from './sqlite-events.js';

export interface EventWorkerSettings {
  file: string;
  busyTimeoutMs: number;
  maxBatch: number;
  flushIntervalMs: number;
  /** Added to the thread's nice value (lower priority than the event loop's). */
  niceness: number;
}

export type ToEventWorker =
  /** `rows` events as payloads (eventPayload), one after another. */
  | { type: 'rows'; seq: number; rows: number; text: string }
  /** Write everything received so far, then answer `answered`. */
  | { type: 'flush'; id: number }
  /** Make every commit so far durable (sqlite-durable.ts), then answer `answered`. */
  | { type: 'durable'; id: number }
  /** Forget batches up to `seq` (the main thread dropped them: too many rows waited). */
  | { type: 'drop'; upTo: number }
  | { type: 'close' };

export type FromEventWorker =
  | { type: 'written'; seqs: number[] }
  | { type: 'failed'; message: string; rows: number }
  /** A flush or durable request done; `error` when the database refused it. */
  | { type: 'answered'; id: number; error?: string };

const port = parentPort;
if (!port) throw new Error('event-worker.ts runs as a worker thread');
const settings = workerData as EventWorkerSettings;

// Clicks come first: on Linux a nice value belongs to a thread, so this lowers the writer's priority
// alone. Writing is never urgent (rows wait in memory, and flushes wait for it); answering visitors is.
if (settings.niceness > 0) {
  try {
    os.setPriority(settings.niceness);
  } catch {
    // Not allowed here (some containers): the writer runs at the process's priority.
  }
}

const db = new SQLite(settings.file, { timeout: settings.busyTimeoutMs });
db.pragma(`busy_timeout = ${settings.busyTimeoutMs}`);
// Event chunks commit without waiting for the disk (see event-writer.ts): this connection writes nothing else.
db.pragma('synchronous = NORMAL');
const store = new SqliteEventStore(db);

type Queued = { seq: number; rows: number; text: string };
let queue: Queued[] = [];
let queuedRows = 0;
let timer: NodeJS.Timeout | null = null;
/** After a failed write, the next attempt waits for the timer or a flush. */
let failing = false;

const send = (message: FromEventWorker) => port.postMessage(message);

/** Wait after a failed write before the next attempt (a flush asks at once). */
const RETRY_MS = 1000;

function schedule(delayMs = settings.flushIntervalMs): void {
  timer ??= setTimeout(() => {
    timer = null;
    writeAll();
  }, delayMs);
}

/** Writes the queue, `maxBatch` rows (whole batches) to a transaction; stops at the first failure. */
function writeAll(): void {
  while (queue.length > 0) {
    let take = 0;
    let rows = 0;
    while (take < queue.length && (take === 0 || rows + queue[take]!.rows <= settings.maxBatch)) {
      rows += queue[take]!.rows;
      take += 1;
    }
    const batches = queue.slice(0, take);
    try {
      store.write(batches.flatMap((batch) => payloadBatches(batch.text)));
    } catch (error) {
      failing = true;
      send({ type: 'failed', message: error instanceof Error ? error.message : String(error), rows: queuedRows });
      if (timer) clearTimeout(timer);
      timer = null;
      schedule(Math.max(settings.flushIntervalMs, RETRY_MS));
      return;
    }
    failing = false;
    queue = queue.slice(take);
    queuedRows -= rows;
    send({ type: 'written', seqs: batches.map((batch) => batch.seq) });
  }
  if (timer) {
    clearTimeout(timer);
    timer = null;
  }
}

port.on('message', (message: ToEventWorker) => {
  switch (message.type) {
    case 'rows':
      queue.push(message);
      queuedRows += message.rows;
      if (queuedRows >= settings.maxBatch && !failing) writeAll();
      else schedule();
      break;
    case 'flush':
      writeAll();
      send({ type: 'answered', id: message.id });
      break;
    case 'durable':
      try {
        commitDurably(db);
        send({ type: 'answered', id: message.id });
      } catch (error) {
        send({ type: 'answered', id: message.id, error: error instanceof Error ? error.message : String(error) });
      }
      break;
    case 'drop': {
      const kept = queue.filter((batch) => batch.seq > message.upTo);
      for (const batch of queue) if (batch.seq <= message.upTo) queuedRows -= batch.rows;
      queue = kept;
      break;
    }
    case 'close':
      writeAll();
      if (timer) clearTimeout(timer);
      db.close();
      port.close();
      break;
  }
});
