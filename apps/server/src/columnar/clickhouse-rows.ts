// The rows ClickHouse is sent (clickhouse-feed.ts says when), as PostgreSQL holds them: the
// columns read from the event tables and conversions, and the rows made of them.
import { sql } from 'kysely';
import { FROM_ORIGIN } from '../report-plan/plan.js';
import { secondsAndMs } from './clickhouse-sql.js';
import { COLUMNAR_TEXT_COLUMNS, CONVERSION_TEXT_COLUMNS, type ColumnarRow, type ColumnarTable } from './schema.js';

export const SOURCES: Record<ColumnarTable, { table: string; id: string }> = {
  clicks: { table: 'tracker_clicks', id: 'click_id' },
  leads: { table: 'tracker_leads', id: 'lead_id' },
};

/**
 * The selected columns of an event row (`e`), its own workspace among them. A click's cost:
 * `stored`, the one it was stored with (its changes are sent apart); `unlogged`, its cost now less the
 * changes still in the log (for a ClickHouse that has none of the pruned ones).
 */
export function eventColumns(table: ColumnarTable, cost: 'stored' | 'unlogged' = 'stored') {
  const { id } = SOURCES[table];
  const text = COLUMNAR_TEXT_COLUMNS.map((name) =>
    table === 'leads' && name === 'lander_external_id' ? `null as lander_external_id` : `e.${name}`,
  );
  const costOf =
    table === 'leads'
      ? '0'
      : cost === 'stored'
        ? 'coalesce(e.original_cost, e.cost)'
        : `e.cost - coalesce((select sum(x.delta) from tracker_click_cost_changes x where x.click_id = e.click_id), 0)`;
  // As cost: `stored`, none (an lp click is sent as its change); `unlogged`, one whose change is
  // no longer in the log.
  const lpOf =
    table === 'leads' || cost === 'stored'
      ? '0'
      : `case when e.lp_clicked_at is not null and not exists (select 1 from tracker_click_cost_changes x
          where x.click_id = e.click_id and x.lp = 1) then 1 else 0 end`;
  return sql.raw(`e.${id} as event_id, e.id, e.created_at, e.is_unique, ${costOf} as cost, e.asn, e.is_bot,
    ${lpOf} as lp_events, ${text.join(', ')}, e.workspace_id`);
}

export type EventRecord = Record<string, unknown> & {
  event_id: string;
  id: number | string;
  created_at: string;
  is_unique: number | string;
  cost: number | string | null;
  asn: number | string | null;
  is_bot: number | string;
  lp_events: number | string;
  workspace_id: number | string | null;
};

export function columnarRow(record: EventRecord, adjustment?: { key: string; cost: number; lp: number }): ColumnarRow {
  const row = {
    row_key: adjustment ? adjustment.key : record.event_id,
    source_id: Number(record.id),
    workspace_id: Number(record.workspace_id ?? 0),
    created_at: record.created_at,
    events: adjustment ? 0 : 1,
    unique_events: !adjustment && Number(record.is_unique) === 1 ? 1 : 0,
    cost: adjustment ? adjustment.cost : Number(record.cost ?? 0),
    asn: record.asn === null ? null : Number(record.asn),
    is_bot: Number(record.is_bot) === 1 ? 1 : 0,
    lp_events: (adjustment ? adjustment.lp : Number(record.lp_events)) === 1 ? 1 : 0,
  } as ColumnarRow;
  for (const name of COLUMNAR_TEXT_COLUMNS) {
    const value = record[name];
    row[name] = value === null || value === undefined ? null : String(value);
  }
  return row;
}

/** A conversion as ClickHouse keeps it: its own columns, FROM_ORIGIN's from its click or lead. */
export function conversionColumns() {
  const text = CONVERSION_TEXT_COLUMNS.map((name) =>
    FROM_ORIGIN.has(name) ? `coalesce(c.${name}, l.${name}) as ${name}` : `e.${name}`,
  );
  return sql.raw(`e.conversion_id, e.created_at, e.event_at, e.is_conversion, e.state, e.payout,
    coalesce(c.asn, l.asn) as asn, coalesce(c.is_bot, l.is_bot) as is_bot, ${text.join(', ')}, e.workspace_id`);
}

export type ConversionRecord = Record<string, unknown> & {
  conversion_id: string | null;
  created_at: string;
  event_at: string | null;
  is_conversion: number | string;
  state: string;
  payout: number | string;
  asn: number | string | null;
  is_bot: number | string | null;
  workspace_id: number | string | null;
};

export function conversionRow(record: ConversionRecord, version: number): Record<string, unknown> {
  const created = secondsAndMs(record.created_at);
  if (!created) throw new Error(`Conversion ${record.conversion_id} has no valid created_at`);
  const event = record.event_at === null ? null : secondsAndMs(record.event_at);
  const row: Record<string, unknown> = {
    conversion_id: record.conversion_id,
    version,
    deleted: 0,
    workspace_id: Number(record.workspace_id ?? 0),
    created_at: created[0],
    created_ms: created[1],
    event_at: event ? event[0] : null,
    event_ms: event ? event[1] : null,
    is_conversion: Number(record.is_conversion) === 1 ? 1 : 0,
    state: record.state,
    payout: Number(record.payout ?? 0),
    asn: record.asn === null ? null : Number(record.asn),
    is_bot: record.is_bot === null ? null : Number(record.is_bot) === 1 ? 1 : 0,
  };
  for (const name of CONVERSION_TEXT_COLUMNS) {
    const value = record[name];
    row[name] = value === null || value === undefined ? null : String(value);
  }
  return row;
}

/** A removed conversion's last row (as ClickHouse answered it: 64-bit numbers as text), marked removed. */
export function removedRow(last: Record<string, unknown>, version: number): Record<string, unknown> {
  const row: Record<string, unknown> = { ...last, version, deleted: 1 };
  for (const name of [
    'workspace_id',
    'created_at',
    'created_ms',
    'event_at',
    'event_ms',
    'is_conversion',
    'payout',
    'asn',
    'is_bot',
  ]) {
    const value = row[name];
    row[name] = value === null || value === undefined ? null : Number(value);
  }
  return row;
}
