// The seam every report backend answers through: the rollup cubes, SQL over the event tables, DuckDB and
// ClickHouse each implement ReportSource; chooseSource (choose.ts) picks which one answers a report, and
// wiring.ts builds the list of sources with what each can do now.
import type { ReportGroup, ReportSourceName } from '@switchyard/domain';
import type { AggregatePlan, AggregateRow, PagedPlan, PagedRows } from '../../report-plan/plan.js';
import type { Narrowing, ReportRange } from '../report-plans.js';

export type SourceName = ReportSourceName;

/** What one table's read needs: its plan, and the report it belongs to (the rollups read their own shape). */
export interface TableRead {
  plan: AggregatePlan;
  groups: readonly ReportGroup[];
  range: ReportRange;
  narrowing: Narrowing;
}

export interface ReportSource {
  readonly name: SourceName;
  /**
   * One table's rows for its plan: `g_*` values (or `g_utc_hour` and `g_quarter`, or local buckets), then
   * the table's figures, as render-sql.ts gives them. A store that follows the event tables catches up
   * first.
   */
  aggregate(read: TableRead): Promise<AggregateRow[]>;
  /** A whole report merged, ordered and paged in the source (a columnar store holding all three tables). */
  report?(paged: PagedPlan): Promise<PagedRows>;
}
