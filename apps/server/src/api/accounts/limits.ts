import {
  ACCOUNT_MESSAGES,
  ACCOUNT_REQUEST_WINDOW_MS,
  ACCOUNT_REQUESTS_PER_EMAIL,
  ACCOUNT_REQUESTS_PER_IP,
} from '@switchyard/domain';
import { InMemoryLoginLimiter, type LoginLimiter } from '../../auth/login-limiter.js';
import { TooManyRequestsError } from '../../errors.js';

export type LimitedAction = 'register' | 'forgot-password' | 'reset-password' | 'accept-invite' | 'verify-email';

/**
 * Register, forgot password and the link endpoints count every request per IP and per email, so that
 * nobody can mail-bomb an address, guess tokens or create accounts in bulk. Same windows as logins,
 * other limits; known and unknown emails are counted alike.
 */
export class AccountLimits {
  constructor(
    private readonly perIp: LoginLimiter = new InMemoryLoginLimiter({
      maxFailures: ACCOUNT_REQUESTS_PER_IP,
      windowMs: ACCOUNT_REQUEST_WINDOW_MS,
    }),
    private readonly perEmail: LoginLimiter = new InMemoryLoginLimiter({
      maxFailures: ACCOUNT_REQUESTS_PER_EMAIL,
      windowMs: ACCOUNT_REQUEST_WINDOW_MS,
    }),
  ) {}

  /** Counts one request; throws 429 (without counting it) once the IP or the email has used its share. */
  async hit(action: LimitedAction, who: { ip?: string | null; email?: string }): Promise<void> {
    const keys: [LoginLimiter, string][] = [];
    if (who.ip !== undefined) keys.push([this.perIp, `${action}:ip:${who.ip ?? 'unknown'}`]);
    if (who.email !== undefined) keys.push([this.perEmail, `${action}:email:${who.email}`]);
    const waits = await Promise.all(keys.map(([limiter, key]) => limiter.retryAfterMs(key)));
    const wait = Math.max(0, ...waits);
    if (wait > 0) throw new TooManyRequestsError(Math.ceil(wait / 1000), ACCOUNT_MESSAGES.tooManyRequests);
    await Promise.all(keys.map(([limiter, key]) => limiter.recordFailure(key)));
  }
}
