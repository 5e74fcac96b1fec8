// Issue 23: the embedded columnar store follows the SQLite event tables. The event writer keeps writing
// clicks and leads to SQLite (the journal, caps and postbacks read them there); this copies each new row
// to DuckDB in id order, from the report reader's thread, so the event loop never waits for it. The
// store's own highest id is where it resumes: a store deleted by hand is rebuilt from the first event.
import type SQLite from 'better-sqlite3';
import type { DuckDBStore } from './duckdb.js';
import { COLUMNAR_TEXT_COLUMNS, type ColumnarRow, type ColumnarTable } from './schema.js';

/** Rows copied per read: large enough to append quickly, small enough not to hold up a report long. */
const BATCH = 50_000;
/** A store further behind than this is rebuilding: reports read the event tables meanwhile. */
const BEHIND = BATCH;

const SOURCES: Record<ColumnarTable, { table: string; id: string }> = {
  clicks: { table: 'tracker_clicks', id: 'click_id' },
  leads: { table: 'tracker_leads', id: 'lead_id' },
};

type SourceRow = Record<string, string | number | null>;

export interface FollowerLog {
  info(message: string): void;
}

export class ColumnarFollower {
  private readonly last: Record<ColumnarTable, number> = { clicks: 0, leads: 0 };
  private readonly statements: Record<ColumnarTable, SQLite.Statement<[number, number], SourceRow>>;
  private readonly countAfter: Record<ColumnarTable, SQLite.Statement<[number], { count: number }>>;
  private readonly workspaces = new Map<string, number>();
  private running: Promise<unknown> = Promise.resolve();
  private caughtUp = false;

  private constructor(
    private readonly sqlite: SQLite.Database,
    readonly store: DuckDBStore,
    private readonly log: FollowerLog,
  ) {
    const select = (table: ColumnarTable) => {
      const { table: source, id } = SOURCES[table];
      const text = COLUMNAR_TEXT_COLUMNS.map((name) =>
        table === 'leads' && name === 'lander_external_id' ? `null as "${name}"` : `"${name}"`,
      );
      const cost = table === 'clicks' ? 'cost' : '0 as cost';
      return sqlite.prepare<[number, number], SourceRow>(
        `select id, ${id} as event_id, created_at, is_unique, ${cost}, asn, is_bot, ${text.join(', ')}
         from ${source} where id > ? order by id limit ?`,
      );
    };
    this.statements = { clicks: select('clicks'), leads: select('leads') };
    this.countAfter = {
      clicks: sqlite.prepare('select count(*) as count from tracker_clicks where id > ?'),
      leads: sqlite.prepare('select count(*) as count from tracker_leads where id > ?'),
    };
  }

  static async start(sqlite: SQLite.Database, store: DuckDBStore, log: FollowerLog): Promise<ColumnarFollower> {
    const follower = new ColumnarFollower(sqlite, store, log);
    for (const table of ['clicks', 'leads'] as const) follower.last[table] = await store.lastSourceId(table);
    return follower;
  }

  /** Whether reports may read the store: it holds every event but the last few moments'. */
  get ready(): boolean {
    return this.caughtUp;
  }

  /**
   * Copies every event stored since the last call, then resolves. Calls wait for each other: one report's
   * catch-up and the background rebuild never copy the same rows twice.
   */
  catchUp(onBatch?: (copied: number, remaining: number) => void): Promise<number> {
    const next = this.running.then(() => this.copyAll(onBatch));
    this.running = next.catch(() => undefined);
    return next;
  }

  /** Events not yet copied, in both tables. */
  behind(): number {
    return this.countAfter.clicks.get(this.last.clicks)!.count + this.countAfter.leads.get(this.last.leads)!.count;
  }

  /** The first catch-up at start: the whole backlog, in batches, with progress in the log when long. */
  async rebuild(): Promise<void> {
    const backlog = this.behind();
    if (backlog > BEHIND) this.log.info(`columnar store: copying ${backlog} events from the event tables`);
    const started = Date.now();
    let copiedSoFar = 0;
    let lastLogged = 0;
    await this.catchUp((copied, remaining) => {
      copiedSoFar += copied;
      if (backlog > BEHIND && copiedSoFar - lastLogged >= 1_000_000) {
        lastLogged = copiedSoFar;
        this.log.info(`columnar store: ${copiedSoFar} events copied, ${remaining} to go`);
      }
    });
    if (backlog > BEHIND) {
      this.log.info(`columnar store: ${copiedSoFar} events copied in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }
  }

  private async copyAll(onBatch?: (copied: number, remaining: number) => void): Promise<number> {
    let copied = 0;
    for (const table of ['clicks', 'leads'] as const) {
      for (;;) {
        const rows = this.statements[table].all(this.last[table], BATCH);
        if (rows.length === 0) break;
        await this.store.append(
          table,
          rows.map((row) => this.columnarRow(row)),
        );
        this.last[table] = Number(rows[rows.length - 1]!.id);
        copied += rows.length;
        onBatch?.(rows.length, rows.length < BATCH ? 0 : this.behind());
        if (rows.length < BATCH) break;
        // Let a report waiting on this thread's event loop be read between batches.
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    this.caughtUp = true;
    return copied;
  }

  private columnarRow(row: SourceRow): ColumnarRow {
    const campaign = String(row.campaign_external_id);
    const text = Object.fromEntries(
      COLUMNAR_TEXT_COLUMNS.map((name) => [name, row[name] === null ? null : String(row[name])]),
    ) as Record<(typeof COLUMNAR_TEXT_COLUMNS)[number], string | null>;
    return {
      ...text,
      row_key: String(row.event_id),
      source_id: Number(row.id),
      workspace_id: this.workspaceOf(campaign),
      created_at: String(row.created_at),
      events: 1,
      unique_events: Number(row.is_unique) === 1 ? 1 : 0,
      cost: Number(row.cost ?? 0),
      asn: row.asn === null ? null : Number(row.asn),
      is_bot: Number(row.is_bot) === 1 ? 1 : 0,
    };
  }

  /** The workspace of a campaign, read once (a campaign never moves workspace); 0 when none. */
  private workspaceOf(campaign: string): number {
    let found = this.workspaces.get(campaign);
    if (found === undefined) {
      const row = this.sqlite
        .prepare<[string], { workspace_id: number | null }>(
          `select workspace_id from config_records where kind in ('campaigns', 'tracker-campaigns') and external_id = ?`,
        )
        .get(campaign);
      found = row?.workspace_id ?? 0;
      this.workspaces.set(campaign, found);
    }
    return found;
  }
}
