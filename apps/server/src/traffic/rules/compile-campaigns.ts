// A side's campaigns compiled: each active one with its flow's path groups, its traffic source's
// parameters and postbacks, its payout rules in priority order, and how its visitors are sent on.
import {
  type CampaignType,
  DEFAULT_UNIQUE_WINDOW_HOURS,
  type RedirectMode,
  type UniqueBy,
  ZCampaignForm,
  ZTrackerCampaignForm,
} from '@switchyard/domain';
import { type ConfigRows, conditionTree, KINDS } from './config-rows.js';
import { compileUrlTemplate, type UrlTemplate } from './macros.js';
import type {
  CompiledCampaign,
  CompiledPathGroup,
  DisabledPathGroup,
  Side,
  TrafficSourceParameter,
} from './snapshot.js';

/** What a campaign takes from the rows compiled before it. */
export interface CampaignSources {
  flows: ReadonlyMap<string, CompiledPathGroup[]>;
  disabledGroups: ReadonlyMap<string, DisabledPathGroup[]>;
  trafficSources: ReadonlyMap<string, readonly TrafficSourceParameter[]>;
  trafficSourcePostbacks: ReadonlyMap<string, ReadonlyMap<string, UrlTemplate>>;
  costParameters: ReadonlyMap<string, string>;
  /** Tracker campaign external id → SHA-256 (hex) of its click token, and the workspace it was made in. */
  clickTokens: ReadonlyMap<string, { hash: string; workspaceId: number }>;
  defaultWorkspaceId: number | null;
}

export function compileCampaigns(
  side: Side,
  rows: ConfigRows,
  sources: CampaignSources,
): Map<string, CompiledCampaign> {
  const kinds = KINDS[side];
  const campaigns = new Map<string, CompiledCampaign>();
  const campaignForm = side === 'api' ? ZCampaignForm : ZTrackerCampaignForm;
  for (const { row, form, body } of rows.parsed(kinds.campaign, campaignForm)) {
    if (row.status !== 'active' || form.enabled === false) continue;
    const groups = sources.flows.get(form.flow_external_id);
    if (!groups) rows.problems.set(`${kinds.campaign}:${row.external_id}`, 'flow not found');
    campaigns.set(row.external_id, {
      side,
      externalId: row.external_id,
      name: row.name,
      workspaceId: row.workspace_id ?? null,
      // 0 only when there is no workspace at all: the event writer then looks it up (sqlite-events.ts).
      eventWorkspaceId: row.workspace_id ?? sources.defaultWorkspaceId ?? 0,
      flowExternalId: form.flow_external_id,
      trafficSourceExternalId: form.traffic_source_external_id,
      parameters: sources.trafficSources.get(form.traffic_source_external_id) ?? [],
      costModel: 'cost_model' in form ? String(form.cost_model) : 'CPA',
      cost: 'cost' in form ? Number(form.cost) : 0,
      costParameter: sources.costParameters.get(form.traffic_source_external_id) ?? null,
      ingestToken: typeof body.ingest_token === 'string' ? body.ingest_token : undefined,
      botClicksPerMinute: form.bot_clicks_per_minute,
      uniqueBy: 'unique_by' in form ? (form.unique_by as UniqueBy) : 'ip_ua',
      uniqueWindowMs:
        ('unique_window_hours' in form ? Number(form.unique_window_hours) : DEFAULT_UNIQUE_WINDOW_HOURS) *
        60 *
        60 *
        1000,
      groups: groups ?? [],
      excluded: new Map(
        Object.entries('excluded' in form ? (form.excluded as Record<string, string[]>) : {})
          .filter(([, values]) => values.length > 0)
          .map(([name, values]) => [name, new Set(values)]),
      ),
      disabledGroups: sources.disabledGroups.get(form.flow_external_id) ?? [],
      postbackEvents: form.postback_events.map((entry) => ({
        eventExternalId: entry.postback_event_external_id,
        isConversion: entry.is_conversion,
        sendToTrafficSource: entry.send_to_traffic_source,
        sendZeroConversions: entry.send_zero_conversions,
      })),
      payoutRuleSets: new Map(
        form.payout_rule_sets.map((set) => [
          set.postback_event_external_id,
          {
            eventExternalId: set.postback_event_external_id,
            defaultPayout: set.default_payout,
            rules: set.rules
              .map((rule) => ({
                id: rule.id,
                payout: rule.payout,
                priority: rule.priority,
                condition: conditionTree(rule.condition),
              }))
              // Array.prototype.sort is stable: equal priorities keep the order they are listed in.
              .sort((a, b) => a.priority - b.priority),
          },
        ]),
      ),
      trafficSourcePostbackUrls: sources.trafficSourcePostbacks.get(form.traffic_source_external_id) ?? new Map(),
      ...deliveryOf(form, tokenOf(sources.clickTokens.get(row.external_id), row.workspace_id)),
    });
  }
  return campaigns;
}

/** A token counts only for a campaign of the workspace it was made in. */
function tokenOf(token: { hash: string; workspaceId: number } | undefined, workspaceId: number | null | undefined) {
  return token && token.workspaceId === workspaceId ? token.hash : undefined;
}

/** How a campaign's visitors are sent on, and whether its landing page records its clicks itself. */
function deliveryOf(
  form: Record<string, unknown>,
  tokenHash: string | undefined,
): Pick<CompiledCampaign, 'redirectMode' | 'fallbackUrl' | 'type' | 'allowedOrigins' | 'clickTokenHash'> {
  const fallback = typeof form.fallback_url === 'string' ? form.fallback_url : '';
  return {
    redirectMode: (form.redirect_mode as RedirectMode | undefined) ?? '302',
    fallbackUrl: fallback ? compileUrlTemplate(fallback) : null,
    type: (form.type as CampaignType | undefined) ?? 'redirect',
    allowedOrigins: new Set(Array.isArray(form.allowed_origins) ? (form.allowed_origins as string[]) : []),
    clickTokenHash: tokenHash ? Buffer.from(tokenHash, 'hex') : null,
  };
}
