// Conversions, the postback log and the outbound postback queue. A conversion is written before its postback is answered; outbound postbacks wait in a
// table so that a restart does not forget them.
import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

/** A conversion taken from an affiliate network's postback. */
export interface ConversionTable {
  id: Generated<number>;
  conversion_id: string;
  /** ISO-8601, UTC. */
  created_at: string;
  /** The tracker click converted (tracker side), or null. */
  click_id: string | null;
  /** The lead converted (API side), or null. */
  lead_id: string | null;
  campaign_external_id: string;
  flow_external_id: string | null;
  path_group_id: string | null;
  path_id: string | null;
  offer_external_id: string | null;
  lander_external_id: string | null;
  traffic_source_external_id: string | null;
  affiliate_network_external_id: string | null;
  /** The postback event resolved from `event` or the status; null when none matched. */
  postback_event_external_id: string | null;
  status: string | null;
  /** 1 when the postback event counts as a conversion (or no event was resolved). */
  is_conversion: number;
  /** After the campaign's payout rules. */
  payout: number;
  /** The payout the network sent (`payout`, `revenue`, `sum`), kept as received revenue. */
  revenue: number | null;
  currency: string;
  /** The network's transaction id; one conversion per click (or lead) and txid. */
  txid: string | null;
  country: string | null;
  subaff: string | null;
  /** The payout rule that matched, or null for the rule set's default (or no rule set). */
  payout_rule_id: string | null;
  /** What set the payout (PAYOUT_SOURCES: rule, default, network, offer, none); null before migration 0014. */
  payout_source: ColumnType<string | null, string | null | undefined, string | null>;
  /** JSON object: the postback's parameters as received. */
  raw: string;
  /** pending | approved | rejected; rejected conversions carry no revenue in reports. */
  state: Generated<string>;
  /** The postback event's external id, '' for none: part of the conversion's key. */
  event_key: Generated<string>;
  /** The txid, '' for none: part of the conversion's key. */
  txid_key: Generated<string>;
  /** The currency of `revenue` as the network sent it; `payout` is in `currency`, the workspace's. */
  original_currency: string | null;
  updated_at: string | null;
  workspace_id: number | null;
  /** What this conversion adds to its click's cost while approved (CPA, RevShare); 0 otherwise. */
  cost: Generated<number>;
  /** The time of the click (or lead) converted: reports attribute by it by default. */
  event_at: string | null;
}

/** Every postback received, matched or not, for the dashboard's postback log. */
export interface PostbackLogTable {
  id: Generated<number>;
  created_at: string;
  /** converted | duplicate | unknown_click | missing_click_id */
  outcome: string;
  click_id: string | null;
  txid: string | null;
  conversion_id: string | null;
  ip: string | null;
  raw: string;
  /** The conversion's state after this postback, and before it when it moved one. */
  state: string | null;
  previous_state: string | null;
  /** Why a postback was refused or left a conversion as it was. */
  reason: string | null;
  workspace_id: number | null;
}

/** A postback owed to a traffic source, sent by the tracker's worker with retries. */
export interface OutboundPostbackTable {
  id: Generated<number>;
  conversion_id: string;
  created_at: string;
  /** The traffic source's postback URL with the macros filled. */
  url: string;
  /** pending | sent | failed */
  state: string;
  attempts: number;
  /** The HTTP status of the last attempt (0: no answer). */
  last_status: number | null;
  last_error: string | null;
  last_attempt_at: string | null;
  /** When the worker may (re)try; also the lease of a node that is sending it. */
  next_attempt_at: string;
}

export type NewConversion = Insertable<ConversionTable>;
export type ConversionRow = Selectable<ConversionTable>;
export type NewPostbackLog = Insertable<PostbackLogTable>;
export type OutboundPostbackRow = Selectable<OutboundPostbackTable>;
