// Cost updates and cost imports. On SQLite they run on a thread of their own (cost-worker.ts): their reads
// of a large database wait for the disk there, not on the event loop that answers clicks. On PostgreSQL
// the driver already waits without holding the event loop, so they run where they are asked.
import type { Worker } from 'node:worker_threads';
import type { CostImportLine, TCostUpdate } from '@switchyard/domain';
import { ThreadApiError } from '../errors.js';
import type { CsvLine } from '../http/csv-lines.js';
import type { Store } from '../store/database.js';
import type { Scope } from '../store/scope.js';
import { startWorkerThread } from '../worker-thread.js';
import type { CostJob, CostWorkerSettings, FromCostWorker, ToCostWorker } from './cost-worker.js';
import { importCosts } from './import.js';
import { updateCampaignCost } from './service.js';

const WORKER_MODULE = new URL('./cost-worker.ts', import.meta.url);

/** The thread's nice value (0 is the event loop's; 19 the lowest priority), as the event writer's. */
const COST_NICENESS = 10;

/**
 * How long the thread stays after its last job. Starting one loads its modules (about 0.3 s built, more
 * through tsx), which an operator setting costs campaign by campaign would otherwise wait for each time.
 */
const IDLE_MS = 60_000;

type Settle = { resolve: (value: unknown) => void; reject: (error: Error) => void };

export class CostWork {
  private worker: Worker | null = null;
  private waiting: Settle | null = null;
  private idle: NodeJS.Timeout | null = null;

  constructor(private readonly store: Store) {}

  /** updateCampaignCost. `durable` (the engine's) serves where it runs here; the thread makes its own commit durable. */
  setCampaignCost(campaign: string, input: TCostUpdate, scope: Scope, durable?: () => Promise<void>): Promise<number> {
    if (!this.onThread()) return updateCampaignCost(this.store, campaign, input, scope, durable);
    return this.run({ type: 'update', campaign, input, scope }) as Promise<number>;
  }

  /** importCosts, as setCampaignCost runs it. */
  importCosts(
    workspaceId: number,
    lines: readonly CsvLine[],
    timezone: string,
    durable?: () => Promise<void>,
  ): Promise<CostImportLine[]> {
    if (!this.onThread()) return importCosts(this.store, workspaceId, lines, timezone, durable);
    return this.run({ type: 'import', workspaceId, lines, timezone }) as Promise<CostImportLine[]>;
  }

  /** Ends the thread, if one runs (a job under way ends with the process). */
  close(): void {
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    this.worker?.postMessage({ type: 'close' } satisfies ToCostWorker);
    this.worker = null;
  }

  /** A file a second connection can open (not an in-memory database). */
  private onThread(): boolean {
    return this.store.dialect === 'sqlite' && this.store.sqlite !== undefined && !this.store.sqlite.memory;
  }

  /**
   * Runs `job` on the thread and answers what it answered. Meanwhile the event loop's connection is held,
   * as the work would hold it if it ran there: whatever else writes through it waits its turn in line,
   * rather than for the write lock inside SQLite, synchronously, on the event loop. So jobs also run one
   * at a time.
   */
  private run(job: CostJob): Promise<unknown> {
    return this.store.db.connection().execute(async () => {
      if (this.idle) clearTimeout(this.idle);
      this.idle = null;
      const worker = this.worker ?? this.start();
      try {
        return await new Promise<unknown>((resolve, reject) => {
          this.waiting = { resolve, reject };
          worker.postMessage({ type: 'job', job } satisfies ToCostWorker);
        });
      } finally {
        this.waiting = null;
        if (this.worker) this.idle = setTimeout(() => this.close(), IDLE_MS).unref();
      }
    });
  }

  private start(): Worker {
    const settings: CostWorkerSettings = { file: this.store.sqlite!.name, niceness: COST_NICENESS };
    const worker = startWorkerThread(WORKER_MODULE, settings);
    // An idle thread keeps no process alive.
    worker.unref();
    worker.on('message', (message: FromCostWorker) => {
      if (message.type === 'done') this.waiting?.resolve(message.result);
      else if (message.type === 'refused') this.waiting?.reject(new ThreadApiError(message.error));
      else this.waiting?.reject(new Error(message.message));
    });
    worker.on('error', (error) => this.waiting?.reject(error));
    worker.on('exit', (code) => {
      if (this.worker === worker) this.worker = null;
      this.waiting?.reject(new Error(`The cost thread stopped (exit code ${code}) without answering`));
    });
    this.worker = worker;
    return worker;
  }
}
