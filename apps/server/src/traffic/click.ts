// A click on a tracker campaign: the vars it brings, the routing decision, the event row, and where
// the visitor goes. What follows from the stored click (the lander's offer link, a second hop) is in
// click-hops.ts.
import type { RedirectMode } from '@switchyard/domain';
import { clickEvent } from '../live/messages.js';
import { autoCost, type CostFlag } from '../store/cost-models.js';
import type { NewTrackerClick } from '../store/tracker-events.js';
import { macroValues } from './event-macros.js';
import type { EngineParts } from './parts.js';
import { ReadOnlyCapCounters } from './rules/caps.js';
import { decide } from './rules/routing.js';
import type { CompiledCampaign } from './rules/snapshot.js';
import { readVisitor, visitorFields } from './visitor/context.js';
import { isoTime } from './visitor/iso-time.js';
import { pastRateLimit } from './visitor/rates.js';
import { uniqueKeys } from './visitor/uniques.js';
import { identifyVisitor, newEventId, type Visitor } from './visitor/visitor.js';

/** What a click request brings. */
export interface ClickRequest {
  campaignExternalId: string;
  query: Readonly<Record<string, unknown>>;
  ip: string;
  userAgent: string | undefined;
  referrer: string | undefined;
  /** The language rule reads its first choice. */
  acceptLanguage?: string | undefined;
  cookieHeader: string | undefined;
}

/**
 * `event` is the click's commit in the event writer: its answer goes out only once that is kept (0 for a
 * click only looked at, which records nothing). `too-long`: a text the click would store is past its
 * limit (CLICK_TEXT_LIMITS), refused rather than cut.
 */
export type ClickAnswer =
  | {
      kind: 'redirect';
      location: string;
      cookies: string[];
      clickId: string;
      event: number;
      /** How the visitor is sent there (the path's mode, else the campaign's). */
      mode: RedirectMode;
      campaignExternalId: string;
    }
  | { kind: 'not-found' }
  | { kind: 'no-route'; cookies: string[]; clickId: string; event: number }
  | { kind: 'too-long'; field: string; limit: number };

/**
 * The characters a click keeps of what the visitor sends, whole; a click bringing more is
 * answered 400 (as a lead is, lead-input.ts). `var`: each var and the traffic source's click id.
 */
export const CLICK_TEXT_LIMITS = { var: 1024, userAgent: 2048, referrer: 2048 } as const;

/** Query parameters that name the traffic source's own click id (`{external_id}`). */
const EXTERNAL_CLICK_ID_PARAMETERS = new Set(['external_id', 'click_id', 'clickid', 'cid', 'subid']);
/** Vars a click URL may carry as they are, besides the traffic source's mapped parameters. */
const DIRECT_VAR = /^(subaff|email_source|step|utm_[a-z0-9_]{1,32}|var(10|[1-9]))$/;

/**
 * A click routed and recorded; or, with `record` false (a HEAD from a link checker or a mail
 * scanner), routed the same way on caps that count nothing, with no event, no rate counted, and nothing
 * published: the answer is what a GET would get.
 */
