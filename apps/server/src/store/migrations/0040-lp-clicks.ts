// Migration 0040_lp_clicks, frozen: it imports only Kysely and the rollup backfill frozen with it
// (frozen/rollup-backfill.ts), so that a later change elsewhere never changes what it does.
import { type Migration, sql } from 'kysely';

import { type AnyDb, backfillRollups, type Dialect } from './frozen/rollup-backfill.js';

/**
 * 0040: a click records when its visitor went on from its lander to the offer
 * (`lp_clicked_at`, set once by the event writer), the cubes count those clicks (`lp_clicks`, and of
 * them bots' `bot_lp_clicks`), and the cost change log carries them to the columnar stores as changes of
 * cost 0 with `lp` 1 (columnar/schema.ts). No click has gone through before; the clicks sent to a
 * lander (`lander_clicks`, `bot_lander_clicks`, lp_ctr's divisor) are filled from the stored clicks.
 */
export function lpClicksMigration(dialect: Dialect): Migration {
  const count = dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: AnyDb) {
      await db.schema.alterTable('tracker_clicks').addColumn('lp_clicked_at', 'text').execute();
      for (const name of ['lp_clicks', 'bot_lp_clicks', 'lander_clicks', 'bot_lander_clicks']) {
        await db.schema
          .alterTable('report_rollups')
          .addColumn(name, count, (column) => column.notNull().defaultTo(0))
          .execute();
      }
      await db.schema
        .alterTable('tracker_click_cost_changes')
        .addColumn('lp', 'integer', (column) => column.notNull().defaultTo(0))
        .execute();
      const lander =
        await sql`select 1 as found from tracker_clicks where lander_external_id is not null limit 1`.execute(db);
      if (lander.rows.length > 0) await backfillRollups(db, true, 'landers');
    },
  };
}
