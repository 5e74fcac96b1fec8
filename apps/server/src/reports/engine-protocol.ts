// What the server and its report engine (a child process, reports/engine-child.ts) say to each other.
import type { ReportResponse, TReportQuery } from '@switchyard/domain';
import type { ReportScope } from './service.js';

/** Where the engine reads events, and how much of the machine it may take. */
export type EngineDatabase =
  | {
      kind: 'sqlite';
      file: string;
      busyTimeoutMs: number;
      /** The embedded columnar store's file, which the engine keeps following the event tables. */
      columnarFile: string | null;
    }
  | {
      kind: 'postgres';
      url: string;
      /** ClickHouse (CLICKHOUSE_URL): read once the server's copy is complete (ready in each run). */
      clickhouseUrl: string | null;
    };

export interface EngineSettings {
  database: EngineDatabase;
  /** Reports run at once. */
  concurrency: number;
  /** DuckDB's threads, and the child's libuv pool. */
  threads: number;
  /** The child's scheduling priority (nice, 0–19): above the event loop's 0, so clicks come first. */
  nice: number;
}

export type ToEngine =
  | {
      type: 'run';
      id: number;
      query: TReportQuery;
      scope: ReportScope;
      /** Whether the server's columnar store (ClickHouse) holds every event now. */
      columnarReady: boolean;
    }
  | { type: 'caughtUp'; id: number; error: string | null }
  | { type: 'close' };

export type FromEngine =
  | { type: 'ready' }
  | { type: 'answer'; id: number; response: ReportResponse }
  | { type: 'failed'; id: number; message: string }
  /** ClickHouse: the server sends its cost and conversion changes before a report reads them. */
  | { type: 'catchUp'; id: number }
  | { type: 'log'; message: string };
