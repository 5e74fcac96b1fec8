// Migration 0014_payout_sources, frozen: it imports only Kysely, and the values it read from live code are
// copied in as they were, so that a later change elsewhere never changes what it does.
import type { Kysely, Migration } from 'kysely';

// What set each conversion's payout (a payout rule, the rule set's default, the
// network's amount, the offer's payout, or nothing), so the postback log can say it. Conversions stored
// before it have none (null): the log shows nothing rather than a guess.

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as typed today.
type AnyDb = Kysely<any>;

/** 0014: conversions.payout_source. */
export function payoutSourcesMigration(): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema.alterTable('conversions').addColumn('payout_source', 'text').execute();
    },
  };
}
