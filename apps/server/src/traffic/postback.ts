// A postback from an affiliate network: checked that it comes from a caller allowed to send
// it (the workspace's key in the path, the network's address list), with a sane payout in a known
// currency; then the click or lead it names, the postback event and payout rule that apply, and the
// conversion it creates or moves. The conversion, its log line and any outbound postback are committed
// in one transaction before the answer, so an answered postback is never lost; a crash before the commit
// leaves the network without its `OK`, and networks resend.
import {
  type ConversionState,
  NETWORK_AMOUNT_RULE,
  POSTBACK_OUTCOME_STATUS,
  type PostbackOutcome,
} from '@switchyard/domain';
import { moveConversion, type PostbackConversion } from '../conversions/move-conversion.js';
import { conversionEvent } from '../live/messages.js';
import type { NewPostbackLog } from '../store/conversions.js';
import type { ConversionCost } from '../store/cost-models.js';
import type { Origin, PostbackWorkspace } from '../store/traffic/engine-store.js';
import { macroValues } from './event-macros.js';
import { type EngineParts, storedEvent } from './parts.js';
import { checkedAmount, offerPayoutIn, postbackFields, unconvertibleReason } from './postback-amounts.js';
import { PRE_MOVE_DAYS, preMoveHint, preMoveTarget, takePreMovePostback } from './pre-move.js';
import { dayIn, pathPostbacksCapKey } from './rules/caps.js';
import { campaignKind } from './rules/compile.js';
import { type PostbackParams, resolvePostbackEvent, rulePayout } from './rules/postback-rules.js';
import { conditionContext, PATH_CAP_TIMEZONE, type RoutingSubject } from './rules/routing.js';
import type { RoutingSnapshot } from './rules/snapshot.js';
import { emailRate } from './visitor/email.js';
import { newEventId } from './visitor/visitor.js';

export interface PostbackRequest {
  params: PostbackParams;
  ip: string | undefined;
  /**
   * The key in the path (`/{key}/postback`), or the workspace it was already resolved to (an import by
   * a signed-in operator, who is not held to a network's address list).
   */
  caller: { key: string | undefined } | { workspace: PostbackWorkspace; imported: true };
}

export interface PostbackAnswer {
  outcome: PostbackOutcome;
  /** What the network is answered with. */
  status: number;
  conversionId: string | null;
  state: ConversionState | null;
  /** Why it was refused, in words an operator reads. */
  reason: string | null;
  /** The parameter a 400 is about, when the outcome alone does not say (`too_long`). */
  field?: string;
}

/** Refusals an address may log per minute, and all addresses together: refusals cannot fill the disk. */
const REFUSALS_PER_ADDRESS = 20;
const REFUSALS_IN_ALL = 600;
const REFUSAL_WINDOW_MS = 60_000;

/** Counts refusal log rows per source address in the current minute. */
export class RefusalLog {
  private windowStart = 0;
  private total = 0;
  private readonly perAddress = new Map<string, number>();

  allow(ip: string, now: number): boolean {
    if (now - this.windowStart >= REFUSAL_WINDOW_MS) {
      this.windowStart = now;
      this.total = 0;
      this.perAddress.clear();
    }
    const count = this.perAddress.get(ip) ?? 0;
    if (count >= REFUSALS_PER_ADDRESS || this.total >= REFUSALS_IN_ALL) return false;
    this.perAddress.set(ip, count + 1);
    this.total += 1;
    return true;
  }
}

export function answer(
  outcome: PostbackOutcome,
  reason: string | null = null,
  conversionId: string | null = null,
  state: ConversionState | null = null,
): PostbackAnswer {
  return { outcome, status: POSTBACK_OUTCOME_STATUS[outcome], conversionId, state, reason };
}

/** The networks a click's conversion is for: its offer's, and the postback event's. */
function networksOf(
  snapshot: RoutingSnapshot,
  side: 'tracker' | 'api',
  offer: string | null,
  eventNetwork: string | null,
): Set<string> {
  const networks = new Set<string>();
  const offerNetwork = offer ? snapshot[side].offers.get(offer)?.affiliateNetworkExternalId : null;
  if (offerNetwork) networks.add(offerNetwork);
  if (eventNetwork) networks.add(eventNetwork);
  return networks;
}

