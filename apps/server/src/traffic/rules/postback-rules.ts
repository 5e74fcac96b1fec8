// Postbacks (issue 5, Contract and item 3): reading the network's parameters, resolving the postback
// event, and the payout by the campaign's payout rule set.
import {
  type ConditionContext,
  type ConversionState,
  DEFAULT_STATUS_MAP,
  evaluateCondition,
  MAX_POSTBACK_PAYOUT,
  type PayoutSource,
  type StatusMap,
  stateOfStatus,
  stripNul,
} from '@switchyard/domain';
import type { CampaignPostbackEvent, CompiledCampaign, CompiledPostbackEvent, RoutingSnapshot } from './compile.js';

const MAX_VALUE_LENGTH = 255;
const MAX_RAW_PARAMETERS = 50;

/** Parameter names of the Contract, each with its aliases, first found wins. */
const ALIASES = {
  clickId: ['subid', 'clickid', 'click_id', 'cid', 'cnv_id', 'lead_id'],
  payout: ['payout', 'revenue', 'sum'],
  status: ['status', 'cnv_status', 'et', 'type'],
  event: ['event'],
  txid: ['tid', 'txid', 'transaction_id'],
  currency: ['currency', 'cnv_currency'],
} as const;

/** The parameters a payout is read from: money, which a raw postback shows only to who may see it. */
export const PAYOUT_PARAMETERS: readonly string[] = ALIASES.payout;

/**
 * A macro the network left as it was (`{currency}`, `[payout]`, `%status%`, `${txid}`): it sent no value,
 * which is read as the parameter left out rather than as a currency or payout of that name.
 */
const UNFILLED_MACRO = /^(\{[^{}]*\}|\[[^[\]]*\]|%[^%]*%|\$\{[^{}]*\}|#[^#]*#)$/;

/** Keitaro's in-URL mapping: `sale_status=approved` means "approved" counts as a sale (approved). */
const URL_STATUS_MAP = {
  pending: 'lead_status',
  approved: 'sale_status',
  rejected: 'rejected_status',
} as const satisfies Record<ConversionState, string>;

export interface PostbackParams {
  clickId: string | undefined;
  /** The network's payout, when it sent one: a number, or `invalid` when it is not a sane one. */
  revenue: number | undefined;
  /** True when a payout was sent that is not a finite number from 0 to MAX_POSTBACK_PAYOUT. */
  invalidPayout: boolean;
  status: string | undefined;
  event: string | undefined;
  txid: string | undefined;
  /** Upper-cased, as sent. */
  currency: string | undefined;
  /** Status values the URL itself maps (Keitaro's `sale_status=…`), lowercased; they win over the event's. */
  urlStatusMap: Partial<StatusMap>;
  /** Every parameter as received (first value of each, bounded), for the conversion and the log. */
  raw: Record<string, string>;
}

function firstString(value: unknown): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  if (typeof first === 'string') return first.trim().slice(0, MAX_VALUE_LENGTH);
  if (typeof first === 'number') return String(first);
  return undefined;
}

/** A network's number: `2,5` is 2.5; anything else that is not plainly a number is refused. */
function parseAmount(text: string): number {
  const normalized = text.replace(',', '.');
  return /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(normalized) ? Number(normalized) : Number.NaN;
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
  return paramsOf(raw);
}

/** The Contract's parameters out of named values (a postback's, or an imported line's). */
export function paramsOf(raw: Record<string, string>): PostbackParams {
  const pick = (names: readonly string[]) => {
    for (const name of names) {
      const value = raw[name];
      if (value !== undefined && value !== '' && !UNFILLED_MACRO.test(value)) return value;
    }
    return undefined;
  };
  const payoutText = pick(ALIASES.payout);
  const payout = payoutText === undefined ? undefined : parseAmount(payoutText);
  const sane = payout !== undefined && Number.isFinite(payout) && payout >= 0 && payout <= MAX_POSTBACK_PAYOUT;
  const urlStatusMap: Partial<StatusMap> = {};
  for (const [state, name] of Object.entries(URL_STATUS_MAP) as [ConversionState, string][]) {
    const values = raw[name]
      ?.split(',')
      .map((value) => value.trim().toLowerCase())
      .filter(Boolean);
    if (values && values.length > 0) urlStatusMap[state] = values;
  }
  return {
    clickId: pick(ALIASES.clickId),
    revenue: sane ? payout : undefined,
    invalidPayout: payout !== undefined && !sane,
    status: pick(ALIASES.status),
    event: pick(ALIASES.event),
    txid: pick(ALIASES.txid),
    currency: pick(ALIASES.currency)?.toUpperCase(),
    urlStatusMap,
    raw,
  };
}

