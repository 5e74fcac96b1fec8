// Issue 23, past one machine: the columnar store on ClickHouse (`CLICKHOUSE_URL`). Every node appends its
// clicks and leads in batches; reports read them back through the same plans as every other backend.
import type { AggregatePlan, AggregateRow } from '../reports/plan.js';
import { ClickHouseClient, parseClickHouseUrl } from './clickhouse-client.js';
import { aggregateQuery, COLUMN_NAMES, createTable, storedRow } from './clickhouse-sql.js';
import type { ColumnarRow, ColumnarStore, ColumnarTable } from './schema.js';

const TABLES: readonly ColumnarTable[] = ['clicks', 'leads'];

export class ClickHouseStore implements ColumnarStore {
  readonly kind = 'clickhouse';
  readonly client: ClickHouseClient;

  constructor(url: string) {
    this.client = new ClickHouseClient(parseClickHouseUrl(url));
  }

  /** Creates the database and both tables when missing; safe on every start of every node. */
  async open(): Promise<this> {
    await this.client.execute(`CREATE DATABASE IF NOT EXISTS ${this.client.target.database}`, { inDatabase: false });
    for (const table of TABLES) await this.client.execute(createTable(table));
    return this;
  }

  /** One insert per batch. A batch sent again (a retry, a replayed journal) counts once: see `aggregate`. */
  async append(table: ColumnarTable, rows: readonly ColumnarRow[]): Promise<void> {
    if (!TABLES.includes(table)) throw new Error(`No columnar table ${table}`);
    await this.client.insert(table, COLUMN_NAMES, rows.map(storedRow));
  }

  async aggregate(plan: AggregatePlan): Promise<AggregateRow[]> {
    // FINAL: rows of one key not yet merged by ReplacingMergeTree are merged as they are read, so a row
    // appended twice counts once in every figure.
    const { sql, read } = aggregateQuery(plan, `${plan.source} FINAL`);
    return (await this.client.select(sql)).map(read);
  }

  async close(): Promise<void> {
    // Plain HTTP requests: no connection to close.
  }
}
