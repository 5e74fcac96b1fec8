// The event writer's sink on SQLite: rows go to a worker thread (event-worker.ts) with its own
// connection, so that inserts, commits and WAL checkpoints never hold up the event loop.
import type { Worker } from 'node:worker_threads';
import type SQLite from 'better-sqlite3';
import { startWorkerThread } from '../../worker-thread.js';
import { SQLITE_BUSY_TIMEOUT_MS } from '../database.js';
import type { EventKind } from '../tracker-events.js';
import type { EventWorkerSettings, FromEventWorker, ToEventWorker } from './event-worker.js';
import type { EventSink, Settings } from './event-writer.js';
import { commitDurably } from './sqlite-durable.js';

/** Rows handed to the worker at once, and how long a row waits at most before it is handed over. */
const POST_ROWS = 256;
const POST_EVERY_MS = 10;
/** Wait before starting another worker after one stopped unexpectedly (rows queue here meanwhile). */
const RESTART_DELAY_MS = 1000;
/** The writer thread's nice value (0 is the event loop's; 19 the lowest priority). */
const WRITER_NICENESS = 10;
const WORKER_MODULE = new URL('./event-worker.ts', import.meta.url);

/**
 * Rows go to the worker as event lines (one flat string per event, see `eventLine`) and are not kept here
 * once handed over: copies of rows waiting to be written cost the clicks more in garbage collection than
 * anything else (bench/README.md). A worker thread that stops (it catches the database's errors, so this
 * is a bug or running out of memory) loses the rows it held and says how many; the journal keeps them
 * for the next start's replay, and the next rows go to a new worker.
 */
export class SqliteWorkerSink implements EventSink {
  /** Payloads of commits not yet handed over, and how many rows they hold. */
  private queued: string[] = [];
  private readonly queuedCounts: number[] = [];
  private queuedRows = 0;
  /** Rows of each batch handed to the worker and not yet written, by sequence number (in order). */
  private readonly unwritten = new Map<number, number>();
  private unwrittenRows = 0;
  private seq = 0;
  private postTimer: NodeJS.Timeout | null = null;
  private worker: Worker | null = null;
  private restartTimer: NodeJS.Timeout | null = null;
  /** Flush and durable requests the worker has not answered yet. */
  private readonly requests = new Map<
    number,
    { type: 'flush' | 'durable'; resolve: () => void; reject: (error: Error) => void }
  >();
  private requestSeq = 0;
  private closing = false;
  private exited: Promise<void> = Promise.resolve();

  /** `sqlite` is the main connection; the worker opens one of its own to the same file. */
  constructor(
    private readonly sqlite: SQLite.Database,
    private readonly settings: Settings,
  ) {}

  get pending(): number {
    return this.queuedRows + this.unwrittenRows;
  }

  add(_tables: readonly EventKind[], lines: readonly string[], payload: string): void {
    this.queued.push(payload);
    this.queuedCounts.push(lines.length);
    this.queuedRows += lines.length;
    if (this.pending > this.settings.maxPending) this.dropOldest();
    if (this.queuedRows >= POST_ROWS) this.post();
    else if (!this.postTimer) {
      this.postTimer = setTimeout(() => this.post(), POST_EVERY_MS);
      this.postTimer.unref();
    }
  }

  flush(): Promise<void> {
    this.post();
    // No worker (none needed yet, or one restarting): nothing handed over is waiting to be written.
    return this.worker ? this.ask('flush') : Promise.resolve();
  }

  async close(): Promise<void> {
    if (this.restartTimer) {
      clearTimeout(this.restartTimer);
      this.restartTimer = null;
    }
    await this.flush();
    this.closing = true;
    if (this.worker) {
      this.worker.ref();
      this.worker.postMessage({ type: 'close' } satisfies ToEventWorker);
      await this.exited;
    }
  }

  /**
   * Every commit so far made durable through SQLite (sqlite-durable.ts): by the worker, off the event
   * loop; with no worker (closed, restarting, or none needed yet), by the main connection.
   */
  async durable(): Promise<void> {
    if (this.worker) return this.ask('durable');
    commitDurably(this.sqlite);
  }

  /** Asks the worker to flush or to make its commits durable; settles when it answers. */
  private ask(type: 'flush' | 'durable'): Promise<void> {
    const worker = this.worker;
    if (!worker) return Promise.resolve();
    const id = ++this.requestSeq;
    return new Promise((resolve, reject) => {
      this.requests.set(id, { type, resolve, reject });
      worker.ref();
      worker.postMessage({ type, id } satisfies ToEventWorker);
    });
  }

