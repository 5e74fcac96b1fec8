// `npm start`: the primary process (cluster/primary.ts) holds the port and runs SWITCHYARD_WORKERS
// click-serving workers (worker.ts); node:cluster runs this same file again for each worker.
import cluster from 'node:cluster';
import type { Config } from './config.js';
import { loadConfig } from './config.js';
import { parseTrustProxy, type TrustProxy } from './http/trusted-proxies.js';

let config: Config;
let trustProxy: TrustProxy;
let workers: number;
try {
  config = loadConfig();
  trustProxy = parseTrustProxy(process.env.SWITCHYARD_TRUST_PROXY);
  const { parseWorkers } = await import('./cluster/primary.js');
  workers = parseWorkers(process.env.SWITCHYARD_WORKERS);
} catch (error) {
  // A wrong setting is the operator's to fix: say which, without a stack trace.
  console.error(`Switchyard cannot start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}

if (cluster.isPrimary) {
  const { runPrimary } = await import('./cluster/primary.js');
  await runPrimary(config, workers);
} else {
  const { runWorker } = await import('./worker.js');
  await runWorker(config, trustProxy);
}
