// A postback for a click the old tracker issued before the move: the network still sends the click id
// it got from Keitaro (`subid`) or Binom (`cnv_id`), which no click here has. It converts on the imported
// campaign the postback URL names (`campaign`: its id here, or its old alias or key), when that campaign
// came from that tracker (its old links, compiled with the routing). Everything else holds as for any
// postback: the workspace's key, the networks' address lists, a known status, a sane payout in a known
// currency; the conversion is keyed by tracker, campaign and old click id (with event and txid), so a
// repeat is a duplicate, and its log line says "pre-move".
import type { PostbackOutcome } from '@switchyard/domain';
import { moveConversion, type PostbackConversion } from '../conversions/move-conversion.js';
import { conversionEvent } from '../live/messages.js';
import type { NewPostbackLog } from '../store/conversions.js';
import type { OldTracker } from '../store/old-link-rows.js';
import type { PostbackWorkspace } from '../store/traffic/engine-store.js';
import type { EngineParts } from './parts.js';
import { answer, type PostbackAnswer, type PostbackRequest } from './postback.js';
import { checkedAmount, postbackFields } from './postback-amounts.js';
import { type PostbackParams, resolvePostbackEvent, rulePayout } from './rules/postback-rules.js';
import { conditionContext } from './rules/routing.js';
import type { CompiledCampaign, RoutingSnapshot } from './rules/snapshot.js';
import { eventIdTime, newEventId } from './visitor/visitor.js';

/** What the log says of every postback taken for a click from before the move. */
export const PRE_MOVE = 'pre-move';

/** The parameter of the postback URL naming the imported campaign. */
export const PRE_MOVE_CAMPAIGN_PARAMETER = 'campaign';

/** The old tracker's own click id parameter (its postback format's, postback-formats.ts). */
const TRACKER_OF_PARAMETER: ReadonlyMap<string, OldTracker> = new Map([
  ['subid', 'keitaro'],
  ['cnv_id', 'binom'],
]);

/**
 * How long after a campaign's import its old tracker's click ids still convert: past any network's
 * attribution window, so that a leaked postback key cannot book conversions on made-up ids for ever.
 */
export const PRE_MOVE_DAYS = 90;

/** Switchyard's click ids (newEventId) carry their time; one dated since this epoch is taken as ours. */
const OWN_IDS_SINCE = Date.UTC(2024, 0, 1);

export interface PreMoveTarget {
  tracker: OldTracker;
  campaign: CompiledCampaign;
  oldClickId: string;
}

function looksLikeOwnId(id: string, now: number): boolean {
  const time = eventIdTime(id);
  return time !== null && time >= OWN_IDS_SINCE && time <= now + 24 * 60 * 60 * 1000;
}

/**
 * The imported campaign a postback whose click id was not found converts on, or null: the click id must
 * come in the old tracker's own parameter, not look like one of Switchyard's, and `campaign` must name
 * a routing campaign of the key's workspace imported from that tracker. `late`: it was, more than
 * PRE_MOVE_DAYS ago.
 */
export function preMoveTarget(
  snapshot: RoutingSnapshot,
  params: PostbackParams,
  workspaceId: number,
  now: number,
): PreMoveTarget | 'late' | null {
  const tracker = params.clickIdParameter ? TRACKER_OF_PARAMETER.get(params.clickIdParameter) : undefined;
  const oldClickId = params.clickId;
  const named = params.raw[PRE_MOVE_CAMPAIGN_PARAMETER]?.trim();
  if (!tracker || !oldClickId || !named || looksLikeOwnId(oldClickId, now)) return null;
  const id = snapshot.oldLinks.trackersOf(named)?.has(tracker)
    ? named
    : snapshot.oldLinks.campaign(workspaceId, tracker, named);
  const campaign = id ? snapshot.tracker.campaigns.get(id) : undefined;
  if (!campaign || campaign.workspaceId !== workspaceId) return null;
  const importedAt = snapshot.oldLinks.importedAt(campaign.externalId, tracker);
  if (importedAt === undefined || now - importedAt > PRE_MOVE_DAYS * 86_400_000) return 'late';
  return { tracker, campaign, oldClickId };
}

/** Said to a network whose old tracker's click id was not found and named no campaign. */
export function preMoveHint(params: PostbackParams): string {
  const tracker = params.clickIdParameter ? TRACKER_OF_PARAMETER.get(params.clickIdParameter) : undefined;
  if (!tracker || params.raw[PRE_MOVE_CAMPAIGN_PARAMETER]?.trim()) return '';
  return ` A click id from before the move converts with ${PRE_MOVE_CAMPAIGN_PARAMETER}= in the postback URL: the imported campaign's id, or its old alias or key.`;
}

