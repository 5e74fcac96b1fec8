import { z } from 'zod';
import type { ZHistoryEntryAnswer, ZHistoryEntryDetailAnswer } from './api-answers/events.js';
import { DEFAULT_PAGE, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './constants.js';
import { isTimeZone } from './reports.js';

// The change history. Every create, update, archive and restore of a config record, a user, a
// workspace or the account settings is kept — who, when, from which address, the whole record before and
// after — and so are logins, failed logins, token creations and revocations. `resource` is the API path
// of what changed (`tracker/flows`, `offers`, `users`, `account-settings`, `auth`, `tokens`).

export const HISTORY_ACTIONS = [
  'create',
  'update',
  'archive',
  'restore',
  'login',
  'login_failed',
  'token_create',
  'token_revoke',
] as const;
export type HistoryAction = (typeof HISTORY_ACTIONS)[number];

/** One kept change, as listed. */
export type HistoryEntry = z.infer<typeof ZHistoryEntryAnswer>;

/** `GET /api/history/{entry}`: both versions (null for none: before a create, after a login). */
export type HistoryEntryDetail = z.infer<typeof ZHistoryEntryDetailAnswer>;

const optionalText = z.preprocess((value) => (value === '' ? undefined : value), z.string().trim().max(255).optional());
const optionalDay = z.preprocess(
  (value) => (value === '' ? undefined : value),
  z.iso.date({ message: 'Use a date as YYYY-MM-DD.' }).optional(),
);

/** `GET /api/history?resource=&id=&user=&from=&to=`: the acting workspace's entries, newest first. */
export const ZHistoryQuery = z
  .object({
    resource: optionalText,
    id: optionalText,
    user: z.preprocess((value) => (value === '' ? undefined : value), z.coerce.number().int().min(1).optional()),
    from: optionalDay,
    to: optionalDay,
    timezone: z.string().trim().default('UTC').refine(isTimeZone, { message: 'Use an IANA timezone.' }),
    page: z.coerce.number().int().min(1).default(DEFAULT_PAGE),
    limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  })
  .superRefine((query, context) => {
    if (query.from && query.to && query.from > query.to) {
      context.addIssue({ code: 'custom', path: ['to'], message: 'The range ends before it starts.' });
    }
  });
export type THistoryQuery = z.infer<typeof ZHistoryQuery>;

export const HISTORY_MESSAGES = {
  nothingBefore: 'This change made the record: there is no earlier version to put back.',
  notRestorable: 'Only changes to records can be put back.',
  referencesGone: 'The earlier version names records that are gone',
} as const;
