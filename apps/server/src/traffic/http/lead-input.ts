import { isIP } from 'node:net';
import { VALIDATION_MESSAGES as M, withoutNul, ZCountryCode } from '@switchyard/domain';
import { z } from 'zod';
import { parseInput } from '../../api/parse.js';

/** Contract: `vars` keys a lead may carry (subaff, email_source, step, utm_*, var1…var10). */
export const LEAD_VAR_KEY = /^(subaff|email_source|step|external_id|utm_[a-z0-9_]{1,32}|var(10|[1-9]))$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const ZVarValue = z.union([z.string().max(1024), z.number().finite()]).transform(String);

/** Issue 5, Contract: the body of `POST /v1/campaigns/{id}/leads`; other top-level fields are ignored. */
export const ZLeadInput = z.object({
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
  ip: z
    .string()
    .trim()
    .max(64)
    .refine((value) => isIP(value) !== 0, { error: M.invalidValue })
    .optional(),
  user_agent: z.string().max(2048, { error: M.tooLong }).optional(),
  /** Issue 24: the visitor's language, a code (`fr`) or their Accept-Language header as it came. */
  language: z.string().max(512, { error: M.tooLong }).optional(),
  /** Issue 24: the page the visitor came from (its domain is what rules and reports read). */
  referrer: z.string().max(2048, { error: M.tooLong }).optional(),
  country: ZCountryCode.optional(),
  vars: z.record(z.string().regex(LEAD_VAR_KEY, { error: M.invalidValue }), ZVarValue).default({}),
});
export type TLeadInput = z.output<typeof ZLeadInput>;

/** A lead's body as the engine reads it: NULs in what the visitor brought are stripped, not refused. */
export function parseLeadInput(body: unknown): TLeadInput {
  return parseInput(ZLeadInput, withoutNul(body));
}
