// Backups of the SQLite database while the server runs, for the instance's administrators.
// Each is one file in the data directory's `backups` (store/backup.ts), made on a thread of its own;
// PostgreSQL is backed up with pg_dump (README, "Backups").
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import type { Backup } from '@switchyard/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Config, databaseDialect, journalDir } from '../../config.js';
import { ConflictError, NotFoundError, ValidationError } from '../../errors.js';
import { authorizeInstance } from '../../http/guard.js';
import type { BackupResult } from '../../store/backup.js';
import type { BackupWorkerSettings, FromBackupWorker } from '../../store/backup-worker.js';
import { SQLITE_FILE_NAME } from '../../store/database.js';
import { startWorkerThread } from '../../worker-thread.js';

const WORKER_MODULE = new URL('../../store/backup-worker.ts', import.meta.url);
/** The names this route makes, and the only ones it reads or deletes. */
const BACKUP_NAME = /^switchyard-\d{8}-\d{6}(?:-\d+)?\.db$/;
const ON_POSTGRES = 'This instance keeps its data in PostgreSQL: back it up with pg_dump.';

/** A copy of every workspace's data is the instance's, not a user manager's. */
function authorizeBackups(request: FastifyRequest) {
  return authorizeInstance(request, 'update');
}

function backupName(at: Date, taken: (name: string) => boolean): string {
  const stamp = at.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  let name = `switchyard-${stamp}.db`;
  for (let n = 2; taken(name); n += 1) name = `switchyard-${stamp}-${n}.db`;
  return name;
}

export function backupRoutes(app: FastifyInstance, config: Config): void {
  const dir = path.join(config.dataDir, 'backups');
  const onSqlite = databaseDialect(config) === 'sqlite';
  let running: Promise<BackupResult> | null = null;

  const describe = (name: string): Backup => {
    const stat = fs.statSync(path.join(dir, name));
    return { name, bytes: stat.size, created_at: stat.mtime.toISOString() };
  };
  const fileOf = (name: string): string => {
    if (!BACKUP_NAME.test(name) || !fs.existsSync(path.join(dir, name))) throw new NotFoundError();
    return path.join(dir, name);
  };

  const make = async (dest: string): Promise<BackupResult> => {
    const settings: BackupWorkerSettings = {
      source: path.join(config.dataDir, SQLITE_FILE_NAME),
      journalDir: journalDir(config),
      dest,
    };
    const worker = startWorkerThread(WORKER_MODULE, settings);
    let outcome: FromBackupWorker | null = null;
    worker.on('message', (message: FromBackupWorker) => {
      if (message.type === 'log') app.log[message.level](message.object, message.message);
      else outcome = message;
    });
    await once(worker, 'exit');
    const done = outcome as FromBackupWorker | null;
    if (done?.type === 'done') return done.result;
    throw new Error(`backup failed: ${done?.type === 'failed' ? done.message : 'its thread stopped'}`);
  };

  app.get('/backups', async (request) => {
    authorizeBackups(request);
    const names = fs.existsSync(dir) ? fs.readdirSync(dir).filter((name) => BACKUP_NAME.test(name)) : [];
    const list = names.map(describe).sort((a, b) => b.created_at.localeCompare(a.created_at));
    return { list, total: list.length };
  });

  app.post('/backups', async (request, reply) => {
    authorizeBackups(request);
    if (!onSqlite) throw new ValidationError({}, ON_POSTGRES);
    if (running) throw new ConflictError('A backup is being made; try again when it is done.');
    fs.mkdirSync(dir, { recursive: true });
    const name = backupName(new Date(), (candidate) => fs.existsSync(path.join(dir, candidate)));
    const started = Date.now();
    running = make(path.join(dir, name));
    try {
      const result = await running;
      app.log.info({ file: result.file, bytes: result.bytes, ms: Date.now() - started }, 'backup made');
      reply.code(201);
      return {
        ...describe(name),
        journal_events: result.journalEvents,
        added_from_journal: result.addedFromJournal,
      };
    } finally {
      running = null;
    }
  });

  app.get<{ Params: { name: string } }>('/backups/:name', async (request, reply) => {
    authorizeBackups(request);
    const file = fileOf(request.params.name);
    return reply
      .type('application/vnd.sqlite3')
      .header('content-disposition', `attachment; filename="${request.params.name}"`)
      .send(fs.createReadStream(file));
  });

  app.delete<{ Params: { name: string } }>('/backups/:name', async (request, reply) => {
    authorizeBackups(request);
    fs.rmSync(fileOf(request.params.name));
    return reply.code(204).send();
  });
}
