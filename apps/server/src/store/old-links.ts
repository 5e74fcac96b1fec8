// The links another tracker gave its campaigns before the move (Keitaro's alias, `https://domain/{alias}`
// and `?_dmn={alias}`; Binom's key, `/click.php?key={key}`), each naming the campaign imported from it.
// Workspace-owned: a link is unique per (workspace, tracker, key), so an import run again updates it.
import type { Kysely, Migration } from 'kysely';
import type { DatabaseDialect } from '../config.js';

export interface OldLinkTable {
  workspace_id: number;
  /** `keitaro` or `binom`. */
  tracker: string;
  /** Keitaro's campaign alias, or Binom's campaign key, as the old tracker wrote it. */
  old_key: string;
  campaign_external_id: string;
  updated_at: string;
}

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as typed today.
type AnyDb = Kysely<any>;

/** 0043: old_links. */
export function oldLinksMigration(_dialect: DatabaseDialect): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema
        .createTable('old_links')
        .addColumn('workspace_id', 'integer', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('tracker', 'text', (c) => c.notNull())
        .addColumn('old_key', 'text', (c) => c.notNull())
        .addColumn('campaign_external_id', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('old_links_pk', ['workspace_id', 'tracker', 'old_key'])
        .execute();
      await db.schema
        .createIndex('old_links_campaign_idx')
        .on('old_links')
        .columns(['workspace_id', 'campaign_external_id'])
        .execute();
    },
  };
}
