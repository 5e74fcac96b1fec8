// What set each conversion's payout (a payout rule, the rule set's default, the
// network's amount, the offer's payout, or nothing), so the postback log can say it. Conversions stored
// before it have none (null): the log shows nothing rather than a guess.
import type { Kysely, Migration } from 'kysely';

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
