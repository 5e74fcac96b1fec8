// A columnar store (DuckDB on SQLite, ClickHouse on PostgreSQL) as a report source: caught up with the
// event tables before each read, then one table's plan, or the whole report merged, ordered and paged.
import type { ColumnarReader } from '../../report-plan/columnar-reader.js';
import type { ReportSource } from './source.js';

export function columnarSource(reader: ColumnarReader): ReportSource {
  return {
    name: reader.kind,
    aggregate: async ({ plan }) => {
      await reader.catchUp();
      return reader.aggregate(plan);
    },
    ...(reader.report
      ? {
          report: async (paged) => {
            await reader.catchUp();
            return reader.report!(paged);
          },
        }
      : {}),
  };
}
