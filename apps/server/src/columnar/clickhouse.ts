// Past one machine: the columnar store on ClickHouse (`CLICKHOUSE_URL`). Every node appends its
// clicks and leads in batches; reports read them back through the same plans as every other backend.
import {
  type AggregatePlan,
  type AggregateRow,
  COUNT_NAMES,
  type Counts,
  type PagedPlan,
  type PagedRows,
} from '../report-plan/plan.js';
import { ClickHouseClient, parseClickHouseUrl } from './clickhouse-client.js';
import { CodeDictionary, type CodeIssuer, CodeWriter } from './clickhouse-codes.js';
import { clickhouseReport, codedGroups } from './clickhouse-report.js';
import {
  aggregateQuery,
  CODE_COLUMN_NAMES,
  COLUMN_NAMES,
  CONVERSION_COLUMN_NAMES,
  literal,
  storedRow,
} from './clickhouse-sql.js';
import { EVENT_TABLES, openTables } from './clickhouse-tables.js';
import type { ColumnarRow, ColumnarStore, ColumnarTable } from './schema.js';

/** The progress row that marks the tables coded (open). */
const CODED = 'codes';

export class ClickHouseStore implements ColumnarStore {
  readonly kind = 'clickhouse';
  readonly client: ClickHouseClient;
  private codes: CodeWriter | null = null;
  /** Whether the tables are coded (isCoded); null until read. */
  private coded: boolean | null = null;

  /** `url`: CLICKHOUSE_URL; or a client of its own (tests run the same statements in-process on chdb). */
  constructor(url: string | ClickHouseClient) {
    this.client = typeof url === 'string' ? new ClickHouseClient(parseClickHouseUrl(url)) : url;
  }

  /**
   * Creates the database and the tables when missing; safe on every start of every node. Tables this
   * store made itself, with codes to give (`useCodes`), are marked coded: every row they will hold carries
   * its codes, and reports group them by those.
   */
  async open(): Promise<this> {
    const { made } = await openTables(this.client);
    // `codes` may have been emptied with the database since numbers were copied into it.
    this.codes?.forget();
    if (made && this.codes) await this.setProgress(CODED, 1);
    this.coded = null;
    await this.isCoded();
    return this;
  }

  /**
   * Gives this store's rows their codes, issued by PostgreSQL (clickhouse-codes.ts): every store that
   * sends rows has them (ClickHouseFeed), before it opens. A store keeps the first it was given.
   */
  useCodes(issuer: CodeIssuer): void {
    this.codes ??= new CodeWriter(issuer);
  }

  /**
   * Whether every row of clicks, leads and conversions carries its codes. Tables made before codes hold
   * rows with code 0 for real values: they stay read by their text. (Coding those rows in place, an
   * ALTER … UPDATE mutation, is not done.)
   */
  private async isCoded(): Promise<boolean> {
    if (this.coded !== true) this.coded = (await this.progress(CODED)) === 1;
    return this.coded;
  }

  /**
   * One insert per batch, each row key once. `again`: the batch, or part of it, may be stored already (a
   * retry after an insert whose answer was lost, a replayed journal, a backfill resumed after a stop);
   * the keys ClickHouse holds in its id and time range are left out. Rows are kept out here rather than
   * merged away when read: `FINAL` costs 18.16 five to ten times the read itself.
   */
  async append(table: ColumnarTable, rows: readonly ColumnarRow[], { again = false } = {}): Promise<void> {
    if (!EVENT_TABLES.includes(table)) throw new Error(`No columnar table ${table}`);
    const stored = again ? await this.storedKeys(table, rows) : new Set<string>();
    const fresh: ColumnarRow[] = [];
    for (const row of rows) {
      if (stored.has(row.row_key)) continue;
      stored.add(row.row_key);
      fresh.push(row);
    }
    await this.insert(table, COLUMN_NAMES, fresh.map(storedRow));
  }

  /** Rows with their codes, when this store gives them; a store without codes never writes coded tables. */
  private async insert(table: string, columns: readonly string[], rows: Record<string, unknown>[]): Promise<void> {
    if (rows.length === 0) return;
    if (!this.codes) {
      if (await this.isCoded())
        throw new Error(`ClickHouse's ${table} keep codes: rows are sent by a store that gives them`);
      await this.client.insert(table, columns, rows);
      return;
    }
    try {
      await this.codes.code(this.client, rows);
      await this.client.insert(table, [...columns, ...CODE_COLUMN_NAMES], rows);
    } catch (error) {
      this.codes.forget();
      throw error;
    }
  }

  /** The keys ClickHouse holds among the ids and times of `rows` (an adjustment has its click's). */
  private async storedKeys(table: ColumnarTable, rows: readonly ColumnarRow[]): Promise<Set<string>> {
    if (rows.length === 0) return new Set();
    let low = Number.POSITIVE_INFINITY;
    let high = Number.NEGATIVE_INFINITY;
    let from = Number.POSITIVE_INFINITY;
    let to = Number.NEGATIVE_INFINITY;
    for (const row of rows) {
      const seconds = Math.floor(Date.parse(row.created_at) / 1000);
      low = Math.min(low, row.source_id);
      high = Math.max(high, row.source_id);
      from = Math.min(from, seconds);
      to = Math.max(to, seconds);
    }
    const found = await this.client.select(
      `SELECT row_key FROM ${table}
       WHERE created_at >= toDateTime(${literal(from)}) AND created_at <= toDateTime(${literal(to)})
         AND source_id >= ${literal(low)} AND source_id <= ${literal(high)}`,
    );
    return new Set(found.map((row) => String(row.row_key)));
  }

