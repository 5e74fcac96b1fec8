// Clicks and leads are answered once kept in the journal (journal.ts) and written to the database after,
// in batches: when enough have gathered or a short time has passed (100 ms on SQLite, a second on
// PostgreSQL). A graceful close writes everything; after a crash the journal is replayed at start.
//
// On SQLite the writing happens on a worker thread with its own connection (event-worker.ts), so that
// inserts, commits and WAL checkpoints never hold up the event loop; each row travels as one line
// (eventLine), the same line the journal keeps. Event chunks commit there without waiting for the disk
// (synchronous = NORMAL on that connection only): the journal holds them until the files are flushed.
// PostgreSQL goes through Kysely on the event loop: its work happens in the database server.
// Each chunk's transaction also adds the chunk to the report rollups (store/report-rollups.ts), so the
// rollups always count exactly the rows stored.
import type SQLite from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';
import type { EventKind, LpClickEvent, NewTrackerClick, NewTrackerLead } from '../tracker-events.js';
import type { Journal } from './journal.js';
import { type EventFeed, KyselySink } from './kysely-sink.js';
import { eventLine, eventPayload } from './sqlite-events.js';
import { SqliteWorkerSink } from './sqlite-sink.js';

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
  /** Where events are kept before they are answered (journal.ts); without it, only in memory. */
  journal?: Journal;
  /** PostgreSQL: where stored events go next (ClickHouse); the journal keeps them until then. */
  feed?: EventFeed;
}

/**
 * How long rows wait on SQLite, and the most rows to a transaction: each transaction also adds its rows
 * to the report rollups, and fewer, larger transactions touch each rollup row fewer times per click.
 */
const SQLITE_FLUSH_INTERVAL_MS = 100;
const SQLITE_MAX_BATCH = 5000;
/** How often segments of the journal whose events are stored are looked for and deleted. */
const JOURNAL_CLEANUP_MS = 1000;

export interface Settings {
  maxBatch: number;
  flushIntervalMs: number;
  maxPending: number;
  log: EventWriterOptions['log'];
  /** Rows the sink could not keep (dropped, or lost with a writer thread): the journal keeps them. */
  lost: (rows: number) => void;
}

/** Where kept rows go: a worker thread (SQLite) or Kysely (PostgreSQL). Rows are stored in the order given. */
export interface EventSink {
  /** The events of one commit: their tables and lines, and the same as one payload (eventPayload). */
  add(tables: readonly EventKind[], lines: readonly string[], payload: string): void;
  readonly pending: number;
  flush(): Promise<void>;
  close(): Promise<void>;
  /** Waits until what is stored would survive a power loss. */
  durable(): Promise<void>;
}

/**
 * Events go through three steps: added (routed, not yet kept), kept (written to the journal, in one
 * write for all those added in the same event-loop turn), stored (in the database). An answer goes out
 * only once its event is kept: `commit` keeps what was added, and `kept` says whether an event was.
 */
export class EventWriter {
  private readonly sink: EventSink;
  private readonly log: EventWriterOptions['log'];
  private readonly journal: Journal | undefined;
  private tables: EventKind[] = [];
  private lines: string[] = [];
  /** The commit the events added now belong to, and the commits that failed (their events were not kept). */
  private generation = 1;
  private readonly failed = new Set<number>();
  private commitScheduled = false;
  /** Events handed to the sink; the sink stores them in order, so `handed - pending` are stored. */
  private handed = 0;

  private cleanupTimer: NodeJS.Timeout | null = null;
  private cleaning = false;

  constructor(db: Kysely<Database>, options: EventWriterOptions = {}) {
    const settings: Settings = {
      maxBatch: options.maxBatch ?? (options.sqlite ? SQLITE_MAX_BATCH : 1000),
      flushIntervalMs: options.flushIntervalMs ?? (options.sqlite ? SQLITE_FLUSH_INTERVAL_MS : 1000),
      maxPending: options.maxPending ?? 200_000,
      log: options.log,
      // The segments written so far stay for the next start to replay.
      lost: () => this.journal?.pinAll(this.handed),
    };
    this.log = options.log;
    this.journal = options.journal;
    this.sink = options.sqlite
      ? new SqliteWorkerSink(options.sqlite, settings)
      : new KyselySink(db, settings, options.feed);
    if (this.journal) {
      this.cleanupTimer = setInterval(() => void this.cleanUp(), JOURNAL_CLEANUP_MS);
      this.cleanupTimer.unref();
    }
  }

