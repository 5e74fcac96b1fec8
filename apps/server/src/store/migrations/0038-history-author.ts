// Migration 0038_history_author, frozen: it imports only Kysely, and the values it read from live code are
// copied in as they were, so that a later change elsewhere never changes what it does.
import type { Kysely, Migration } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as typed today.
type AnyDb = Kysely<any>;

/** 0038: history entries made by a rule name it (`author`), beside or instead of a user. */
export function historyAuthorMigration(): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema.alterTable('history').addColumn('author', 'text').execute();
    },
  };
}
