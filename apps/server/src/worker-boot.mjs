// The entry of the server's worker threads (the tracker's event writer, the report reader): the server
// runs its TypeScript through tsx, and a worker thread does not inherit tsx's loader, so this plain
// module loads the thread's own module, `workerData.module` (a file URL), through tsx's API.
import { workerData } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

await tsImport(workerData.module, import.meta.url);
