import { z } from 'zod';
import type {
  ZLoggedConversion,
  ZLoggedRecord,
  ZOutboundPostbackEntryAnswer,
  ZPostbackLogEntryAnswer,
} from './api-answers/events.js';
import { DEFAULT_PAGE, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './constants.js';
import { isTimeZone } from './reports.js';

// The postback log. `GET /api/postback-log` lists every postback received, matched or not;
// `GET /api/outbound-postbacks` the postbacks owed to traffic sources and how their sending went.

/**
 * What became of an incoming postback, as the tracker logs it:
 * - converted: a new conversion; status_changed: a conversion moved (pending → approved, …);
 * - duplicate: the same click, event, txid and status again; unchanged: a move the states do not allow
 *   (a rejected conversion stays rejected); both are answered `OK` and counted once;
 * - unknown_click, missing_click_id: no click or lead to convert;
 * - refused_key, refused_address: not from a caller allowed to send it;
 * - invalid_payout, unknown_currency: refused with nothing counted;
 * - unknown_status: a status the postback event's mapping does not list, refused unless the
 *   event takes unknown statuses as pending; too_long: a value, a parameter's name or the number of
 *   parameters past POSTBACK_TEXT_LIMITS, refused rather than cut;
 * - unconvertible_payout: refused, its payout converted into the workspace's currency not being a
 *   finite amount (never stored).
 */
export const POSTBACK_OUTCOMES = [
  'converted',
  'status_changed',
  'duplicate',
  'unchanged',
  'unknown_click',
  'missing_click_id',
  'refused_key',
  'refused_address',
  'invalid_payout',
  'unknown_currency',
  'unknown_status',
  'too_long',
  'unconvertible_payout',
] as const;
export type PostbackOutcome = (typeof POSTBACK_OUTCOMES)[number];

/** The HTTP status the network was answered with, per outcome (a duplicate is acknowledged, not refused). */
export const POSTBACK_OUTCOME_STATUS: Record<PostbackOutcome, number> = {
  converted: 200,
  status_changed: 200,
  duplicate: 200,
  unchanged: 200,
  unknown_click: 404,
  missing_click_id: 400,
  refused_key: 403,
  refused_address: 403,
  invalid_payout: 400,
  unknown_currency: 400,
  unknown_status: 400,
  too_long: 400,
  unconvertible_payout: 400,
};

/**
 * What a postback (or an imported line) may bring, whole: longer is refused with 400, never
 * cut, so two txids that differ late are two conversions. Lengths count UTF-16 units (a JavaScript
 * string's length). A txid is part of a unique index: 500 units are at most 1,500 bytes of UTF-8, well
 * within PostgreSQL's limit for an index entry (about 2,700 bytes); the columns are `text` on both
 * databases, so nothing shorter than the limit is cut by them.
 */
export const POSTBACK_TEXT_LIMITS = {
  /** Characters of any value: txid, click id, status, payout, … */
  value: 500,
  /** Characters of a parameter's name. */
  name: 64,
  /** Parameters one postback may carry. */
  parameters: 50,
} as const;

/**
 * An outbound postback's state: not tried yet, failed and waiting for its next try, answered 2xx, or
 * given up after the last allowed attempt.
 */
export const OUTBOUND_STATES = ['pending', 'retrying', 'sent', 'failed'] as const;
export type OutboundState = (typeof OUTBOUND_STATES)[number];

/** A query parameter sent empty (`?outcome=`) reads as left out. */
const optionalEnum = <T extends readonly [string, ...string[]]>(values: T) =>
  z.preprocess((value) => (value === '' ? undefined : value), z.enum(values).optional());

const page = z.coerce.number().int().min(1).default(DEFAULT_PAGE);
// A log grows without bound: unlike the config lists, `limit=0` (everything) is not offered.
const limit = z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE);

/**
 * `GET /api/postback-log`. `search` matches a click id (or lead id) or a txid exactly: ids are pasted,
 * not typed, and an exact match keeps the search on an index however long the log. `date_from` and
 * `date_to` are days in `timezone`, both included.
 */
export const ZPostbackLogQuery = z
  .object({
    page,
    limit,
    outcome: optionalEnum(POSTBACK_OUTCOMES),
    search: z.string().trim().max(255).default(''),
    date_from: z.iso.date({ message: 'Use a date as YYYY-MM-DD.' }).optional(),
    date_to: z.iso.date({ message: 'Use a date as YYYY-MM-DD.' }).optional(),
    timezone: z.string().trim().default('UTC').refine(isTimeZone, { message: 'Use an IANA timezone.' }),
  })
  .superRefine((query, context) => {
    if (query.date_from && query.date_to && query.date_from > query.date_to) {
      context.addIssue({ code: 'custom', path: ['date_to'], message: 'The range ends before it starts.' });
    }
  });
export type TPostbackLogQuery = z.infer<typeof ZPostbackLogQuery>;

/** `GET /api/outbound-postbacks`: newest first; `search` is a conversion id or click (lead) id, exactly. */
export const ZOutboundPostbackQuery = z.object({
  page,
  limit,
  state: optionalEnum(OUTBOUND_STATES),
  search: z.string().trim().max(255).default(''),
});
export type TOutboundPostbackQuery = z.infer<typeof ZOutboundPostbackQuery>;

/** A config record a log row names: its id, its name (null once deleted) and its kind (for a link). */
export type LoggedRecord = z.infer<typeof ZLoggedRecord>;

/** The conversion an incoming postback created. */
export type LoggedConversion = z.infer<typeof ZLoggedConversion>;

export type PostbackLogEntry = z.infer<typeof ZPostbackLogEntryAnswer>;

export type OutboundPostbackEntry = z.infer<typeof ZOutboundPostbackEntryAnswer>;