  /** Adds a click; returns the commit it belongs to (see `kept`). */
  addClick(row: NewTrackerClick): number {
    return this.add('tracker_clicks', row);
  }

  addLead(row: NewTrackerLead): number {
    return this.add('tracker_leads', row);
  }

  /** A click's visitor went on from its lander to the offer (stored once per click). */
  addLpClick(event: LpClickEvent): number {
    return this.add('lp_clicks', event);
  }

  /**
   * Keeps every event added so far: one journal write, then they go on to the database. Returns false
   * when the journal could not take them (a full disk): those events are dropped, never answered.
   */
  commit(): boolean {
    if (this.lines.length === 0) return true;
    const tables = this.tables;
    const lines = this.lines;
    const generation = this.generation;
    this.tables = [];
    this.lines = [];
    this.generation += 1;
    const payload = eventPayload(tables, lines);
    if (this.journal) {
      try {
        this.journal.write(payload, this.handed);
      } catch (error) {
        this.failed.add(generation);
        // Only the last few matter: an answer waits a turn of the event loop at most.
        if (this.failed.size > 64) this.failed.delete(this.failed.values().next().value as number);
        this.log?.error({ err: error, events: lines.length }, 'events not kept; their requests answered 503');
        return false;
      }
    }
    this.sink.add(tables, lines, payload);
    this.handed += lines.length;
    return true;
  }

  /** Whether the events of commit `generation` were kept (committing now if they wait). */
  kept(generation: number): boolean {
    if (generation >= this.generation) this.commit();
    return !this.failed.has(generation);
  }

  /** Rows not yet stored. */
  get pending(): number {
    return this.lines.length + this.sink.pending;
  }

  /** Writes every waiting row; resolves when they are stored (or have failed and wait for a retry). */
  flush(): Promise<void> {
    this.commit();
    return this.sink.flush();
  }

  /** Waits until what is stored would survive a power loss. */
  durable(): Promise<void> {
    return this.sink.durable();
  }

  /** Stops the timers and writes what waits; the journal goes once the database holds it all. */
  async close(): Promise<void> {
    this.commit();
    if (this.cleanupTimer) clearInterval(this.cleanupTimer);
    await this.sink.close();
    if (this.pending > 0) {
      this.log?.error({ rows: this.pending }, 'tracker events could not be written before shutdown');
    }
    if (this.journal) {
      const segments = this.journal.closeAll(this.handed);
      if (this.pending === 0) {
        await this.sink.durable();
        await this.journal.delete(segments);
      }
    }
  }

  private add(table: EventKind, row: object): number {
    this.tables.push(table);
    this.lines.push(eventLine(table, row));
    if (!this.commitScheduled) {
      // Whoever answers commits first; this keeps what nobody answers (and anything a door forgot).
      this.commitScheduled = true;
      setImmediate(() => {
        this.commitScheduled = false;
        this.commit();
      });
    }
    return this.generation;
  }

  /** Deletes the journal's segments whose events the database holds, once it holds them durably. */
  private async cleanUp(): Promise<void> {
    const journal = this.journal;
    if (!journal || this.cleaning) return;
    this.cleaning = true;
    try {
      const stored = this.handed - this.sink.pending;
      journal.rotateIfOld(this.handed);
      const files = journal.deletable(stored);
      if (files.length === 0) return;
      await this.sink.durable();
      await journal.delete(files);
    } catch (error) {
      this.log?.warn({ err: error }, 'event journal segments not deleted; will retry');
    } finally {
      this.cleaning = false;
    }
  }
}
