// A postback from an affiliate network: the click or lead it names, the postback event and payout rule
// that apply, the conversion, and the outbound postback owed to the traffic source. The conversion, its
// log line and any outbound postback are committed in one transaction before the answer, so an answered
// postback is never lost; a crash before the commit leaves the network without its `OK`, and networks
// resend.
import type { NewConversion } from '../store/conversions.js';
import type { Origin } from '../store/traffic/engine-store.js';
import { macroValues } from './event-macros.js';
import { type EngineParts, storedEvent } from './parts.js';
import { dayIn, pathPostbacksCapKey } from './rules/caps.js';
import { type PostbackParams, resolvePostbackEvent, rulePayout } from './rules/postback-rules.js';
import { conditionContext, PATH_CAP_TIMEZONE, type RoutingSubject } from './rules/routing.js';
import { emailRate } from './visitor/email.js';
import { newEventId } from './visitor/visitor.js';

export type PostbackAnswer =
  | { kind: 'converted'; conversionId: string }
  | { kind: 'duplicate'; conversionId: null }
  | { kind: 'not-found' }
  | { kind: 'missing-click-id' };

export async function takePostback(
  parts: EngineParts,
  params: PostbackParams,
  ip: string | undefined,
): Promise<PostbackAnswer> {
  const now = parts.now();
  const log = {
    created_at: now.toISOString(),
    click_id: params.clickId ?? null,
    txid: params.txid ?? null,
    ip: ip || null,
    raw: JSON.stringify(params.raw),
  };
  if (params.clickId === undefined) {
    await parts.store.logPostback({ ...log, outcome: 'missing_click_id', conversion_id: null });
    return { kind: 'missing-click-id' };
  }
  const clickIdParam = params.clickId;
  // One still waiting in the event writer is written first.
  const origin = await storedEvent(parts, () => parts.store.origin(clickIdParam), clickIdParam);
  if (!origin) {
    await parts.store.logPostback({ ...log, outcome: 'unknown_click', conversion_id: null });
    return { kind: 'not-found' };
  }
  const { row } = origin;
  const side = origin.kind === 'click' ? 'tracker' : 'api';
  const snapshot = parts.snapshot;
  const campaign = snapshot[side].campaigns.get(row.campaign_external_id);
  const resolved = resolvePostbackEvent(snapshot, campaign, params);
  const vars = JSON.parse(row.vars) as Record<string, string>;
  const context = conditionContext(snapshot[side].segments, subjectOf(parts, origin, vars));
  const { payout, ruleId } = rulePayout(campaign, resolved.event?.externalId ?? null, context, params.revenue);
  const conversionId = newEventId(now.getTime());
  const leadId = origin.kind === 'lead' ? origin.row.lead_id : null;
  const conversion: NewConversion = {
    conversion_id: conversionId,
    created_at: now.toISOString(),
    click_id: origin.kind === 'click' ? origin.row.click_id : null,
    lead_id: leadId,
    campaign_external_id: row.campaign_external_id,
    flow_external_id: row.flow_external_id,
    path_group_id: row.path_group_id,
    path_id: row.path_id,
    offer_external_id: row.offer_external_id,
    lander_external_id: origin.kind === 'click' ? origin.row.lander_external_id : null,
    traffic_source_external_id: row.traffic_source_external_id,
    affiliate_network_external_id: resolved.event?.affiliateNetworkExternalId ?? null,
    postback_event_external_id: resolved.event?.externalId ?? null,
    status: params.status ?? null,
    is_conversion: resolved.isConversion ? 1 : 0,
    payout,
    revenue: params.revenue ?? null,
    currency: (row.offer_external_id && snapshot[side].offers.get(row.offer_external_id)?.currency) || 'USD',
    txid: params.txid ?? null,
    country: row.country,
    subaff: row.subaff,
    payout_rule_id: ruleId,
    raw: log.raw,
  };
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
  const stored = await parts.store.storeConversion(
    conversion,
    log,
    outboundUrl ? { url: outboundUrl, createdAt: now.toISOString() } : null,
  );
  if (!stored) return { kind: 'duplicate', conversionId: null };
  if (resolved.isConversion && row.flow_external_id && row.path_id) {
    await parts.caps.add(pathPostbacksCapKey(row.flow_external_id, row.path_id), dayIn(now, PATH_CAP_TIMEZONE), 1);
  }
  if (outboundUrl) parts.outbound.kick();
  return { kind: 'converted', conversionId };
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
