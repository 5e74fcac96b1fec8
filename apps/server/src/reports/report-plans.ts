// What each table adds to a report (report-plan/plan.ts), built from the report's query: the column each
// group reads in each table, and the plan of clicks, leads or conversions for a report's groups, range,
// vars and filters. The report's sources (sources/) read the plans.
import {
  isReportTimeGroup,
  type ReportAttribution,
  type ReportFilterGroup,
  type ReportGroup,
  type ReportVarFilter,
} from '@switchyard/domain';
import type { RawBuilder } from 'kysely';
import {
  type AggregatePlan,
  FROM_ORIGIN,
  type PlanColumn,
  type PlanCondition,
  type PlanValue,
  type Source,
  shownAs,
} from '../report-plan/plan.js';
import { utcGrain } from '../report-plan/time.js';
import { asShown } from './render-sql.js';

/** The column each group reads in each table (`null`: the table does not have it). */
export const REPORT_COLUMNS: Record<ReportFilterGroup, Record<Source, string | null>> = {
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
  // Clicks and leads: the network of their offer (resolved below); conversions: the postback event's.
  affiliate_network: { clicks: null, leads: null, conversions: 'affiliate_network_external_id' },
  country: { clicks: 'country', leads: 'country', conversions: 'country' },
  // Conversions take these (and var1…var10) from the click or lead they convert: FROM_ORIGIN.
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
  region: { clicks: 'region', leads: 'region', conversions: 'region' },
  city: { clicks: 'city', leads: 'city', conversions: 'city' },
  asn: { clicks: 'asn', leads: 'asn', conversions: 'asn' },
  isp: { clicks: 'isp', leads: 'isp', conversions: 'isp' },
  language: { clicks: 'language', leads: 'language', conversions: 'language' },
  referrer_domain: { clicks: 'referrer_domain', leads: 'referrer_domain', conversions: 'referrer_domain' },
  bot: { clicks: 'is_bot', leads: 'is_bot', conversions: 'is_bot' },
  bot_reason: { clicks: 'bot_reason', leads: 'bot_reason', conversions: 'bot_reason' },
};

/** A column read through how a report shows it (plan.ts, shownAs): `bot` as `true`/`false`, asn as text. */
export function groupExpression(column: RawBuilder<unknown>, name: string): RawBuilder<unknown> {
  return asShown(column, shownAs(name));
}

export interface ConfigNames {
  /** kind group → external id → name. */
  names: Map<ReportGroup, Map<string, string>>;
  /** Path group and path ids (from every flow's body) → name. */
  pathGroups: Map<string, string>;
  paths: Map<string, string>;
  /** Offer external id → its affiliate network's external id. */
  offerNetworks: Map<string, string>;
}

/** What narrows every table: the vars and group filters, and the config names they may need. */
export interface Narrowing {
  vars: Partial<Record<ReportVarFilter, string | null>>;
  filters: Partial<Record<ReportFilterGroup, string | null>>;
  config: Promise<ConfigNames>;
  /**
   * The acting workspace, whose events alone are read (by their workspace_id); null for the
   * instance's reports, which read every workspace's.
   */
  workspace: number | null;
}

export interface ReportRange {
  from: string | null;
  to: string | null;
  timezone: string;
  attribution: ReportAttribution;
  /** The query's `include_bots` (plan.ts, AggregatePlan.includeBots). */
  includeBots: boolean;
}

/** A column of `source` by its name; conversions read device, vars and the rest from their click or lead. */
function planColumn(source: Source, name: string): PlanColumn {
  return { name, origin: source === 'conversions' && FROM_ORIGIN.has(name) };
}

/** A group's column as the report compares and shows it. */
function planValue(source: Source, name: string): PlanValue {
  return { column: planColumn(source, name), as: shownAs(name) };
}

/** What one table adds to the report (plan.ts): grouped values, kept rows, time buckets. */
export async function planOf(
  source: Source,
  groups: readonly ReportGroup[],
  range: ReportRange,
  { vars, filters, config, workspace }: Narrowing,
): Promise<AggregatePlan> {
  const grouped: { alias: string; value: PlanValue }[] = [];
  for (const group of groups) {
    if (isReportTimeGroup(group)) continue;
    if (group === 'affiliate_network') {
      grouped.push({ alias: 'g_network_offer', value: planValue(source, 'offer_external_id') });
      if (source === 'conversions') {
        grouped.push({ alias: 'g_affiliate_network', value: planValue(source, 'affiliate_network_external_id') });
      }
      continue;
    }
    const name = REPORT_COLUMNS[group][source];
    if (name !== null) grouped.push({ alias: `g_${group}`, value: planValue(source, name) });
  }
  const where: PlanCondition[] = [];
  where.push(workspace === null ? { kind: 'instance' } : { kind: 'workspace', workspace });
  if (range.from) where.push({ kind: 'time', op: '>=', at: range.from });
  if (range.to) where.push({ kind: 'time', op: '<', at: range.to });
  for (const [name, value] of Object.entries(vars) as [ReportVarFilter, string | null][]) {
    where.push({ kind: 'equals', value: { column: planColumn(source, name), as: 'value' }, to: value });
  }
  for (const [group, value] of Object.entries(filters) as [ReportFilterGroup, string | null][]) {
    if (group === 'affiliate_network') {
      const { offerNetworks } = await config;
      const offers = [...offerNetworks].filter(([, owner]) => value === null || owner === value).map(([id]) => id);
      where.push({ kind: 'network', network: value, offers });
      continue;
    }
    const name = REPORT_COLUMNS[group][source];
    // A table without the column has no value for it: every row is "(none)".
    if (name === null) {
      if (value !== null) where.push({ kind: 'never' });
      continue;
    }
    where.push({ kind: 'equals', value: planValue(source, name), to: value });
  }
  const byTime = groups.some(isReportTimeGroup);
  return {
    source,
    time: source === 'conversions' && range.attribution === 'click' ? 'event_at' : 'created_at',
    groups: grouped,
    // As coarse as the zone's offsets over the range allow (time.ts, utcGrain).
    buckets: byTime
      ? {
          grain: utcGrain(range.from, range.to, range.timezone, groups.includes('hour')),
          timezone: range.timezone,
          byHour: groups.includes('hour'),
        }
      : null,
    where,
    includeBots: range.includeBots,
  };
}
