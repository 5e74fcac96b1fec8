// Postbacks (issue 5, Contract and item 3): reading the network's parameters, resolving the postback
// event, and the payout by the campaign's payout rule set.
import { type ConditionContext, evaluateCondition, stripNul } from '@switchyard/domain';
import type { CampaignPostbackEvent, CompiledCampaign, CompiledPostbackEvent, RoutingSnapshot } from './compile.js';

const MAX_VALUE_LENGTH = 255;
const MAX_RAW_PARAMETERS = 50;

/** Parameter names of the Contract, each with its aliases, first found wins. */
const ALIASES = {
  clickId: ['clickid', 'subid', 'cid', 'cnv_id', 'lead_id'],
  payout: ['payout', 'revenue', 'sum'],
  status: ['status', 'cnv_status', 'et'],
  event: ['event'],
  txid: ['txid', 'tid', 'transaction_id'],
} as const;

export interface PostbackParams {
  clickId: string | undefined;
  /** The network's payout, when it sent a number. */
  revenue: number | undefined;
  status: string | undefined;
  event: string | undefined;
  txid: string | undefined;
  /** Every parameter as received (first value of each, bounded), for the conversion and the log. */
  raw: Record<string, string>;
}

function firstString(value: unknown): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  if (typeof first === 'string') return first.trim().slice(0, MAX_VALUE_LENGTH);
  if (typeof first === 'number' && Number.isFinite(first)) return String(first);
  return undefined;
}

/** Query string and body (JSON or form) merged; the query wins for a name sent in both. */
export function readPostbackParams(query: unknown, body: unknown): PostbackParams {
  const raw: Record<string, string> = {};
  for (const source of [body, query]) {
    if (typeof source !== 'object' || source === null || Array.isArray(source)) continue;
    for (const [name, value] of Object.entries(source as Record<string, unknown>)) {
      const text = firstString(value);
      if (text === undefined) continue;
      // A network's odd bytes must not lose its postback: NULs are stripped, not refused.
      const key = stripNul(name).slice(0, 64);
      if (!(key in raw) && Object.keys(raw).length >= MAX_RAW_PARAMETERS) continue;
      raw[key] = stripNul(text);
    }
  }
  const pick = (names: readonly string[]) => {
    for (const name of names) {
      const value = raw[name];
      if (value !== undefined && value !== '') return value;
    }
    return undefined;
  };
  const payoutText = pick(ALIASES.payout);
  const payout = payoutText === undefined ? Number.NaN : Number(payoutText.replace(',', '.'));
  return {
    clickId: pick(ALIASES.clickId),
    revenue: Number.isFinite(payout) ? payout : undefined,
    status: pick(ALIASES.status),
    event: pick(ALIASES.event),
    txid: pick(ALIASES.txid),
    raw,
  };
}

export interface ResolvedEvent {
  event: CompiledPostbackEvent | null;
  /** The campaign's entry for the event (§3.6 flags), when it has one. */
  entry: CampaignPostbackEvent | null;
  isConversion: boolean;
}

/**
 * The postback event: by `event` (external id, else name, case-insensitive), else the first of the
 * campaign's postback events whose status values contain `status`. A postback naming neither event
 * nor status is a plain conversion; one whose event or status matches nothing is kept but not counted.
 */
export function resolvePostbackEvent(
  snapshot: RoutingSnapshot,
  campaign: CompiledCampaign | undefined,
  params: Pick<PostbackParams, 'event' | 'status'>,
): ResolvedEvent {
  let event: CompiledPostbackEvent | null = null;
  if (params.event !== undefined) {
    event = snapshot.postbackEvents.get(params.event) ?? null;
    if (!event) {
      const name = params.event.toLowerCase();
      for (const candidate of snapshot.postbackEvents.values()) {
        if (candidate.name.toLowerCase() === name) {
          event = candidate;
          break;
        }
      }
    }
  } else if (params.status !== undefined && campaign) {
    const status = params.status.toLowerCase();
    for (const entry of campaign.postbackEvents) {
      const candidate = snapshot.postbackEvents.get(entry.eventExternalId);
      if (candidate?.statusValues.includes(status)) {
        event = candidate;
        break;
      }
    }
  }
  if (!event)
    return { event: null, entry: null, isConversion: params.event === undefined && params.status === undefined };
  const entry = campaign?.postbackEvents.find((candidate) => candidate.eventExternalId === event.externalId) ?? null;
  // The campaign's entry can mark an event as a conversion; the event's own flag is the default.
  return { event, entry, isConversion: event.isConversion || (entry?.isConversion ?? false) };
}

/**
 * §3.5: the campaign's payout for the event: the first rule (by priority) whose condition matches the
 * original click or lead, else the set's default. With no rule set, the network's payout (or 0).
 */
export function rulePayout(
  campaign: CompiledCampaign | undefined,
  eventExternalId: string | null,
  context: ConditionContext,
  revenue: number | undefined,
): { payout: number; ruleId: string | null } {
  const set = eventExternalId ? campaign?.payoutRuleSets.get(eventExternalId) : undefined;
  if (!set) return { payout: revenue ?? 0, ruleId: null };
  for (const rule of set.rules) {
    if (evaluateCondition(rule.condition, context)) return { payout: rule.payout, ruleId: rule.id };
  }
  return { payout: set.defaultPayout, ruleId: null };
}
