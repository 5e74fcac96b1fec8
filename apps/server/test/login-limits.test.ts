import { ERROR_MESSAGES, LOGIN_FAILURES_PER_WINDOW } from '@switchyard/domain';
import { describe, expect, it } from 'vitest';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  createUserWithPermissions,
  expectError,
  forEachDatabase,
  login,
  useSeededApp,
} from './harness.js';

// Failed logins are limited to LOGIN_FAILURES_PER_WINDOW (10) a minute per IP and per account.
// Every test uses its own addresses and accounts, so the counts of one do not leak into another.

forEachDatabase('login limits', (db) => {
  const ctx = useSeededApp(db);

  function attempt(email: string, password: string, remoteAddress: string) {
    return ctx.app.inject({ method: 'POST', url: '/api/login', payload: { email, password }, remoteAddress });
  }

  function expectTooMany(response: Awaited<ReturnType<typeof attempt>>): void {
    expect(expectError(response, 429).message).toBe(ERROR_MESSAGES.tooManyAttempts);
    const retryAfter = Number(response.headers['retry-after']);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThan(0);
  }

  function countStatuses(responses: { statusCode: number }[]): Record<number, number> {
    const counts: Record<number, number> = {};
    for (const { statusCode } of responses) counts[statusCode] = (counts[statusCode] ?? 0) + 1;
    return counts;
  }

  it('allows exactly 10 failures a minute', () => {
    expect(LOGIN_FAILURES_PER_WINDOW).toBe(10);
  });

  describe('per IP', () => {
    it('answers 429 after 10 failures from one address, even to the right credentials', async () => {
      const ip = '10.2.0.1';
      for (let index = 0; index < LOGIN_FAILURES_PER_WINDOW; index += 1) {
        expectError(await attempt(`stranger${index}@test.local`, 'wrong-password', ip), 401);
      }
      expectTooMany(await attempt('another-stranger@test.local', 'wrong-password', ip));
      expectTooMany(await attempt(ADMIN_EMAIL, ADMIN_PASSWORD, ip));
      // Another address is not affected, and neither is the account.
      await login(ctx.app, ADMIN_EMAIL, ADMIN_PASSWORD, '10.2.0.2');
    });

    it('is not fooled by X-Forwarded-For (no proxy is trusted by default)', async () => {
      const ip = '10.2.2.1';
      for (let index = 0; index < LOGIN_FAILURES_PER_WINDOW; index += 1) {
        const response = await ctx.app.inject({
          method: 'POST',
          url: '/api/login',
          payload: { email: `forwarded${index}@test.local`, password: 'wrong-password' },
          headers: { 'x-forwarded-for': `192.0.2.${index + 1}` },
          remoteAddress: ip,
        });
        expectError(response, 401);
      }
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
        headers: { 'x-forwarded-for': '192.0.2.200' },
        remoteAddress: ip,
      });
      expectTooMany(response);
    });

    it('checks at most the limit of 50 parallel wrong logins from one address to as many accounts', async () => {
      const ip = '10.2.3.1';
      const statuses = await Promise.all(
        Array.from({ length: 50 }, (_, index) => attempt(`parallel${index}@test.local`, 'wrong-password', ip)),
      );
      expect(countStatuses(statuses)).toEqual({ 401: LOGIN_FAILURES_PER_WINDOW, 429: 50 - LOGIN_FAILURES_PER_WINDOW });
    });

    it('does not count successful logins', async () => {
      const ip = '10.2.1.1';
      for (let index = 0; index < LOGIN_FAILURES_PER_WINDOW + 2; index += 1) {
        await login(ctx.app, ADMIN_EMAIL, ADMIN_PASSWORD, ip);
      }
    });
  });

  describe('per account', () => {
    it('answers 429 after 10 failures on one account from different addresses', async () => {
      const user = await createUserWithPermissions(ctx.app, ctx.adminToken, []);
      for (let index = 0; index < LOGIN_FAILURES_PER_WINDOW; index += 1) {
        // Spelled differently each time: the account is the same.
        const email = index % 2 === 0 ? user.email : user.email.toUpperCase();
        expectError(await attempt(email, 'wrong-password', `10.3.0.${index + 1}`), 401);
      }
      // A fresh address with the right password is refused too: the account is blocked.
      expectTooMany(await attempt(user.email, user.password, '10.3.1.1'));
      // That address may still log in to another account.
      await login(ctx.app, ADMIN_EMAIL, ADMIN_PASSWORD, '10.3.1.1');
    });

    it('answers 429 the same way for an email that has no account', async () => {
      const email = 'ghost@test.local';
      for (let index = 0; index < LOGIN_FAILURES_PER_WINDOW; index += 1) {
        expectError(await attempt(email, 'wrong-password', `10.4.0.${index + 1}`), 401);
      }
      expectTooMany(await attempt(email, 'wrong-password', '10.4.1.1'));
    });

    it('checks at most the limit of 50 parallel wrong passwords, from many addresses, and answers 429 to the rest', async () => {
      const user = await createUserWithPermissions(ctx.app, ctx.adminToken, []);
      const statuses = await Promise.all(
        Array.from({ length: 50 }, (_, index) =>
          attempt(user.email, `wrong-password-${index}`, `10.6.${Math.floor(index / 200)}.${(index % 200) + 1}`),
        ),
      );
      // Every answer other than 429 is a password that was checked: exactly the limit, not one more.
      expect(countStatuses(statuses)).toEqual({ 401: LOGIN_FAILURES_PER_WINDOW, 429: 50 - LOGIN_FAILURES_PER_WINDOW });
      // The account stays blocked for its owner too, for the window, and no longer than that.
      expectTooMany(await attempt(user.email, user.password, '10.6.9.1'));
    });

    it('checks at most the limit of 50 parallel wrong passwords from one address', async () => {
      const user = await createUserWithPermissions(ctx.app, ctx.adminToken, []);
      const statuses = await Promise.all(
        Array.from({ length: 50 }, (_, index) => attempt(user.email, `wrong-password-${index}`, '10.7.0.1')),
      );
      expect(countStatuses(statuses)).toEqual({ 401: LOGIN_FAILURES_PER_WINDOW, 429: 50 - LOGIN_FAILURES_PER_WINDOW });
    });

    it('does not count parallel successful logins', async () => {
      const ip = '10.7.1.1';
      const user = await createUserWithPermissions(ctx.app, ctx.adminToken, []);
      for (let round = 0; round < 3; round += 1) {
        const statuses = await Promise.all(
          Array.from({ length: LOGIN_FAILURES_PER_WINDOW }, () => attempt(user.email, user.password, ip)),
        );
        expect(countStatuses(statuses)).toEqual({ 200: LOGIN_FAILURES_PER_WINDOW });
      }
      // Nothing was kept of them: a full share of failures is still allowed.
      for (let index = 0; index < LOGIN_FAILURES_PER_WINDOW; index += 1) {
        expectError(await attempt(user.email, 'wrong-password', ip), 401);
      }
      expectTooMany(await attempt(user.email, user.password, ip));
    });

    it('counts failures below the limit without blocking', async () => {
      const user = await createUserWithPermissions(ctx.app, ctx.adminToken, []);
      for (let index = 0; index < LOGIN_FAILURES_PER_WINDOW - 1; index += 1) {
        expectError(await attempt(user.email, 'wrong-password', `10.5.0.${index + 1}`), 401);
      }
      await login(ctx.app, user.email, user.password, '10.5.1.1');
    });
  });
});
