// A campaign's routing compiled from the stored config: every body is parsed once
// with the registry's form, conditions are parsed into trees and made into tests (compileCondition), and
// URLs into templates, so the hot path only reads maps and arrays and calls the tests.
import type { BlockList } from 'node:net';
import {
  ALL_CONDITION,
  type CampaignType,
  type ConditionNode,
  type ConditionTest,
  compileCondition,
  DEFAULT_UNIQUE_WINDOW_HOURS,
  liveWeightKey,
  parseConditionText,
  type RedirectMode,
  type UniqueBy,
  withNetworkParameters,
  ZAffiliateNetworkForm,
  ZCampaignForm,
  ZFlowForm,
  ZOfferForm,
  ZPostbackEventForm,
  ZSegmentForm,
  ZTrackerCampaignForm,
  ZTrackerFlowForm,
  ZTrackerLanderForm,
  ZTrackerOfferForm,
  ZTrafficSourceForm,
} from '@switchyard/domain';
import type { z } from 'zod';
import { addressList } from '../../net/address-list.js';
import type { StoredOldLink } from '../../store/old-link-rows.js';
import { compileUrlTemplate, type UrlTemplate } from './macros.js';
import { compileOldLinks } from './old-links.js';
import type {
  CompiledCampaign,
  CompiledLander,
  CompiledOffer,
  CompiledPath,
  CompiledPathGroup,
  CompiledPostbackEvent,
  DisabledPathGroup,
  RoutingSnapshot,
  Side,
  SideMaps,
  TrafficSourceParameter,
} from './snapshot.js';

/** A `config_records` row as the compiler reads it. */
export interface ConfigRow {
  kind: string;
  external_id: string;
  name: string;
  body: string;
  status: string;
  workspace_id?: number | null;
}

const KINDS = {
  tracker: {
    campaign: 'tracker-campaigns',
    flow: 'tracker-flows',
    offer: 'tracker-offers',
    segment: 'tracker-segments',
  },
  api: { campaign: 'campaigns', flow: 'flows', offer: 'offers', segment: 'segments' },
} as const;

/** The config kind of a side's campaigns: tracker campaigns take clicks, API campaigns leads. */
export function campaignKind(side: 'tracker' | 'api'): string {
  return KINDS[side].campaign;
}

/** Said when the live weights of optimized path groups change: routing recompiles with them. */
export const LIVE_WEIGHTS_KIND = 'live-weights' as const;

/** The config kinds routing depends on: a change to any of them recompiles. */
export const ROUTING_KINDS: ReadonlySet<string> = new Set([
  ...Object.values(KINDS.tracker),
  ...Object.values(KINDS.api),
  'tracker-landers',
  'traffic-sources',
  'postback-events',
  'affiliate-networks',
]);

function parseBody(row: ConfigRow): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(row.body);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

function conditionTree(text: string): ConditionNode {
  return parseConditionText(text).tree ?? ALL_CONDITION;
}

/**
 * A hosted lander's URL, relative so the visitor stays on the host the click came to (the
 * tracking domain), with the click id its page fills `{offer}` and the macros from (landers/serve.ts).
 */
export function hostedLanderUrl(landerExternalId: string): UrlTemplate {
  const base = `/l/${encodeURIComponent(landerExternalId)}/?clickid=`;
  return {
    source: `${base}{clickid}`,
    fill: (values) => `${base}${encodeURIComponent(String(values.clickid ?? ''))}`,
  };
}