export interface ResolvedEvent {
  event: CompiledPostbackEvent | null;
  /** The campaign's entry for the event (§3.6 flags), when it has one. */
  entry: CampaignPostbackEvent | null;
  isConversion: boolean;
  /**
   * The conversion's state by its status: the URL's own mapping first, then the event's (the default
   * mapping without an event). No status, or one that names the event without a state, is a sale.
   */
  state: ConversionState;
}

/** The event's mapping with the URL's values put first (a value the URL maps is taken from the others). */
function effectiveMap(base: StatusMap, fromUrl: Partial<StatusMap>): StatusMap {
  const moved = new Set(Object.values(fromUrl).flat());
  return {
    pending: [...(fromUrl.pending ?? []), ...base.pending.filter((value) => !moved.has(value.toLowerCase()))],
    approved: [...(fromUrl.approved ?? []), ...base.approved.filter((value) => !moved.has(value.toLowerCase()))],
    rejected: [...(fromUrl.rejected ?? []), ...base.rejected.filter((value) => !moved.has(value.toLowerCase()))],
  };
}

/**
 * The postback event: by `event` (external id, else name, case-insensitive); else the first of the
 * campaign's postback events whose status values contain `status`, else the first whose status mapping
 * knows it (so lead, sale and rejected of one conversion reach the same event). A postback naming
 * neither event nor status is a plain conversion; one whose event or status matches nothing is kept
 * but not counted.
 */
export function resolvePostbackEvent(
  snapshot: RoutingSnapshot,
  campaign: CompiledCampaign | undefined,
  params: Pick<PostbackParams, 'event' | 'status' | 'urlStatusMap'>,
): ResolvedEvent {
  let event: CompiledPostbackEvent | null = null;
  const status = params.status?.toLowerCase();
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
  } else if (status !== undefined && campaign) {
    const candidates = campaign.postbackEvents
      .map((entry) => snapshot.postbackEvents.get(entry.eventExternalId))
      .filter((candidate): candidate is CompiledPostbackEvent => candidate !== undefined);
    event =
      candidates.find((candidate) => candidate.statusValues.includes(status)) ??
      candidates.find((candidate) => stateOfStatus(effectiveMap(candidate.statusMap, params.urlStatusMap), status)) ??
      null;
  }
  const mapped =
    status === undefined
      ? undefined
      : stateOfStatus(effectiveMap(event?.statusMap ?? DEFAULT_STATUS_MAP, params.urlStatusMap), status);
  const state = mapped ?? 'approved';
  if (!event) {
    const plain = params.event === undefined && (status === undefined || mapped !== undefined);
    return { event: null, entry: null, isConversion: plain, state };
  }
  const entry = campaign?.postbackEvents.find((candidate) => candidate.eventExternalId === event.externalId) ?? null;
  // The campaign's entry can mark an event as a conversion; the event's own flag is the default.
  return { event, entry, isConversion: event.isConversion || (entry?.isConversion ?? false), state };
}

/**
 * §3.5: the campaign's payout for the event: the first rule (by priority) whose condition matches the
 * original click or lead, else the set's default. With no rule set, the network's payout (or 0).
 */
/**
 * A conversion's payout, and what set it (PAYOUT_SOURCES, in this order): the first payout rule of the
 * campaign's rule set for the postback event whose condition matches; else that set's default payout;
 * without a rule set for the event, the amount the network sent; else the offer's payout (already in
 * the workspace's currency); else 0.
 */
export function rulePayout(
  campaign: CompiledCampaign | undefined,
  eventExternalId: string | null,
  context: ConditionContext,
  revenue: number | undefined,
  offerPayout?: number,
): { payout: number; ruleId: string | null; source: PayoutSource } {
  const set = eventExternalId ? campaign?.payoutRuleSets.get(eventExternalId) : undefined;
  if (!set) {
    if (revenue !== undefined) return { payout: revenue, ruleId: null, source: 'network' };
    if (offerPayout !== undefined && offerPayout > 0) return { payout: offerPayout, ruleId: null, source: 'offer' };
    return { payout: 0, ruleId: null, source: 'none' };
  }
  for (const rule of set.rules) {
    if (evaluateCondition(rule.condition, context)) return { payout: rule.payout, ruleId: rule.id, source: 'rule' };
  }
  return { payout: set.defaultPayout, ruleId: null, source: 'default' };
}
