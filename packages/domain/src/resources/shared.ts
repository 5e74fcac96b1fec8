// Nested parts that several resources share, with the same field names wherever they appear.
import { z } from 'zod';
import { DEFAULT_PAYOUT } from '../constants.js';
import {
  duplicateRowIdErrors,
  ZConditionText,
  ZCount,
  ZExternalIdRef,
  ZMoney,
  ZOptionalMacroUrl,
  ZRowId,
} from '../fields.js';
import { VALIDATION_MESSAGES as M } from '../messages.js';

export const COST_MODELS = ['CPC', 'CPM', 'CPA', 'RevShare', 'Auto'] as const;
export const ZCostModel = z.enum(COST_MODELS).default('CPC');

/** More clicks (or leads) than this from one address on a campaign in a minute are a bot. */
export const DEFAULT_BOT_CLICKS_PER_MINUTE = 60;
/** 0 turns the limit off. */
export const ZBotClicksPerMinute = ZCount.max(100_000, { error: M.tooLarge }).default(DEFAULT_BOT_CLICKS_PER_MINUTE);

/**
 * What makes two clicks of a campaign the same visitor's: the visitor cookie, the address, the address
 * and user agent together (the default), or either the cookie or the address and agent.
 */
export const UNIQUE_BY = ['cookie', 'ip', 'ip_ua', 'cookie_or_ip_ua'] as const;
export type UniqueBy = (typeof UNIQUE_BY)[number];
export const ZUniqueBy = z.enum(UNIQUE_BY).default('ip_ua');
/** A click is unique when no earlier click of the campaign matched it within these hours. */
export const DEFAULT_UNIQUE_WINDOW_HOURS = 24;
/** Thirty days: what a node keeps in memory for uniqueness stays bounded. */
export const MAX_UNIQUE_WINDOW_HOURS = 720;
export const ZUniqueWindowHours = z
  .number({ error: M.invalidNumber })
  .int({ error: M.wholeNumber })
  .min(1, { error: M.invalidValue })
  .max(MAX_UNIQUE_WINDOW_HOURS, { error: M.tooLarge })
  .default(DEFAULT_UNIQUE_WINDOW_HOURS);

/** §3.6: one postback event of a campaign or traffic source. */
export const ZPostbackEventEntry = z.object({
  postback_event_external_id: ZExternalIdRef,
  postback_url: ZOptionalMacroUrl,
  is_conversion: z.boolean().default(false),
  send_to_traffic_source: z.boolean().default(false),
  send_zero_conversions: z.boolean().default(false),
});
export type TPostbackEventEntry = z.infer<typeof ZPostbackEventEntry>;

/** §3.6, §4: each postback event can be chosen once. */
export const ZPostbackEventEntries = z
  .array(ZPostbackEventEntry)
  .default([])
  .superRefine((entries, context) => {
    const seen = new Set<string>();
    entries.forEach((entry, index) => {
      if (seen.has(entry.postback_event_external_id)) {
        context.addIssue({
          code: 'custom',
          path: [index, 'postback_event_external_id'],
          message: M.duplicateEvent,
        });
      }
      seen.add(entry.postback_event_external_id);
    });
  });

/** §3.5: a payout rule. */
export const ZPayoutRule = z.object({
  id: ZRowId,
  payout: ZMoney,
  payout_id: z.number().int().min(0).default(0),
  priority: z.number().int().min(0).default(0),
  condition: ZConditionText,
});

/** §3.5: the payout rules of one postback event. */
export const ZPayoutRuleSet = z.object({
  id: ZRowId,
  postback_event_external_id: ZExternalIdRef,
  event_name: z.string().trim().max(255).default(''),
  default_payout: ZMoney.default(DEFAULT_PAYOUT),
  rules: z.array(ZPayoutRule).default([]),
});
export type TPayoutRuleSet = z.infer<typeof ZPayoutRuleSet>;

export const ZPayoutRuleSets = z.array(ZPayoutRuleSet).default([]);

/** Rule sets, and rules across them, each have ids unique in the record (checked on save). */
export function payoutRuleDuplicateRowIds(sets: unknown): Record<string, string[]> {
  const list = Array.isArray(sets) ? (sets as { id?: unknown; rules?: unknown }[]) : [];
  return duplicateRowIdErrors([
    list.map((set, s) => ({ id: set.id, path: ['payout_rule_sets', s] })),
    list.flatMap((set, s) =>
      (Array.isArray(set.rules) ? (set.rules as { id?: unknown }[]) : []).map((rule, r) => ({
        id: rule.id,
        path: ['payout_rule_sets', s, 'rules', r],
      })),
    ),
  ]);
}

/** §4: the postback events not yet chosen; the add button shows only while this is not empty. */
export function unusedPostbackEvents<T extends { value: string }>(
  entries: readonly { postback_event_external_id: string }[],
  events: readonly T[],
  /** The entry being edited may keep its own event. */
  keep?: string,
): T[] {
  const used = new Set(entries.map((entry) => entry.postback_event_external_id));
  return events.filter((event) => event.value === keep || !used.has(event.value));
}