export function compileRouting(
  rows: readonly ConfigRow[],
  defaultWorkspaceId: number | null = null,
  extras: {
    /** The weights Thompson sampling chose for optimized path groups, by `liveWeightKey`. */
    liveWeights?: ReadonlyMap<string, number>;
    /** Tracker campaign external id → SHA-256 (hex) of its click token, and the workspace it was made in. */
    clickTokens?: ReadonlyMap<string, { hash: string; workspaceId: number }>;
    /** Landers with hosted files, whose visitors are sent to `/l/{lander}/` on the click's host. */
    hostedLanders?: ReadonlySet<string>;
    /** Imported campaigns' links on their old tracker. */
    oldLinks?: readonly StoredOldLink[];
  } = {},
): RoutingSnapshot {
  const liveWeights = extras.liveWeights ?? new Map<string, number>();
  const clickTokens = extras.clickTokens ?? new Map<string, { hash: string; workspaceId: number }>();
  const problems = new Map<string, string>();
  const byKind = new Map<string, { row: ConfigRow; body: Record<string, unknown> }[]>();
  for (const row of rows) {
    const list = byKind.get(row.kind) ?? [];
    list.push({ row, body: parseBody(row) });
    byKind.set(row.kind, list);
  }

  /** Rows of a kind parsed with its form; a body the form refuses is reported and skipped. */
  function parsed<T extends z.ZodType>(
    kind: string,
    form: T,
  ): { row: ConfigRow; form: z.output<T>; body: Record<string, unknown> }[] {
    const result: { row: ConfigRow; form: z.output<T>; body: Record<string, unknown> }[] = [];
    for (const { row, body } of byKind.get(kind) ?? []) {
      const outcome = form.safeParse({ ...body, name: row.name });
      if (outcome.success) result.push({ row, form: outcome.data, body });
      else problems.set(`${kind}:${row.external_id}`, outcome.error.issues[0]?.message ?? 'invalid');
    }
    return result;
  }

  const landers = new Map<string, CompiledLander>();
  for (const { row, form } of parsed('tracker-landers', ZTrackerLanderForm)) {
    if (row.status !== 'active' || !form.enabled) continue;
    const url = extras.hostedLanders?.has(row.external_id)
      ? hostedLanderUrl(row.external_id)
      : compileUrlTemplate(form.url);
    landers.set(row.external_id, {
      externalId: row.external_id,
      name: row.name,
      url,
      workspaceId: row.workspace_id ?? null,
    });
  }

  const trafficSources = new Map<string, readonly TrafficSourceParameter[]>();
  const trafficSourcePostbacks = new Map<string, ReadonlyMap<string, UrlTemplate>>();
  const costParameters = new Map<string, string>();
  for (const { row, form } of parsed('traffic-sources', ZTrafficSourceForm)) {
    if (form.cost_parameter) costParameters.set(row.external_id, form.cost_parameter);
    trafficSources.set(
      row.external_id,
      form.parameters
        .filter((parameter) => parameter.enabled)
        .map((parameter) => ({ tsParameter: parameter.ts_parameter, internalToken: parameter.internal_token })),
    );
    const urls = new Map<string, UrlTemplate>();
    for (const entry of form.postback_events) {
      if (entry.postback_url) urls.set(entry.postback_event_external_id, compileUrlTemplate(entry.postback_url));
    }
    trafficSourcePostbacks.set(row.external_id, urls);
  }

  const postbackAddresses = new Map<string, BlockList>();
  const offerUrlParameters = new Map<string, string>();
  for (const { row, form } of parsed('affiliate-networks', ZAffiliateNetworkForm)) {
    if (form.postback_ips.length > 0) postbackAddresses.set(row.external_id, addressList(form.postback_ips));
    if (form.offer_url_params) offerUrlParameters.set(row.external_id, form.offer_url_params);
  }

  const postbackEvents = new Map<string, CompiledPostbackEvent>();
  for (const { row, form } of parsed('postback-events', ZPostbackEventForm)) {
    if (row.status !== 'active') continue;
    postbackEvents.set(row.external_id, {
      externalId: row.external_id,
      name: row.name,
      statusValues: form.status_values.map((value) => value.toLowerCase()),
      statusMap: form.status_map,
      unknownStatuses: form.unknown_statuses,
      isConversion: form.is_conversion,
      affiliateNetworkExternalId: form.affiliate_network_external_id ?? null,
    });
  }

  function compileSide(side: Side): SideMaps {
    const kinds = KINDS[side];
    const offers = new Map<string, CompiledOffer>();
    const offerForm = side === 'api' ? ZOfferForm : ZTrackerOfferForm;
    for (const { row, form } of parsed(kinds.offer, offerForm)) {
      const enabled = 'enabled' in form ? form.enabled !== false : true;
      offers.set(row.external_id, {
        side,
        externalId: row.external_id,
        name: row.name,
        // The network's offer URL parameters join the URL once, here, not on each click.
        url: compileUrlTemplate(
          withNetworkParameters(form.url, offerUrlParameters.get(form.affiliate_network_external_id ?? '')),
        ),
        available: row.status === 'active' && enabled,
        dailyCap: form.daily_cap,
        capTimezone: form.cap_timezone,
        backupExternalId: form.backup_offer_external_id,
        countries: form.countries.length > 0 ? new Set(form.countries.map((code) => code.toUpperCase())) : null,
        payout: form.payout,
        currency: form.currency,
        affiliateNetworkExternalId: form.affiliate_network_external_id ?? null,
        emailWeights: 'email_weights' in form ? (form.email_weights as Record<string, number>) : {},
      });
    }

    // Archived segments still answer: a flow that names one keeps routing as it was built.
    const segments = new Map<string, ConditionTest>();
    for (const { row, form } of parsed(kinds.segment, ZSegmentForm)) {
      segments.set(row.external_id, compileCondition(conditionTree(form.condition)));
    }

    const flows = new Map<string, CompiledPathGroup[]>();
    const disabledGroups = new Map<string, DisabledPathGroup[]>();
    const flowForm = side === 'api' ? ZFlowForm : ZTrackerFlowForm;
    for (const { row, form } of parsed(kinds.flow, flowForm)) {
      disabledGroups.set(
        row.external_id,
        form.path_groups
          .filter((group) => !group.enabled)
          .map(({ id, name, priority, condition }) => ({ id, name, priority, condition: conditionTree(condition) }))
          .sort((a, b) => a.priority - b.priority),
      );
      const groups = form.path_groups
        .filter((group) => group.enabled)
        .map((group): CompiledPathGroup => {
          const condition = conditionTree(group.condition);
          const live =
            group.optimize === 'on'
              ? (arm: string, configured: number) =>
                  liveWeights.get(liveWeightKey(kinds.flow, row.external_id, group.id, arm)) ?? configured
              : null;
          return {
            id: group.id,
            name: group.name,
            priority: group.priority,
            matches: compileCondition(condition),
            condition,
            paths: group.paths
              .filter((path) => path.enabled && path.weight > 0)
              .map((path) => {
                const compiled = compilePath(path as PathForm, landers);
                if (!live) return compiled;
                if (group.optimize_target === 'paths') {
                  return { ...compiled, weight: live(`path:${path.id}`, compiled.weight) };
                }
                return withLiveRows(compiled, path as PathForm, live);
              }),
          };
        })
        .sort((a, b) => a.priority - b.priority);
      flows.set(row.external_id, groups);
    }

    const campaigns = new Map<string, CompiledCampaign>();
    const campaignForm = side === 'api' ? ZCampaignForm : ZTrackerCampaignForm;
    for (const { row, form, body } of parsed(kinds.campaign, campaignForm)) {
      if (row.status !== 'active' || form.enabled === false) continue;
      const groups = flows.get(form.flow_external_id);
      if (!groups) problems.set(`${kinds.campaign}:${row.external_id}`, 'flow not found');
      campaigns.set(row.external_id, {
        side,
        externalId: row.external_id,
        name: row.name,
        workspaceId: row.workspace_id ?? null,
        // 0 only when there is no workspace at all: the event writer then looks it up (sqlite-events.ts).
        eventWorkspaceId: row.workspace_id ?? defaultWorkspaceId ?? 0,
        flowExternalId: form.flow_external_id,
        trafficSourceExternalId: form.traffic_source_external_id,
        parameters: trafficSources.get(form.traffic_source_external_id) ?? [],
        costModel: 'cost_model' in form ? String(form.cost_model) : 'CPA',
        cost: 'cost' in form ? Number(form.cost) : 0,
        costParameter: costParameters.get(form.traffic_source_external_id) ?? null,
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
        disabledGroups: disabledGroups.get(form.flow_external_id) ?? [],
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
        trafficSourcePostbackUrls: trafficSourcePostbacks.get(form.traffic_source_external_id) ?? new Map(),
        ...deliveryOf(form, tokenOf(clickTokens.get(row.external_id), row.workspace_id)),
      });
    }
    return { campaigns, offers, segments, landers: side === 'tracker' ? landers : new Map() };
  }

  const tracker = compileSide('tracker');
  return {
    tracker,
    api: compileSide('api'),
    postbackEvents,
    postbackAddresses,
    problems,
    oldLinks: compileOldLinks(extras.oldLinks ?? [], tracker.campaigns),
  };
}

