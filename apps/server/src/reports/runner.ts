// Where reports run: on SQLite, a worker thread with its own connection (reports/report-worker.ts), so
// that a long report never holds up clicks and API requests; on PostgreSQL, the event loop (the database
// server does the work, and the driver waits without blocking).
import type { Worker } from 'node:worker_threads';
import type { ReportResponse, TReportQuery } from '@switchyard/domain';
import { SQLITE_BUSY_TIMEOUT_MS, type Store } from '../store/database.js';
import { startWorkerThread } from '../worker-thread.js';
import type { FromReportWorker, ReportWorkerSettings, ToReportWorker } from './report-worker.js';
import { type ColumnarReader, type ReportScope, ReportsService } from './service.js';

export interface ReportRunner {
  run(query: TReportQuery, scope: ReportScope): Promise<ReportResponse>;
  close(): Promise<void>;
}

const WORKER_MODULE = new URL('./report-worker.ts', import.meta.url);

/**
 * Issue 23: on SQLite, the embedded columnar store lives beside the database file (`switchyard.db` →
 * `switchyard.columnar.duckdb`), and the reader's thread starts at once, so that it catches up at start.
 */
export function reportRunner(
  store: Store,
  log: (message: string) => void = () => undefined,
  /** PostgreSQL: ClickHouse, when CLICKHOUSE_URL is set (columnar/clickhouse-node.ts). */
  columnar?: ColumnarReader,
): ReportRunner {
  if (store.sqlite) {
    const file = store.sqlite.name;
    const runner = new ReportWorker(file, columnarFileOf(file), log);
    runner.start();
    return runner;
  }
  const service = new ReportsService(store.db, columnar ? { columnar } : {});
  return { run: (query, scope) => service.run(query, scope), close: async () => undefined };
}

export function columnarFileOf(sqliteFile: string): string {
  return `${sqliteFile.replace(/\.db$/, '')}.columnar.duckdb`;
}

/** Reports on a worker thread; one that stops fails what it was asked, and the next report starts another. */
class ReportWorker implements ReportRunner {
  private worker: Worker | null = null;
  private exited: Promise<void> = Promise.resolve();
  private readonly waiting = new Map<number, { resolve(response: ReportResponse): void; reject(error: Error): void }>();
  private nextId = 0;
  private closed = false;

  constructor(
    private readonly file: string,
    private readonly columnarFile: string | null,
    private readonly log: (message: string) => void,
  ) {}

  start(): void {
    this.ensureWorker();
  }

  run(query: TReportQuery, scope: ReportScope): Promise<ReportResponse> {
    if (this.closed) return Promise.reject(new Error('the report reader is closed'));
    const worker = this.ensureWorker();
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.ref();
      worker.postMessage({ type: 'run', id, query, scope } satisfies ToReportWorker);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    if (!worker) return;
    worker.ref();
    worker.postMessage({ type: 'close' } satisfies ToReportWorker);
    await this.exited;
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const settings: ReportWorkerSettings = {
      file: this.file,
      busyTimeoutMs: SQLITE_BUSY_TIMEOUT_MS,
      columnarFile: this.columnarFile,
    };
    const worker = startWorkerThread(WORKER_MODULE, settings);
    worker.unref();
    this.worker = worker;
    worker.on('message', (message: FromReportWorker) => {
      if (message.type === 'log') {
        this.log(message.message);
        return;
      }
      const waiter = this.waiting.get(message.id);
      if (!waiter) return;
      this.waiting.delete(message.id);
      if (this.waiting.size === 0) worker.unref();
      if (message.type === 'answer') waiter.resolve(message.response);
      else waiter.reject(new Error(`report failed: ${message.message}`));
    });
    // An 'error' event is followed by 'exit', which answers what was waiting.
    worker.on('error', (error) => this.log(`the report reader stopped: ${error.message}`));
    this.exited = new Promise((resolve) => {
      worker.once('exit', (code) => {
        this.worker = null;
        for (const waiter of this.waiting.values()) waiter.reject(new Error(`the report reader stopped (${code})`));
        this.waiting.clear();
        resolve();
      });
    });
    return worker;
  }
}
