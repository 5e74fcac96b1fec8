import { Worker } from 'node:worker_threads';

const BOOT = new URL('./worker-boot.mjs', import.meta.url);

/** A worker thread running the TypeScript module `module` (a file URL) with `settings` as its workerData. */
export function startWorkerThread(module: URL, settings: object): Worker {
  return new Worker(BOOT, { workerData: { ...settings, module: module.href } });
}