/** A path whose offer and lander rows take their live weights (rows matched by position among the enabled). */
function withLiveRows(
  compiled: CompiledPath,
  path: PathForm,
  live: (arm: string, configured: number) => number,
): CompiledPath {
  const offerRows = (path.offers ?? []).filter((row) => row.enabled && row.weight > 0);
  const landerRows = (path.landers ?? []).filter((row) => row.enabled && row.weight > 0);
  return {
    ...compiled,
    offers: path.offers
      ? compiled.offers.map((offer, index) => {
          const row = offerRows[index];
          return row ? { ...offer, weight: live(`offer:${path.id}:${row.id}`, offer.weight) } : offer;
        })
      : compiled.offers,
    landers: compiled.landers.map((lander) => {
      const row = landerRows.find((candidate) => candidate.lander_external_id === lander.lander.externalId);
      return row ? { ...lander, weight: live(`lander:${path.id}:${row.id}`, lander.weight) } : lander;
    }),
  };
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

interface PathForm {
  id: string;
  name: string;
  weight: number;
  daily_cap: number;
  postback_daily_cap: number;
  subaff: string;
  offer_external_id?: string;
  offers?: { id: string; offer_external_id: string; weight: number; enabled: boolean }[];
  landers?: { id: string; lander_external_id: string; weight: number; enabled: boolean }[];
  redirect_mode?: RedirectMode | null;
}

function compilePath(path: PathForm, landers: ReadonlyMap<string, CompiledLander>): CompiledPath {
  const offers = path.offer_external_id
    ? [{ offerExternalId: path.offer_external_id, weight: 1 }]
    : (path.offers ?? [])
        .filter((row) => row.enabled && row.weight > 0)
        .map((row) => ({ offerExternalId: row.offer_external_id, weight: row.weight }));
  const landerRows = (path.landers ?? []).flatMap((row) => {
    const lander = landers.get(row.lander_external_id);
    return row.enabled && row.weight > 0 && lander ? [{ lander, weight: row.weight }] : [];
  });
  return {
    id: path.id,
    name: path.name,
    weight: path.weight,
    dailyCap: path.daily_cap,
    postbackDailyCap: path.postback_daily_cap,
    subaff: path.subaff,
    offers,
    landers: landerRows,
    redirectMode: path.redirect_mode ?? null,
  };
}
