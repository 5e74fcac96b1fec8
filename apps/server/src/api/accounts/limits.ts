import {
  ACCOUNT_MESSAGES,
  ACCOUNT_REQUEST_WINDOW_MS,
  ACCOUNT_REQUESTS_PER_EMAIL,
  ACCOUNT_REQUESTS_PER_IP,
} from '@switchyard/domain';
import { InMemoryLoginLimiter, type LoginAttempt, type LoginLimiter } from '../../auth/login-limiter.js';
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
    const counted = [];
    // Checked and counted in one step per limiter, so parallel requests cannot overrun a share.
    try {
      if (who.ip !== undefined) counted.push(await this.take(this.perIp, `${action}:ip:${who.ip ?? 'unknown'}`));
      if (who.email !== undefined) counted.push(await this.take(this.perEmail, `${action}:email:${who.email}`));
    } catch (error) {
      // Refused by the email's share: the IP's count is given back, as a refused request counts nowhere.
      await Promise.all(counted.map(([limiter, attempt]) => limiter.release(attempt)));
      throw error;
    }
  }

  private async take(limiter: LoginLimiter, key: string): Promise<[LoginLimiter, LoginAttempt]> {
    const reservation = await limiter.reserve([key]);
    if (!reservation.granted) {
      throw new TooManyRequestsError(Math.ceil(reservation.retryAfterMs / 1000), ACCOUNT_MESSAGES.tooManyRequests);
    }
    return [limiter, reservation.attempt];
  }
}
