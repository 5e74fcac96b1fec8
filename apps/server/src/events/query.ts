// The event tables' WHERE (issue 20): the report's filters read the way reports/service.ts reads them,
// so the events listed for a report row's values are exactly the events counted in that row — the
// workspace's campaigns, the local date range, `vars` and `filters` (a conversion's device, platform,
// browser and var1…var10 from its click or lead; an affiliate network as its offers, or the postback
// event's own network for a conversion). Column names come from the whitelists below; every value from
// the request is a bound parameter.

import type { EventKind, ReportFilterGroup, ReportVarFilter, TEventQuery } from '@switchyard/domain';
import { type Expression, type Kysely, type SqlBool, sql } from 'kysely';
import { nextDay, startOfLocalDay } from '../reports/time.js';
import type { Database } from '../store/schema.js';

/** The column each filter group reads in each table (`null`: the table has none). */
const COLUMNS: Record<ReportFilterGroup, Record<EventKind, string | null>> = {
  campaign: { clicks: 'campaign_external_id', leads: 'campaign_external_id', conversions: 'campaign_external_id' },
  flow: { clicks: 'flow_external_id', leads: 'flow_external_id', conversions: 'flow_external_id' },
  path_group: { clicks: 'path_group_id', leads: 'path_group_id', conversions: 'path_group_id' },
  path: { clicks: 'path_id', leads: 'path_id', conversions: 'path_id' },
  offer: { clicks: 'offer_external_id', leads: 'offer_external_id', conversions: 'offer_external_id' },
  lander: { clicks: 'lander_external_id', leads: null, conversions: 'lander_external_id' },
  traffic_source: {
    clicks: 'traffic_source_external_id',
    leads: 'traffic_source_external_id',
    conversions: 'traffic_source_external_id',
  },
  affiliate_network: { clicks: null, leads: null, conversions: 'affiliate_network_external_id' },
  country: { clicks: 'country', leads: 'country', conversions: 'country' },
  device: { clicks: 'device', leads: 'device', conversions: 'device' },
  platform: { clicks: 'platform', leads: 'platform', conversions: 'platform' },
  browser: { clicks: 'browser', leads: 'browser', conversions: 'browser' },
  subaff: { clicks: 'subaff', leads: 'subaff', conversions: 'subaff' },
  var1: { clicks: 'var1', leads: 'var1', conversions: 'var1' },
  var2: { clicks: 'var2', leads: 'var2', conversions: 'var2' },
  var3: { clicks: 'var3', leads: 'var3', conversions: 'var3' },
  var4: { clicks: 'var4', leads: 'var4', conversions: 'var4' },
  var5: { clicks: 'var5', leads: 'var5', conversions: 'var5' },
  var6: { clicks: 'var6', leads: 'var6', conversions: 'var6' },
  var7: { clicks: 'var7', leads: 'var7', conversions: 'var7' },
  var8: { clicks: 'var8', leads: 'var8', conversions: 'var8' },
  var9: { clicks: 'var9', leads: 'var9', conversions: 'var9' },
  var10: { clicks: 'var10', leads: 'var10', conversions: 'var10' },
};

/** Columns a conversion reads from its click (`c`) or lead (`l`), as in reports. */
export const FROM_ORIGIN = new Set([
  'device',
  'platform',
  'browser',
  ...Array.from({ length: 10 }, (_, i) => `var${i + 1}`),
]);

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
  campaigns: readonly string[] | null,
): Promise<EventWhere> {
  const conditions: Expression<SqlBool>[] = [];
  let joinOrigin = false;
  if (campaigns) {
    conditions.push(
      campaigns.length === 0
        ? sql<SqlBool>`1 = 0`
        : sql<SqlBool>`${sql.ref('e.campaign_external_id')} in (${sql.join(campaigns.map((id) => sql`${id}`))})`,
    );
  }
  if (query.date_from) {
    const from = startOfLocalDay(query.date_from, query.timezone).toISOString();
    conditions.push(sql<SqlBool>`${sql.ref('e.created_at')} >= ${from}`);
  }
  if (query.date_to) {
    const to = startOfLocalDay(nextDay(query.date_to), query.timezone).toISOString();
    conditions.push(sql<SqlBool>`${sql.ref('e.created_at')} < ${to}`);
  }
  const equals = (name: string, value: string | null) => {
    if (kind === 'conversions' && FROM_ORIGIN.has(name)) joinOrigin = true;
    const expression = eventColumn(kind, name);
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
    const name = COLUMNS[group][kind];
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