  /** Hands the queued rows to the worker (starting it if need be; while one restarts they wait here). */
  private post(): void {
    if (this.postTimer) {
      clearTimeout(this.postTimer);
      this.postTimer = null;
    }
    if (this.queuedRows === 0) return;
    const worker = this.ensureWorker();
    if (!worker) return;
    const seq = ++this.seq;
    const rows = this.queuedRows;
    this.unwritten.set(seq, rows);
    this.unwrittenRows += rows;
    // One string for the batch, the payloads the journal wrote joined: copying one string to the worker
    // costs less than copying each, and the worker reads the events by their lengths.
    worker.postMessage({ type: 'rows', seq, rows, text: this.queued.join('') } satisfies ToEventWorker);
    this.queued = [];
    this.queuedCounts.length = 0;
    this.queuedRows = 0;
  }

  /** Too many rows wait (the database refuses them): the oldest go, with an error in the log. */
  private dropOldest(): void {
    let dropped = 0;
    let upTo = 0;
    for (const [seq, rows] of this.unwritten) {
      if (this.pending <= this.settings.maxPending) break;
      this.unwritten.delete(seq);
      this.unwrittenRows -= rows;
      dropped += rows;
      upTo = seq;
    }
    if (upTo > 0) this.worker?.postMessage({ type: 'drop', upTo } satisfies ToEventWorker);
    // Whole commits, oldest first.
    while (this.queued.length > 0 && this.pending > this.settings.maxPending) {
      this.queued.shift();
      const removed = this.queuedCounts.shift() ?? 0;
      this.queuedRows -= removed;
      dropped += removed;
    }
    if (dropped > 0) {
      this.settings.lost(dropped);
      this.settings.log?.error({ dropped }, 'tracker event buffer full; oldest rows dropped (the journal keeps them)');
    }
  }

  private ensureWorker(): Worker | null {
    if (this.worker || this.restartTimer || this.closing) return this.worker;
    const workerData: EventWorkerSettings = {
      file: this.sqlite.name,
      busyTimeoutMs: SQLITE_BUSY_TIMEOUT_MS,
      maxBatch: this.settings.maxBatch,
      flushIntervalMs: this.settings.flushIntervalMs,
      niceness: WRITER_NICENESS,
    };
    const worker = startWorkerThread(WORKER_MODULE, workerData);
    worker.unref();
    this.worker = worker;
    worker.on('message', (message: FromEventWorker) => this.onMessage(message));
    worker.on('error', (error) => this.settings.log?.error({ err: error }, 'tracker event writer thread failed'));
    this.exited = new Promise((resolve) => {
      worker.once('exit', (code) => {
        this.worker = null;
        resolve();
        if (this.closing) return;
        this.settings.log?.error(
          { code, lost: this.unwrittenRows },
          'tracker event writer thread stopped; the rows it held are lost until the journal is replayed; starting another',
        );
        if (this.unwrittenRows > 0) this.settings.lost(this.unwrittenRows);
        this.unwritten.clear();
        this.unwrittenRows = 0;
        // A flush has nothing more to wait for (the journal keeps the lost rows); durability was not reached.
        for (const request of this.requests.values()) {
          if (request.type === 'flush') request.resolve();
          else request.reject(new Error('the event writer thread stopped'));
        }
        this.requests.clear();
        this.restartTimer = setTimeout(() => {
          this.restartTimer = null;
          this.post();
        }, RESTART_DELAY_MS);
        this.restartTimer.unref();
      });
    });
    return worker;
  }

  private onMessage(message: FromEventWorker): void {
    switch (message.type) {
      case 'written':
        for (const seq of message.seqs) {
          const rows = this.unwritten.get(seq);
          if (rows === undefined) continue;
          this.unwritten.delete(seq);
          this.unwrittenRows -= rows;
        }
        break;
      case 'failed':
        this.settings.log?.warn({ err: message.message, rows: message.rows }, 'tracker events not written; will retry');
        break;
      case 'answered': {
        const request = this.requests.get(message.id);
        this.requests.delete(message.id);
        if (message.error === undefined) request?.resolve();
        else request?.reject(new Error(message.error));
        if (this.requests.size === 0) this.worker?.unref();
        break;
      }
    }
  }
}
