import {
  ACCOUNT_MESSAGES,
  API_TOKEN_PREFIX,
  type CurrentUser,
  ERROR_MESSAGES,
  type LoginResponse,
  type TLoginForm,
} from '@switchyard/domain';
import type { Kysely } from 'kysely';
import { type Actor, effectivePermissions } from '../../auth/actor.js';
import type { LoginLimiter } from '../../auth/login-limiter.js';
import { verifyAgainstDummy, verifyPassword } from '../../auth/password.js';
import type { SessionClient, Sessions } from '../../auth/sessions.js';
import { isRoot } from '../../auth/workspace.js';
import { ForbiddenError, NotFoundError, TooManyRequestsError, UnauthorizedError } from '../../errors.js';
import { keepChange } from '../../store/history-keep.js';
import type { Database } from '../../store/schema.js';
import { ApiTokensService } from '../tokens/service.js';

/**
 * The signed-in user, and the workspace this request acted in: the one `X-Workspace` named, else
 * the user's first; null for a user of no workspace. `workspaces` are the ones the user can switch to.
 */
export type Me = CurrentUser & { workspace_id: number | null };

export class AuthService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly sessions: Sessions,
    private readonly limiter: LoginLimiter,
    private readonly tokens: ApiTokensService = new ApiTokensService(db),
  ) {}

  async login(form: TLoginForm, client: SessionClient): Promise<LoginResponse> {
    // Counted before the password is checked, on the IP and the account at once: parallel guesses get
    // at most the limit of checks between them, and the rest a 429 without any check.
    const reservation = await this.limiter.reserve([`ip:${client.ip ?? 'unknown'}`, `account:${form.email}`]);
    if (!reservation.granted) throw new TooManyRequestsError(Math.ceil(reservation.retryAfterMs / 1000));

    const user = await this.db
      .selectFrom('users')
      .select(['id', 'password_hash', 'active', 'status', 'needs_verification'])
      .where('email', '=', form.email)
      .executeTakeFirst();
    // The same work and the same answer for an unknown email, a wrong password and a deactivated user.
    const passwordMatches = user
      ? await verifyPassword(form.password, user.password_hash)
      : await verifyAgainstDummy(form.password);
    // A failure keeps its count.
    if (!user || !passwordMatches || user.active === 0 || user.status !== 'active') {
      // Failed logins are kept (the email as typed, the user when there is one).
      await this.keepLogin('login_failed', user?.id ?? null, form.email, client.ip);
      throw new UnauthorizedError(ERROR_MESSAGES.invalidCredentials);
    }
    // The right password is not a failure: its attempt no longer counts.
    await this.limiter.release(reservation.attempt);
    // A self-registered account logs in once its email is confirmed (only said to whoever knows the password).
    if (user.needs_verification === 1) throw new ForbiddenError(undefined, ACCOUNT_MESSAGES.emailNotVerified);

    await this.sessions.deleteExpired();
    const token = await this.sessions.create(user.id, client);
    await this.keepLogin('login', user.id, form.email, client.ip);
    return { token };
  }

  private keepLogin(action: 'login' | 'login_failed', userId: number | null, email: string, ip: string | null) {
    return keepChange(
      this.db,
      { userId, ip, workspaceId: null },
      { action, resource: 'auth', recordId: userId, recordName: email.slice(0, 255), before: null, after: null },
    );
  }

  /** The actor a bearer token stands for; null for an unknown, expired or revoked token or a deactivated user. */
  async authenticate(token: string, ip: string | null = null): Promise<Omit<Actor, 'workspaceId'> | null> {
    if (token.startsWith(API_TOKEN_PREFIX)) {
      const found = await this.tokens.authenticate(token, ip);
      return found ? { ...found, sessionId: 0 } : null;
    }
    const session = await this.sessions.find(token);
    if (!session) return null;
    const permissions = await effectivePermissions(this.db, session.user_id);
    if (!permissions) return null;
    return { userId: session.user_id, sessionId: session.id, permissions };
  }

  async logout(actor: Actor): Promise<void> {
    await this.sessions.revoke(actor.sessionId);
  }

  async me(actor: Actor): Promise<Me> {
    const user = await this.db
      .selectFrom('users')
      .select(['id', 'name', 'email'])
      .where('id', '=', actor.userId)
      .executeTakeFirst();
    if (!user) throw new NotFoundError();
    const [roles, workspaces] = await Promise.all([
      this.db
        .selectFrom('user_roles')
        .innerJoin('roles', 'roles.id', 'user_roles.role_id')
        .select(['roles.id', 'roles.name'])
        .where('user_roles.user_id', '=', actor.userId)
        .orderBy('roles.id')
        .execute(),
      // Root reaches every workspace, so every one is theirs to switch to; a token, only its own.
      isRoot(actor) || actor.token
        ? this.db
            .selectFrom('workspaces')
            .select(['workspaces.id', 'workspaces.name', 'workspaces.currency'])
            .where('workspaces.status', '=', 'active')
            .$if(actor.token !== undefined, (query) => query.where('workspaces.id', '=', actor.token!.workspaceId))
            .orderBy('workspaces.id')
            .execute()
        : this.db
            .selectFrom('user_workspaces')
            .innerJoin('workspaces', 'workspaces.id', 'user_workspaces.workspace_id')
            .select(['workspaces.id', 'workspaces.name', 'workspaces.currency'])
            .where('user_workspaces.user_id', '=', actor.userId)
            .where('workspaces.status', '=', 'active')
            .orderBy('workspaces.id')
            .execute(),
    ]);
    return {
      id: user.id,
      name: user.name,
      email: user.email,
      permissions: actor.permissions,
      roles,
      workspaces,
      workspace_id: actor.workspaceId,
    };
  }
}
