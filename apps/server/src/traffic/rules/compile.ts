// A campaign's routing compiled from the stored config: every body is parsed once
// with the registry's form, conditions are parsed into trees and made into tests (compileCondition), and
// URLs into templates, so the hot path only reads maps and arrays and calls the tests.
import type { BlockList } from 'node:net';
import {
  type ConditionTest,
  compileCondition,
  withNetworkParameters,
  ZAffiliateNetworkForm,
  ZOfferForm,
  ZPostbackEventForm,
  ZSegmentForm,
  ZTrackerLanderForm,
  ZTrackerOfferForm,
  ZTrafficSourceForm,
} from '@switchyard/domain';
import { addressList } from '../../net/address-list.js';
import type { StoredOldLink } from '../../store/old-link-rows.js';
import { compileCampaigns } from './compile-campaigns.js';
import { compileFlows } from './compile-flows.js';
import { type ConfigRow, ConfigRows, conditionTree, KINDS } from './config-rows.js';
import { compileUrlTemplate, type UrlTemplate } from './macros.js';
import { compileOldLinks } from './old-links.js';
import type {
  CompiledLander,
  CompiledOffer,
  CompiledPostbackEvent,
  RoutingSnapshot,
  Side,
  SideMaps,
  TrafficSourceParameter,
} from './snapshot.js';

export type { ConfigRow } from './config-rows.js';

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
  configRows: readonly ConfigRow[],
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
  const rows = new ConfigRows(configRows);

  const landers = new Map<string, CompiledLander>();
  for (const { row, form } of rows.parsed('tracker-landers', ZTrackerLanderForm)) {
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
  for (const { row, form } of rows.parsed('traffic-sources', ZTrafficSourceForm)) {
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
  for (const { row, form } of rows.parsed('affiliate-networks', ZAffiliateNetworkForm)) {
    if (form.postback_ips.length > 0) postbackAddresses.set(row.external_id, addressList(form.postback_ips));
    if (form.offer_url_params) offerUrlParameters.set(row.external_id, form.offer_url_params);
  }

  const postbackEvents = new Map<string, CompiledPostbackEvent>();
  for (const { row, form } of rows.parsed('postback-events', ZPostbackEventForm)) {
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
    for (const { row, form } of rows.parsed(kinds.offer, offerForm)) {
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
    for (const { row, form } of rows.parsed(kinds.segment, ZSegmentForm)) {
      segments.set(row.external_id, compileCondition(conditionTree(form.condition)));
    }

    const { flows, disabledGroups } = compileFlows(side, rows, landers, liveWeights);

    const campaigns = compileCampaigns(side, rows, {
      flows,
      disabledGroups,
      trafficSources,
      trafficSourcePostbacks,
      costParameters,
      clickTokens,
      defaultWorkspaceId,
    });
    return { campaigns, offers, segments, landers: side === 'tracker' ? landers : new Map() };
  }

  const tracker = compileSide('tracker');
  return {
    tracker,
    api: compileSide('api'),
    postbackEvents,
    postbackAddresses,
    problems: rows.problems,
    oldLinks: compileOldLinks(extras.oldLinks ?? [], tracker.campaigns),
  };
}
