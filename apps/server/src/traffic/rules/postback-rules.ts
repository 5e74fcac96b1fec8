// Postbacks: reading the network's parameters, resolving the postback
// event, and the payout by the campaign's payout rule set.
import {
  POSTBACK_PARAMETER_ALIASES as ALIASES,
  type ConditionContext,
  type ConversionState,
  DEFAULT_STATUS_MAP,
  evaluateCondition,
  type PayoutSource,
  POSTBACK_TEXT_LIMITS,
  readNetworkAmount,
  type StatusMap,
  stateOfStatus,
  stripNul,
} from '@switchyard/domain';
import type { CampaignPostbackEvent, CompiledCampaign, CompiledPostbackEvent, RoutingSnapshot } from './snapshot.js';

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
  /**
   * The parameter the click id was read from: Keitaro's `subid` and Binom's `cnv_id` say which tracker
   * a click id from before the move was issued by (pre-move.ts).
   */
  clickIdParameter?: string | undefined;
  /** The network's payout, when it sent one that reads as an amount (readNetworkAmount). */
  revenue: number | undefined;
  /**
   * True when a payout was sent that does not read as an amount. Its limit (MAX_POSTBACK_PAYOUT) is
   * checked on the amount as stored, once converted to the workspace's currency (postback.ts).
   */
  invalidPayout: boolean;
  /**
   * What is past POSTBACK_TEXT_LIMITS (a value, a name, too many parameters): the postback is
   * refused whole rather than stored cut. `field` names the parameter.
   */
  tooLong: { field: string; reason: string } | undefined;
  status: string | undefined;
  event: string | undefined;
  txid: string | undefined;
  /** Upper-cased, as sent. */
  currency: string | undefined;
  /** Status values the URL itself maps (Keitaro's `sale_status=…`), lowercased; they win over the event's. */
  urlStatusMap: Partial<StatusMap>;
  /**
   * Every parameter as received (first value of each), for the conversion and the log; a refused
   * postback's over-long values are logged cut, marked with `…`.
   */
  raw: Record<string, string>;
}

function firstString(value: unknown): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  if (typeof first === 'string') return first.trim();
  if (typeof first === 'number') return String(first);
  return undefined;
}

const { value: MAX_VALUE, name: MAX_NAME, parameters: MAX_PARAMETERS } = POSTBACK_TEXT_LIMITS;

/** The first of `raw`'s values past its limit, as a refusal; over-long values are cut for the log. */
function overLong(raw: Record<string, string>): PostbackParams['tooLong'] {
  let found: PostbackParams['tooLong'];
  for (const [name, value] of Object.entries(raw)) {
    if (value.length <= MAX_VALUE) continue;
    found ??= { field: name, reason: `The ${name} is longer than ${MAX_VALUE} characters.` };
    raw[name] = `${value.slice(0, MAX_VALUE)}…`;
  }
  return found;
}

/** Query string and body (JSON or form) merged; the query wins for a name sent in both. */
export function readPostbackParams(query: unknown, body: unknown): PostbackParams {
  const raw: Record<string, string> = {};
  let tooLong: PostbackParams['tooLong'];
  for (const source of [body, query]) {
    if (typeof source !== 'object' || source === null || Array.isArray(source)) continue;
    for (const [name, value] of Object.entries(source as Record<string, unknown>)) {
      const text = firstString(value);
      if (text === undefined) continue;
      // A network's odd bytes must not lose its postback: NULs are stripped, not refused.
      let key = stripNul(name);
      if (key.length > MAX_NAME) {
        tooLong ??= {
          field: key.slice(0, MAX_NAME),
          reason: `A parameter's name is longer than ${MAX_NAME} characters.`,
        };
        key = `${key.slice(0, MAX_NAME)}…`;
      }
      if (!(key in raw) && Object.keys(raw).length >= MAX_PARAMETERS) {
        tooLong ??= { field: key, reason: `A postback carries at most ${MAX_PARAMETERS} parameters.` };
        continue;
      }
      raw[key] = stripNul(text);
    }
  }
  const params = paramsOf(raw);
  return tooLong ? { ...params, tooLong } : params;
}

/**
 * The Contract's parameters out of named values (a postback's, or an imported line's). A value past
 * POSTBACK_TEXT_LIMITS is marked `tooLong` (and cut in `raw`, which then only reaches the log).
 */
export function paramsOf(raw: Record<string, string>): PostbackParams {
  const tooLong = overLong(raw);
  const pickName = (names: readonly string[]) =>
    names.find((name) => {
      const value = raw[name];
      return value !== undefined && value !== '' && !UNFILLED_MACRO.test(value);
    });
  const pick = (names: readonly string[]) => {
    const name = pickName(names);
    return name === undefined ? undefined : raw[name];
  };
  const clickIdParameter = pickName(ALIASES.clickId);
  const payoutText = pick(ALIASES.payout);
  const payout = payoutText === undefined ? undefined : readNetworkAmount(payoutText);
  const urlStatusMap: Partial<StatusMap> = {};
  for (const [state, name] of Object.entries(URL_STATUS_MAP) as [ConversionState, string][]) {
    const values = raw[name]
      ?.split(',')
      .map((value) => value.trim().toLowerCase())
      .filter(Boolean);
    if (values && values.length > 0) urlStatusMap[state] = values;
  }
  return {
    clickId: clickIdParameter === undefined ? undefined : raw[clickIdParameter],
    clickIdParameter,
    revenue: payout,
    invalidPayout: payoutText !== undefined && payout === undefined,
    tooLong,
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
  /**
   * A status that no mapping lists and that does not name the event, which the event does not
   * take as pending: the postback is refused. An unknown status is never approved.
   */
  unknownStatus: boolean;
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
 * knows it (so lead, sale and rejected of one conversion reach the same event), else the first that
 * takes unknown statuses as pending. A postback naming
 * neither event nor status is a plain conversion; one whose event matches nothing is kept but not
 * counted; one whose status no mapping lists is refused, or pending where its event says so.
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
      // A status no event knows goes to the first that takes unknown statuses as pending.
      candidates.find((candidate) => candidate.unknownStatuses === 'pending') ??
      null;
  }
  const mapped =
    status === undefined
      ? undefined
      : stateOfStatus(effectiveMap(event?.statusMap ?? DEFAULT_STATUS_MAP, params.urlStatusMap), status);
  const unknown = status !== undefined && mapped === undefined && !event?.statusValues.includes(status);
  const unknownStatus = unknown && event?.unknownStatuses !== 'pending';
  const state = mapped ?? (unknown ? 'pending' : 'approved');
  if (!event) {
    const plain = params.event === undefined && (status === undefined || mapped !== undefined);
    return { event: null, entry: null, isConversion: plain, state, unknownStatus };
  }
  const entry = campaign?.postbackEvents.find((candidate) => candidate.eventExternalId === event.externalId) ?? null;
  // The campaign's entry can mark an event as a conversion; the event's own flag is the default.
  return { event, entry, isConversion: event.isConversion || (entry?.isConversion ?? false), state, unknownStatus };
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
