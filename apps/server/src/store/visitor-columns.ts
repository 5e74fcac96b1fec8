// What routing now reads off a visitor, stored with each click and lead so that reports group
// and filter by it (region, city, network, language, referrer, versions) and so that a bot verdict is
// never made without a trace of why.
import type { Kysely, Migration } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as typed today.
type AnyDb = Kysely<any>;

/** The columns both event tables gain, with their SQL types. */
export const VISITOR_COLUMNS = [
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
