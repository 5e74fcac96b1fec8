// Texts the account endpoints send (registration, invitations, password reset, profile). Like
// VALIDATION_MESSAGES, the dashboard shows each in the user's language (i18n key `account.messages.<key>`).

export const ACCOUNT_MESSAGES = {
  passwordTooCommon: 'This password is too common; choose another one',
  invalidLink: 'This link is invalid or has expired',
  registrationClosed: 'Registration is closed',
  emailNotVerified: 'Confirm your email address before logging in; we sent you a link',
  wrongCurrentPassword: 'The current password is not correct',
  invitationNotPending: 'This invitation has already been used or revoked',
  tooManyRequests: 'Too many requests. Try again later.',
  resetRequested: 'If an account exists for this email, we have sent it a link to choose a new password.',
  registered: 'Registration successful',
} as const;

export type AccountMessageKey = keyof typeof ACCOUNT_MESSAGES;
