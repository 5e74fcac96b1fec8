// Migration 0007_postback_log_indexes, frozen: it imports only Kysely, and the values it read from live code are
// copied in as they were, so that a later change elsewhere never changes what it does.
import type { Kysely, Migration } from 'kysely';

// 0007: what the postback log screens read, newest first, filtered or looked up by id. Without
// these, filtering the log by outcome or finding one click's postbacks reads the whole table. (Conversions
// are already found by click or lead id through their unique (click_id, txid) and (lead_id, txid) indexes.)

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as typed today.
type AnyDb = Kysely<any>;

export function postbackLogIndexesMigration(): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema
        .createIndex('postback_log_outcome_created_at_idx')
        .on('postback_log')
        .columns(['outcome', 'created_at'])
        .execute();
      await db.schema.createIndex('postback_log_click_id_idx').on('postback_log').column('click_id').execute();
      await db.schema.createIndex('postback_log_txid_idx').on('postback_log').column('txid').execute();
      await db.schema
        .createIndex('outbound_postbacks_created_at_idx')
        .on('outbound_postbacks')
        .column('created_at')
        .execute();
      await db.schema
        .createIndex('outbound_postbacks_state_created_at_idx')
        .on('outbound_postbacks')
        .columns(['state', 'created_at'])
        .execute();
    },
  };
}
