// Answers of the routes that list what happened — clicks, leads and conversions, the postback
// log, outbound postbacks and the change history.
import { z } from 'zod';
import { BOT_REASONS } from '../bot-protection.js';
import { CONVERSION_STATES, PAYOUT_SOURCES } from '../conversions.js';
import { HISTORY_ACTIONS } from '../history.js';
import { OUTBOUND_STATES, POSTBACK_OUTCOMES } from '../postback-log.js';
import { listAnswer, ZStoredId, ZTimestamp } from './common.js';

const text = z.string().nullable();
const ZState = z.enum(CONVERSION_STATES);
/** Amounts are left out, not zeroed, for a user without the money permission. */
const amount = z.number().optional();

/** A config record a row names: its id, its name (null once deleted) and its kind (for a link). */
export const ZLoggedRecord = z.object({ external_id: z.string(), name: z.string().nullable(), kind: z.string() });

const VARS = Object.fromEntries(Array.from({ length: 10 }, (_, index) => [`var${index + 1}`, text]));

/** A conversion of a click (or an API lead), as the click's row shows it. */
export const ZClickConversion = z.object({
  conversion_id: z.string(),
  state: ZState,
  payout: amount,
  created_at: ZTimestamp,
});

/** What was read off the visitor of a click or lead, and why it was judged a bot. */
const VISITOR = {
  region: text,
  city: text,
  asn: z.number().int().nullable(),
  isp: text,
  language: text,
  referrer_domain: text,
  os_version: z.number().int().nullable(),
  browser_version: z.number().int().nullable(),
  bot_reason: z.enum(BOT_REASONS).nullable(),
};

// Event rows are open: the visitor's columns grow with the tracker, and each new one is shown here as
// it is kept.
export const ZClickEventAnswer = z.looseObject({
  ...VARS,
  ...VISITOR,
  click_id: z.string(),
  created_at: ZTimestamp,
  campaign: ZLoggedRecord,
  flow: ZLoggedRecord.nullable(),
  path_group_id: text,
  path_id: text,
  lander: ZLoggedRecord.nullable(),
  offer: ZLoggedRecord.nullable(),
  traffic_source: ZLoggedRecord.nullable(),
  visitor_id: z.string(),
  is_unique: z.boolean(),
  ip: text,
  country: text,
  device: text,
  platform: text,
  browser: text,
  user_agent: text,
  referrer: text,
  external_click_id: text,
  subaff: text,
  vars: z.record(z.string(), z.string()),
  cost: amount,
  cost_flag: text,
  is_bot: z.boolean(),
  reason: z.string(),
  conversions: z.array(ZClickConversion),
});

export const ZLeadEventAnswer = z.looseObject({
  ...VARS,
  ...VISITOR,
  lead_id: z.string(),
  created_at: ZTimestamp,
  campaign: ZLoggedRecord,
  flow: ZLoggedRecord.nullable(),
  path_group_id: text,
  path_id: text,
  offer: ZLoggedRecord.nullable(),
  traffic_source: ZLoggedRecord.nullable(),
  email_hash: z.string(),
  email_domain: z.string(),
  age: z.number().nullable(),
  ip: text,
  country: text,
  device: text,
  platform: text,
  browser: text,
  user_agent: text,
  subaff: text,
  vars: z.record(z.string(), z.string()),
  is_bot: z.boolean(),
  decision: z.string(),
  reason: z.string(),
  backup_used: z.boolean(),
  is_unique: z.boolean(),
});

export const ZConversionEventAnswer = z.looseObject({
  ...VARS,
  conversion_id: z.string(),
  created_at: ZTimestamp,
  event_at: ZTimestamp.nullable(),
  updated_at: ZTimestamp.nullable(),
  click_id: text,
  lead_id: text,
  campaign: ZLoggedRecord,
  flow: ZLoggedRecord.nullable(),
  path_group_id: text,
  path_id: text,
  offer: ZLoggedRecord.nullable(),
  lander: ZLoggedRecord.nullable(),
  traffic_source: ZLoggedRecord.nullable(),
  affiliate_network: ZLoggedRecord.nullable(),
  event: ZLoggedRecord.nullable(),
  status: text,
  is_conversion: z.boolean(),
  state: ZState,
  payout: amount,
  revenue: z.number().nullable().optional(),
  cost: amount,
  currency: z.string(),
  original_currency: text,
  txid: text,
  country: text,
  subaff: text,
  device: text,
  platform: text,
  browser: text,
  payout_rule_id: text,
  raw: z.record(z.string(), z.string()),
});

