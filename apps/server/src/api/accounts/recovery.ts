import {
  ACCOUNT_MESSAGES,
  ACCOUNT_TOKEN_PATTERN,
  EMAIL_VERIFICATION_TTL_MS,
  PASSWORD_RESET_TTL_MS,
  type RegisterResult,
  type TForgotPasswordForm,
  type TRegisterForm,
  type TResetPasswordForm,
} from '@switchyard/domain';
import type { Kysely } from 'kysely';
import { hashPassword } from '../../auth/password.js';
import { endWhatThePasswordOpened } from '../../auth/password-changed.js';
import { hashToken, type Sessions } from '../../auth/sessions.js';
import { ForbiddenError, ValidationError } from '../../errors.js';
import { isUniqueViolation, now } from '../../store/database.js';
import type { AccountTokenTable, Database } from '../../store/schema.js';
import type { AccountLimits } from './limits.js';
import { type LinkSender, newLinkToken } from './links.js';
import type { AccountSettingsService } from './settings.js';

type Purpose = AccountTokenTable['purpose'];

const TTL: Record<Purpose, number> = {
  'verify-email': EMAIL_VERIFICATION_TTL_MS,
  'reset-password': PASSWORD_RESET_TTL_MS,
};

function invalidLink(): ValidationError {
  return new ValidationError({ token: [ACCOUNT_MESSAGES.invalidLink] }, ACCOUNT_MESSAGES.invalidLink);
}

/**
 * The self-service side: registration (§4), email verification, forgot password and reset. Every
 * answer about an email is the same whether an account has it or not.
 */
