import {
  ACCOUNT_MESSAGES,
  LANGUAGES,
  type Language,
  type Profile,
  type TPasswordChangeForm,
  type TProfileForm,
} from '@switchyard/domain';
import type { Kysely } from 'kysely';
import type { Actor } from '../../auth/actor.js';
import { InMemoryLoginLimiter, type LoginLimiter } from '../../auth/login-limiter.js';
import { hashPassword, verifyPassword } from '../../auth/password.js';
import { endWhatThePasswordOpened } from '../../auth/password-changed.js';
import type { Sessions } from '../../auth/sessions.js';
import { NotFoundError, TooManyRequestsError, ValidationError } from '../../errors.js';
import { now } from '../../store/database.js';
import type { Database } from '../../store/schema.js';

function languageOf(value: string | null): Language | null {
  return value && (LANGUAGES as readonly string[]).includes(value) ? (value as Language) : null;
}

/** The signed-in user's own account: name, language, password, other sessions. */
export class ProfileService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly sessions: Sessions,
    /** Wrong current passwords, per account: a stolen session must not become a password oracle. */
    private readonly failures: LoginLimiter = new InMemoryLoginLimiter(),
  ) {}

  async get(actor: Actor): Promise<Profile> {
    const user = await this.db
      .selectFrom('users')
      .select(['id', 'name', 'email', 'language'])
      .where('id', '=', actor.userId)
      .executeTakeFirst();
    if (!user) throw new NotFoundError();
    const count = await this.db
      .selectFrom('sessions')
      .select((eb) => eb.fn.countAll<number | string>().as('total'))
      .where('user_id', '=', actor.userId)
      .where('expires_at', '>', now())
      .executeTakeFirstOrThrow();
    return {
      id: user.id,
      name: user.name,
      email: user.email,
      language: languageOf(user.language),
      sessions: Number(count.total),
    };
  }

  async update(form: TProfileForm, actor: Actor): Promise<Profile> {
    await this.db
      .updateTable('users')
      .set({ name: form.name, language: form.language, updated_at: now() })
      .where('id', '=', actor.userId)
      .execute();
    return this.get(actor);
  }

  /** Needs the current password; the other sessions end, this one stays. */
  async changePassword(form: TPasswordChangeForm, actor: Actor): Promise<Profile> {
    // Counted before the check (given back when right), so parallel guesses get no more checks than the limit.
    const reservation = await this.failures.reserve([`password-change:${actor.userId}`]);
    if (!reservation.granted) throw new TooManyRequestsError(Math.ceil(reservation.retryAfterMs / 1000));
    const user = await this.db
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', actor.userId)
      .executeTakeFirst();
    if (!user) throw new NotFoundError();
    if (!(await verifyPassword(form.current_password, user.password_hash))) {
      throw new ValidationError({ current_password: [ACCOUNT_MESSAGES.wrongCurrentPassword] });
    }
    await this.failures.release(reservation.attempt);
    const passwordHash = await hashPassword(form.password);
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('users')
        .set({ password_hash: passwordHash, updated_at: now() })
        .where('id', '=', actor.userId)
        .execute();
      await endWhatThePasswordOpened(trx, this.sessions, actor.userId, actor.sessionId);
    });
    return this.get(actor);
  }

  async signOutOthers(actor: Actor): Promise<Profile> {
    await this.sessions.revokeAllOf(actor.userId, actor.sessionId);
    return this.get(actor);
  }
}
