import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../src/auth/sessions.js';
import {
  expectInvalidLink,
  expectSessionAlive,
  get,
  post,
  put,
  STRONG_PASSWORD,
  setRegistration,
  uniqueEmail,
} from './accounts-support.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  createUserWithPermissions,
  expectError,
  forEachDatabase,
  login,
} from './harness.js';
import { linkIn, MailCatcher, tokenOf } from './mail-catcher.js';

// Accounts with email: a real SMTP server (smtp-server) on 127.0.0.1 receives what Switchyard sends,
// and each test follows the link from the received message, as a person would.

const PUBLIC_URL = 'https://switchyard.example.test';

forEachDatabase('accounts by email', (db) => {
  const mail = new MailCatcher();
  let app: FastifyInstance;
  let adminToken = '';

  beforeAll(async () => {
    await mail.start();
    app = await db.buildApp({
      env: {
        SWITCHYARD_ADMIN_EMAIL: ADMIN_EMAIL,
        SWITCHYARD_ADMIN_PASSWORD: ADMIN_PASSWORD,
        SMTP_URL: mail.url,
        SMTP_FROM: 'Switchyard <switchyard@example.test>',
        SWITCHYARD_PUBLIC_URL: `${PUBLIC_URL}/`,
      },
    });
    adminToken = await login(app, ADMIN_EMAIL, ADMIN_PASSWORD);
  });
  afterAll(() => mail.stop());

  async function resetLinkFor(email: string): Promise<string> {
    expect((await post(app, 'forgot-password', { email })).statusCode).toBe(200);
    const message = await mail.next(email, /password/i);
    return linkIn(message, `${PUBLIC_URL}/reset-password/`);
  }

  describe('invitations', () => {
    it('emails the invitation (plain and HTML, in the chosen language) and the emailed link creates the account', async () => {
      const email = uniqueEmail('mailed');
      const response = await post(
        app,
        'invitations',
        { email, name: 'Marie', permissions: ['/tracker/reports'], language: 'fr' },
        { token: adminToken },
      );
      expect(response.statusCode, response.body).toBe(201);
      // Sent: the administrator gets no link.
      expect(response.json<{ delivery: unknown }>().delivery).toEqual({ sent: true });

      const message = await mail.next(email, /Switchyard/);
      expect(message.from).toBe('switchyard@example.test');
      expect(message.subject).toBe('Vous êtes invité sur Switchyard');
      expect(message.text).toContain('Administrator vous invite');
      const link = linkIn(message, `${PUBLIC_URL}/accept-invite/`);
      expect(message.html).toContain(`href="${link}"`);
      expect(message.html).toContain('lang="fr"');

      const token = tokenOf(link);
      expect((await post(app, 'accept-invite/inspect', { token })).json()).toEqual({ email, name: 'Marie' });
      const accepted = await post(app, 'accept-invite', { token, name: 'Marie Curie', password: STRONG_PASSWORD });
      expect(accepted.statusCode, accepted.body).toBe(200);
      const me = (await get(app, 'me', accepted.json<{ token: string }>().token)).json<{ permissions: string[] }>();
      expect(me.permissions).toEqual(['/tracker/reports']);
      expect((await get(app, 'profile', accepted.json<{ token: string }>().token)).json()).toMatchObject({
        language: 'fr',
      });
      expectInvalidLink(await post(app, 'accept-invite', { token, name: 'Again', password: STRONG_PASSWORD }));
    });
  });

  describe('password reset', () => {
    it('emails a link only to a known account, with the same answer either way', async () => {
      const user = await createUserWithPermissions(app, adminToken, []);
      const unknownEmail = uniqueEmail('unknown');
      // The unknown address first: a message wrongly sent to it would leave before the known one's, so
      // once the known one has come, none for the unknown address is still on its way.
      const unknown = await post(app, 'forgot-password', { email: unknownEmail });
      const known = await post(app, 'forgot-password', { email: user.email });
      expect(unknown.statusCode).toBe(known.statusCode);
      expect(unknown.body).toBe(known.body);
      const message = await mail.next(user.email, /password/i);
      expect(message.subject).toBe('Choose a new Switchyard password');
      expect(message.html).toContain('<a href="https://switchyard.example.test/reset-password/');
      expect(mail.to(unknownEmail)).toEqual([]);
    });

    it('sets the new password once and ends every session of the user', async () => {
      const user = await createUserWithPermissions(app, adminToken, ['/api/offer/get']);
      const second = await login(app, user.email, user.password);
      const token = tokenOf(await resetLinkFor(user.email));

      const weak = await post(app, 'reset-password', { token, password: '12345678' });
      expectError(weak, 400);
      const reset = await post(app, 'reset-password', { token, password: STRONG_PASSWORD });
      expect(reset.statusCode, reset.body).toBe(200);
      await expectSessionAlive(app, user.token, false);
      await expectSessionAlive(app, second, false);
      expectError(await post(app, 'login', { email: user.email, password: user.password }), 401);
      await login(app, user.email, STRONG_PASSWORD);

      // Reused.
      expectInvalidLink(await post(app, 'reset-password', { token, password: 'another long password' }));
      await login(app, user.email, STRONG_PASSWORD);
    });

    it('refuses an expired link and a link replaced by a newer one', async () => {
      const user = await createUserWithPermissions(app, adminToken, []);
      const expired = tokenOf(await resetLinkFor(user.email));
      await app.store.db
        .updateTable('account_tokens')
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where('token_hash', '=', hashToken(expired))
        .execute();
      expectInvalidLink(await post(app, 'reset-password', { token: expired, password: STRONG_PASSWORD }));

      const older = tokenOf(await resetLinkFor(user.email));
      const newer = tokenOf(await resetLinkFor(user.email));
      expectInvalidLink(await post(app, 'reset-password', { token: older, password: STRONG_PASSWORD }));
      expect((await post(app, 'reset-password', { token: newer, password: STRONG_PASSWORD })).statusCode).toBe(200);
      await login(app, user.email, STRONG_PASSWORD);
      // The stored token is a hash, never the token.
      const stored = await app.store.db.selectFrom('account_tokens').select('token_hash').execute();
      expect(stored.map((row) => row.token_hash)).not.toContain(newer);
    });

    it("writes in the user's language", async () => {
      const user = await createUserWithPermissions(app, adminToken, [], { name: 'Li Wei' });
      expect((await put(app, 'profile', { name: 'Li Wei', language: 'zh' }, user.token)).statusCode).toBe(200);
      expect((await post(app, 'forgot-password', { email: user.email })).statusCode).toBe(200);
      const message = await mail.next(user.email, /Switchyard/);
      expect(message.subject).toBe('设置新的 Switchyard 密码');
      expect(message.text).toContain('Li Wei，您好');
      expect(message.html).toContain('lang="zh"');
    });
  });

  describe('registration with email verification', () => {
    it('needs the emailed link before the first login; the link works once', async () => {
      await setRegistration(app, adminToken, { registration_enabled: true });
      const email = uniqueEmail('verify');
      const response = await post(app, 'register', { name: 'Vera', email, password: STRONG_PASSWORD, language: 'es' });
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json()).toEqual({ message: 'Registration successful', verification_required: true });

      const refused = await post(app, 'login', { email, password: STRONG_PASSWORD });
      expect(expectError(refused, 403).message).toBe(
        'Confirm your email address before logging in; we sent you a link',
      );
      // A wrong password still reads as wrong credentials: nothing is said about the account.
      expectError(await post(app, 'login', { email, password: 'wrong password here' }), 401);

      const message = await mail.next(email, /correo/);
      expect(message.subject).toBe('Confirma tu dirección de correo');
      const token = tokenOf(linkIn(message, `${PUBLIC_URL}/verify-email/`));
      expect((await post(app, 'verify-email', { token })).statusCode).toBe(200);
      await login(app, email, STRONG_PASSWORD);
      expectInvalidLink(await post(app, 'verify-email', { token }));
      await setRegistration(app, adminToken, { registration_enabled: false });
    });

    it('tells the owner of a taken email by mail, answering the registrant as for a free one', async () => {
      await setRegistration(app, adminToken, { registration_enabled: true });
      const owner = await createUserWithPermissions(app, adminToken, []);
      const taken = await post(app, 'register', { name: 'Copycat', email: owner.email, password: STRONG_PASSWORD });
      const free = await post(app, 'register', {
        name: 'Fresh',
        email: uniqueEmail('fresh'),
        password: STRONG_PASSWORD,
      });
      expect(taken.body).toBe(free.body);
      const message = await mail.next(owner.email, /account/);
      expect(message.subject).toBe('Your Switchyard account');
      expect(linkIn(message, `${PUBLIC_URL}/login`)).toBe(`${PUBLIC_URL}/login`);
      await login(app, owner.email, owner.password);
      await setRegistration(app, adminToken, { registration_enabled: false });
    });
  });

  it('reports email delivery in the settings', async () => {
    expect((await get(app, 'account-settings', adminToken)).json()).toMatchObject({ email_delivery: true });
  });
});
