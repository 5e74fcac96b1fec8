// The clicks a cost import reads and writes (import.ts): read once per campaign and
// range of days, written a few thousand per statement.
import { COST_FILTER_KEYS } from '@switchyard/domain';
import { type Kysely, sql } from 'kysely';
import type { Store } from '../store/database.js';
import { DIMENSION_COLUMNS } from '../store/report-rollups.js';
import type { Database } from '../store/schema.js';
import { scopeCondition } from '../store/scope.js';
import { type ClickCursor, clicksAfter } from './service.js';
import { turn } from './turns.js';

/** Values per statement: well under SQLite's (32,766) and PostgreSQL's (65,535) limits on bound values. */
export const CHUNK = 5000;
/** Clicks read per page. */
export const PAGE = 20_000;

export type Click = { id: number; click_id: string; created_at: string; cost: number } & Record<string, unknown>;

/** A campaign's clicks in the ranges, by created_at (then id), locked on PostgreSQL until the commit. */
export async function clicksOf(
  store: Store,
  trx: Kysely<Database>,
  workspaceId: number,
  campaign: string,
  ranges: readonly [string, string][],
): Promise<Click[]> {
  const columns = [
    ...new Set(['is_unique', 'is_bot', 'workspace_id', ...Object.values(DIMENSION_COLUMNS), ...COST_FILTER_KEYS]),
  ];
  const clicks: Click[] = [];
  for (const [from, to] of ranges) {
    for (let after: ClickCursor | null = null; ; ) {
      const query = trx
        .selectFrom('tracker_clicks')
        .select(['id', 'click_id', 'created_at', 'cost', ...(columns as 'country'[])])
        .where(scopeCondition({ workspaceId }, 'workspace_id'))
        .where('campaign_external_id', '=', campaign)
        .where((eb) => clicksAfter(eb, from, after))
        .where('created_at', '<', to)
        .orderBy('created_at')
        .orderBy('id')
        .limit(PAGE);
      const page = (await (store.dialect === 'postgres' ? query.forUpdate() : query).execute()) as Click[];
      for (const click of page) clicks.push({ ...click, id: Number(click.id) });
      if (page.length < PAGE) break;
      const last = page[page.length - 1]!;
      after = { at: last.created_at, id: Number(last.id) };
      await turn();
    }
  }
  return clicks.sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id - b.id));
}

/**
 * Each click's new cost, a chunk of clicks per statement. PostgreSQL takes a chunk as two arrays (binding
 * 10,000 values one by one cost it more than the update); SQLite as a list of values.
 */
export async function writeCosts(
  store: Store,
  trx: Kysely<Database>,
  workspaceId: number,
  clicks: readonly Click[],
): Promise<void> {
  const size = store.dialect === 'postgres' ? PAGE : CHUNK / 2;
  for (let start = 0; start < clicks.length; start += size) {
    if (start > 0) await turn();
    const chunk = clicks.slice(start, start + size);
    if (store.dialect === 'postgres') {
      const ids = chunk.map((click) => click.id);
      const costs = chunk.map((click) => click.cost);
      await sql`update tracker_clicks
        set cost = costs.cost, original_cost = coalesce(tracker_clicks.original_cost, tracker_clicks.cost)
        from unnest(${ids}::bigint[], ${costs}::double precision[]) as costs(id, cost)
        where tracker_clicks.id = costs.id and tracker_clicks.workspace_id = ${workspaceId}`.execute(trx);
    } else {
      const rows = chunk.map((click) => sql`(${click.id}, ${click.cost})`);
      await sql`with costs(id, cost) as (values ${sql.join(rows)})
        update tracker_clicks set cost = costs.cost
        from costs where tracker_clicks.id = costs.id and tracker_clicks.workspace_id = ${workspaceId}`.execute(trx);
    }
  }
}
