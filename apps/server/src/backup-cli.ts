// `npm run backup -- <file>`: a consistent copy of the SQLite database, safe while the server
// runs and clicks flow (store/backup.ts). PostgreSQL is backed up with its own tools (README, "Backups").
import path from 'node:path';
import { databaseDialect, journalDir, loadConfig } from './config.js';
import { backupSqlite } from './store/backup.js';
import { SQLITE_FILE_NAME } from './store/database.js';

const log = {
  info: (_object: unknown, message: string) => console.log(message),
  warn: (object: unknown, message: string) => console.warn(message, object),
  error: (object: unknown, message: string) => console.error(message, object),
};

async function main(): Promise<number> {
  const target = process.argv[2];
  if (!target) {
    console.error('Usage: npm run backup -- <file>   (a copy of the database, safe while the server runs)');
    return 2;
  }
  const config = loadConfig();
  if (databaseDialect(config) === 'postgres') {
    console.error('This instance keeps its data in PostgreSQL: back it up with pg_dump (README, "Backups").');
    return 2;
  }
  // `npm run` starts this in apps/server: a relative path means the directory the operator ran it from.
  const dest = path.resolve(process.env.INIT_CWD ?? process.cwd(), target);
  const started = Date.now();
  const result = await backupSqlite(path.join(config.dataDir, SQLITE_FILE_NAME), journalDir(config), dest, log);
  console.log(
    `Backed up ${path.join(config.dataDir, SQLITE_FILE_NAME)} to ${result.file}: ${result.bytes} bytes in ` +
      `${Date.now() - started} ms (${result.addedFromJournal} answered events taken from the journal).`,
  );
  return 0;
}

try {
  process.exitCode = await main();
} catch (error) {
  console.error(`Backup failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