export async function routeClick(
  parts: EngineParts,
  request: ClickRequest,
  record = true,
  /** A direct campaign's click: the visitor is on the landing page already, and goes on to the offer. */
  direct = false,
): Promise<ClickAnswer> {
  const snapshot = parts.snapshot;
  const campaign = snapshot.tracker.campaigns.get(request.campaignExternalId);
  if (!campaign) return { kind: 'not-found' };
  const now = parts.now();
  const { traits, userAgent, reading, vars, externalClickId, visitor, fields, tooLong } = readClick(
    parts,
    campaign,
    request,
    now,
    record,
  );
  if (tooLong) return { kind: 'too-long', ...tooLong };
  let unique = clickUniqueness(parts, campaign, visitor, request.ip, userAgent, now.getTime(), record);
  if (typeof unique !== 'boolean') unique = await unique;
  fields.isUnique = unique ? 'true' : 'false';
  const { cost, flag: costFlag } = clickCost(campaign, request.query);
  const decision = await decide(
    snapshot,
    campaign,
    { fields, vars, now },
    // A look must not move the seeded sequence live clicks draw from (as simulate.ts).
    record
      ? { random: parts.random, caps: parts.caps }
      : { random: Math.random, caps: new ReadOnlyCapCounters(parts.caps) },
    false,
  );
  const clickId = newEventId(now.getTime());
  const row: NewTrackerClick = {
    click_id: clickId,
    created_at: isoTime(now),
    campaign_external_id: campaign.externalId,
    flow_external_id: campaign.flowExternalId,
    path_group_id: decision.group?.id ?? null,
    path_id: decision.path?.id ?? null,
    // A direct click's visitor is on a page of the operator's own, not on a lander of the flow.
    lander_external_id: direct ? null : (decision.lander?.externalId ?? null),
    offer_external_id: decision.offer?.externalId ?? null,
    traffic_source_external_id: campaign.trafficSourceExternalId,
    visitor_id: visitor.id,
    is_unique: unique ? 1 : 0,
    ip: request.ip || null,
    country: reading.country ?? null,
    device: traits.device,
    platform: traits.platform ?? null,
    browser: traits.browser ?? null,
    user_agent: userAgent || null,
    referrer: request.referrer || null,
    external_click_id: externalClickId ?? null,
    subaff: vars.subaff ?? (decision.path?.subaff || null),
    // Written out rather than spread from varColumns: this object is built for every click.
    var1: vars.var1 ?? null,
    var2: vars.var2 ?? null,
    var3: vars.var3 ?? null,
    var4: vars.var4 ?? null,
    var5: vars.var5 ?? null,
    var6: vars.var6 ?? null,
    var7: vars.var7 ?? null,
    var8: vars.var8 ?? null,
    var9: vars.var9 ?? null,
    var10: vars.var10 ?? null,
    vars: JSON.stringify(vars),
    cost,
    cost_flag: costFlag,
    is_bot: reading.botReason ? 1 : 0,
    reason: decision.reason,
    region: reading.region ?? null,
    city: reading.city ?? null,
    asn: reading.asn ?? null,
    isp: reading.isp ?? null,
    language: reading.language ?? null,
    referrer_domain: reading.referrerDomain ?? null,
    os_version: traits.osVersion ?? null,
    browser_version: traits.browserVersion ?? null,
    bot_reason: reading.botReason,
    workspace_id: campaign.eventWorkspaceId,
  };
  const event = record ? parts.events.addClick(row) : 0;
  // Nearly free while nobody listens: one property read.
  if (record && parts.live.listening) parts.live.publish(clickEvent(row, campaign.workspaceId));
  const macros = macroValues(row, clickId, undefined, vars);
  // The lander when the path has one (its offer link asks for the offer later), else the offer.
  const location =
    decision.lander && !direct
      ? decision.lander.url.fill(macros, vars)
      : (decision.offer?.url.fill(macros, vars) ?? null);
  if (!location) return { kind: 'no-route', cookies: visitor.cookies, clickId, event };
  return {
    kind: 'redirect',
    location,
    cookies: visitor.cookies,
    clickId,
    event,
    mode: decision.path?.redirectMode ?? campaign.redirectMode,
    campaignExternalId: campaign.externalId,
  };
}

/** What a click brings, read once: by a click, and by a simulation of one (simulate.ts). */
export function readClick(
  parts: EngineParts,
  campaign: CompiledCampaign,
  request: ClickRequest,
  now: Date,
  /** A click counts towards its address's rate, a bot's too; a simulation does not. */
  countRate: boolean,
) {
  const userAgent = request.userAgent ?? '';
  const traits = parts.userAgents.describe(userAgent);
  const input = {
    ip: request.ip,
    userAgent,
    traits,
    acceptLanguage: request.acceptLanguage,
    referrer: request.referrer,
  };
  const reading = readVisitor(input, parts.bots);
  if (countRate && pastRateLimit(parts.clickRates, campaign, request.ip, now.getTime()))
    reading.botReason ??= 'click_rate';
  const { vars, externalClickId, tooLong: longVar } = clickVars(campaign, request.query);
  const visitor = identifyVisitor(request.cookieHeader, campaign.externalId, campaign.uniqueWindowMs / 1000);
  const fields = visitorFields(reading, input, visitor.unique);
  fields.campaignId = campaign.externalId;
  const tooLong =
    longVar ??
    (userAgent.length > CLICK_TEXT_LIMITS.userAgent
      ? { field: 'user-agent', limit: CLICK_TEXT_LIMITS.userAgent }
      : (request.referrer?.length ?? 0) > CLICK_TEXT_LIMITS.referrer
        ? { field: 'referer', limit: CLICK_TEXT_LIMITS.referrer }
        : undefined);
  return { traits, userAgent, reading, vars, externalClickId, visitor, fields, tooLong };
}

