// Clicks and leads are answered first and written after (issue 5, item 3): rows wait in memory and are
// inserted in batches when enough have gathered or a short time has passed (100 ms on SQLite, a second on
// PostgreSQL). What a hard crash can lose: the rows not yet written, at most `maxBatch` rows or
// `flushIntervalMs` of traffic (plus any batch the database refused and that is waiting for its retry).
// A graceful close writes everything.
//
// On SQLite the writing happens on a worker thread with its own connection (tracker/event-worker.ts), so
// that inserts, commits and WAL checkpoints never hold up the event loop; the event loop turns each row
// into one line (eventLine) when it happens and hands the lines over every few milliseconds. Event chunks
// commit there without waiting for the disk (synchronous = NORMAL on that connection only): a crash of the
// process loses nothing more, and a crash of the machine (power, kernel) can also lose the event chunks
// committed since the last durable commit — the next conversion, configuration change or WAL checkpoint,
// which do wait for the disk. An fsync per chunk cost more than routing a click.
// PostgreSQL goes through Kysely on the event loop: its work happens in the database server.
// Each chunk's transaction also adds the chunk to the report rollups (store/report-rollups.ts), so the
// rollups always count exactly the rows stored.
import type { Worker } from 'node:worker_threads';
import type SQLite from 'better-sqlite3';
import type { Kysely } from 'kysely';
import { startWorkerThread } from '../../worker-thread.js';
import { SQLITE_BUSY_TIMEOUT_MS } from '../database.js';
import { applyRollupDeltas, rollupDeltas } from '../report-rollups.js';
import type { Database } from '../schema.js';
import type { EventTable, NewTrackerClick, NewTrackerLead } from '../tracker-events.js';
import type { EventWorkerSettings, FromEventWorker, ToEventWorker } from './event-worker.js';
import { eventLine } from './sqlite-events.js';

export interface EventWriterOptions {
  /** Write as soon as this many rows wait (per table; on SQLite, rows per transaction). */
  maxBatch?: number;
  /** Write rows older than this. */
  flushIntervalMs?: number;
  /** Rows kept while the database refuses them; beyond this the oldest are dropped (and logged). */
  maxPending?: number;
  log?: { error(object: unknown, message: string): void; warn(object: unknown, message: string): void };
  /** The better-sqlite3 database behind `db` when it is SQLite: its file is written from a worker thread. */
  sqlite?: SQLite.Database;
}

/**
 * How long rows wait on SQLite, and the most rows to a transaction. Each transaction also adds its rows
 * to the report rollups, one upsert per cube row it touches: at 25 ms (about 300 clicks a transaction
 * at 12k clicks/s) that was 1.6 upserts per click, 14 µs of the writer's ~32 µs per click; at 100 ms
 * (1,000 clicks and more) 0.6 or fewer, and the writer thread's CPU per click fell by about a fifth.
 * A crash loses up to this much more traffic (see above).
 */
const SQLITE_FLUSH_INTERVAL_MS = 100;
const SQLITE_MAX_BATCH = 5000;

interface Settings {
  maxBatch: number;
  flushIntervalMs: number;
  maxPending: number;
  log: EventWriterOptions['log'];
}

/** Where waiting rows go: a worker thread (SQLite) or Kysely (PostgreSQL). */
interface EventSink {
  add(table: EventTable, row: object): void;
  readonly pending: number;
  flush(): Promise<void>;
  close(): Promise<void>;
}

export class EventWriter {
  private readonly sink: EventSink;
  private readonly log: EventWriterOptions['log'];

  constructor(db: Kysely<Database>, options: EventWriterOptions = {}) {
    const settings: Settings = {
      maxBatch: options.maxBatch ?? (options.sqlite ? SQLITE_MAX_BATCH : 1000),
      flushIntervalMs: options.flushIntervalMs ?? (options.sqlite ? SQLITE_FLUSH_INTERVAL_MS : 1000),
      maxPending: options.maxPending ?? 200_000,
      log: options.log,
    };
    this.log = options.log;
    this.sink = options.sqlite ? new SqliteWorkerSink(options.sqlite.name, settings) : new KyselySink(db, settings);
  }

  addClick(row: NewTrackerClick): void {
    this.sink.add('tracker_clicks', row);
  }

  addLead(row: NewTrackerLead): void {
    this.sink.add('tracker_leads', row);
  }

  /** Rows not yet stored. */
  get pending(): number {
    return this.sink.pending;
  }

  /** Writes every waiting row; resolves when they are stored (or have failed and wait for a retry). */
  flush(): Promise<void> {
    return this.sink.flush();
  }

