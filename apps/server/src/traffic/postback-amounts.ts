// The money of a postback: the network's payout converted into the workspace's currency and checked
// (a known currency, a finite amount within MAX_POSTBACK_PAYOUT), and the offer's payout in it.
import { MAX_POSTBACK_PAYOUT } from '@switchyard/domain';
import type { PostbackWorkspace } from '../store/traffic/engine-store.js';
import type { EngineParts } from './parts.js';
import type { PostbackParams, ResolvedEvent } from './rules/postback-rules.js';

/** A payout whose conversion into the workspace's currency is not a finite amount. */
export function unconvertibleReason(workspace: PostbackWorkspace): string {
  return `The payout converted to ${workspace.currency} is too large to keep: check the currency rates.`;
}

/**
 * The network's payout in the workspace's currency, or why the postback is refused: a currency with no
 * rate, an amount that does not convert to a finite one (a rate far off, stored before rates were
 * checked, would spoil every report total of the workspace), or one past MAX_POSTBACK_PAYOUT once
 * converted (the limit holds on what is stored).
 */
export async function checkedAmount(
  parts: EngineParts,
  params: PostbackParams,
  workspace: PostbackWorkspace,
  offer: string | null,
  side: 'tracker' | 'api',
): Promise<
  | { value: number | undefined; currency: string }
  | { outcome: 'unknown_currency' | 'unconvertible_payout' | 'invalid_payout'; reason: string }
> {
  const amount = await convertedAmount(parts, params, workspace, offer, side);
  if (amount.unknown) return { outcome: 'unknown_currency', reason: `The currency ${amount.unknown} has no rate.` };
  if (amount.value !== undefined && !Number.isFinite(amount.value)) {
    return { outcome: 'unconvertible_payout', reason: unconvertibleReason(workspace) };
  }
  if (amount.value !== undefined && amount.value > MAX_POSTBACK_PAYOUT) {
    const limit = `${MAX_POSTBACK_PAYOUT.toLocaleString('en')} ${workspace.currency}`;
    return {
      outcome: 'invalid_payout',
      reason: `The payout is ${amount.value} ${workspace.currency}, more than ${limit}.`,
    };
  }
  return { value: amount.value, currency: amount.currency };
}

/**
 * The network's payout in the workspace's currency: sent in `currency`, else in the offer's, else in the
 * workspace's. `unknown` names a currency sent that has no rate (refused); an offer's currency without a
 * rate is taken as the workspace's.
 */
async function convertedAmount(
  parts: EngineParts,
  params: PostbackParams,
  workspace: PostbackWorkspace,
  offer: string | null,
  side: 'tracker' | 'api',
): Promise<{ value: number | undefined; currency: string; unknown?: string }> {
  const offerCurrency = offer ? parts.snapshot[side].offers.get(offer)?.currency : undefined;
  const from = params.currency ?? offerCurrency ?? workspace.currency;
  if (from === workspace.currency) return { value: params.revenue, currency: from };
  const rate = await exchangeRate(parts, from, workspace.currency);
  if (rate === undefined) {
    const known = (await parts.store.currencyRates([from])).has(from);
    if (params.currency !== undefined && !known) return { value: undefined, currency: from, unknown: from };
    return { value: params.revenue, currency: workspace.currency };
  }
  if (params.revenue === undefined) return { value: undefined, currency: from };
  return { value: Math.round(params.revenue * rate * 1e6) / 1e6, currency: from };
}

/** How many of `to` one `from` is worth, from the stored rates (per the same base); undefined: no rate. */
async function exchangeRate(parts: EngineParts, from: string, to: string): Promise<number | undefined> {
  const rates = await parts.store.currencyRates([from, to]);
  const fromRate = rates.get(from);
  const toRate = rates.get(to);
  return fromRate && toRate ? toRate / fromRate : undefined;
}

/** The offer's payout in the workspace's currency (undefined: none, or its currency has no rate). */
export async function offerPayoutIn(
  parts: EngineParts,
  workspace: PostbackWorkspace,
  offerId: string | null,
  side: 'tracker' | 'api',
): Promise<number | undefined> {
  const offer = offerId ? parts.snapshot[side].offers.get(offerId) : undefined;
  if (!offer || !(offer.payout > 0)) return undefined;
  if (offer.currency === workspace.currency) return offer.payout;
  const rate = await exchangeRate(parts, offer.currency, workspace.currency);
  return rate === undefined ? undefined : Math.round(offer.payout * rate * 1e6) / 1e6;
}

/**
 * What a postback itself sets on its conversion, whatever it converts on (a click here, or one from
 * before the move): its event, status, amounts and txid.
 */
export function postbackFields(
  params: PostbackParams,
  resolved: ResolvedEvent,
  payout: number,
  amountCurrency: string,
  workspace: PostbackWorkspace,
) {
  return {
    affiliate_network_external_id: resolved.event?.affiliateNetworkExternalId ?? null,
    postback_event_external_id: resolved.event?.externalId ?? null,
    status: params.status ?? null,
    is_conversion: resolved.isConversion ? 1 : 0,
    payout,
    revenue: params.revenue ?? null,
    currency: workspace.currency,
    original_currency: params.revenue === undefined ? null : amountCurrency,
    txid: params.txid ?? null,
  };
}
