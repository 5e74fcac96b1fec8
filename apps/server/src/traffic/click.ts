// A click on a tracker campaign: the vars it brings, the routing decision, the event row, and where
// the visitor goes. Also the lander's offer link, which sends a visitor on to the offer chosen at the click.
import { clickEvent } from '../live/messages.js';
import { autoCost, type CostFlag } from '../store/cost-models.js';
import type { NewTrackerClick } from '../store/tracker-events.js';
import { macroValues } from './event-macros.js';
import { type EngineParts, storedEvent } from './parts.js';
import type { CompiledCampaign } from './rules/compile.js';
import { decide } from './rules/routing.js';
import { readVisitor, visitorFields } from './visitor/context.js';
import { isoTime } from './visitor/iso-time.js';
import { pastRateLimit } from './visitor/rates.js';
import { identifyVisitor, newEventId } from './visitor/visitor.js';

/** What a click request brings. */
export interface ClickRequest {
  campaignExternalId: string;
  query: Readonly<Record<string, unknown>>;
  ip: string;
  userAgent: string | undefined;
  referrer: string | undefined;
  /** Issue 24: the language rule reads its first choice. */
  acceptLanguage?: string | undefined;
  cookieHeader: string | undefined;
}

/** `event` is the click's commit in the event writer: its answer goes out only once that is kept. */
export type ClickAnswer =
  | { kind: 'redirect'; location: string; cookies: string[]; clickId: string; event: number }
  | { kind: 'not-found' }
  | { kind: 'no-route'; cookies: string[]; clickId: string; event: number };

/** Query parameters that name the traffic source's own click id (`{external_id}`). */
const EXTERNAL_CLICK_ID_PARAMETERS = new Set(['external_id', 'click_id', 'clickid', 'cid', 'subid']);
/** Vars a click URL may carry as they are, besides the traffic source's mapped parameters. */
const DIRECT_VAR = /^(subaff|email_source|step|utm_[a-z0-9_]{1,32}|var(10|[1-9]))$/;
const MAX_VAR_LENGTH = 1024;

export async function routeClick(parts: EngineParts, request: ClickRequest): Promise<ClickAnswer> {
  const snapshot = parts.snapshot;
  const campaign = snapshot.tracker.campaigns.get(request.campaignExternalId);
  if (!campaign) return { kind: 'not-found' };
  const now = parts.now();
  const { traits, userAgent, reading, vars, externalClickId, visitor, fields } = readClick(
    parts,
    campaign,
    request,
    now,
    true,
  );
  const { cost, flag: costFlag } = clickCost(campaign, request.query);
  const decision = await decide(
    snapshot,
    campaign,
    { fields, vars, now },
    { random: parts.random, caps: parts.caps },
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
    lander_external_id: decision.lander?.externalId ?? null,
    offer_external_id: decision.offer?.externalId ?? null,
    traffic_source_external_id: campaign.trafficSourceExternalId,
    visitor_id: visitor.id,
    is_unique: visitor.unique ? 1 : 0,
    ip: request.ip || null,
    country: reading.country ?? null,
    device: traits.device,
    platform: traits.platform ?? null,
    browser: traits.browser ?? null,
    user_agent: userAgent.slice(0, 2048) || null,
    referrer: request.referrer?.slice(0, 2048) || null,
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
  const event = parts.events.addClick(row);
  // Nearly free while nobody listens: one property read.
  if (parts.live.listening) parts.live.publish(clickEvent(row, campaign.workspaceId));
  const macros = macroValues(row, clickId, undefined, vars);
  // The lander when the path has one (its offer link asks for the offer later), else the offer.
  const location = decision.lander
    ? decision.lander.url.fill(macros, vars)
    : (decision.offer?.url.fill(macros, vars) ?? null);
  if (!location) return { kind: 'no-route', cookies: visitor.cookies, clickId, event };
  return { kind: 'redirect', location, cookies: visitor.cookies, clickId, event };
}

/**
 * Where a lander's offer link goes for `clickId`: the offer chosen at the click, from the stored click
 * (not kept in memory: holding every lander click until its visitor moves on cost more, in garbage
 * collection, than reading the one row when they do).
 */
export async function offerForClick(
  parts: EngineParts,
  campaignExternalId: string,
  clickId: string,
): Promise<string | null> {
  const row = await storedEvent(parts, () => parts.store.storedClick(clickId), clickId);
  if (!row?.offer_external_id || row.campaign_external_id !== campaignExternalId) return null;
  const offer = parts.snapshot.tracker.offers.get(row.offer_external_id);
  if (!offer) return null;
  const vars = JSON.parse(row.vars) as Record<string, string>;
  return offer.url.fill(macroValues(row, clickId, undefined, vars), vars);
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
  const { vars, externalClickId } = clickVars(campaign, request.query);
  const visitor = identifyVisitor(request.cookieHeader, campaign.externalId);
  const fields = visitorFields(reading, input, visitor.unique);
  fields.campaignId = campaign.externalId;
  return { traits, userAgent, reading, vars, externalClickId, visitor, fields };
}

function firstValue(value: unknown): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first.slice(0, MAX_VAR_LENGTH) : undefined;
}

const FREE: { cost: number; flag: null } = { cost: 0, flag: null };

/**
 * What the click costs when it happens: CPC its price, CPM a thousandth of it, Auto the value of the traffic
 * source's cost parameter. CPA and RevShare clicks cost nothing until their conversions are approved
 * (EngineStore.storeConversion adds it to the click).
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
): { vars: Record<string, string>; externalClickId: string | undefined } {
  const vars: Record<string, string> = {};
  let externalClickId = firstValue(query.external_id);
  for (const name in query) {
    if (!Object.hasOwn(query, name) || !DIRECT_VAR.test(name)) continue;
    const value = firstValue(query[name]);
    if (value !== undefined) vars[name] = value;
  }
  // The traffic source's parameters win over a var of the same name sent as it is.
  for (const parameter of campaign.parameters) {
    const value = firstValue(query[parameter.tsParameter]);
    if (value === undefined) continue;
    vars[parameter.internalToken] = value;
    if (externalClickId === undefined && EXTERNAL_CLICK_ID_PARAMETERS.has(parameter.tsParameter.toLowerCase())) {
      externalClickId = value;
    }
  }
  return { vars, externalClickId };
}
