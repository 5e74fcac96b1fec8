// A lead sent to an API campaign: checked against the campaign's key, routed like a click (with the
// lead's own fields: registrations, email, age), stored as an event, answered with the offer.
import { timingSafeEqual } from 'node:crypto';
import { leadEvent } from '../live/messages.js';
import type { NewTrackerLead } from '../store/tracker-events.js';
import { macroValues, varColumns } from './event-macros.js';
import type { TLeadInput } from './http/lead-input.js';
import type { EngineParts } from './parts.js';
import { decide } from './rules/routing.js';
import type { CompiledCampaign } from './rules/snapshot.js';
import { readVisitor, visitorFields } from './visitor/context.js';
import { emailDomain, emailHash, emailRate } from './visitor/email.js';
import { isoTime } from './visitor/iso-time.js';
import { pastRateLimit } from './visitor/rates.js';
import { newEventId } from './visitor/visitor.js';

export interface RoutedLead {
  lead_id: string;
  offer: { external_id: string; name: string; url: string } | null;
  path_group: { id: string; name: string } | null;
  reason: string;
}

/** `event` is the lead's commit in the event writer: the answer goes out only once that is kept. */
export type LeadAnswer =
  | { kind: 'not-found' }
  | { kind: 'unauthorized' }
  | { kind: 'routed'; body: RoutedLead; event: number };

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A lead for an API campaign; `apiKey` is checked before the body is read. */
export async function routeLead(
  parts: EngineParts,
  campaignExternalId: string,
  apiKey: string | undefined,
  parseBody: () => TLeadInput,
): Promise<LeadAnswer> {
  const snapshot = parts.snapshot;
  const campaign = snapshot.api.campaigns.get(campaignExternalId);
  if (!campaign) return { kind: 'not-found' };
  if (!campaign.ingestToken || !apiKey || !sameSecret(apiKey, campaign.ingestToken)) return { kind: 'unauthorized' };
  const input = parseBody();
  const now = parts.now();
  const { traits, reading, hash, unique, vars, fields } = readLead(parts, campaign, input, now, true);
  const decision = await decide(
    snapshot,
    campaign,
    { fields, vars, now },
    { random: parts.random, caps: parts.caps },
    true,
  );
  const leadId = newEventId(now.getTime());
  const row: NewTrackerLead = {
    lead_id: leadId,
    created_at: isoTime(now),
    campaign_external_id: campaign.externalId,
    flow_external_id: campaign.flowExternalId,
    path_group_id: decision.group?.id ?? null,
    path_id: decision.path?.id ?? null,
    offer_external_id: decision.offer?.externalId ?? null,
    traffic_source_external_id: campaign.trafficSourceExternalId,
    email_hash: hash,
    email_domain: emailDomain(input.email),
    age: input.age ?? null,
    ip: input.ip ?? null,
    country: reading.country ?? null,
    device: traits?.device ?? null,
    platform: traits?.platform ?? null,
    browser: traits?.browser ?? null,
    user_agent: input.user_agent || null,
    subaff: vars.subaff ?? (decision.path?.subaff || null),
    ...varColumns(vars),
    vars: JSON.stringify(vars),
    is_bot: reading.botReason ? 1 : 0,
    decision: decision.offer ? 'routed' : 'unrouted',
    reason: decision.reason,
    backup_used: decision.backupUsed ? 1 : 0,
    region: reading.region ?? null,
    city: reading.city ?? null,
    asn: reading.asn ?? null,
    isp: reading.isp ?? null,
    language: reading.language ?? null,
    referrer_domain: reading.referrerDomain ?? null,
    os_version: traits?.osVersion ?? null,
    browser_version: traits?.browserVersion ?? null,
    bot_reason: reading.botReason,
    is_unique: unique ? 1 : 0,
    workspace_id: campaign.eventWorkspaceId,
  };
  const event = parts.events.addLead(row);
  if (parts.live.listening) parts.live.publish(leadEvent(row, campaign.workspaceId));
  parts.registrations.set(hash, (parts.registrations.get(hash) ?? 0) + 1);
  const offer = decision.offer;
  // An API offer's `{clickid}` is the lead: postbacks name it back. No URL whose host a macro chose.
  const url = offer?.url.fill(macroValues(row, leadId, leadId, vars), vars) ?? null;
  return {
    kind: 'routed',
    event,
    body: {
      lead_id: leadId,
      offer: offer && url !== null ? { external_id: offer.externalId, name: offer.name, url } : null,
      path_group: decision.group ? { id: decision.group.id, name: decision.group.name } : null,
      reason: decision.reason,
    },
  };
}

/**
 * What a lead brings, read once: by a lead, and by a simulation of one (simulate.ts), which (`live`
 * false) neither counts the address's rate nor notes the email as seen.
 */
export function readLead(parts: EngineParts, campaign: CompiledCampaign, input: TLeadInput, now: Date, live: boolean) {
  const traits = input.user_agent !== undefined ? parts.userAgents.describe(input.user_agent) : undefined;
  const visitorInput = {
    ip: input.ip,
    userAgent: input.user_agent,
    traits,
    acceptLanguage: input.language,
    referrer: input.referrer,
    country: input.country,
  };
  const reading = readVisitor(visitorInput, parts.bots);
  if (live && pastRateLimit(parts.clickRates, campaign, input.ip, now.getTime())) reading.botReason ??= 'click_rate';
  const hash = emailHash(input.email);
  const unique = live
    ? parts.leadUniques.unique(campaign.externalId, hash, now.getTime())
    : parts.leadUniques.wouldBeUnique(campaign.externalId, hash, now.getTime());
  const vars: Record<string, string> = { ...input.vars };
  const fields: Record<string, string | number | undefined> = {
    ...visitorFields(reading, visitorInput, unique),
    campaignId: campaign.externalId,
    regsCount: parts.registrations.get(hash) ?? 0,
    // Not counted yet: conversions are stored (postbacks) but not yet summed per email for routing.
    payoutsCount: 0,
    emailRate: emailRate(input.email),
    age: input.age,
  };
  return { traits, reading, hash, unique, vars, fields };
}