  /**
   * Merges each partition of conversions held in more than one part into one, keeping each conversion's
   * latest row; answers the partitions merged. Reports read conversions with FINAL, which merges every
   * part's rows as it reads, and pays for each older row of a conversion still held (a backfill holds most
   * twice: its copy at version 0, then its logged change). Another node compacting the same partition
   * meanwhile is no error (bench/README.md, 2026-11-29, third session).
   */
  async compactConversions(): Promise<number> {
    const split = await this.client.select(
      `SELECT partition FROM system.parts
       WHERE database = ${literal(this.client.target.database)} AND table = 'conversions' AND active
       GROUP BY partition HAVING count() > 1`,
    );
    let merged = 0;
    for (const { partition } of split) {
      // toYYYYMM(created_at): a number, written back as one.
      const month = Number(partition);
      if (!Number.isSafeInteger(month)) continue;
      await this.client.execute(`OPTIMIZE TABLE conversions PARTITION ${literal(month)} FINAL`);
      merged += 1;
    }
    return merged;
  }

  /** Where a report reads `source`: clicks and leads as stored (see append), conversions as they are now. */
  private from(source: AggregatePlan['source']): string {
    // Conversions: the latest row of each (ReplacingMergeTree by version), merged as read.
    return source === 'conversions' ? 'conversions FINAL' : source;
  }

  async aggregate(plan: AggregatePlan): Promise<AggregateRow[]> {
    const { sql, read } = aggregateQuery(plan, this.from(plan.source));
    return (await this.client.select(sql)).map(read);
  }

  /** A whole report, merged, ordered and paged in ClickHouse (clickhouse-report.ts). */
  async report(paged: PagedPlan): Promise<PagedRows> {
    // Grouped by codes in tables that hold them, named by the dictionary as it is now.
    const dictionary =
      codedGroups(paged).some((column) => column !== null) && (await this.isCoded())
        ? await CodeDictionary.load(this.client)
        : undefined;
    const answer = await this.client.answer(clickhouseReport(paged, (source) => this.from(source), dictionary));
    const counts = (row: Record<string, unknown> | undefined) =>
      Object.fromEntries(COUNT_NAMES.map((name) => [name, Number(row?.[`n_${name}`] ?? 0)])) as Counts;
    const shown = (row: Record<string, unknown>) => ({
      values: paged.groups.map((_, index) => {
        const value = row[`o${index}`];
        return value === null || value === undefined ? null : String(value);
      }),
      counts: counts(row),
    });
    if (paged.groups.length === 0) {
      return { rows: answer.data.map(shown), total: answer.data.length, totals: counts(answer.data[0]) };
    }
    // The first row only keeps the answer from being empty; the page starts `offset` rows after it
    // (clickhouse-report.ts).
    const held = answer.data.filter((row) => Number(row.x) === 0);
    const page = paged.limit > 0 ? held.slice(paged.offset, paged.offset + paged.limit) : held;
    return {
      rows: page.map(shown),
      // Without a LIMIT every row is here.
      total: paged.limit > 0 ? Number(answer.rows_before_limit_at_least ?? 0) - 1 : held.length,
      totals: counts(answer.totals),
    };
  }

  /** Conversions as they are now (clickhouse-sql.ts, CONVERSION_COLUMNS). */
  async appendConversions(rows: readonly Record<string, unknown>[]): Promise<void> {
    await this.insert(
      'conversions',
      CONVERSION_COLUMN_NAMES,
      rows.map((row) => ({ ...row })),
    );
  }

  /** The highest conversion change sent, 0 when none: where following the change log resumes. */
  async lastConversionChange(): Promise<number> {
    const [row] = await this.client.select('SELECT max(version) AS id FROM conversions');
    return Number(row?.id ?? 0);
  }

  /** The last row of a conversion, for the mark of its removal (which must sort where it does). */
  async conversionRow(conversionId: string): Promise<Record<string, unknown> | null> {
    const [row] = await this.client.select(
      `SELECT ${CONVERSION_COLUMN_NAMES.map((name) => (name === 'created_at' || name === 'event_at' ? `toUnixTimestamp(${name}) AS ${name}` : name)).join(', ')}
       FROM conversions FINAL WHERE conversion_id = ${literal(conversionId)}`,
    );
    return row ?? null;
  }

  /** The highest change id of the cost adjustments stored, 0 when none: where sending changes resumes. */
  async lastCostChange(): Promise<number> {
    const [row] = await this.client.select(
      "SELECT max(toInt64(replaceOne(row_key, 'cost:', ''))) AS id FROM clicks WHERE events = 0",
    );
    return Number(row?.id ?? 0);
  }

  /** A step of the backfill (clickhouse-feed.ts) every node sees; null before it was first recorded. */
  async progress(name: string): Promise<number | null> {
    const [row] = await this.client.select(
      `SELECT count() AS found, max(value) AS value FROM progress WHERE name = ${literal(name)}`,
    );
    return Number(row?.found ?? 0) === 0 ? null : Number(row?.value);
  }

  /** Records a step; steps only move forward, so the highest recorded is the one read. */
  async setProgress(name: string, value: number): Promise<void> {
    await this.client.insert('progress', ['name', 'value', 'version'], [{ name, value, version: Date.now() }]);
  }

  async close(): Promise<void> {
    // Plain HTTP requests: no connection to close.
  }
}
