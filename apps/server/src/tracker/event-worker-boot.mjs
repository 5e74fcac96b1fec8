// The event worker's entry: the server runs its TypeScript through tsx, and a worker thread does not
// inherit tsx's loader, so this plain module loads event-worker.ts through tsx's API.
import { tsImport } from 'tsx/esm/api';

await tsImport('./event-worker.ts', import.meta.url);
