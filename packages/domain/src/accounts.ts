import { z } from 'zod';
import type { ZAccountSettingsAnswer } from './api-answers/accounts.js';
import { DEFAULT_LANGUAGE, LANGUAGES } from './constants.js';
import { VALIDATION_MESSAGES as M } from './messages.js';
import { ZNewPassword } from './password-policy.js';
import { isKnownPermission } from './permissions.js';

// Registration, invitations, email verification, password reset and the profile.

const DAY_MS = 24 * 60 * 60 * 1000;

/** How long an emailed or copied link works. */
export const INVITATION_TTL_MS = 7 * DAY_MS;
export const EMAIL_VERIFICATION_TTL_MS = 2 * DAY_MS;
export const PASSWORD_RESET_TTL_MS = 60 * 60 * 1000;

/** Register, forgot password and accept-invite: requests allowed per IP and per email in one window. */
export const ACCOUNT_REQUESTS_PER_IP = 20;
export const ACCOUNT_REQUESTS_PER_EMAIL = 5;
export const ACCOUNT_REQUEST_WINDOW_MS = 15 * 60 * 1000;

/** The dashboard routes a link points to; the token is the last segment (§2.1). */
export const ACCOUNT_LINK_PATHS = {
  invitation: '/accept-invite',
  emailVerification: '/verify-email',
  passwordReset: '/reset-password',
} as const;
export type AccountLinkKind = keyof typeof ACCOUNT_LINK_PATHS;

/** Link tokens: 32 random bytes, base64url. */
export const ACCOUNT_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

const ZName = z.string({ error: M.required }).trim().min(1, { error: M.required }).max(100, { error: M.tooLong });
const ZEmail = z
  .string({ error: M.required })
  .trim()
  .toLowerCase()
  .min(1, { error: M.required })
  .max(254, { error: M.tooLong })
  .pipe(z.email({ error: M.invalidEmail }));
const ZLanguage = z.enum(LANGUAGES, { error: M.invalidValue });
/** A wrong-looking token is answered like any other wrong token, so only its type is checked here. */
const ZToken = z.string({ error: M.required }).min(1, { error: M.required }).max(200, { error: M.tooLong });
const ZIds = z.array(z.number().int().positive());

export const ZRegisterForm = z.object({
  name: ZName,
  email: ZEmail,
  password: ZNewPassword,
  language: ZLanguage.default(DEFAULT_LANGUAGE),
});
export type TRegisterForm = z.infer<typeof ZRegisterForm>;

export const ZForgotPasswordForm = z.object({ email: ZEmail });
export type TForgotPasswordForm = z.infer<typeof ZForgotPasswordForm>;

export const ZResetPasswordForm = z.object({ token: ZToken, password: ZNewPassword });
export type TResetPasswordForm = z.infer<typeof ZResetPasswordForm>;

export const ZAccountTokenForm = z.object({ token: ZToken });
export type TAccountTokenForm = z.infer<typeof ZAccountTokenForm>;

export const ZAcceptInviteForm = z.object({ token: ZToken, name: ZName, password: ZNewPassword });
export type TAcceptInviteForm = z.infer<typeof ZAcceptInviteForm>;

export const ZInvitationForm = z.object({
  email: ZEmail,
  /** A suggestion; the invitee chooses their name when accepting. */
  name: z.string().trim().max(100, { error: M.tooLong }).default(''),
  roles: ZIds.default([]),
  permissions: z.array(z.string().refine(isKnownPermission, { error: M.unknownPermission })).default([]),
  workspaces: ZIds.default([]),
  /** The language of the invitation email. */
  language: ZLanguage.default(DEFAULT_LANGUAGE),
});
export type TInvitationForm = z.infer<typeof ZInvitationForm>;

export const ZProfileForm = z.object({ name: ZName, language: ZLanguage });
export type TProfileForm = z.infer<typeof ZProfileForm>;

export const ZPasswordChangeForm = z.object({
  current_password: z.string({ error: M.required }).min(1, { error: M.required }).max(200, { error: M.tooLong }),
  password: ZNewPassword,
});
export type TPasswordChangeForm = z.infer<typeof ZPasswordChangeForm>;

export const ZAccountSettings = z.object({
  registration_enabled: z.boolean({ error: M.invalidValue }),
  /** The role a self-registered account starts with; null: none, an administrator grants access. */
  registration_role_id: z.number().int().positive().nullable().default(null),
});
export type TAccountSettings = z.infer<typeof ZAccountSettings>;

export type AccountSettings = z.infer<typeof ZAccountSettingsAnswer>;
