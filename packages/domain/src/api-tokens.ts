import { z } from 'zod';
import { ZName } from './fields.js';
import { VALIDATION_MESSAGES as M } from './messages.js';
import { covers, isKnownPermission, normalizePermissions } from './permissions.js';

// Personal API tokens. A user makes a token with a name, an expiry and permissions no wider
// than their own (§6 strings); it acts in the workspace it was made in, within the permissions both it
// and its user still hold, until it expires or is revoked. The secret is shown once; only its hash is
// kept.

/** Tokens say what they are: `syt_` and 43 base64url characters (32 random bytes). */
export const API_TOKEN_PREFIX = 'syt_';
export const API_TOKEN_PATTERN = /^syt_[A-Za-z0-9_-]{43}$/;

/** The longest a token may live. */
export const MAX_API_TOKEN_DAYS = 366;

export const API_TOKEN_MESSAGES = {
  expiryPast: 'Choose a time in the future.',
  expiryTooFar: `A token lives at most ${MAX_API_TOKEN_DAYS} days.`,
  noPermissions: 'Choose at least one permission.',
  fromSession: 'Tokens are made and revoked from a signed-in session, not with a token.',
} as const;

/** `POST /api/tokens`; `expires_at` is checked against the server's clock (apiTokenExpiryProblem). */
export const ZApiTokenForm = z.object({
  name: ZName,
  expires_at: z.iso.datetime({ offset: true, error: M.invalidValue }),
  permissions: z
    .array(z.string().refine(isKnownPermission, { error: M.unknownPermission }))
    .min(1, { error: API_TOKEN_MESSAGES.noPermissions })
    .max(200),
});
export type TApiTokenForm = z.infer<typeof ZApiTokenForm>;

/** What is wrong with an expiry seen at `now`, or null. */
export function apiTokenExpiryProblem(expiresAt: string, now: Date): string | null {
  const at = Date.parse(expiresAt);
  if (!(at > now.getTime())) return API_TOKEN_MESSAGES.expiryPast;
  if (at - now.getTime() > MAX_API_TOKEN_DAYS * 24 * 60 * 60 * 1000) return API_TOKEN_MESSAGES.expiryTooFar;
  return null;
}

/**
 * What a token may do now: the permissions both the token and its user hold — a token permission the
 * user still covers, or a user permission the token covers (a user's narrowed rights narrow the token).
 */
export function tokenPermissions(token: readonly string[], user: readonly string[]): string[] {
  const kept = token.filter((permission) => user.some((held) => covers(held, permission)));
  const narrowed = user.filter((permission) => token.some((granted) => covers(granted, permission)));
  return normalizePermissions([...kept, ...narrowed]);
}
