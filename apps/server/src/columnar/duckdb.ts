// The embedded default: the columnar store as a DuckDB file in the data directory. DuckDB ships
// its engine inside the npm package (no server), keeps columns compressed, and scans millions of rows on
// every core; reports the rollup cubes do not hold read it instead of the event tables. Its tables and
// their layout: duckdb-layout.ts.
import { type DuckDBAppender, type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import {
  type AggregatePlan,
  type AggregateRow,
  COUNT_NAMES,
  type Counts,
  type PagedPlan,
  type PagedRows,
} from '../report-plan/plan.js';
import { Codes } from './duckdb-codes.js';
import { appendRow, FORMAT, layOut } from './duckdb-layout.js';
import { duckdbReport } from './duckdb-report.js';
import { duckdbAggregate } from './duckdb-sql.js';
import type { ColumnarRow, ColumnarStore, ColumnarTable } from './schema.js';

/** A value as reports/merge.ts reads it: DuckDB's 128-bit sums come back as bigints. */
function plain(value: unknown): unknown {
  return typeof value === 'bigint' ? Number(value) : value;
}

export class DuckDBStore implements ColumnarStore {
  readonly kind = 'duckdb';

  /** The coded columns' dictionaries (duckdb-codes.ts): the follower appends rows with them. */
  readonly codes = new Codes();
  private inTransaction = false;
  /** Whether the store was written in an older layout and emptied at open, to be copied again. */
  relaid = false;
  /**
   * Connections of the reads, each used by one read at a time. A read never shares the follower's
   * connection: an append there while a read's statement was still running closed the read's pending
   * result ("Attempting to execute an unsuccessful or closed pending query result"); and a read of its
   * own sees only what the follower committed.
   */
  private readonly idleReaders: DuckDBConnection[] = [];
  private closed = false;

  private constructor(
    private readonly instance: DuckDBInstance,
    private readonly connection: DuckDBConnection,
  ) {}

  /** Opens (or creates) the store at `file`; `:memory:` for one that lives as long as the process. */
  static async open(file: string, options: { threads?: number } = {}): Promise<DuckDBStore> {
    const settings: Record<string, string> = {};
    if (options.threads) settings.threads = String(options.threads);
    const instance = await DuckDBInstance.create(file, settings);
    const connection = await instance.connect();
    const { relaid } = await layOut(connection);
    const store = new DuckDBStore(instance, connection);
    store.relaid = relaid;
    await store.setProgress('format', FORMAT);
    await store.codes.load(connection);
    return store;
  }

  async append(table: ColumnarTable, rows: readonly ColumnarRow[]): Promise<void> {
    if (rows.length === 0) return;
    await this.appendWith(table, (appender) => {
      for (const row of rows) appendRow(appender, row, this.codes);
    });
  }

  /**
   * Appends what `write` gives the appender, each row's values in the table's order (appendRow's): the
   * follower writes rows straight from SQLite's arrays, without an object per row.
   */
  async appendWith(
    table: ColumnarTable | 'conversions' | 'conversions_changed',
    write: (appender: DuckDBAppender) => void,
  ): Promise<void> {
    // Rows and the new numbers they use are committed together.
    if (!this.inTransaction) return this.transaction(() => this.appendWith(table, write));
    const appender = await this.connection.createAppender(table);
    try {
      write(appender);
      appender.flushSync();
    } finally {
      appender.closeSync();
    }
    await this.codes.write(this.connection);
  }

  /** Runs `work` in one transaction: everything it appends is kept, or none of it. */
  async transaction(work: () => Promise<void>): Promise<void> {
    await this.connection.run('begin transaction');
    this.inTransaction = true;
    try {
      await work();
    } catch (error) {
      this.inTransaction = false;
      await this.connection.run('rollback');
      await this.codes.load(this.connection);
      throw error;
    }
    this.inTransaction = false;
    try {
      await this.connection.run('commit');
    } catch (error) {
      // Numbers given in a transaction that did not commit are not in the store.
      await this.codes.load(this.connection);
      throw error;
    }
  }

  /** The highest event id stored in `table` (adjustments excluded), 0 when empty: where following resumes. */
  async lastSourceId(table: ColumnarTable): Promise<number> {
    const reader = await this.connection.runAndReadAll(
      `select coalesce(max(source_id), 0) from ${table} where events = 1`,
    );
    return Number(reader.getRows()[0]?.[0] ?? 0);
  }

  /** The highest change id of the cost adjustments stored, 0 when none. */
  async lastCostChange(): Promise<number> {
    const reader = await this.connection.runAndReadAll(
      `select coalesce(max(cast(substr(row_key, 6) as bigint)), 0) from clicks where events = 0 and row_key like 'cost:%'`,
    );
    return Number(reader.getRows()[0]?.[0] ?? 0);
  }

  /** A step of following kept in the store (the conversion change log's last id), 0 before the first. */
  async progress(name: string): Promise<number> {
    const reader = await this.connection.runAndReadAll('select max(value) from progress where name = $1', [name]);
    return Number(reader.getRows()[0]?.[0] ?? 0);
  }

  async setProgress(name: string, value: number): Promise<void> {
    await this.connection.run('delete from progress where name = $1', [name]);
    await this.connection.run('insert into progress values ($1, $2)', [name, value]);
  }

  /** Removes every conversion, in the caller's transaction (a first copy of them all follows). */
  async clearConversions(): Promise<void> {
    await this.connection.run('delete from conversions');
  }

  /**
   * Replaces the conversions `ids` with what `write` appends (their rows now; a conversion removed
   * appends none), in the caller's transaction.
   */
  async replaceConversions(ids: readonly string[], write: (appender: DuckDBAppender) => void): Promise<void> {
    await this.connection.run('delete from conversions_changed');
    await this.appendWith('conversions_changed', (appender) => {
      for (const id of ids) {
        appender.appendVarchar(id);
        appender.endRow();
      }
    });
    await this.connection.run(
      'delete from conversions where conversion_id in (select conversion_id from conversions_changed)',
    );
    await this.appendWith('conversions', write);
  }

  /** Runs `read` on a connection of its own (idleReaders), taken from the idle ones or opened. */
  private async reading<T>(read: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
    if (this.closed) throw new Error('the columnar store is closed');
    const connection = this.idleReaders.pop() ?? (await this.instance.connect());
    try {
      return await read(connection);
    } finally {
      if (this.closed) connection.closeSync();
      else this.idleReaders.push(connection);
    }
  }

  async aggregate(plan: AggregatePlan): Promise<AggregateRow[]> {
    const query = duckdbAggregate(plan, this.codes);
    const reader = await this.reading((connection) => connection.runAndReadAll(query.sql, query.values));
    return reader.getRowObjectsJS().map((row) => {
      const result: AggregateRow = {};
      for (const [name, value] of Object.entries(row)) result[name] = plain(value);
      return result;
    });
  }

  /** A whole report, merged, ordered and paged here (duckdb-report.ts). */
  async report(paged: PagedPlan): Promise<PagedRows> {
    const read = async (page: PagedPlan) => {
      const query = duckdbReport(page, this.codes);
      const reader = await this.reading((connection) => connection.runAndReadAll(query.sql, query.values));
      return reader.getRowObjectsJS();
    };
    let rows = await read(paged);
    const counts = (row: Record<string, unknown>, prefix: string) =>
      Object.fromEntries(COUNT_NAMES.map((name) => [name, Number(plain(row[`${prefix}${name}`]) ?? 0)])) as Counts;
    const result: PagedRows = {
      rows: rows.map((row) => ({
        values: paged.groups.map((_, index) => {
          const value = row[`o${index}`];
          return value === null || value === undefined ? null : String(value);
        }),
        counts: counts(row, ''),
      })),
      total: 0,
      totals: Object.fromEntries(COUNT_NAMES.map((name) => [name, 0])) as Counts,
    };
    // A page past the last row: the number of rows and totals from the first.
    if (rows.length === 0 && paged.offset > 0) rows = await read({ ...paged, limit: 1, offset: 0 });
    const first = rows[0];
    if (first) {
      result.total = Number(plain(first.total_rows));
      result.totals = counts(first, 'total_');
    }
    return result;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const reader of this.idleReaders.splice(0)) reader.closeSync();
    this.connection.closeSync();
    this.instance.closeSync();
  }
}