export const ZClickEventList = listAnswer(ZClickEventAnswer);
export const ZLeadEventList = listAnswer(ZLeadEventAnswer);
export const ZConversionEventList = listAnswer(ZConversionEventAnswer);

/** The conversion an incoming postback created. */
export const ZLoggedConversion = z.object({
  conversion_id: z.string(),
  /** Left out for a user without `/tracker/reports/money`, like `revenue`. */
  payout: amount,
  /** The payout the network sent, or null. */
  revenue: z.number().nullable().optional(),
  currency: z.string(),
  status: text,
  /** The postback event resolved from `event` or the status; null when none matched. */
  event: ZLoggedRecord.nullable(),
  is_conversion: z.boolean(),
  /** The conversion's state now. */
  state: ZState,
  /** The amount's currency as the network sent it, when it differs from `currency`. */
  original_currency: text,
  /** What set the payout: a payout rule, the event's default, the network, the offer; null: not known. */
  payout_source: z.enum(PAYOUT_SOURCES).nullable(),
  /** The payout rule that matched (its id in the campaign's rule set). */
  payout_rule_id: text,
});

export const ZPostbackLogEntryAnswer = z.object({
  id: ZStoredId,
  created_at: ZTimestamp,
  outcome: z.enum(POSTBACK_OUTCOMES),
  /** What the network was answered (POSTBACK_OUTCOME_STATUS). */
  response_status: z.number().int(),
  click_id: text,
  txid: text,
  ip: text,
  /** Every parameter as received (first value of each). */
  raw: z.record(z.string(), z.string()),
  /**
   * What the network said, read from `raw` as the postback was (its status, payout and currency, as
   * sent; null for one it did not send), shown beside the state the conversion moved to.
   */
  sent: z
    .object({
      status: z.string().nullable(),
      payout: z.string().nullable().optional(),
      currency: z.string().nullable(),
    })
    .optional(),
  conversion: ZLoggedConversion.nullable(),
  /** The state this postback left the conversion in, and the one it found when it moved it. */
  state: ZState.nullable(),
  previous_state: ZState.nullable(),
  /** Why it was refused or left the conversion as it was, in words an operator reads. */
  reason: text,
  /** The campaign of the conversion, or of the click or lead the postback named. */
  campaign: ZLoggedRecord.nullable(),
});
export const ZPostbackLogList = listAnswer(ZPostbackLogEntryAnswer);

export const ZOutboundPostbackEntryAnswer = z.object({
  id: ZStoredId,
  /** When the postback was queued (with its conversion). */
  created_at: ZTimestamp,
  /** The traffic source's postback URL with the macros filled. */
  url: z.string(),
  state: z.enum(OUTBOUND_STATES),
  attempts: z.number().int().min(0),
  /** The HTTP status of the last attempt (0: no answer), or null before the first. */
  last_status: z.number().int().nullable(),
  last_error: text,
  last_attempt_at: ZTimestamp.nullable(),
  /** When the next attempt is due; null once sent or given up. */
  next_attempt_at: ZTimestamp.nullable(),
  conversion_id: z.string(),
  /** The click or lead the conversion converted. */
  click_id: text,
  lead_id: text,
  txid: text,
  campaign: ZLoggedRecord.nullable(),
});
export const ZOutboundPostbackList = listAnswer(ZOutboundPostbackEntryAnswer);

/** One kept change, as listed. */
export const ZHistoryEntryAnswer = z.object({
  id: ZStoredId,
  created_at: ZTimestamp,
  action: z.enum(HISTORY_ACTIONS),
  resource: z.string(),
  /** The record's id field (external id, or number as text). */
  record_id: text,
  record_name: text,
  user: z.object({ id: ZStoredId, name: text }).nullable(),
  /** Set when no person made the change: `Rule: <name>`. */
  author: text.optional(),
  ip: text,
  /** Set when the entry put back an earlier one's "before" (POST /api/history/{entry}/restore). */
  restored_from: ZStoredId.nullable(),
});
export const ZHistoryList = listAnswer(ZHistoryEntryAnswer);

/** `GET /api/history/{entry}`: both versions (null for none: before a create, after a login). */
export const ZHistoryEntryDetailAnswer = ZHistoryEntryAnswer.extend({
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
});
