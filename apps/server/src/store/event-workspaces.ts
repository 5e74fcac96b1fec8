// Issue 40: clicks and leads carry their workspace, as conversions and postback log rows do since 0008,
// so that a scoped read filters on a column (workspace_id) instead of a list of the workspace's campaigns.
// An event takes its campaign's workspace (clicks: tracker campaigns, leads: API campaigns); an event
// whose campaign is unknown, or has no workspace, goes to the default one (the lowest id), as
// workspace-scope.ts does for config records.
import { type Kysely, type Migration, sql } from 'kysely';
import type { DatabaseDialect } from '../config.js';
import type { EventTable } from './tracker-events.js';

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as typed today.
type AnyDb = Kysely<any>;

/** The config kind of each event table's campaigns. */
export const CAMPAIGN_KIND: Readonly<Record<EventTable, string>> = {
  tracker_clicks: 'tracker-campaigns',
  tracker_leads: 'campaigns',
};

/**
 * Fills workspace_id of every row of `table` that has none: one statement, each row's campaign looked
 * up on config_records' unique (kind, external_id) index. Safe to run again.
 */
export async function backfillEventWorkspaces(db: AnyDb, table: EventTable): Promise<void> {
  const events = sql.table(table);
  await sql`update ${events} set workspace_id = coalesce(
      (select c.workspace_id from config_records c
        where c.kind = ${CAMPAIGN_KIND[table]} and c.external_id = ${sql.ref(`${table}.campaign_external_id`)}),
      (select min(w.id) from workspaces w))
    where workspace_id is null`.execute(db);
}

/** 0023: workspace_id on clicks and leads, filled from their campaigns; scoped reads by workspace and time. */
export function eventWorkspacesMigration(_dialect: DatabaseDialect): Migration {
  return {
    async up(db: AnyDb) {
      for (const table of ['tracker_clicks', 'tracker_leads'] as const) {
        // A column without a default: adding it rewrites no row on either database.
        await db.schema.alterTable(table).addColumn('workspace_id', 'integer').execute();
        await backfillEventWorkspaces(db, table);
        await db.schema
          .createIndex(`${table}_workspace_created_at_idx`)
          .on(table)
          .columns(['workspace_id', 'created_at'])
          .execute();
      }
    },
  };
}
