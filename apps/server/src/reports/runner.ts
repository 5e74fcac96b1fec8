// Where reports run: on SQLite, a worker thread with its own connection (reports/report-worker.ts), so
// that a long report never holds up clicks and API requests; on PostgreSQL, the event loop (the database
// server does the work, and the driver waits without blocking).
import type { Worker } from 'node:worker_threads';
import type { ReportResponse, TReportQuery } from '@switchyard/domain';
import { SQLITE_BUSY_TIMEOUT_MS, type Store } from '../store/database.js';
import { startWorkerThread } from '../worker-thread.js';
import type { FromReportWorker, ReportWorkerSettings, ToReportWorker } from './report-worker.js';
import { type ReportScope, ReportsService } from './service.js';

export interface ReportRunner {
  run(query: TReportQuery, scope?: ReportScope): Promise<ReportResponse>;
  close(): Promise<void>;
}

const WORKER_MODULE = new URL('./report-worker.ts', import.meta.url);

export function reportRunner(store: Store): ReportRunner {
  if (store.sqlite) return new ReportWorker(store.sqlite.name);
  const service = new ReportsService(store.db);
  return { run: (query, scope) => service.run(query, scope), close: async () => undefined };
}

/** Reports on a worker thread, started on the first report; one that stops fails what it was asked. */
class ReportWorker implements ReportRunner {
  private worker: Worker | null = null;
  private exited: Promise<void> = Promise.resolve();
  private readonly waiting = new Map<number, { resolve(response: ReportResponse): void; reject(error: Error): void }>();
  private nextId = 0;
  private closed = false;

  constructor(private readonly file: string) {}

  run(query: TReportQuery, scope?: ReportScope): Promise<ReportResponse> {
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
    const settings: ReportWorkerSettings = { file: this.file, busyTimeoutMs: SQLITE_BUSY_TIMEOUT_MS };
    const worker = startWorkerThread(WORKER_MODULE, settings);
    worker.unref();
    this.worker = worker;
    worker.on('message', (message: FromReportWorker) => {
      const waiter = this.waiting.get(message.id);
      if (!waiter) return;
      this.waiting.delete(message.id);
      if (this.waiting.size === 0) worker.unref();
      if (message.type === 'answer') waiter.resolve(message.response);
      else waiter.reject(new Error(`report failed: ${message.message}`));
    });
    // An 'error' event is followed by 'exit', which answers what was waiting.
    worker.on('error', () => undefined);
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
