// A consistent copy of the SQLite database, taken while clicks flow, by `npm run backup` or an
// instance administrator's button. It is one self-contained file: SQLite's online backup API copies the
// database, and the events the journal holds but the database may not yet are added to the copy. The
// embedded columnar store (DuckDB) is not copied: a server started on the copy rebuilds it.
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { type JournalLog, segmentFiles, segmentPayloads } from './traffic/journal.js';
import { payloadBatches, SqliteEventStore } from './traffic/sqlite-events.js';

/**
 * Pages copied per backup step: all of them. The copy is then one read of one snapshot; in smaller
 * steps, every commit of the clicks' writer between two steps would start the copy over.
 */
const ALL_PAGES = 0x7fffffff;

export interface BackupResult {
  file: string;
  bytes: number;
  /** Events the journal held when the copy began, and how many of them the database did not hold yet. */
  journalEvents: number;
  addedFromJournal: number;
}

/**
 * Copies the database `source` to `dest` (written beside it as `.partial` first, so that a failed copy
 * leaves nothing at `dest`), with the events of the journal in `journalDir`.
 */
export async function backupSqlite(
  source: string,
  journalDir: string,
  dest: string,
  log: JournalLog,
): Promise<BackupResult> {
  // The journal is read first. An event answered before the backup began is then either in a segment
  // read here, or was stored durably before its segment was deleted, and so is in the copy made after.
  const journal: string[] = [];
  for (const { file } of segmentFiles(journalDir)) {
    let data: Buffer;
    try {
      data = fs.readFileSync(file);
    } catch (error) {
      // Deleted since it was listed: its events are stored.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    journal.push(...segmentPayloads(data, file, log));
  }

  const partial = `${dest}.partial`;
  fs.rmSync(partial, { force: true });
  const from = new SQLite(source, { readonly: true, fileMustExist: true });
  try {
    await from.backup(partial, { progress: () => ALL_PAGES });
  } finally {
    from.close();
  }

  let journalEvents = 0;
  let addedFromJournal = 0;
  const copy = new SQLite(partial);
  try {
    const store = new SqliteEventStore(copy);
    for (const payload of journal) {
      const batches = payloadBatches(payload);
      for (const batch of batches) journalEvents += batch.rows.length;
      // An event the copy holds already is skipped (and not counted again in the rollups).
      addedFromJournal += store.write(batches);
    }
    // One file, without a write-ahead log beside it; a server started on it turns WAL on again.
    copy.pragma('synchronous = FULL');
    copy.pragma('journal_mode = DELETE');
  } catch (error) {
    copy.close();
    fs.rmSync(partial, { force: true });
    throw error;
  }
  copy.close();
  fs.renameSync(partial, dest);
  syncDirectory(path.dirname(dest));
  return { file: dest, bytes: fs.statSync(dest).size, journalEvents, addedFromJournal };
}

/** A rename survives a power loss once its directory is flushed. */
function syncDirectory(dir: string): void {
  const fd = fs.openSync(dir, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