  /** Stops the timers and writes what waits. */
  async close(): Promise<void> {
    await this.sink.close();
    if (this.pending > 0) {
      this.log?.error({ rows: this.pending }, 'tracker events could not be written before shutdown');
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// SQLite: a worker thread

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
 * once handed over: a copy of every row until it was written outlived the heap's young generation and
 * cost the clicks more in garbage collection than anything else. Even the forty values of each row kept
 * until the next hand-over (10 ms) cost the event loop more than one string made when the click happens
 * (its CPU time per click, at a fixed click rate). A worker thread that stops (it catches the database's
 * errors, so this is a bug or running out of memory) loses the rows it held — at most `flushIntervalMs`
 * plus one transaction of traffic — and says how many; the next rows go to a new worker.
 */
class SqliteWorkerSink implements EventSink {
  private readonly queued: Record<EventTable, string[]> = { tracker_clicks: [], tracker_leads: [] };
  private queuedRows = 0;
  /** Rows of each batch handed to the worker and not yet written, by sequence number (in order). */
  private readonly unwritten = new Map<number, number>();
  private unwrittenRows = 0;
  private seq = 0;
  private postTimer: NodeJS.Timeout | null = null;
  private worker: Worker | null = null;
  private restartTimer: NodeJS.Timeout | null = null;
  private readonly flushes = new Map<number, () => void>();
  private flushSeq = 0;
  private closing = false;
  private exited: Promise<void> = Promise.resolve();

  constructor(
    private readonly file: string,
    private readonly settings: Settings,
  ) {}

  get pending(): number {
    return this.queuedRows + this.unwrittenRows;
  }

  add(table: EventTable, row: object): void {
    this.queued[table].push(eventLine(table, row));
    this.queuedRows += 1;
    if (this.pending > this.settings.maxPending) this.dropOldest();
    if (this.queuedRows >= POST_ROWS) this.post();
    else if (!this.postTimer) {
      this.postTimer = setTimeout(() => this.post(), POST_EVERY_MS);
      this.postTimer.unref();
    }
  }

  flush(): Promise<void> {
    this.post();
    const worker = this.worker;
    // No worker (none needed yet, or one restarting): nothing handed over is waiting to be written.
    if (!worker) return Promise.resolve();
    const id = ++this.flushSeq;
    return new Promise((resolve) => {
      this.flushes.set(id, resolve);
      worker.ref();
      worker.postMessage({ type: 'flush', id } satisfies ToEventWorker);
    });
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

  /** Hands the queued rows to the worker (starting it if need be; while one restarts they wait here). */
  private post(): void {
    if (this.postTimer) {
      clearTimeout(this.postTimer);
      this.postTimer = null;
    }
    if (this.queuedRows === 0) return;
    const worker = this.ensureWorker();
    if (!worker) return;
    for (const table of ['tracker_clicks', 'tracker_leads'] as const) {
      const lines = this.queued[table];
      if (lines.length === 0) continue;
      this.queued[table] = [];
      const seq = ++this.seq;
      this.unwritten.set(seq, lines.length);
      this.unwrittenRows += lines.length;
      // One string for the batch: copying one string to the worker costs less than copying each line
      // (measured 0.4 against 0.8–1.2 µs a row); the worker reads the lines by their values' lengths.
      worker.postMessage({
        type: 'rows',
        seq,
        table,
        rows: lines.length,
        text: lines.join(''),
      } satisfies ToEventWorker);
    }
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
    for (const table of ['tracker_clicks', 'tracker_leads'] as const) {
      const excess = this.pending - this.settings.maxPending;
      if (excess <= 0) break;
      const removed = this.queued[table].splice(0, excess).length;
      this.queuedRows -= removed;
      dropped += removed;
    }
    if (dropped > 0) this.settings.log?.error({ dropped }, 'tracker event buffer full; oldest rows dropped');
  }

  private ensureWorker(): Worker | null {
    if (this.worker || this.restartTimer || this.closing) return this.worker;
    const workerData: EventWorkerSettings = {
      file: this.file,
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
          'tracker event writer thread stopped; the rows it held are lost; starting another',
        );
        this.unwritten.clear();
        this.unwrittenRows = 0;
        for (const done of this.flushes.values()) done();
        this.flushes.clear();
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
      case 'flushed':
        this.flushes.get(message.id)?.();
        this.flushes.delete(message.id);
        if (this.flushes.size === 0) this.worker?.unref();
        break;
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// PostgreSQL: Kysely on the event loop

/** Rows per INSERT: well under PostgreSQL's bound-parameter limit (about 35 columns). */
const INSERT_CHUNK = 500;

class KyselySink implements EventSink {
  private readonly rows: Record<EventTable, object[]> = { tracker_clicks: [], tracker_leads: [] };
  private readonly timer: NodeJS.Timeout;
  /** The flush in progress; flushes run one at a time, in order. */
  private flushing: Promise<void> = Promise.resolve();
  private queued = false;
  private closed = false;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly settings: Settings,
  ) {
    this.timer = setInterval(() => void this.flush(), settings.flushIntervalMs);
    this.timer.unref();
  }

  get pending(): number {
    return this.rows.tracker_clicks.length + this.rows.tracker_leads.length;
  }

  add(table: EventTable, row: object): void {
    const rows = this.rows[table];
    rows.push(row);
    if (rows.length > this.settings.maxPending) {
      const dropped = rows.length - this.settings.maxPending;
      rows.splice(0, dropped);
      this.settings.log?.error({ table, dropped }, 'tracker event buffer full; oldest rows dropped');
    }
    if (rows.length >= this.settings.maxBatch && !this.closed) void this.flush();
  }

  flush(): Promise<void> {
    // A flush that has not started yet will write these rows too.
    if (this.queued) return this.flushing;
    this.queued = true;
    this.flushing = this.flushing.then(async () => {
      this.queued = false;
      await this.write('tracker_clicks');
      await this.write('tracker_leads');
    });
    return this.flushing;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await this.flush();
  }

  private async write(table: EventTable): Promise<void> {
    const rows = this.rows[table];
    while (rows.length > 0) {
      const batch = rows.splice(0, INSERT_CHUNK);
      const deltas =
        table === 'tracker_clicks'
          ? rollupDeltas(batch as NewTrackerClick[], [])
          : rollupDeltas([], batch as NewTrackerLead[]);
      try {
        await this.db.transaction().execute(async (transaction) => {
          await transaction
            .insertInto(table)
            .values(batch as never)
            .execute();
          await applyRollupDeltas(transaction, deltas);
        });
      } catch (error) {
        // Back to the front, in order, for the next flush.
        rows.unshift(...batch);
        this.settings.log?.warn({ err: error, table, rows: batch.length }, 'tracker events not written; will retry');
        return;
      }
    }
  }
}
