import {
  type RegistrationStatus,
  ZAcceptInviteForm,
  ZAccountSettings,
  ZAccountTokenForm,
  ZForgotPasswordForm,
  ZInvitationForm,
  ZPasswordChangeForm,
  ZProfileForm,
  ZRegisterForm,
  ZResetPasswordForm,
} from '@switchyard/domain';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Sessions } from '../../auth/sessions.js';
import { authorize, authorizeInstance, requireActor } from '../../http/guard.js';
import { parseInput } from '../../http/parse.js';
import type { Mailer } from '../../mail/mailer.js';
import type { Database } from '../../store/schema.js';
import { InvitationsService } from './invitations.js';
import { AccountLimits } from './limits.js';
import { LinkSender } from './links.js';
import { ProfileService } from './profile.js';
import { RecoveryService } from './recovery.js';
import { AccountSettingsService } from './settings.js';

export interface AccountDependencies {
  db: Kysely<Database>;
  sessions: Sessions;
  /** Null without SMTP_URL: invitation links are then shown to the administrator. */
  mailer: Mailer | null;
  publicUrl: string | undefined;
  log: FastifyBaseLogger;
  /** SWITCHYARD_LOG_LINKS: links that are not emailed go to the log in full, not only who they are for. */
  logLinks?: boolean;
  limits?: AccountLimits;
}

const PUBLIC = { config: { public: true } } as const;
const SESSION_ONLY = { config: { sessionOnly: true } } as const;

function clientIp(request: FastifyRequest): string | null {
  return request.ip ?? null;
}

function invitationId(request: FastifyRequest): number {
  return Number((request.params as { id: string }).id);
}

/** Registration, invitations, email verification, password reset, profile and their settings. */
export function accountRoutes(app: FastifyInstance, deps: AccountDependencies): void {
  const links = new LinkSender(deps.mailer, deps.publicUrl, deps.log, deps.logLinks ?? false);
  const limits = deps.limits ?? new AccountLimits();
  const settings = new AccountSettingsService(deps.db, links.sendsEmail);
  const invitations = new InvitationsService(deps.db, deps.sessions, links, limits);
  const recovery = new RecoveryService(deps.db, deps.sessions, links, limits, settings);
  const profile = new ProfileService(deps.db, deps.sessions);

  // Tokens travel in POST bodies, never in URLs, so they stay out of access logs.

  app.get('/registration', PUBLIC, async (): Promise<RegistrationStatus> => {
    return { enabled: (await settings.registration()).registration_enabled };
  });
  app.post('/register', PUBLIC, async (request, reply) => {
    const result = await recovery.register(parseInput(ZRegisterForm, request.body), clientIp(request));
    return reply.code(201).send(result);
  });
  app.post('/verify-email', PUBLIC, async (request) =>
    recovery.verifyEmail(parseInput(ZAccountTokenForm, request.body).token, clientIp(request)),
  );
  app.post('/forgot-password', PUBLIC, async (request) =>
    recovery.forgotPassword(parseInput(ZForgotPasswordForm, request.body), clientIp(request)),
  );
  app.post('/reset-password', PUBLIC, async (request) =>
    recovery.resetPassword(parseInput(ZResetPasswordForm, request.body), clientIp(request)),
  );
  app.post('/accept-invite/inspect', PUBLIC, async (request) =>
    invitations.preview(parseInput(ZAccountTokenForm, request.body).token, clientIp(request)),
  );
  app.post('/accept-invite', PUBLIC, async (request) =>
    invitations.accept(parseInput(ZAcceptInviteForm, request.body), {
      ip: clientIp(request),
      userAgent: request.headers['user-agent'] ?? null,
    }),
  );

  app.get('/invitations', async (request) => {
    const actor = authorize(request, 'general', 'user', 'get');
    return invitations.list(actor);
  });
  app.post('/invitations', async (request, reply) => {
    const actor = authorize(request, 'general', 'user', 'create');
    const result = await invitations.invite(parseInput(ZInvitationForm, request.body), actor);
    return reply.code(201).send(result);
  });
  app.post('/invitations/:id/resend', async (request) => {
    const actor = authorize(request, 'general', 'user', 'create');
    return invitations.resend(invitationId(request), actor);
  });
  app.post('/invitations/:id/revoke', async (request) => {
    const actor = authorize(request, 'general', 'user', 'create');
    return invitations.revoke(invitationId(request), actor);
  });

  // Registration is the instance's, not a workspace's: its own permission.
  app.get('/account-settings', async (request) => {
    authorizeInstance(request, 'get');
    return settings.get();
  });
  app.put('/account-settings', async (request) => {
    const actor = authorizeInstance(request, 'update');
    return settings.update(parseInput(ZAccountSettings, request.body), actor);
  });

  app.get('/profile', async (request) => profile.get(requireActor(request)));
  // An API token acts within its permissions, never on its user's account.
  app.put('/profile', SESSION_ONLY, async (request) =>
    profile.update(parseInput(ZProfileForm, request.body), requireActor(request)),
  );
  app.post('/profile/password', SESSION_ONLY, async (request) =>
    profile.changePassword(parseInput(ZPasswordChangeForm, request.body), requireActor(request)),
  );
  app.post('/profile/sign-out-others', SESSION_ONLY, async (request) => profile.signOutOthers(requireActor(request)));
}
