import { isIP } from 'node:net';
import { VALIDATION_MESSAGES as M, withoutNul, ZLeadFields } from '@switchyard/domain';
import { z } from 'zod';
import { parseInput } from '../../http/parse.js';

/** The body of `POST /v1/campaigns/{id}/leads`; other top-level fields are ignored. */
export const ZLeadInput = ZLeadFields.extend({
  ip: z
    .string()
    .trim()
    .max(64)
    .refine((value) => isIP(value) !== 0, { error: M.invalidValue })
    .optional(),
  user_agent: z.string().max(2048, { error: M.tooLong }).optional(),
  /** The visitor's language, a code (`fr`) or their Accept-Language header as it came. */
  language: z.string().max(512, { error: M.tooLong }).optional(),
  /** The page the visitor came from (its domain is what rules and reports read). */
  referrer: z.string().max(2048, { error: M.tooLong }).optional(),
});
export type TLeadInput = z.output<typeof ZLeadInput>;

/** A lead's body as the engine reads it: NULs in what the visitor brought are stripped, not refused. */
export function parseLeadInput(body: unknown): TLeadInput {
  return parseInput(ZLeadInput, withoutNul(body));
}
