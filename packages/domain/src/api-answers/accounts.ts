// Answers of the account routes — login, the current user, profile, registration and
// invitations, account settings, API tokens, and the users, roles and workspaces records.
import { z } from 'zod';
import { LANGUAGES } from '../constants.js';
import { ZCurrencyCode } from '../fields.js';
import { ZRecordStatusAnswer, ZStoredId, ZTimestamp } from './common.js';

const ZNamedId = z.object({ id: ZStoredId, name: z.string() });

/** `POST /api/login` (and `POST /api/accept-invite`): the bearer token for `Authorization: Bearer <token>`. */
export const ZLoginResponse = z.object({ token: z.string() });
export type LoginResponse = z.infer<typeof ZLoginResponse>;

/** `GET /api/me`: the user with its effective permissions (from its roles plus its own). */
export const ZCurrentUser = z.object({
  id: ZStoredId,
  name: z.string(),
  email: z.string(),
  permissions: z.array(z.string()),
  roles: z.array(ZNamedId),
  /** With each one's currency: the dashboard shows money at its precision. */
  workspaces: z.array(ZNamedId.extend({ currency: ZCurrencyCode })),
});
export type CurrentUser = z.infer<typeof ZCurrentUser>;

/** `GET /api/me` as answered: also the workspace the request acted in (null for a user of none). */
export const ZMeAnswer = ZCurrentUser.extend({ workspace_id: ZStoredId.nullable() });

/** `GET /api/profile` and what changes it answer. */
export const ZProfile = z.object({
  id: ZStoredId,
  name: z.string(),
  email: z.string(),
  /** Null until chosen: the interface then keeps the language of the browser. */
  language: z.enum(LANGUAGES).nullable(),
  /** Live sessions of this user, the current one included. */
  sessions: z.number().int().min(0),
});
export type Profile = z.infer<typeof ZProfile>;

/** `GET /api/registration`: what the login page needs to know. */
export const ZRegistrationStatus = z.object({ enabled: z.boolean() });
export type RegistrationStatus = z.infer<typeof ZRegistrationStatus>;

export const ZRegisterResult = z.object({
  message: z.string(),
  /** True when the account must confirm its email (SMTP configured) before logging in. */
  verification_required: z.boolean(),
});
export type RegisterResult = z.infer<typeof ZRegisterResult>;

/** `GET` and `PUT /api/account-settings`. */
export const ZAccountSettingsAnswer = z.object({
  registration_enabled: z.boolean(),
  registration_role_id: ZStoredId.nullable(),
  /** Whether links go out by email (SMTP_URL is set); otherwise they are shown to the administrator. */
  email_delivery: z.boolean(),
});

/** How a link reached its recipient: by email, or (no SMTP, or sending failed) shown to the administrator. */
export const ZLinkDelivery = z.object({
  sent: z.boolean(),
  /** Only when not sent: the link to pass on (absolute when the server knows its public URL). */
  link: z.string().optional(),
});
export type LinkDelivery = z.infer<typeof ZLinkDelivery>;

export const INVITATION_STATUSES = ['pending', 'expired', 'accepted', 'revoked'] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];

export const ZInvitation = z.object({
  id: ZStoredId,
  email: z.string(),
  name: z.string(),
  roles: z.array(ZStoredId),
  permissions: z.array(z.string()),
  workspaces: z.array(ZStoredId),
  language: z.enum(LANGUAGES),
  invited_by: ZStoredId.nullable(),
  status: z.enum(INVITATION_STATUSES),
  created_at: ZTimestamp,
  expires_at: ZTimestamp,
});
export type Invitation = z.infer<typeof ZInvitation>;

export const ZInvitationResult = z.object({ invitation: ZInvitation, delivery: ZLinkDelivery });
export type InvitationResult = z.infer<typeof ZInvitationResult>;

/** `POST /api/accept-invite/inspect`: what the accept page shows before the invitee chooses a password. */
export const ZInvitationPreview = z.object({ email: z.string(), name: z.string() });
export type InvitationPreview = z.infer<typeof ZInvitationPreview>;

/** A token as listed (never its secret). */
export const ZApiToken = z.object({
  id: ZStoredId,
  name: z.string(),
  permissions: z.array(z.string()),
  workspace_id: ZStoredId,
  created_at: ZTimestamp,
  expires_at: ZTimestamp,
  last_used_at: ZTimestamp.nullable(),
  last_used_ip: z.string().nullable(),
});
export type ApiToken = z.infer<typeof ZApiToken>;

/** The answer of `POST /api/tokens`: the token's secret, this once. */
export const ZCreatedApiToken = ZApiToken.extend({ token: z.string() });
export type CreatedApiToken = z.infer<typeof ZCreatedApiToken>;

/** A user record (never its password). */
export const ZUserAnswer = z.object({
  id: ZStoredId,
  name: z.string(),
  email: z.string(),
  roles: z.array(ZStoredId),
  permissions: z.array(z.string()),
  workspaces: z.array(ZStoredId),
  active: z.boolean(),
  email_verified: z.boolean(),
  status: ZRecordStatusAnswer,
  created_at: ZTimestamp,
  updated_at: ZTimestamp,
});

export const ZRoleAnswer = z.object({
  id: ZStoredId,
  name: z.string(),
  permissions: z.array(z.string()),
  status: ZRecordStatusAnswer,
  created_at: ZTimestamp,
  updated_at: ZTimestamp,
});

export const ZWorkspaceAnswer = z.object({
  id: ZStoredId,
  name: z.string(),
  currency: ZCurrencyCode,
  /** The key in the path of the workspace's postback URL; rotated by an administrator. */
  postback_key: z.string(),
  status: ZRecordStatusAnswer,
  created_at: ZTimestamp,
  updated_at: ZTimestamp,
});
