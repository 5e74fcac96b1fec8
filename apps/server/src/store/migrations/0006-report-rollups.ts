// Migration 0006_report_rollups, frozen: it imports only Kysely and the rollup backfill frozen with it
// (frozen/rollup-backfill.ts), so that a later change elsewhere never changes what it does.
import type { Migration } from 'kysely';

import { type AnyDb, backfillRollups, type Dialect } from './frozen/rollup-backfill.js';

/** 0006: report_rollups, filled from the events stored so far. */
export function reportRollupsMigration(dialect: Dialect): Migration {
  const money = dialect === 'postgres' ? 'double precision' : 'real';
  const count = dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: AnyDb) {
      await db.schema
        .createTable('report_rollups')
        .addColumn('cube', 'text', (column) => column.notNull())
        .addColumn('bucket', 'text', (column) => column.notNull())
        .addColumn('k1', 'text', (column) => column.notNull())
        .addColumn('k2', 'text', (column) => column.notNull())
        .addColumn('clicks', count, (column) => column.notNull().defaultTo(0))
        .addColumn('unique_clicks', count, (column) => column.notNull().defaultTo(0))
        .addColumn('cost', money, (column) => column.notNull().defaultTo(0))
        .addColumn('leads', count, (column) => column.notNull().defaultTo(0))
        // Reports read one cube over a range of buckets.
        .addPrimaryKeyConstraint('report_rollups_pk', ['cube', 'bucket', 'k1', 'k2'])
        .execute();
      await backfillRollups(db, false);
    },
  };
}
