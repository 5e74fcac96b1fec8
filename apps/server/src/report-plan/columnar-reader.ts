// A columnar store as the report engine reads it (DuckDB on SQLite, ClickHouse on PostgreSQL): what each
// store offers, wrapped as a report source by reports/sources/columnar.ts.
import type { AggregatePlan, AggregateRow, PagedPlan, PagedRows } from './plan.js';

/**
 * A columnar store a report's clicks and leads (and conversions, when it holds them) are read
 * from when no cube holds them, once it holds every event (`ready`); `catchUp` copies what the event
 * tables gained since, before each read.
 */
export interface ColumnarReader {
  /** Which store it is: the name a report's answer gives (`meta.source`). */
  readonly kind: 'duckdb' | 'clickhouse';
  readonly ready: boolean;
  /** Whether it holds conversions too; else they are read from their table. */
  readonly conversions?: boolean;
  catchUp(): Promise<unknown>;
  aggregate(plan: AggregatePlan): Promise<AggregateRow[]>;
  /** A whole report merged, ordered and paged in the store (one that holds conversions too). */
  report?(paged: PagedPlan): Promise<PagedRows>;
}