/**
 * Whether the click is its visitor's first on the campaign within the campaign's window, matched as its
 * `unique_by` says; `note` false only looks (a HEAD request, a simulation). In memory the answer is
 * immediate, so no promise is made for it on the click's path.
 */
export function clickUniqueness(
  parts: EngineParts,
  campaign: CompiledCampaign,
  visitor: Visitor,
  ip: string,
  userAgent: string,
  now: number,
  note: boolean,
): boolean | Promise<boolean> {
  const keys = uniqueKeys(campaign.externalId, campaign.uniqueBy, {
    cookieId: visitor.cookieId,
    visitorId: visitor.id,
    ip,
    userAgent,
  });
  // The campaign's own uniqueness cookie is evidence too where cookies count.
  const cookieSeen = !visitor.unique && (campaign.uniqueBy === 'cookie' || campaign.uniqueBy === 'cookie_or_ip_ua');
  if (!note) return cookieSeen ? false : parts.uniques.wouldBe(keys, now, campaign.uniqueWindowMs);
  const answer = parts.uniques.note(keys, now, campaign.uniqueWindowMs);
  if (!cookieSeen) return answer;
  return typeof answer === 'boolean' ? false : answer.then(() => false);
}

function firstValue(value: unknown): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first : undefined;
}

const FREE: { cost: number; flag: null } = { cost: 0, flag: null };

/**
 * What the click costs when it happens: CPC its price, CPM a thousandth of it, Auto the value of the traffic
 * source's cost parameter. CPA and RevShare clicks cost nothing until their conversions are approved
 * (moveConversion adds it to the click).
 */
function clickCost(
  campaign: CompiledCampaign,
  query: Readonly<Record<string, unknown>>,
): { cost: number; flag: CostFlag | null } {
  if (campaign.costModel === 'CPC') return { cost: campaign.cost, flag: null };
  if (campaign.costModel === 'CPM') return { cost: campaign.cost / 1000, flag: null };
  if (campaign.costModel !== 'Auto') return FREE;
  return autoCost(campaign.costParameter === null ? undefined : firstValue(query[campaign.costParameter]));
}

function clickVars(
  campaign: CompiledCampaign,
  query: Readonly<Record<string, unknown>>,
): {
  vars: Record<string, string>;
  externalClickId: string | undefined;
  /** The first parameter kept that is past CLICK_TEXT_LIMITS.var. */
  tooLong: { field: string; limit: number } | undefined;
} {
  const vars: Record<string, string> = {};
  let tooLong: { field: string; limit: number } | undefined;
  const kept = (name: string, value: string | undefined) => {
    if (value !== undefined && value.length > CLICK_TEXT_LIMITS.var)
      tooLong ??= { field: name, limit: CLICK_TEXT_LIMITS.var };
    return value;
  };
  let externalClickId = kept('external_id', firstValue(query.external_id));
  for (const name in query) {
    if (!Object.hasOwn(query, name) || !DIRECT_VAR.test(name)) continue;
    const value = kept(name, firstValue(query[name]));
    if (value !== undefined) vars[name] = value;
  }
  // The traffic source's parameters win over a var of the same name sent as it is.
  for (const parameter of campaign.parameters) {
    const value = kept(parameter.tsParameter, firstValue(query[parameter.tsParameter]));
    if (value === undefined) continue;
    vars[parameter.internalToken] = value;
    if (externalClickId === undefined && EXTERNAL_CLICK_ID_PARAMETERS.has(parameter.tsParameter.toLowerCase())) {
      externalClickId = value;
    }
  }
  return { vars, externalClickId, tooLong };
}
