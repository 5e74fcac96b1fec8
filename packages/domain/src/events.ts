import { z } from 'zod';
import type { BotReason } from './bot-protection.js';
import { DEFAULT_PAGE, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './constants.js';
import { CONVERSION_STATES, type ConversionState } from './conversions.js';
import type { LoggedRecord } from './postback-log.js';
import { isTimeZone, REPORT_ATTRIBUTIONS, ZDate, ZGroupFilters, ZVarsFilter } from './reports.js';

// The event tables. `GET /api/events/clicks`, `/api/events/leads` and `/api/events/conversions`
// list single events, newest first, narrowed by the report's own filters (date range in a timezone,
// `filters`, `vars`): the events behind a report row are the list filtered by that row's values.

export const EVENT_KINDS = ['clicks', 'leads', 'conversions'] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

export function isEventKind(text: string | undefined): text is EventKind {
  return (EVENT_KINDS as readonly string[]).includes(text ?? '');
}

/**
 * Which conversions are listed: `counted` (the default) those a report's `conversions` figure counts —
 * a conversion event, pending or approved — so the list agrees with the row; `all` every stored one
 * (rejected ones and postback events that are not conversions too); or one state.
 */
export const EVENT_CONVERSION_SCOPES = ['counted', 'all', ...CONVERSION_STATES] as const;
export type EventConversionScope = (typeof EVENT_CONVERSION_SCOPES)[number];

/** The report's filters (ZReportQuery's pieces), paged like the postback log: no `limit=0`. */
export const ZEventQuery = z
  .object({
    date_from: ZDate.optional(),
    date_to: ZDate.optional(),
    start_date: ZDate.optional(),
    end_date: ZDate.optional(),
    timezone: z.string().trim().default('UTC').refine(isTimeZone, { message: 'Use an IANA timezone.' }),
    vars: ZVarsFilter.default({}),
    filters: ZGroupFilters.default({}),
    /** Conversions only (EVENT_CONVERSION_SCOPES). */
    state: z.enum(EVENT_CONVERSION_SCOPES).default('counted'),
    /** Conversions only: the range is of their click's time, or their postback's, as in the report. */
    attribution: z.enum(REPORT_ATTRIBUTIONS).default('click'),
    page: z.coerce.number().int().min(1).default(DEFAULT_PAGE),
    limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  })
  .transform(({ start_date, end_date, ...query }) => ({
    ...query,
    date_from: query.date_from ?? start_date,
    date_to: query.date_to ?? end_date,
  }))
  .superRefine((query, context) => {
    if (query.date_from && query.date_to && query.date_from > query.date_to) {
      context.addIssue({ code: 'custom', path: ['date_to'], message: 'The range ends before it starts.' });
    }
  });
export type TEventQuery = z.infer<typeof ZEventQuery>;

/** The var columns every event carries (a conversion: its click's or lead's). */
export interface EventVars {
  var1: string | null;
  var2: string | null;
  var3: string | null;
  var4: string | null;
  var5: string | null;
  var6: string | null;
  var7: string | null;
  var8: string | null;
  var9: string | null;
  var10: string | null;
}

/** A conversion of a click, as the click's row shows it (`payout` only with the money permission). */
export interface ClickConversion {
  conversion_id: string;
  state: ConversionState;
  payout?: number;
  created_at: string;
}

/** What was read off the visitor, and why it was judged a bot (null for a human). */
export interface EventVisitor {
  /** ISO 3166-2 (`US-CA`), or `CC:Name` for a region without a code. */
  region: string | null;
  city: string | null;
  asn: number | null;
  isp: string | null;
  language: string | null;
  referrer_domain: string | null;
  os_version: number | null;
  browser_version: number | null;
  bot_reason: BotReason | null;
}

export interface ClickEvent extends EventVars, EventVisitor {
  click_id: string;
  created_at: string;
  campaign: LoggedRecord;
  flow: LoggedRecord | null;
  path_group_id: string | null;
  path_id: string | null;
  lander: LoggedRecord | null;
  offer: LoggedRecord | null;
  traffic_source: LoggedRecord | null;
  visitor_id: string;
  is_unique: boolean;
  ip: string | null;
  country: string | null;
  device: string | null;
  platform: string | null;
  browser: string | null;
  user_agent: string | null;
  referrer: string | null;
  external_click_id: string | null;
  subaff: string | null;
  /** Every var the click carried (utm_*, …). */
  vars: Record<string, string>;
  /** Only with the money permission. */
  cost?: number;
  /** Auto cost: why the click costs 0 — its cost parameter was `missing` or `invalid`; else null. */
  cost_flag: string | null;
  is_bot: boolean;
  /** The routing decision's reason (matched, backup_offer, no_matching_path_group, capped, no_offer). */
  reason: string;
  conversions: ClickConversion[];
}

export interface LeadEvent extends EventVars, EventVisitor {
  lead_id: string;
  created_at: string;
  campaign: LoggedRecord;
  flow: LoggedRecord | null;
  path_group_id: string | null;
  path_id: string | null;
  offer: LoggedRecord | null;
  traffic_source: LoggedRecord | null;
  email_hash: string;
  email_domain: string;
  age: number | null;
  ip: string | null;
  country: string | null;
  device: string | null;
  platform: string | null;
  browser: string | null;
  user_agent: string | null;
  subaff: string | null;
  vars: Record<string, string>;
  is_bot: boolean;
  decision: string;
  reason: string;
  backup_used: boolean;
  /** The first lead of its email on the campaign in a day. */
  is_unique: boolean;
}

export interface ConversionEvent extends EventVars {
  conversion_id: string;
  /** The first postback's time. */
  created_at: string;
  /** The converted click's (or lead's) time: reports attribute by it by default. */
  event_at: string | null;
  updated_at: string | null;
  click_id: string | null;
  lead_id: string | null;
  campaign: LoggedRecord;
  flow: LoggedRecord | null;
  path_group_id: string | null;
  path_id: string | null;
  offer: LoggedRecord | null;
  lander: LoggedRecord | null;
  traffic_source: LoggedRecord | null;
  affiliate_network: LoggedRecord | null;
  event: LoggedRecord | null;
  status: string | null;
  is_conversion: boolean;
  state: ConversionState;
  /** Only with the money permission. */
  payout?: number;
  revenue?: number | null;
  /** What it adds to its click's cost (a CPA or RevShare campaign, approved); money permission only. */
  cost?: number;
  currency: string;
  original_currency: string | null;
  txid: string | null;
  country: string | null;
  subaff: string | null;
  /** From the click or lead converted. */
  device: string | null;
  platform: string | null;
  browser: string | null;
  payout_rule_id: string | null;
  raw: Record<string, string>;
}

export interface EventRows {
  clicks: ClickEvent;
  leads: LeadEvent;
  conversions: ConversionEvent;
}