export class RecoveryService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly sessions: Sessions,
    private readonly links: LinkSender,
    private readonly limits: AccountLimits,
    private readonly settings: AccountSettingsService,
  ) {}

  async register(form: TRegisterForm, ip: string | null): Promise<RegisterResult> {
    const settings = await this.settings.registration();
    if (!settings.registration_enabled) throw new ForbiddenError(undefined, ACCOUNT_MESSAGES.registrationClosed);
    await this.limits.hit('register', { ip, email: form.email });

    const verificationRequired = this.links.sendsEmail;
    const answer: RegisterResult = {
      message: ACCOUNT_MESSAGES.registered,
      verification_required: verificationRequired,
    };
    // Hash first, so a taken email costs the same time as a free one.
    const passwordHash = await hashPassword(form.password);
    const existing = await this.db
      .selectFrom('users')
      .select(['id', 'name', 'language', 'needs_verification'])
      .where('email', '=', form.email)
      .executeTakeFirst();
    if (existing) {
      await this.tellOwner(existing, form.email);
      return answer;
    }

    const roleId = settings.registration_role_id;
    const role = roleId
      ? await this.db
          .selectFrom('roles')
          .select('id')
          .where('id', '=', roleId)
          .where('status', '=', 'active')
          .executeTakeFirst()
      : undefined;
    const timestamp = now();
    let userId: number;
    try {
      userId = await this.db.transaction().execute(async (trx) => {
        const user = await trx
          .insertInto('users')
          .values({
            name: form.name,
            email: form.email,
            password_hash: passwordHash,
            active: 1,
            email_verified: 0,
            needs_verification: verificationRequired ? 1 : 0,
            // No permissions until an administrator grants them, or the role the settings name.
            permissions: '[]',
            invited_by: null,
            language: form.language,
            status: 'active',
            created_at: timestamp,
            updated_at: timestamp,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        if (role) await trx.insertInto('user_roles').values({ user_id: user.id, role_id: role.id }).execute();
        return user.id;
      });
    } catch (error) {
      // Registered by a parallel request a moment ago: the same answer as any taken email.
      if (isUniqueViolation(error)) return answer;
      throw error;
    }
    if (verificationRequired) {
      const token = await this.issue(userId, 'verify-email');
      this.links.sendLater({
        kind: 'emailVerification',
        to: form.email,
        language: form.language,
        name: form.name,
        path: this.links.tokenPath('emailVerification', token),
      });
    }
    return answer;
  }

  async verifyEmail(token: string, ip: string | null): Promise<{ message: string }> {
    await this.limits.hit('verify-email', { ip });
    await this.consume(token, 'verify-email', async (trx, userId) => {
      await trx
        .updateTable('users')
        .set({ email_verified: 1, needs_verification: 0, updated_at: now() })
        .where('id', '=', userId)
        .execute();
    });
    return { message: 'ok' };
  }

  /** Always the same answer; a link is sent only to an active account. */
  async forgotPassword(form: TForgotPasswordForm, ip: string | null): Promise<{ message: string }> {
    await this.limits.hit('forgot-password', { ip, email: form.email });
    const user = await this.db
      .selectFrom('users')
      .select(['id', 'name', 'language'])
      .where('email', '=', form.email)
      .where('active', '=', 1)
      .where('status', '=', 'active')
      .executeTakeFirst();
    if (user) {
      const token = await this.issue(user.id, 'reset-password');
      this.links.sendLater({
        kind: 'passwordReset',
        to: form.email,
        language: user.language,
        name: user.name,
        path: this.links.tokenPath('passwordReset', token),
      });
    }
    return { message: ACCOUNT_MESSAGES.resetRequested };
  }

  /** Sets the new password once, confirms the email (the link went there) and ends every session. */
  async resetPassword(form: TResetPasswordForm, ip: string | null): Promise<{ message: string }> {
    await this.limits.hit('reset-password', { ip });
    const passwordHash = await hashPassword(form.password);
    await this.consume(form.token, 'reset-password', async (trx, userId) => {
      await trx
        .updateTable('users')
        .set({ password_hash: passwordHash, email_verified: 1, needs_verification: 0, updated_at: now() })
        .where('id', '=', userId)
        .execute();
      await endWhatThePasswordOpened(trx, this.sessions, userId);
    });
    return { message: 'ok' };
  }

  /** A new single-use token; the earlier unused ones of the same purpose stop working. */
  private async issue(userId: number, purpose: Purpose): Promise<string> {
    const { token, hash } = newLinkToken();
    const timestamp = Date.now();
    await this.db.transaction().execute(async (trx) => {
      await trx
        .deleteFrom('account_tokens')
        .where('user_id', '=', userId)
        .where('purpose', '=', purpose)
        .where((eb) => eb.or([eb('used_at', 'is', null), eb('expires_at', '<=', new Date(timestamp).toISOString())]))
        .execute();
      await trx
        .insertInto('account_tokens')
        .values({
          token_hash: hash,
          purpose,
          user_id: userId,
          created_at: new Date(timestamp).toISOString(),
          expires_at: new Date(timestamp + TTL[purpose]).toISOString(),
        })
        .execute();
    });
    return token;
  }

  /** Marks a live token used and runs `apply` in the same transaction; a wrong, expired or used one is refused alike. */
  private async consume(
    token: string,
    purpose: Purpose,
    apply: (trx: Kysely<Database>, userId: number) => Promise<void>,
  ): Promise<void> {
    if (!ACCOUNT_TOKEN_PATTERN.test(token)) throw invalidLink();
    const row = await this.db
      .selectFrom('account_tokens')
      .innerJoin('users', 'users.id', 'account_tokens.user_id')
      .select(['account_tokens.id', 'account_tokens.user_id', 'account_tokens.expires_at', 'account_tokens.used_at'])
      .where('account_tokens.token_hash', '=', hashToken(token))
      .where('account_tokens.purpose', '=', purpose)
      .where('users.active', '=', 1)
      .where('users.status', '=', 'active')
      .executeTakeFirst();
    if (!row || row.used_at !== null || Date.parse(row.expires_at) <= Date.now()) throw invalidLink();
    await this.db.transaction().execute(async (trx) => {
      const claimed = await trx
        .updateTable('account_tokens')
        .set({ used_at: now() })
        .where('id', '=', row.id)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) throw invalidLink();
      await apply(trx, row.user_id);
    });
  }

  /** Someone registered with a taken email: the owner hears of it (a new confirmation link if still unconfirmed). */
  private async tellOwner(
    user: { id: number; name: string; language: string | null; needs_verification: number },
    email: string,
  ): Promise<void> {
    if (!this.links.sendsEmail) return;
    if (user.needs_verification === 1) {
      const token = await this.issue(user.id, 'verify-email');
      this.links.sendLater({
        kind: 'emailVerification',
        to: email,
        language: user.language,
        name: user.name,
        path: this.links.tokenPath('emailVerification', token),
      });
      return;
    }
    this.links.sendLater({
      kind: 'alreadyRegistered',
      to: email,
      language: user.language,
      name: user.name,
      path: '/login',
    });
  }
}
