// ClickHouse as the report engine reads it on PostgreSQL with CLICKHOUSE_URL: the server's feed sends the
// events and changes, so before a report reads, the engine asks the server to send the cost and
// conversion changes made until then (`catchUp` over IPC), and each report says whether the server's copy
// is complete (`ready`). Its reader becomes the engine's `clickhouse` report source (wiring.ts).
import { ClickHouseStore } from '../../columnar/clickhouse.js';
import type { ColumnarReader } from '../../report-plan/columnar-reader.js';

export function engineClickHouse(
  url: string,
  server: { ready(): boolean; catchUp(): Promise<void> },
): { reader: ColumnarReader; close: () => Promise<void> } {
  const store = new ClickHouseStore(url);
  return {
    reader: {
      kind: 'clickhouse',
      get ready() {
        return server.ready();
      },
      conversions: true,
      catchUp: () => server.catchUp(),
      aggregate: (plan) => store.aggregate(plan),
      report: (paged) => store.report(paged),
    },
    close: () => store.close(),
  };
}