export async function takePostback(parts: EngineParts, request: PostbackRequest): Promise<PostbackAnswer> {
  const { params, ip } = request;
  const now = parts.now();
  const base: Omit<NewPostbackLog, 'outcome' | 'conversion_id'> = {
    created_at: now.toISOString(),
    click_id: params.clickId ?? null,
    txid: params.txid ?? null,
    ip: ip || null,
    raw: JSON.stringify(params.raw),
    workspace_id: null,
  };
  const refuse = async (outcome: PostbackOutcome, reason: string, logged = true) => {
    if (logged) await parts.store.logPostback({ ...base, outcome, conversion_id: null, reason });
    return answer(outcome, reason);
  };
  // A refused caller's rows are rate-limited by address: they are the ones anybody can send.
  const refuseCaller = (outcome: 'refused_key' | 'refused_address', reason: string) =>
    refuse(outcome, reason, parts.refusals.allow(ip ?? '', now.getTime()));

  const { caller } = request;
  const imported = 'workspace' in caller;
  let workspace: PostbackWorkspace | undefined;
  if (imported) workspace = caller.workspace;
  else if (caller.key === undefined) {
    return refuseCaller('refused_key', 'The postback URL has no key: use the URL shown on the affiliate network.');
  } else workspace = caller.key === '' ? undefined : await parts.store.workspaceByKey(caller.key);
  if (!workspace) {
    return refuseCaller(
      'refused_key',
      "Wrong postback key: it is not one of this tracker's. Use the URL shown on the affiliate network.",
    );
  }
  base.workspace_id = workspace.id;

  if (params.tooLong) {
    return { ...(await refuse('too_long', params.tooLong.reason)), field: params.tooLong.field };
  }
  if (params.clickId === undefined) return refuse('missing_click_id', 'No click id was sent.');
  if (params.invalidPayout) return refuse('invalid_payout', `The payout must be ${NETWORK_AMOUNT_RULE}.`);
  const clickIdParam = params.clickId;
  // One still waiting in the event writer is written first.
  const origin = await storedEvent(parts, () => parts.store.origin(clickIdParam), clickIdParam);
  if (!origin) {
    // A click id the old tracker issued before the move, for a campaign imported from it (pre-move.ts).
    const preMove = preMoveTarget(parts.snapshot, params, workspace.id, parts.now().getTime());
    if (preMove === 'late') {
      return refuse(
        'unknown_click',
        `No click or lead has this id. Click ids from before the move convert for ${PRE_MOVE_DAYS} days after the campaign's import.`,
      );
    }
    if (preMove) return takePreMovePostback(parts, request, preMove, workspace, base, refuse, refuseCaller);
    return refuse('unknown_click', `No click or lead has this id.${preMoveHint(params)}`);
  }
  const { row } = origin;
  const side = origin.kind === 'click' ? 'tracker' : 'api';
  const snapshot = parts.snapshot;
  const campaign = snapshot[side].campaigns.get(row.campaign_external_id);
  // The click's workspace is its campaign's, read from the stored record when routing no longer
  // holds it (archived, or out of routing): a campaign's state must not let another workspace's key in.
  const owner =
    campaign?.workspaceId ??
    (await parts.store.campaignWorkspace(campaignKind(side), row.campaign_external_id))?.workspace_id;
  if (owner !== workspace.id) {
    // Logged for root only: the key's workspace must not learn of the other's click and campaign.
    base.workspace_id = null;
    return refuseCaller(
      'refused_key',
      imported
        ? "The click or lead is not one of this workspace's."
        : "The click belongs to another workspace than the postback key's.",
    );
  }
  const resolved = resolvePostbackEvent(snapshot, campaign, params);
  if (!imported) {
    for (const network of networksOf(
      snapshot,
      side,
      row.offer_external_id,
      resolved.event?.affiliateNetworkExternalId ?? null,
    )) {
      const list = snapshot.postbackAddresses.get(network);
      if (list && !(ip && list.check(ip, ip.includes(':') ? 'ipv6' : 'ipv4'))) {
        return refuseCaller(
          'refused_address',
          `${ip ?? 'This address'} is not on the affiliate network's address list.`,
        );
      }
    }
  }

  if (resolved.unknownStatus) {
    return refuse(
      'unknown_status',
      `The status "${params.status}" is not in the postback event's mapping${resolved.event ? '' : ' (no postback event took it)'}.`,
    );
  }

  const amount = await checkedAmount(parts, params, workspace, row.offer_external_id, side);
  if ('outcome' in amount) return refuse(amount.outcome, amount.reason);
  const vars = JSON.parse(row.vars) as Record<string, string>;
  const context = conditionContext(snapshot[side].segments, subjectOf(parts, origin, vars));
  const eventId = resolved.event?.externalId ?? null;
  const offerPayout =
    amount.value === undefined ? await offerPayoutIn(parts, workspace, row.offer_external_id, side) : undefined;
  const { payout, ruleId, source } = rulePayout(campaign, eventId, context, amount.value, offerPayout);
  // The offer's payout, converted, too.
  if (!Number.isFinite(payout)) return refuse('unconvertible_payout', unconvertibleReason(workspace));
  const conversionId = newEventId(now.getTime());
  const leadId = origin.kind === 'lead' ? origin.row.lead_id : null;
  const conversion: PostbackConversion = {
    conversion_id: conversionId,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
    workspace_id: workspace.id,
    click_id: origin.kind === 'click' ? origin.row.click_id : null,
    lead_id: leadId,
    campaign_external_id: row.campaign_external_id,
    flow_external_id: row.flow_external_id,
    path_group_id: row.path_group_id,
    path_id: row.path_id,
    offer_external_id: row.offer_external_id,
    lander_external_id: origin.kind === 'click' ? origin.row.lander_external_id : null,
    traffic_source_external_id: row.traffic_source_external_id,
    ...postbackFields(params, resolved, payout, amount.currency, workspace),
    country: row.country,
    subaff: row.subaff,
    payout_rule_id: ruleId,
    payout_source: source,
    raw: base.raw,
    state: resolved.state,
    event_key: eventId ?? '',
    txid_key: params.txid ?? '',
    event_at: row.created_at,
  };
  const costModel = campaign?.costModel;
  const costing: ConversionCost | null =
    origin.kind === 'click'
      ? {
          model: costModel === 'CPA' || costModel === 'RevShare' ? costModel : null,
          cost: campaign?.cost ?? 0,
          click: origin.row,
        }
      : null;
  const entry = resolved.entry;
  const postbackUrl = resolved.event ? campaign?.trafficSourcePostbackUrls.get(resolved.event.externalId) : undefined;
  const outboundUrl =
    entry?.sendToTrafficSource && postbackUrl && (payout !== 0 || entry.sendZeroConversions)
      ? postbackUrl.fill(
          {
            ...macroValues(
              origin.kind === 'click' ? origin.row : { ...origin.row, lander_external_id: null },
              clickIdParam,
              leadId ?? undefined,
              vars,
            ),
            payout,
            status: params.status,
            txid: params.txid,
          },
          vars,
        )
      : null;
  const stored = await moveConversion(
    parts.conversions,
    conversion,
    base,
    outboundUrl ? { url: outboundUrl, createdAt: now.toISOString() } : null,
    costing,
  );
  if (parts.live.listening && (stored.outcome === 'converted' || stored.outcome === 'status_changed')) {
    const changed = { ...conversion, conversion_id: stored.conversionId, state: stored.state };
    parts.live.publish(conversionEvent(changed, stored.outcome));
  }
  if (stored.outcome === 'converted') {
    // Counted as the warm-up after a restart counts it: every new conversion, whatever its state.
    if (resolved.isConversion && row.flow_external_id && row.path_id) {
      await parts.caps.add(pathPostbacksCapKey(row.flow_external_id, row.path_id), dayIn(now, PATH_CAP_TIMEZONE), 1);
    }
    if (outboundUrl && resolved.state !== 'rejected') parts.outbound.kick();
  }
  return answer(stored.outcome, null, stored.conversionId, stored.state);
}

/** What payout rule conditions see: the original click or lead as routing saw it. */
function subjectOf(parts: EngineParts, origin: Origin, vars: Record<string, string>): RoutingSubject {
  const { row } = origin;
  const fields: RoutingSubject['fields'] = {
    countryCode: row.country ?? undefined,
    device: row.device ?? undefined,
    platform: row.platform ?? undefined,
    browser: row.browser ?? undefined,
    campaignId: row.campaign_external_id,
  };
  if (origin.kind === 'lead') {
    Object.assign(fields, {
      regsCount: parts.registrations.get(origin.row.email_hash) ?? 0,
      payoutsCount: 0,
      emailRate: emailRate(`x@${origin.row.email_domain}`),
      age: origin.row.age ?? undefined,
    });
  }
  return { fields, vars, now: new Date(row.created_at) };
}
