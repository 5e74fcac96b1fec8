// Conversions with a life (pending → approved → rejected), keyed postbacks per workspace, and
// amounts in the workspace's currency.
//
// A conversion is one row per click (or lead), postback event and txid: `event_key` and `txid_key` are
// those values with '' for none, so the unique indexes see a postback without a txid as a real key and
// 50 identical ones store one row. Each postback that reaches a conversion is a postback_log row with
// the state it found and the state it left: the conversion's history.
import { randomBytes } from 'node:crypto';
import type { Kysely, Migration } from 'kysely';
import { sql } from 'kysely';
import type { DatabaseDialect } from '../config.js';
import { CURRENCY_SNAPSHOT } from './currency-snapshot.js';

/** Rates of exchange that administrators edit: units of the currency one US dollar buys. */
export interface CurrencyRateTable {
  code: string;
  rate: number;
  /** 'snapshot' (shipped, dated) or 'admin' (edited). */
  source: string;
  /** The snapshot's date, or when an administrator set it (ISO-8601). */
  updated_at: string;
}

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as typed today.
type AnyDb = Kysely<any>;

/** 22 or more random URL-safe characters (Contract): 18 bytes, 24 characters. */
export function newPostbackKey(): string {
  return randomBytes(18).toString('base64url');
}

/** 0008: conversion states, the workspace's postback key and currency, currency rates. */
export function conversionStatesMigration(dialect: DatabaseDialect): Migration {
  const money = dialect === 'postgres' ? 'double precision' : 'real';
  return {
    async up(db: AnyDb) {
      await db.schema.alterTable('workspaces').addColumn('postback_key', 'text').execute();
      await db.schema
        .alterTable('workspaces')
        .addColumn('currency', 'text', (column) => column.notNull().defaultTo('USD'))
        .execute();
      const workspaces = await db.selectFrom('workspaces').select('id').execute();
      for (const { id } of workspaces) {
        await db.updateTable('workspaces').set({ postback_key: newPostbackKey() }).where('id', '=', id).execute();
      }
      await db.schema
        .createIndex('workspaces_postback_key_idx')
        .on('workspaces')
        .column('postback_key')
        .unique()
        .execute();

      for (const [name, type, fallback] of [
        ['state', 'text', 'approved'],
        ['event_key', 'text', ''],
        ['txid_key', 'text', ''],
      ] as const) {
        await db.schema
          .alterTable('conversions')
          .addColumn(name, type, (column) => column.notNull().defaultTo(fallback))
          .execute();
      }
      await db.schema.alterTable('conversions').addColumn('original_currency', 'text').execute();
      await db.schema.alterTable('conversions').addColumn('updated_at', 'text').execute();
      await db.schema.alterTable('conversions').addColumn('workspace_id', 'integer').execute();
      await db
        .updateTable('conversions')
        .set({
          event_key: sql`coalesce(postback_event_external_id, '')`,
          txid_key: sql`coalesce(txid, '')`,
          updated_at: sql`created_at`,
        })
        .execute();
      // Postbacks without a txid were never deduplicated: all but the first of each key keep their row
      // under a key of their own, so the new unique indexes hold and no stored conversion is lost.
      await sql`update conversions set txid_key = txid_key || ':legacy-' || cast(id as text)
        where id not in (select min(id) from conversions group by click_id, lead_id, event_key, txid_key)`.execute(db);
      await db.schema.dropIndex('conversions_click_txid_idx').execute();
      await db.schema.dropIndex('conversions_lead_txid_idx').execute();
      await db.schema
        .createIndex('conversions_click_key_idx')
        .on('conversions')
        .columns(['click_id', 'event_key', 'txid_key'])
        .unique()
        .execute();
      await db.schema
        .createIndex('conversions_lead_key_idx')
        .on('conversions')
        .columns(['lead_id', 'event_key', 'txid_key'])
        .unique()
        .execute();

      for (const name of ['state', 'previous_state', 'reason', 'workspace_id']) {
        await db.schema
          .alterTable('postback_log')
          .addColumn(name, name === 'workspace_id' ? 'integer' : 'text')
          .execute();
      }
      await db.schema.createIndex('postback_log_conversion_idx').on('postback_log').column('conversion_id').execute();

      await db.schema
        .createTable('currency_rates')
        .addColumn('code', 'text', (column) => column.primaryKey())
        .addColumn('rate', money, (column) => column.notNull())
        .addColumn('source', 'text', (column) => column.notNull())
        .addColumn('updated_at', 'text', (column) => column.notNull())
        .execute();
      await db
        .insertInto('currency_rates')
        .values(
          Object.entries(CURRENCY_SNAPSHOT.rates).map(([code, rate]) => ({
            code,
            rate,
            source: 'snapshot',
            updated_at: CURRENCY_SNAPSHOT.date,
          })),
        )
        .execute();
    },
  };
}
