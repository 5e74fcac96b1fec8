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

    it('counts failures below the limit without blocking', async () => {
      const user = await createUserWithPermissions(ctx.app, ctx.adminToken, []);
      for (let index = 0; index < LOGIN_FAILURES_PER_WINDOW - 1; index += 1) {
        expectError(await attempt(user.email, 'wrong-password', `10.5.0.${index + 1}`), 401);
      }
      await login(ctx.app, user.email, user.password, '10.5.1.1');
    });
  });
});
