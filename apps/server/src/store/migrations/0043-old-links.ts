// Migration 0043_old_links, frozen: it imports only Kysely, and the values it read from live code are
// copied in as they were, so that a later change elsewhere never changes what it does.
import type { Kysely, Migration } from 'kysely';

type Dialect = 'sqlite' | 'postgres';
// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as typed today.
type AnyDb = Kysely<any>;

/** 0043: old_links. */
export function oldLinksMigration(_dialect: Dialect): Migration {
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
