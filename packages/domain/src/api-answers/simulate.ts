// "Where would this visitor go, and why": what a simulation is asked and what it answers.
// The lead's own fields are the lead API's (the server's ZLeadInput is built from ZLeadFields).
import { z } from 'zod';
import { ZCountryCode } from '../fields.js';
import { VALIDATION_MESSAGES as M } from '../messages.js';
import { parseIpAddress } from '../network-addresses.js';
import { ZRedirectMode } from '../redirect-modes.js';
import { ZClickConversion, ZLoggedRecord } from './events.js';

/** Contract: `vars` keys a lead may carry (subaff, email_source, step, utm_*, var1…var10). */
export const LEAD_VAR_KEY = /^(subaff|email_source|step|external_id|utm_[a-z0-9_]{1,32}|var(10|[1-9]))$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const ZVarValue = z.union([z.string().max(1024), z.number().finite()]).transform(String);

/** The fields of a lead besides what the visitor sent (`POST /v1/campaigns/{id}/leads`). */
export const ZLeadFields = z.object({
  email: z.string({ error: M.required }).trim().max(320, { error: M.tooLong }).regex(EMAIL, { error: M.invalidEmail }),
  age: z
    .union(
      [
        z.number(),
        z
          .string()
          .trim()
          .regex(/^\d{1,3}$/)
          .transform(Number),
      ],
      { error: M.invalidNumber },
    )
    .pipe(z.number().int({ error: M.wholeNumber }).min(0, { error: M.notNegative }).max(150, { error: M.tooLarge }))
    .optional(),
  country: ZCountryCode.optional(),
  vars: z.record(z.string().regex(LEAD_VAR_KEY, { error: M.invalidValue }), ZVarValue).default({}),
});

const DOTTED_QUAD = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** An address as a visitor's connection has one: dotted IPv4 or IPv6 (not `0x7f.1`, which parsers allow). */
const isAddress = (text: string) => (text.includes(':') ? parseIpAddress(text) !== null : DOTTED_QUAD.test(text));

/** The visitor a simulation routes; every field may be left out (`time` is then now). */
export const ZSimulatedVisitor = z.object({
  ip: z.string().trim().max(64).refine(isAddress, { error: M.invalidValue }).optional(),
  user_agent: z.string().max(2048, { error: M.tooLong }).optional(),
  /** A code (`fr`) or an Accept-Language header as a browser sends it. */
  language: z.string().max(512, { error: M.tooLong }).optional(),
  referrer: z.string().max(2048, { error: M.tooLong }).optional(),
  /** The click URL's query parameters (the traffic source's, and vars sent as they are). */
  params: z.record(z.string().max(64), ZVarValue).default({}),
  time: z.iso.datetime({ offset: true, error: M.invalidValue }).optional(),
});
export type SimulatedVisitor = z.output<typeof ZSimulatedVisitor>;

/** `POST /api/campaigns/{external_id}/simulate`: the visitor and the lead's own fields. */
export const ZSimulatedLead = ZSimulatedVisitor.omit({ params: true }).extend(ZLeadFields.shape);
export type SimulatedLead = z.output<typeof ZSimulatedLead>;

const ZTracedValue = z.union([z.string(), z.number(), z.array(z.string()), z.null()]);

/** A condition tree with each node's verdict and each leaf's tested value (domain traceCondition). */
export const ZConditionTraceAnswer = z.object({
  type: z.string(),
  verdict: z.boolean(),
  data: z.record(z.string(), z.unknown()).optional(),
  value: ZTracedValue.optional(),
  get condition() {
    return ZConditionTraceAnswer.optional();
  },
  get conditions() {
    return z.array(ZConditionTraceAnswer).optional();
  },
});

const ZNamed = z.object({ id: z.string(), name: z.string() });
const ZNamedRecord = z.object({ external_id: z.string(), name: z.string() });
const ZChance = z.number().min(0).max(1);

