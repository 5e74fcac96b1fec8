// Field schemas shared by the resource forms. Messages come from VALIDATION_MESSAGES so the dashboard can
// show them in the user's language.
import { z } from 'zod';
import { ALL_CONDITION_TEXT, conditionValueMessage, parseConditionText, pruneCondition } from './conditions/index.js';
import { VALIDATION_MESSAGES as M } from './messages.js';
import { macroReachesOrigin } from './url-origins.js';

export const ZName = z
  .string({ error: M.required })
  .trim()
  .min(1, { error: M.required })
  .max(255, { error: M.tooLong });

export const ZOptionalText = (max = 255) => z.string().trim().max(max, { error: M.tooLong }).default('');

/** A reference to another record by its external id (`offer_external_id`, …). */
export const ZExternalIdRef = z
  .string({ error: M.required })
  .trim()
  .min(1, { error: M.required })
  .max(64, { error: M.tooLong });

export const ZOptionalExternalIdRef = z
  .union([ZExternalIdRef, z.literal('').transform(() => null), z.null()])
  .default(null);

/** The part of a URL between `://` and the first `/`, `?`, `#` or `\` (user info, host and port). */
const URL_AUTHORITY = /^[a-z][a-z0-9+.-]*:\/\/([^/?#\\]*)/i;

/**
 * Whether a macro (any `{` or `}`) stands in a URL's host: filled from a visitor's parameters,
 * it would send them, or a postback, anywhere. Macros stay allowed in the path and the query. It is
 * checked also where a browser reads the host (url-origins.ts), which the text before a backslash need not show.
 */
export function hasMacroInHost(url: string): boolean {
  const text = url.trim();
  const authority = URL_AUTHORITY.exec(text)?.[1];
  return (authority !== undefined && /[{}]/.test(authority)) || macroReachesOrigin(text);
}

/** An http(s) URL that may carry macros such as `{clickid}`, though not in its host. */
export const ZMacroUrl = z
  .string({ error: M.required })
  .trim()
  .min(1, { error: M.required })
  .max(2048, { error: M.tooLong })
  .refine((value) => /^https?:\/\/[^\s/]+/i.test(value), { error: M.invalidUrl })
  .refine((value) => !hasMacroInHost(value), { error: M.macroInHost });

export const ZOptionalMacroUrl = z.union([z.literal(''), ZMacroUrl]).default('');

export const ZMoney = z
  .number({ error: M.invalidNumber })
  .finite({ error: M.invalidNumber })
  .min(0, { error: M.notNegative });

export const ZCount = z
  .number({ error: M.invalidNumber })
  .int({ error: M.wholeNumber })
  .min(0, { error: M.notNegative });

export const ZWeight = z
  .number({ error: M.invalidNumber })
  .int({ error: M.wholeNumber })
  .min(0, { error: M.notNegative })
  .max(1_000_000, { error: M.tooLarge });

/** A row id inside a nested list (§3.4: a time stamp when the editor made it). */
/**
 * A new row id: 16 random base-36 characters. API clients may leave row ids out (the dashboard
 * makes its own), and the server gives each row one.
 */
export function newRowId(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (byte) => (byte % 36).toString(36)).join('');
}

/** A row's id inside a record (path group, path, offer or lander row, payout rule set or rule). */
export const ZRowId = z
  .union([z.string().min(1).max(64), z.number().int()])
  .optional()
  .transform((id) => (id === undefined ? newRowId() : String(id)));

/**
 * Two rows of one kind with the same id in one record are refused on the second one's id (they
 * would share a cap counter and merge in reports). `kinds` gives each kind's rows with their paths; the
 * answer is the API's `errors` map. Checked when a record is saved, never when a stored one is read (a
 * record saved before the rule still routes).
 */
export function duplicateRowIdErrors(
  kinds: Iterable<readonly { id: unknown; path: readonly (string | number)[] }[]>,
): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const rows of kinds) {
    const seen = new Set<string>();
    for (const row of rows) {
      if (typeof row.id !== 'string' && typeof row.id !== 'number') continue;
      const id = String(row.id);
      if (seen.has(id)) errors[[...row.path, 'id'].join('.')] = [M.duplicateRowId];
      seen.add(id);
    }
  }
  return errors;
}

/**
 * A condition tree (§3.8) stored as JSON text: refused when it is not JSON, not of the shape of §3.8, or
 * deeper or larger than the limits (§5.5, CONDITION_MAX_NODES), or when a rule holds a value its field
 * cannot; stored pruned (§5.4), exactly as the builder saves it.
 */
export const ZConditionText = z
  .string()
  .default(ALL_CONDITION_TEXT)
  .transform((text, context) => {
    const parsed = parseConditionText(text);
    if (parsed.tree) return JSON.stringify(pruneCondition(parsed.tree));
    const message = {
      depth: M.conditionTooDeep,
      size: M.conditionTooLarge,
      json: M.invalidCondition,
      shape: M.invalidCondition,
      value: M.invalidCondition,
    };
    // A value a field cannot hold is named, with its field, on the condition's own path.
    context.addIssue({
      code: 'custom',
      message: parsed.detail ? conditionValueMessage(parsed.detail) : message[parsed.problem],
    });
    return z.NEVER;
  });

export const ZCurrencyCode = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{3}$/, { error: M.invalidCurrency });

export const ZCountryCode = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{2}$/, { error: M.invalidCountry });
