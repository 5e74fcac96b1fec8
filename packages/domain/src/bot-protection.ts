import { z } from 'zod';
import { VALIDATION_MESSAGES as M } from './messages.js';

// Why a click or lead is a bot. Each verdict is stored with its reason, so that real traffic is
// never set aside without a trace; reports group and filter by `bot` and `bot_reason`.

/** The reasons, in the order they are tried: the first that holds is the one stored. */
export const BOT_REASONS = [
  'empty_user_agent',
  'bot_user_agent',
  'crawler_address',
  'datacenter_asn',
  'click_rate',
] as const;
export type BotReason = (typeof BOT_REASONS)[number];

export const MAX_ASN = 4_294_967_295;
export const MAX_DATACENTER_ASNS = 20_000;

export const ZAsn = z
  .number({ error: M.invalidNumber })
  .int({ error: M.wholeNumber })
  .min(0, { error: M.notNegative })
  .max(MAX_ASN, { error: M.tooLarge });

/**
 * `PUT /api/bot-protection`: the networks of hosting and datacenter providers whose visitors are bots.
 * The server ships a list; administrators edit it here.
 */
export const ZBotProtectionForm = z.object({
  datacenter_asns: z
    .array(z.object({ asn: ZAsn, name: z.string().trim().max(200, { error: M.tooLong }).default('') }))
    .max(MAX_DATACENTER_ASNS, { error: M.tooLarge }),
});
export type TBotProtectionForm = z.infer<typeof ZBotProtectionForm>;

/** The answer of `GET`, `PUT` and `DELETE /api/bot-protection`. */
export const ZBotProtectionSettings = z.object({
  datacenter_asns: z.array(z.object({ asn: z.number().int(), name: z.string() })),
  /** Whether the list is the one the server ships (never edited, or put back). */
  is_default: z.boolean(),
});
export type BotProtectionSettings = z.infer<typeof ZBotProtectionSettings>;
