// What SQLite holds is made durable through SQLite itself. No file of SQLite's is opened and
// closed behind its back: closing any descriptor of a file drops every POSIX lock the process holds on
// it, SQLite's own among them, and the next outside connection that closes (an operator's sqlite3 shell,
// a backup script) then deletes the write-ahead log the server is still writing into.
import type SQLite from 'better-sqlite3';
import { SQLITE_BUSY_TIMEOUT_MS } from '../database.js';

/** The settings row that each durable commit rewrites: when the stored events were last made durable. */
export const EVENTS_DURABLE_KEY = 'events.durable_at';

const MARK = `INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?)
  ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`;

/**
 * Commits one small write with `synchronous = FULL`. SQLite then syncs the write-ahead log, the whole
 * file, so every commit before it, by any connection and however it was made (the event writer commits
 * without waiting for the disk), survives a power loss too.
 */
export function commitDurably(db: SQLite.Database): void {
  const before = db.pragma('synchronous', { simple: true }) as number;
  // The event loop's connection waits for the write lock on a timer, not in SQLite (database.ts). This
  // commit is made there only without a thread to make it (at a close), and waits as any connection does.
  const waits = db.pragma('busy_timeout', { simple: true }) as number;
  db.pragma('synchronous = FULL');
  if (waits < SQLITE_BUSY_TIMEOUT_MS) db.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
  try {
    const at = new Date().toISOString();
    db.prepare(MARK).run(EVENTS_DURABLE_KEY, JSON.stringify(at), at);
  } finally {
    db.pragma(`synchronous = ${before}`);
    if (waits < SQLITE_BUSY_TIMEOUT_MS) db.pragma(`busy_timeout = ${waits}`);
  }
}
