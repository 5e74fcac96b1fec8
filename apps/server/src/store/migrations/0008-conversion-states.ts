// Migration 0008_conversion_states, frozen: it imports only Kysely, and the values it read from live code are
// copied in as they were, so that a later change elsewhere never changes what it does.
import { type Kysely, type Migration, sql } from 'kysely';

type Dialect = 'sqlite' | 'postgres';
// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as typed today.
type AnyDb = Kysely<any>;

/** The rates shipped when this migration was written. */
const CURRENCY_SNAPSHOT = {
  date: '2025-06-30',
  rates: {
    USD: 1,
    EUR: 0.8532,
    GBP: 0.7284,
    JPY: 144.35,
    CHF: 0.7975,
    CAD: 1.366,
    AUD: 1.526,
    NZD: 1.647,
    CNY: 7.165,
    HKD: 7.85,
    SGD: 1.274,
    SEK: 9.52,
    NOK: 10.12,
    DKK: 6.365,
    ISK: 122,
    PLN: 3.615,
    CZK: 21.1,
    HUF: 340.5,
    RON: 4.33,
    BGN: 1.669,
    TRY: 39.8,
    ILS: 3.37,
    INR: 85.75,
    IDR: 16240,
    KRW: 1355,
    MYR: 4.21,
    PHP: 56.4,
    THB: 32.55,
    VND: 26100,
    ZAR: 17.75,
    MXN: 18.85,
    BRL: 5.46,
    ARS: 1190,
    CLP: 933,
    COP: 4080,
    PEN: 3.55,
    UAH: 41.7,
    KZT: 518,
    AED: 3.6725,
    SAR: 3.75,
    EGP: 49.6,
    NGN: 1530,
  } satisfies Record<string, number>,
} as const;

/** 22 or more random URL-safe characters (Contract): 18 bytes, 24 characters. */
function newPostbackKey(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(18))).toString('base64url');
}

/** 0008: conversion states, the workspace's postback key and currency, currency rates. */
export function conversionStatesMigration(dialect: Dialect): Migration {
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
