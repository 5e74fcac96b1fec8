// A hosted lander's files. Every file has a row (path, type, size, SHA-256) in `lander_files`,
// owned by the lander's workspace. On PostgreSQL the bytes are in the row too, so every node serves
// them; on SQLite (one node) they are files under the data directory, in one folder per upload
// (`landers/{workspace}/{lander}/{folder}/…`) that the rows name: a new upload is written to a folder of
// its own, the rows swapped in one transaction, and only then the old folder removed, so an upload that
// fails leaves the old files served as they were.
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { now } from './database.js';
import type { Database } from './schema.js';
import { type Scope, scopeCondition } from './scope.js';

export interface LanderFileTable {
  workspace_id: number;
  lander_external_id: string;
  path: string;
  content_type: string;
  size: number;
  sha256: string;
  /** The bytes on PostgreSQL; null on SQLite, where `folder` names where they are. */
  content: Buffer | null;
  folder: string | null;
  updated_at: string;
}

export interface StoredLanderFile {
  path: string;
  content_type: string;
  size: number;
  sha256: string;
  updated_at: string;
}

export interface NewLanderFile {
  path: string;
  contentType: string;
  bytes: Buffer;
}

const LISTED = ['path', 'content_type', 'size', 'sha256', 'updated_at'] as const;

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export class LanderFileStore {
  constructor(
    private readonly db: Kysely<Database>,
    /** SQLite keeps the bytes under `{dataDir}/landers`; null means PostgreSQL, which keeps them in the rows. */
    private readonly dataDir: string | null,
  ) {}

  private folderOf(workspaceId: number, lander: string, folder: string): string {
    // Lander ids are 12 base-62 characters and folders hex: nothing in them can leave the directory.
    return path.join(this.dataDir!, 'landers', String(workspaceId), lander, folder);
  }

  async list(scope: Scope, lander: string): Promise<StoredLanderFile[]> {
    const rows = await this.db
      .selectFrom('lander_files')
      .select([...LISTED])
      .where(scopeCondition(scope, 'workspace_id'))
      .where('lander_external_id', '=', lander)
      .orderBy('path')
      .execute();
    return rows.map((row) => ({ ...row, size: Number(row.size) }));
  }

  /** One file with its bytes, or null. `path` is matched exactly against the stored rows. */
  async read(scope: Scope, lander: string, filePath: string): Promise<(StoredLanderFile & { bytes: Buffer }) | null> {
    const row = await this.db
      .selectFrom('lander_files')
      .select([...LISTED, 'content', 'folder', 'workspace_id'])
      .where(scopeCondition(scope, 'workspace_id'))
      .where('lander_external_id', '=', lander)
      .where('path', '=', filePath)
      .executeTakeFirst();
    if (!row) return null;
    const bytes =
      row.content !== null
        ? Buffer.from(row.content)
        : await readFile(path.join(this.folderOf(row.workspace_id, lander, row.folder!), row.path)).catch(() => null);
    if (!bytes) return null;
    const { content: _content, folder: _folder, workspace_id: _workspace, ...listed } = row;
    return { ...listed, size: Number(listed.size), bytes };
  }

  /** All of the lander's files replaced by `files`, or (on any failure) none of them. */
  async replace(workspaceId: number, lander: string, files: readonly NewLanderFile[]): Promise<void> {
    const scope = { workspaceId };
    const folder = this.dataDir ? randomBytes(8).toString('hex') : null;
    if (folder) await this.writeFolder(workspaceId, lander, folder, files);
    let oldFolders: string[] = [];
    try {
      const updatedAt = now();
      await this.db.transaction().execute(async (trx) => {
        // Two uploads of one lander at once take turns on its record (PostgreSQL; SQLite has one writer),
        // so the second replaces the first's rows rather than colliding with them.
        if (!this.dataDir) {
          await trx
            .selectFrom('config_records')
            .select('external_id')
            .where('kind', '=', 'tracker-landers')
            .where(scopeCondition(scope, 'workspace_id'))
            .where('external_id', '=', lander)
            .forUpdate()
            .execute();
        }
        const old = await trx
          .selectFrom('lander_files')
          .select('folder')
          .distinct()
          .where(scopeCondition(scope, 'workspace_id'))
          .where('lander_external_id', '=', lander)
          .execute();
        oldFolders = old.flatMap((row) => (row.folder ? [row.folder] : []));
        await trx
          .deleteFrom('lander_files')
          .where(scopeCondition(scope, 'workspace_id'))
          .where('lander_external_id', '=', lander)
          .execute();
        // A few hundred rows at a time: PostgreSQL takes at most 65,535 bound values per statement.
        for (let start = 0; start < files.length; start += 200) {
          await trx
            .insertInto('lander_files')
            .values(
              files.slice(start, start + 200).map((file) => ({
                workspace_id: workspaceId,
                lander_external_id: lander,
                path: file.path,
                content_type: file.contentType,
                size: file.bytes.length,
                sha256: sha256(file.bytes),
                content: folder ? null : file.bytes,
                folder,
                updated_at: updatedAt,
              })),
            )
            .execute();
        }
      });
    } catch (error) {
      if (folder) await rm(this.folderOf(workspaceId, lander, folder), { recursive: true, force: true });
      throw error;
    }
    for (const old of oldFolders) await rm(this.folderOf(workspaceId, lander, old), { recursive: true, force: true });
  }

  /** One stored file's bytes replaced; false when the lander has no such file. */
  async write(workspaceId: number, lander: string, filePath: string, bytes: Buffer): Promise<boolean> {
    const scope = { workspaceId };
    return this.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('lander_files')
        .select('folder')
        .where(scopeCondition(scope, 'workspace_id'))
        .where('lander_external_id', '=', lander)
        .where('path', '=', filePath)
        .executeTakeFirst();
      if (!row) return false;
      await trx
        .updateTable('lander_files')
        .set({
          size: bytes.length,
          sha256: sha256(bytes),
          content: row.folder ? null : bytes,
          updated_at: now(),
        })
        .where(scopeCondition(scope, 'workspace_id'))
        .where('lander_external_id', '=', lander)
        .where('path', '=', filePath)
        .execute();
      // Written beside and renamed over inside the transaction: a failed write rolls the row back too.
      if (row.folder) {
        const target = path.join(this.folderOf(workspaceId, lander, row.folder), filePath);
        const temporary = `${target}.${randomBytes(6).toString('hex')}.tmp`;
        await writeFile(temporary, bytes);
        await rename(temporary, target);
      }
      return true;
    });
  }

  /** Total bytes of the lander's files, for the size limit of an edit. */
  async totalSize(scope: Scope, lander: string): Promise<number> {
    const row = await this.db
      .selectFrom('lander_files')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('size'), eb.val(0)).as('total'))
      .where(scopeCondition(scope, 'workspace_id'))
      .where('lander_external_id', '=', lander)
      .executeTakeFirstOrThrow();
    return Number(row.total);
  }

  private async writeFolder(
    workspaceId: number,
    lander: string,
    folder: string,
    files: readonly NewLanderFile[],
  ): Promise<void> {
    const root = this.folderOf(workspaceId, lander, folder);
    // Written under a temporary name and renamed in whole, so no reader ever sees a half-written folder.
    const temporary = `${root}.tmp`;
    try {
      for (const file of files) {
        const target = path.join(temporary, file.path);
        await mkdir(path.dirname(target), { recursive: true });
        await writeFile(target, file.bytes);
      }
      await rename(temporary, root);
    } catch (error) {
      await rm(temporary, { recursive: true, force: true });
      throw error;
    }
  }
}
