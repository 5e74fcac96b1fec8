// The entry of the server's worker threads (the tracker's event writer, the report reader, a backup).
// Built (`npm start`), `workerData.module` is a .js file and is imported as it is. From source (tsx, in
// development and tests) it is a .ts file: a worker thread does not inherit tsx's loader, so the module
// is loaded through tsx's API, imported only then, so that the built server never needs tsx.
import { workerData } from 'node:worker_threads';

const module = workerData.module;
if (module.endsWith('.ts')) {
  const { tsImport } = await import('tsx/esm/api');
  await tsImport(module, import.meta.url);
} else {
  await import(module);
}
