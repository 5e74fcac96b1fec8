import { type ClickConversion, CONVERSION_STATES, type ConversionState } from '@switchyard/domain';
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import { type Scope, scopeCondition } from '../store/scope.js';

function asState(value: unknown): ConversionState {
  return (CONVERSION_STATES as readonly string[]).includes(String(value)) ? (value as ConversionState) : 'approved';
}

/**
 * The conversions of some clicks (`by: 'click_id'`) or API leads (`'lead_id'`), oldest first, in one
 * query keyed by the event's id: a click row of the event tables, and an event in the inspector.
 */
export async function conversionsOf(
  db: Kysely<Database>,
  by: 'click_id' | 'lead_id',
  ids: string[],
  /** A click's conversions are its workspace's; the scope keeps it so by construction. */
  scope: Scope,
): Promise<Map<string, ClickConversion[]>> {
  const byEvent = new Map<string, ClickConversion[]>();
  if (ids.length === 0) return byEvent;
  const rows = await db
    .selectFrom('conversions')
    .select(['click_id', 'lead_id', 'conversion_id', 'state', 'payout', 'created_at'])
    .where(by, 'in', ids)
    .where(scopeCondition(scope, 'workspace_id'))
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  for (const row of rows) {
    const id = String(row[by]);
    const list = byEvent.get(id) ?? [];
    list.push({
      conversion_id: row.conversion_id,
      state: asState(row.state),
      payout: Number(row.payout),
      created_at: row.created_at,
    });
    byEvent.set(id, list);
  }
  return byEvent;
}
