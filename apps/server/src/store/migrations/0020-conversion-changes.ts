// Migration 0020_conversion_changes, frozen: it imports only Kysely, and the values it read from live code are
// copied in as they were, so that a later change elsewhere never changes what it does.
import { type Kysely, type Migration, sql } from 'kysely';

type Dialect = 'sqlite' | 'postgres';
// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as typed today.
type AnyDb = Kysely<any>;

/** 0020: conversion_changes, its triggers, and every conversion already stored as a first change. */
export function conversionChangesMigration(dialect: Dialect): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema
        .createTable('conversion_changes')
        .addColumn('id', 'integer', (column) =>
          dialect === 'postgres'
            ? column.generatedByDefaultAsIdentity().primaryKey()
            : column.primaryKey().autoIncrement(),
        )
        .addColumn('conversion_id', 'text', (column) => column.notNull())
        .execute();
      if (dialect === 'postgres') {
        await sql`create function switchyard_conversion_changed() returns trigger language plpgsql as $$
          begin
            insert into conversion_changes (conversion_id)
              values (case when tg_op = 'DELETE' then old.conversion_id else new.conversion_id end);
            return null;
          end $$`.execute(db);
        await sql`create trigger conversions_changed after insert or update or delete on conversions
          for each row execute function switchyard_conversion_changed()`.execute(db);
      } else {
        for (const [event, row] of [
          ['insert', 'new'],
          ['update', 'new'],
          ['delete', 'old'],
        ] as const) {
          await sql
            .raw(`create trigger conversions_${event}_changed after ${event} on conversions
              begin insert into conversion_changes (conversion_id) values (${row}.conversion_id); end`)
            .execute(db);
        }
      }
      await sql`insert into conversion_changes (conversion_id) select conversion_id from conversions order by id`.execute(
        db,
      );
    },
  };
}
