// The thread of a backup asked for through the API (store/backup.ts, started through worker-boot.mjs):
// the copy is one read of the whole database, which on the event loop would hold up every click.
import { parentPort, workerData } from 'node:worker_threads';
import { type BackupResult, backupSqlite } from './backup.js';

export interface BackupWorkerSettings {
  source: string;
  journalDir: string;
  dest: string;
}

export type FromBackupWorker =
  | { type: 'done'; result: BackupResult }
  | { type: 'failed'; message: string }
  | { type: 'log'; level: 'info' | 'warn' | 'error'; object: unknown; message: string };

const port = parentPort;
if (!port) throw new Error('backup-worker.ts runs as a worker thread');
const settings = workerData as BackupWorkerSettings;
const send = (message: FromBackupWorker) => port.postMessage(message);
const logAt =
  (level: 'info' | 'warn' | 'error') =>
  (object: unknown, message: string): void =>
    send({ type: 'log', level, object: JSON.parse(JSON.stringify(object ?? null)), message });

try {
  const result = await backupSqlite(settings.source, settings.journalDir, settings.dest, {
    info: logAt('info'),
    warn: logAt('warn'),
    error: logAt('error'),
  });
  send({ type: 'done', result });
} catch (error) {
  send({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
}
port.close();