export const ZSimulationAnswer = z.object({
  context: z
    .object({
      country: z.string().nullable(),
      region: z.string().nullable(),
      city: z.string().nullable(),
      asn: z.number().int().nullable(),
      isp: z.string().nullable(),
      device: z.string().nullable(),
      platform: z.string().nullable(),
      browser: z.string().nullable(),
      language: z.string().nullable(),
      referrer: z.string().nullable(),
      vars: z.record(z.string(), z.string()),
      isBot: z.boolean(),
      /** The click-rate reason is never given: a simulation counts no clicks. */
      botReason: z.string().nullable(),
      /** Every condition field as routing read it. */
      fields: z.record(z.string(), z.union([z.string(), z.number()])),
      time: z.iso.datetime(),
    })
    // Each var again under its own name (`var1`), beside `vars`.
    .loose(),
  groups: z.array(
    ZNamed.extend({
      priority: z.number(),
      matched: z.boolean(),
      /**
       * disabled; after_match: a group before it routes; no_route: it matched, but every path was over
       * a cap or had nowhere to send, so routing went on to the next group.
       */
      skipped_reason: z.enum(['disabled', 'after_match', 'no_route']).optional(),
      condition_trace: ZConditionTraceAnswer,
    }),
  ),
  path_group: ZNamed.nullable(),
  path: ZNamed.nullable(),
  lander: ZNamedRecord.nullable(),
  offer: ZNamedRecord.nullable(),
  /** Why the decision is what it is (matched, backup_offer, no_matching_path_group, capped, no_offer). */
  reason: z.string(),
  /**
   * From the offer row picked to the offer sent; a capped or unavailable one, or one whose countries do
   * not include the visitor's (`country_allowed` false: "country not allowed by the offer"), passes to the next.
   */
  backup_chain: z.array(
    ZNamedRecord.extend({
      available: z.boolean(),
      country_allowed: z.boolean(),
      remaining: z.number().int().min(0).nullable(),
      used: z.boolean(),
    }),
  ),
  /** Each daily cap of the group's paths and offers (backup chains too), as it stands: none is taken. */
  caps: z.array(
    z.object({
      kind: z.enum(['offer', 'path_regs', 'path_postbacks']),
      id: z.string(),
      name: z.string(),
      day: z.string(),
      limit: z.number().int().positive(),
      remaining: z.number().int().min(0),
    }),
  ),
  /** Where the visitor would be sent, its macros filled as a click's; the click id stays `{clickid}`. */
  url: z.string().nullable(),
  /** How a click would be sent there (the path's redirect mode, else the campaign's); null for a lead or no URL. */
  redirect_mode: ZRedirectMode.nullable(),
  /** Chances in the group that routes: each path's, and within each path each lander's and offer's. */
  probabilities: z.object({
    paths: z.array(
      ZNamed.extend({
        chance: ZChance,
        landers: z.array(ZNamedRecord.extend({ chance: ZChance })),
        offers: z.array(ZNamedRecord.extend({ chance: ZChance })),
      }),
    ),
    /** Each offer's chance of the whole decision (paths' chances times the offers' within them). */
    offers: z.array(ZNamedRecord.extend({ chance: ZChance })),
  }),
});
export type SimulationAnswer = z.infer<typeof ZSimulationAnswer>;

const storedText = z.string().nullable();

/** What was read off the visitor of a stored click or lead. */
const ZStoredVisitor = z.object({
  is_bot: z.boolean(),
  bot_reason: storedText,
  is_unique: z.boolean(),
  ip: storedText,
  user_agent: storedText,
  language: storedText,
  country: storedText,
  region: storedText,
  city: storedText,
  asn: z.number().int().nullable(),
  isp: storedText,
  device: storedText,
  platform: storedText,
  browser: storedText,
});

/** Where a stored event was routed. */
const ZStoredRouting = z.object({
  created_at: z.string(),
  campaign_external_id: z.string(),
  flow_external_id: storedText,
  path_group_id: storedText,
  path_id: storedText,
  offer_external_id: storedText,
  reason: z.string(),
  vars: z.record(z.string(), z.string()),
});

/** A stored click as the engine reads it back. */
export const ZReplayedClick = ZStoredRouting.extend(ZStoredVisitor.shape).extend({
  click_id: z.string(),
  lander_external_id: storedText,
  referrer: storedText,
  external_click_id: storedText,
});

/** A stored lead as the engine reads it back. */
export const ZReplayedLead = ZStoredRouting.extend(ZStoredVisitor.shape).extend({
  lead_id: z.string(),
  /** routed | unrouted */
  decision: z.string(),
  backup_used: z.boolean(),
  email_domain: z.string(),
  age: z.number().int().nullable(),
});

/**
 * The click inspector: what the event tables show beside a stored event — the records it names
 * (a name is null once deleted) and its conversions, oldest first, their payout left out without the
 * money permission.
 */
const INSPECTED = {
  campaign: ZLoggedRecord,
  flow: ZLoggedRecord.nullable(),
  offer: ZLoggedRecord.nullable(),
  conversions: z.array(ZClickConversion),
};

/**
 * `GET /api/events/clicks/{click_id}/replay`: the click as it was stored (its routing, and what was read
 * off the visitor) beside its context routed again against today's configuration and time; `replay` is
 * null when the click's campaign is no longer active.
 */
export const ZClickReplay = z.object({
  click: ZReplayedClick.extend(INSPECTED).extend({ lander: ZLoggedRecord.nullable() }),
  replay: ZSimulationAnswer.nullable(),
});
export type ClickReplay = z.infer<typeof ZClickReplay>;
/** The engine's part of a click's replay: the stored click and its context routed today. */
export type ReplayedClick = { click: z.infer<typeof ZReplayedClick>; replay: SimulationAnswer | null };

/** `GET /api/events/leads/{lead_id}/replay`: as a click's, for a lead of an API campaign. */
export const ZLeadReplay = z.object({
  lead: ZReplayedLead.extend(INSPECTED),
  replay: ZSimulationAnswer.nullable(),
});
export type LeadReplay = z.infer<typeof ZLeadReplay>;
/** The engine's part of a lead's replay. */
export type ReplayedLead = { lead: z.infer<typeof ZReplayedLead>; replay: SimulationAnswer | null };
