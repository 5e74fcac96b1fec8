// Migration 0017_visitor_columns, frozen: it imports only Kysely, and the values it read from live code are
// copied in as they were, so that a later change elsewhere never changes what it does.
import type { Kysely, Migration } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as typed today.
type AnyDb = Kysely<any>;

/** The columns both event tables gain, with their SQL types. */
const VISITOR_COLUMNS = [
  ['region', 'text'],
  ['city', 'text'],
  ['asn', 'bigint'],
  ['isp', 'text'],
  ['language', 'text'],
  ['referrer_domain', 'text'],
  ['os_version', 'integer'],
  ['browser_version', 'integer'],
  ['bot_reason', 'text'],
] as const;

/** 0017: the visitor's place, network, language, referrer domain and versions, and the bot reason. */
export function visitorColumnsMigration(): Migration {
  return {
    async up(db: AnyDb) {
      for (const table of ['tracker_clicks', 'tracker_leads']) {
        for (const [name, type] of VISITOR_COLUMNS) {
          await db.schema.alterTable(table).addColumn(name, type).execute();
        }
      }
      // A lead is unique for its campaign within a day, like a click (isUnique).
      await db.schema
        .alterTable('tracker_leads')
        .addColumn('is_unique', 'integer', (column) => column.notNull().defaultTo(0))
        .execute();
    },
  };
}