/** The conversion's click key: the old click id within its tracker and campaign (never one of ours). */
export function preMoveClickKey(target: PreMoveTarget): string {
  return `${target.tracker}:${target.campaign.externalId}:${target.oldClickId}`;
}

/** The affiliate networks a campaign's conversions may come from: its offers', and the event's. */
function networksOf(snapshot: RoutingSnapshot, campaign: CompiledCampaign, eventNetwork: string | null): Set<string> {
  const networks = new Set<string>();
  for (const group of campaign.groups) {
    for (const path of group.paths) {
      for (const row of path.offers) {
        const network = snapshot.tracker.offers.get(row.offerExternalId)?.affiliateNetworkExternalId;
        if (network) networks.add(network);
      }
    }
  }
  if (eventNetwork) networks.add(eventNetwork);
  return networks;
}

export async function takePreMovePostback(
  parts: EngineParts,
  request: PostbackRequest,
  target: PreMoveTarget,
  workspace: PostbackWorkspace,
  base: Omit<NewPostbackLog, 'outcome' | 'conversion_id'>,
  refuse: (outcome: PostbackOutcome, reason: string) => Promise<PostbackAnswer>,
  refuseCaller: (outcome: 'refused_address', reason: string) => Promise<PostbackAnswer>,
): Promise<PostbackAnswer> {
  const { params, ip } = request;
  const snapshot = parts.snapshot;
  const { campaign } = target;
  const resolved = resolvePostbackEvent(snapshot, campaign, params);
  if (!('workspace' in request.caller)) {
    // The offer the click went to is not known: the address must be on the list of one of the networks
    // the campaign sends to, when any of them keeps one.
    const lists = [...networksOf(snapshot, campaign, resolved.event?.affiliateNetworkExternalId ?? null)].flatMap(
      (network) => {
        const list = snapshot.postbackAddresses.get(network);
        return list ? [list] : [];
      },
    );
    if (lists.length > 0 && !(ip && lists.some((list) => list.check(ip, ip.includes(':') ? 'ipv6' : 'ipv4')))) {
      return refuseCaller(
        'refused_address',
        `${ip ?? 'This address'} is not on the affiliate networks' address lists.`,
      );
    }
  }
  if (resolved.unknownStatus) {
    return refuse(
      'unknown_status',
      `The status "${params.status}" is not in the postback event's mapping${resolved.event ? '' : ' (no postback event took it)'}.`,
    );
  }
  const amount = await checkedAmount(parts, params, workspace, null, 'tracker');
  if ('outcome' in amount) return refuse(amount.outcome, amount.reason);

  const now = parts.now();
  const at = now.toISOString();
  const eventId = resolved.event?.externalId ?? null;
  // Payout rules see what is known of the click: its campaign.
  const context = conditionContext(snapshot.tracker.segments, {
    fields: { campaignId: campaign.externalId },
    vars: {},
    now,
  });
  const { payout, ruleId, source } = rulePayout(campaign, eventId, context, amount.value);
  const conversion: PostbackConversion = {
    conversion_id: newEventId(now.getTime()),
    created_at: at,
    updated_at: at,
    workspace_id: workspace.id,
    click_id: preMoveClickKey(target),
    lead_id: null,
    campaign_external_id: campaign.externalId,
    flow_external_id: campaign.flowExternalId,
    path_group_id: null,
    path_id: null,
    offer_external_id: null,
    lander_external_id: null,
    traffic_source_external_id: campaign.trafficSourceExternalId,
    ...postbackFields(params, resolved, payout, amount.currency, workspace),
    country: null,
    subaff: null,
    payout_rule_id: ruleId,
    payout_source: source,
    raw: base.raw,
    state: resolved.state,
    event_key: eventId ?? '',
    txid_key: params.txid ?? '',
    // The click's own time is the old tracker's: the conversion is dated by its postback.
    event_at: at,
  };
  // No click here: nothing to add to a click's cost, and no traffic source postback (its click id is not known).
  const stored = await moveConversion(parts.conversions, conversion, { ...base, reason: PRE_MOVE }, null, null);
  if (parts.live.listening && (stored.outcome === 'converted' || stored.outcome === 'status_changed')) {
    parts.live.publish(
      conversionEvent({ ...conversion, conversion_id: stored.conversionId, state: stored.state }, stored.outcome),
    );
  }
  return answer(stored.outcome, null, stored.conversionId, stored.state);
}
