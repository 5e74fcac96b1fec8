// Cost updates and cost imports. On SQLite each runs on a thread of its own (cost-worker.ts): its reads of
// a large database wait for the disk there, not on the event loop that answers clicks. On PostgreSQL the
// driver already waits without holding the event loop, so they run where they are asked.
import type { CostImportLine, TCostUpdate } from '@switchyard/domain';
import { ThreadApiError } from '../errors.js';
import type { CsvLine } from '../http/csv-lines.js';
import type { Store } from '../store/database.js';
import type { Scope } from '../store/scope.js';
import { startWorkerThread } from '../worker-thread.js';
import type { CostJob, CostWorkerSettings, FromCostWorker } from './cost-worker.js';
import { importCosts } from './import.js';
import { updateCampaignCost } from './service.js';

const WORKER_MODULE = new URL('./cost-worker.ts', import.meta.url);

/** The thread's nice value (0 is the event loop's; 19 the lowest priority), as the event writer's. */
const COST_NICENESS = 10;

/**
 * updateCampaignCost, on SQLite on a thread of its own. `durable` (the engine's) serves where it runs here;
 * the thread makes its commit durable on its own connection.
 */
export function setCampaignCost(
  store: Store,
  campaign: string,
  input: TCostUpdate,
  scope: Scope,
  durable?: () => Promise<void>,
): Promise<number> {
  if (!onThread(store)) return updateCampaignCost(store, campaign, input, scope, durable);
  return onCostThread<number>(store, { type: 'update', campaign, input, scope });
}

/** importCosts, on SQLite on a thread of its own. */
export function importCampaignCosts(
  store: Store,
  workspaceId: number,
  lines: readonly CsvLine[],
  timezone: string,
  durable?: () => Promise<void>,
): Promise<CostImportLine[]> {
  if (!onThread(store)) return importCosts(store, workspaceId, lines, timezone, durable);
  return onCostThread<CostImportLine[]>(store, { type: 'import', workspaceId, lines, timezone });
}

/** A file a second connection can open (not an in-memory database). */
function onThread(store: Store): store is Store & { sqlite: NonNullable<Store['sqlite']> } {
  return store.dialect === 'sqlite' && store.sqlite !== undefined && !store.sqlite.memory;
}

/**
 * Runs `job` on its thread and answers what it answered, once the thread has ended (its connection
 * closed). Meanwhile the event loop's connection is held, as the work would hold it if it ran there:
 * whatever else writes through it waits its turn in line, rather than for the write lock inside SQLite,
 * synchronously, on the event loop.
 */
function onCostThread<T>(store: Store & { sqlite: NonNullable<Store['sqlite']> }, job: CostJob): Promise<T> {
  const settings: CostWorkerSettings = { file: store.sqlite.name, niceness: COST_NICENESS, job };
  return store.db.connection().execute(
    () =>
      new Promise<T>((resolve, reject) => {
        let outcome: { result: T } | { error: Error } | undefined;
        const worker = startWorkerThread(WORKER_MODULE, settings);
        worker.on('message', (message: FromCostWorker) => {
          if (message.type === 'done') outcome = { result: message.result as T };
          else if (message.type === 'refused') outcome = { error: new ThreadApiError(message.error) };
          else outcome = { error: new Error(message.message) };
        });
        worker.on('error', (error) => {
          outcome ??= { error };
        });
        worker.on('exit', (code) => {
          if (!outcome) reject(new Error(`The cost update's thread stopped (exit code ${code}) without answering`));
          else if ('error' in outcome) reject(outcome.error);
          else resolve(outcome.result);
        });
      }),
  );
}
