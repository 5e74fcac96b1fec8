// The event tables' WHERE: the report's filters read the way reports/service.ts reads them,
// so the events listed for a report row's values are exactly the events counted in that row — the
// workspace's campaigns, the local date range, `vars` and `filters` (a conversion's device, platform,
// browser and var1…var10 from its click or lead; an affiliate network as its offers, or the postback
// event's own network for a conversion). Column names come from the whitelists below; every value from
// the request is a bound parameter.

import type { EventKind, ReportFilterGroup, ReportVarFilter, TEventQuery } from '@switchyard/domain';
import { type Expression, type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import { FROM_ORIGIN } from '../report-plan/plan.js';
import { nextDay, startOfLocalDay } from '../report-plan/time.js';
import { groupExpression, REPORT_COLUMNS } from '../reports/report-plans.js';
import type { Database } from '../store/schema.js';
import { type Scope, scopeCondition } from '../store/scope.js';

export { FROM_ORIGIN };

export const EVENT_TABLES = { clicks: 'tracker_clicks', leads: 'tracker_leads', conversions: 'conversions' } as const;

/** A column of the event (`e`), or for a conversion's origin columns its click's or lead's. */
export function eventColumn(kind: EventKind, name: string): Expression<unknown> {
  if (kind === 'conversions' && FROM_ORIGIN.has(name)) {
    return sql`coalesce(${sql.ref(`c.${name}`)}, ${sql.ref(`l.${name}`)})`;
  }
  return sql`${sql.ref(`e.${name}`)}`;
}

/** Offer external id → its affiliate network's, read only when a filter names a network. */
async function offerNetworks(db: Kysely<Database>): Promise<Map<string, string>> {
  const rows = await db
    .selectFrom('config_records')
    .select(['external_id', 'body'])
    .where('kind', 'in', ['offers', 'tracker-offers'])
    .execute();
  const networks = new Map<string, string>();
  for (const row of rows) {
    try {
      const body = JSON.parse(row.body) as { affiliate_network_external_id?: unknown };
      if (typeof body.affiliate_network_external_id === 'string' && body.affiliate_network_external_id) {
        networks.set(row.external_id, body.affiliate_network_external_id);
      }
    } catch {
      // A body that is not JSON names no network.
    }
  }
  return networks;
}

function networkFilter(kind: EventKind, network: string | null, networks: Map<string, string>): Expression<SqlBool> {
  const offer = sql.ref('e.offer_external_id');
  const offers = [...networks].filter(([, owner]) => network === null || owner === network).map(([id]) => id);
  const list = sql.join(offers.map((id) => sql`${id}`));
  const byOffer =
    network === null
      ? offers.length === 0
        ? sql<SqlBool>`1 = 1`
        : sql<SqlBool>`(${offer} is null or ${offer} not in (${list}))`
      : offers.length === 0
        ? sql<SqlBool>`1 = 0`
        : sql<SqlBool>`${offer} in (${list})`;
  if (kind !== 'conversions') return byOffer;
  const own = sql.ref('e.affiliate_network_external_id');
  return network === null
    ? sql<SqlBool>`(${own} is null and ${byOffer})`
    : sql<SqlBool>`(${own} = ${network} or (${own} is null and ${byOffer}))`;
}

export interface EventWhere {
  conditions: Expression<SqlBool>[];
  /** A conversion filtered on a column of its click or lead: join them. */
  joinOrigin: boolean;
}

/** The conditions on `e` (and `c`, `l` for conversions) for a query; `campaigns` null reads every one. */
export async function eventWhere(
  db: Kysely<Database>,
  kind: EventKind,
  query: TEventQuery,
  scope: Scope,
): Promise<EventWhere> {
  // The scope's events, by the workspace_id every event row carries.
  const conditions: Expression<SqlBool>[] = [scopeCondition(scope, 'e.workspace_id')];
  let joinOrigin = false;
  // A conversion is in the range by its click's time or its postback's, as the report attributes it.
  const time = sql.ref(kind === 'conversions' && query.attribution === 'click' ? 'e.event_at' : 'e.created_at');
  if (query.date_from) {
    const from = startOfLocalDay(query.date_from, query.timezone).toISOString();
    conditions.push(sql<SqlBool>`${time} >= ${from}`);
  }
  if (query.date_to) {
    const to = startOfLocalDay(nextDay(query.date_to), query.timezone).toISOString();
    conditions.push(sql<SqlBool>`${time} < ${to}`);
  }
  const equals = (name: string, value: string | null) => {
    if (kind === 'conversions' && FROM_ORIGIN.has(name)) joinOrigin = true;
    const expression = groupExpression(eventColumn(kind, name) as RawBuilder<unknown>, name);
    conditions.push(value === null ? sql<SqlBool>`${expression} is null` : sql<SqlBool>`${expression} = ${value}`);
  };
  for (const [name, value] of Object.entries(query.vars) as [ReportVarFilter, string | null][]) equals(name, value);
  let networks: Map<string, string> | null = null;
  for (const [group, value] of Object.entries(query.filters) as [ReportFilterGroup, string | null][]) {
    if (group === 'affiliate_network') {
      networks ??= await offerNetworks(db);
      conditions.push(networkFilter(kind, value, networks));
      continue;
    }
    const name = REPORT_COLUMNS[group][kind];
    // A table without the column has no value for it: every row is "(none)".
    if (name === null) {
      if (value !== null) conditions.push(sql<SqlBool>`1 = 0`);
      continue;
    }
    equals(name, value);
  }
  if (kind === 'conversions') {
    // As the report's figures count them: `counted` is its conversions; a state, its approved, pending,
    // rejected (conversion events only).
    if (query.state !== 'all') conditions.push(sql<SqlBool>`${sql.ref('e.is_conversion')} = 1`);
    if (query.state === 'counted') {
      conditions.push(sql<SqlBool>`${sql.ref('e.state')} in (${sql.lit('pending')}, ${sql.lit('approved')})`);
    } else if (query.state !== 'all') {
      conditions.push(sql<SqlBool>`${sql.ref('e.state')} = ${query.state}`);
    }
  }
  return { conditions, joinOrigin };
}
