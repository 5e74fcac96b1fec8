import { ACCOUNT_REQUESTS_PER_EMAIL, ACCOUNT_REQUESTS_PER_IP } from '@switchyard/domain';
import { describe, expect, it } from 'vitest';
import {
  expectInvalidLink,
  expectSessionAlive,
  get,
  post,
  put,
  STRONG_PASSWORD,
  setRegistration,
  sha256,
  uniqueEmail,
  uniqueIp,
} from './accounts-support.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  createUserWithPermissions,
  expectError,
  forEachDatabase,
  login,
  seededRoles,
  useSeededApp,
} from './harness.js';

// Accounts without SMTP: links come back to the administrator who triggered them (and go to the log).
// The flows that need the emailed link (reset, verification) are in accounts-mail.test.ts.

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

interface InvitationResult {
  invitation: {
    id: number;
    email: string;
    status: string;
    roles: number[];
    workspaces: number[];
    permissions: string[];
  };
  delivery: { sent: boolean; link?: string };
}

forEachDatabase('accounts', (db) => {
  const ctx = useSeededApp(db);

  async function invite(payload: Record<string, unknown>, token = ctx.adminToken) {
    const response = await post(ctx.app, 'invitations', payload, { token });
    expect(response.statusCode, response.body).toBe(201);
    const result = response.json<InvitationResult>();
    const link = result.delivery.link ?? '';
    return { ...result, link, token: link.split('/').pop() ?? '' };
  }

  describe('registration', () => {
    it('is off by default: the status says so and a registration is refused', async () => {
      expect((await get(ctx.app, 'registration')).json()).toEqual({ enabled: false });
      const email = uniqueEmail('closed');
      const response = await post(ctx.app, 'register', { name: 'Closed', email, password: STRONG_PASSWORD });
      expect(expectError(response, 403).message).toBe('Registration is closed');
      expectError(await post(ctx.app, 'login', { email, password: STRONG_PASSWORD }), 401);
    });

    it("is switched by the instance's settings managers only, who cannot hand out a role above their own", async () => {
      // The instance's, not a user manager's.
      const userManager = await createUserWithPermissions(ctx.app, ctx.adminToken, ['/general/user']);
      expectError(await get(ctx.app, 'account-settings', userManager.token), 403);
      expectError(await put(ctx.app, 'account-settings', { registration_enabled: true }, userManager.token), 403);
      const reader = await createUserWithPermissions(ctx.app, ctx.adminToken, ['/instance/settings/get']);
      expect((await get(ctx.app, 'account-settings', reader.token)).json()).toEqual({
        registration_enabled: false,
        registration_role_id: null,
        email_delivery: false,
      });
      expectError(await put(ctx.app, 'account-settings', { registration_enabled: true }, reader.token), 403);

      const roles = await seededRoles(ctx.app, ctx.adminToken);
      const manager = await createUserWithPermissions(ctx.app, ctx.adminToken, ['/instance/settings']);
      const grant = { registration_enabled: false, registration_role_id: roles.Administrator };
      const refused = expectError(await put(ctx.app, 'account-settings', grant, manager.token), 403);
      expect(refused.errors?.registration_role_id).toEqual(['You cannot grant a permission you do not hold']);
      const unknown = { registration_enabled: false, registration_role_id: 99_999 };
      expectError(await put(ctx.app, 'account-settings', unknown, ctx.adminToken), 400);
      expectError(await get(ctx.app, 'account-settings'), 401);
    });

    it('when on, creates an account without permissions (or with the chosen role) that can log in at once', async () => {
      await setRegistration(ctx.app, ctx.adminToken, { registration_enabled: true, registration_role_id: null });
      expect((await get(ctx.app, 'registration')).json()).toEqual({ enabled: true });
      const email = uniqueEmail('open');
      const response = await post(ctx.app, 'register', {
        name: 'Open',
        email: email.toUpperCase(),
        password: STRONG_PASSWORD,
      });
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json()).toEqual({ message: 'Registration successful', verification_required: false });
      const token = await login(ctx.app, email, STRONG_PASSWORD);
      const me = (await get(ctx.app, 'me', token)).json<{ permissions: string[]; roles: unknown[] }>();
      expect(me.permissions).toEqual([]);
      expect(me.roles).toEqual([]);

      const roles = await seededRoles(ctx.app, ctx.adminToken);
      await setRegistration(ctx.app, ctx.adminToken, {
        registration_enabled: true,
        registration_role_id: roles.Analyst,
      });
      const analystEmail = uniqueEmail('analyst');
      expect(
        (await post(ctx.app, 'register', { name: 'A', email: analystEmail, password: STRONG_PASSWORD })).statusCode,
      ).toBe(201);
      const analyst = await login(ctx.app, analystEmail, STRONG_PASSWORD);
      const analystMe = (await get(ctx.app, 'me', analyst)).json<{ roles: { name: string }[] }>();
      expect(analystMe.roles.map((role) => role.name)).toEqual(['Analyst']);
      await setRegistration(ctx.app, ctx.adminToken, { registration_enabled: false });
    });

    it('answers a taken email exactly like a free one, and leaves the account alone', async () => {
      await setRegistration(ctx.app, ctx.adminToken, { registration_enabled: true });
      const owner = await createUserWithPermissions(ctx.app, ctx.adminToken, ['/api/offer/get']);
      const taken = await post(ctx.app, 'register', {
        name: 'Intruder',
        email: owner.email,
        password: STRONG_PASSWORD,
      });
      const free = await post(ctx.app, 'register', {
        name: 'New',
        email: uniqueEmail('free'),
        password: STRONG_PASSWORD,
      });
      expect(taken.statusCode).toBe(free.statusCode);
      expect(taken.body).toBe(free.body);
      expectError(await post(ctx.app, 'login', { email: owner.email, password: STRONG_PASSWORD }), 401);
      await login(ctx.app, owner.email, owner.password);
      await setRegistration(ctx.app, ctx.adminToken, { registration_enabled: false });
    });

    it('refuses short and common passwords', async () => {
      await setRegistration(ctx.app, ctx.adminToken, { registration_enabled: true });
      for (const [password, message] of [
        ['short', 'The password must be at least 8 characters long'],
        ['password123', 'This password is too common; choose another one'],
        ['QWERTYUIOP', 'This password is too common; choose another one'],
      ] as const) {
        const response = await post(ctx.app, 'register', { name: 'Weak', email: uniqueEmail('weak'), password });
        expect(expectError(response, 400).errors?.password).toEqual([message]);
      }
      await setRegistration(ctx.app, ctx.adminToken, { registration_enabled: false });
    });

    it(`allows ${ACCOUNT_REQUESTS_PER_EMAIL} registrations per email and ${ACCOUNT_REQUESTS_PER_IP} per IP in a window`, async () => {
      await setRegistration(ctx.app, ctx.adminToken, { registration_enabled: true });
      const email = uniqueEmail('limited');
      for (let index = 0; index < ACCOUNT_REQUESTS_PER_EMAIL; index += 1) {
        expect((await post(ctx.app, 'register', { name: 'L', email, password: STRONG_PASSWORD })).statusCode).toBe(201);
      }
      const blocked = await post(ctx.app, 'register', { name: 'L', email, password: STRONG_PASSWORD });
      expect(expectError(blocked, 429).message).toBe('Too many requests. Try again later.');
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);

      const ip = uniqueIp();
      for (let index = 0; index < ACCOUNT_REQUESTS_PER_IP; index += 1) {
        const response = await post(
          ctx.app,
          'register',
          { name: 'I', email: uniqueEmail('ip'), password: STRONG_PASSWORD },
          { ip },
        );
        expect(response.statusCode).toBe(201);
      }
      expectError(
        await post(ctx.app, 'register', { name: 'I', email: uniqueEmail('ip'), password: STRONG_PASSWORD }, { ip }),
        429,
      );
      await setRegistration(ctx.app, ctx.adminToken, { registration_enabled: false });
    });
  });

  describe('invitations', () => {
    it('gives the administrator the link when there is no SMTP, stores only its hash, and the invitee joins with what was granted', async () => {
      const roles = await seededRoles(ctx.app, ctx.adminToken);
      const workspaces = (await get(ctx.app, 'workspaces?limit=0', ctx.adminToken)).json<{ list: { id: number }[] }>();
      const workspaceId = workspaces.list[0]?.id ?? 0;
      const email = uniqueEmail('invitee');
      const result = await invite({
        email,
        name: 'Invitee',
        roles: [roles.Analyst],
        workspaces: [workspaceId],
        permissions: ['/api/offer/create'],
      });
      expect(result.delivery.sent).toBe(false);
      expect(result.link).toMatch(/^\/accept-invite\/[A-Za-z0-9_-]{43}$/);
      expect(result.token).toMatch(TOKEN);
      expect(result.invitation).toMatchObject({
        email,
        status: 'pending',
        roles: [roles.Analyst],
        workspaces: [workspaceId],
      });

      const stored = await ctx.app.store.db
        .selectFrom('invitations')
        .select('token_hash')
        .where('email', '=', email)
        .execute();
      expect(stored.map((row) => row.token_hash)).toEqual([sha256(result.token)]);
      const listed = (await get(ctx.app, 'invitations', ctx.adminToken)).json<{ list: { email: string }[] }>();
      expect(listed.list.map((row) => row.email)).toContain(email);
      expect(JSON.stringify(listed)).not.toContain(result.token);

      expect((await post(ctx.app, 'accept-invite/inspect', { token: result.token })).json()).toEqual({
        email,
        name: 'Invitee',
      });
      const accepted = await post(ctx.app, 'accept-invite', {
        token: result.token,
        name: 'Ines Invitee',
        password: STRONG_PASSWORD,
      });
      expect(accepted.statusCode, accepted.body).toBe(200);
      const session = accepted.json<{ token: string }>().token;
      const me = (await get(ctx.app, 'me', session)).json<{
        name: string;
        email: string;
        permissions: string[];
        roles: { name: string }[];
        workspaces: { id: number }[];
      }>();
      expect(me).toMatchObject({ name: 'Ines Invitee', email });
      expect(me.roles.map((role) => role.name)).toEqual(['Analyst']);
      expect(me.workspaces.map((workspace) => workspace.id)).toEqual([workspaceId]);
      expect(me.permissions).toContain('/api/offer/create');
      await login(ctx.app, email, STRONG_PASSWORD);

      // Used: gone from the pending list, and the link works no more.
      const after = (await get(ctx.app, 'invitations', ctx.adminToken)).json<{ list: { email: string }[] }>();
      expect(after.list.map((row) => row.email)).not.toContain(email);
      expectInvalidLink(
        await post(ctx.app, 'accept-invite', { token: result.token, name: 'Again', password: STRONG_PASSWORD }),
      );
      expectInvalidLink(await post(ctx.app, 'accept-invite/inspect', { token: result.token }));
    });

    it('answers wrong, malformed, expired and revoked links alike', async () => {
      const accept = (token: string) => post(ctx.app, 'accept-invite', { token, name: 'X', password: STRONG_PASSWORD });
      expectInvalidLink(await accept('A'.repeat(43)));
      expectInvalidLink(await accept('not a token'));

      const expired = await invite({ email: uniqueEmail('expired') });
      await ctx.app.store.db
        .updateTable('invitations')
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where('id', '=', expired.invitation.id)
        .execute();
      expectInvalidLink(await accept(expired.token));
      const listed = (await get(ctx.app, 'invitations', ctx.adminToken)).json<{
        list: { id: number; status: string }[];
      }>();
      expect(listed.list.find((row) => row.id === expired.invitation.id)?.status).toBe('expired');

      const revoked = await invite({ email: uniqueEmail('revoked') });
      const revoke = await post(ctx.app, `invitations/${revoked.invitation.id}/revoke`, {}, { token: ctx.adminToken });
      expect(revoke.json<{ status: string }>().status).toBe('revoked');
      expectInvalidLink(await accept(revoked.token));
      expectError(
        await post(ctx.app, `invitations/${revoked.invitation.id}/resend`, {}, { token: ctx.adminToken }),
        409,
      );
    });

    it('re-sends with a new link and a new expiry; the old link stops working', async () => {
      const first = await invite({ email: uniqueEmail('resent') });
      await ctx.app.store.db
        .updateTable('invitations')
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where('id', '=', first.invitation.id)
        .execute();
      const response = await post(ctx.app, `invitations/${first.invitation.id}/resend`, {}, { token: ctx.adminToken });
      expect(response.statusCode, response.body).toBe(200);
      const again = response.json<InvitationResult>();
      expect(again.invitation.status).toBe('pending');
      const token = again.delivery.link?.split('/').pop() ?? '';
      expect(token).toMatch(TOKEN);
      expect(token).not.toBe(first.token);
      expectInvalidLink(
        await post(ctx.app, 'accept-invite', { token: first.token, name: 'Old', password: STRONG_PASSWORD }),
      );
      const accepted = await post(ctx.app, 'accept-invite', { token, name: 'New', password: STRONG_PASSWORD });
      expect(accepted.statusCode, accepted.body).toBe(200);
      expectError(await post(ctx.app, `invitations/${first.invitation.id}/revoke`, {}, { token: ctx.adminToken }), 409);
    });

    it('a new invitation for the same email replaces the pending one', async () => {
      const email = uniqueEmail('twice');
      const first = await invite({ email });
      const second = await invite({ email });
      expectInvalidLink(await post(ctx.app, 'accept-invite/inspect', { token: first.token }));
      expect((await post(ctx.app, 'accept-invite/inspect', { token: second.token })).statusCode).toBe(200);
    });

    it('needs /general/user/create, cannot grant what the inviter lacks, and refuses a taken email', async () => {
      const reader = await createUserWithPermissions(ctx.app, ctx.adminToken, ['/general/user/get']);
      expectError(await post(ctx.app, 'invitations', { email: uniqueEmail() }, { token: reader.token }), 403);
      expectError(await post(ctx.app, 'invitations', { email: uniqueEmail() }), 401);

      const manager = await createUserWithPermissions(ctx.app, ctx.adminToken, ['/general/user', '/api/offer/get']);
      const roles = await seededRoles(ctx.app, ctx.adminToken);
      const tooMuch = await post(
        ctx.app,
        'invitations',
        { email: uniqueEmail(), permissions: ['/api'] },
        { token: manager.token },
      );
      expect(expectError(tooMuch, 403).errors?.permissions).toEqual(['You cannot grant a permission you do not hold']);
      const adminRole = await post(
        ctx.app,
        'invitations',
        { email: uniqueEmail(), roles: [roles.Administrator] },
        { token: manager.token },
      );
      expect(expectError(adminRole, 403).errors?.roles).toBeDefined();
      const allowed = await post(
        ctx.app,
        'invitations',
        { email: uniqueEmail(), permissions: ['/api/offer/get'] },
        { token: manager.token },
      );
      expect(allowed.statusCode, allowed.body).toBe(201);

      const taken = await post(ctx.app, 'invitations', { email: ADMIN_EMAIL }, { token: ctx.adminToken });
      expect(expectError(taken, 400).errors?.email).toEqual(['This email is already in use']);
      expectError(await post(ctx.app, 'invitations', { email: 'not-an-email' }, { token: ctx.adminToken }), 400);
    });

    it('refuses a common password when accepting, and keeps the link usable', async () => {
      const result = await invite({ email: uniqueEmail('weak') });
      const weak = await post(ctx.app, 'accept-invite', { token: result.token, name: 'W', password: 'iloveyou' });
      expect(expectError(weak, 400).errors?.password).toEqual(['This password is too common; choose another one']);
      expect(
        (await post(ctx.app, 'accept-invite', { token: result.token, name: 'W', password: STRONG_PASSWORD }))
          .statusCode,
      ).toBe(200);
    });

    it(`allows ${ACCOUNT_REQUESTS_PER_IP} accept attempts per IP in a window`, async () => {
      const ip = uniqueIp();
      for (let index = 0; index < ACCOUNT_REQUESTS_PER_IP; index += 1) {
        expectInvalidLink(
          await post(ctx.app, 'accept-invite', { token: 'B'.repeat(43), name: 'G', password: STRONG_PASSWORD }, { ip }),
        );
      }
      // Even the right link is refused from that address now.
      const result = await invite({ email: uniqueEmail('guessed') });
      const blocked = await post(
        ctx.app,
        'accept-invite',
        { token: result.token, name: 'G', password: STRONG_PASSWORD },
        { ip },
      );
      expectError(blocked, 429);
      expect(
        (await post(ctx.app, 'accept-invite', { token: result.token, name: 'G', password: STRONG_PASSWORD }))
          .statusCode,
      ).toBe(200);
    });
  });

  describe('forgot password', () => {
    it('answers a known and an unknown email exactly alike', async () => {
      const known = await post(ctx.app, 'forgot-password', { email: ADMIN_EMAIL });
      const unknown = await post(ctx.app, 'forgot-password', { email: uniqueEmail('nobody') });
      expect(known.statusCode).toBe(200);
      expect(unknown.statusCode).toBe(known.statusCode);
      expect(unknown.body).toBe(known.body);
      expect(known.json()).toEqual({
        message: 'If an account exists for this email, we have sent it a link to choose a new password.',
      });
      // No link ever comes back to whoever asked.
      expect(known.body).not.toMatch(/reset-password|token/);
    });

    it(`limits requests per email (${ACCOUNT_REQUESTS_PER_EMAIL}) and per IP (${ACCOUNT_REQUESTS_PER_IP}), known or not`, async () => {
      const user = await createUserWithPermissions(ctx.app, ctx.adminToken, []);
      for (const email of [user.email, uniqueEmail('ghost')]) {
        for (let index = 0; index < ACCOUNT_REQUESTS_PER_EMAIL; index += 1) {
          expect((await post(ctx.app, 'forgot-password', { email })).statusCode).toBe(200);
        }
        expectError(await post(ctx.app, 'forgot-password', { email }), 429);
      }
      const ip = uniqueIp();
      for (let index = 0; index < ACCOUNT_REQUESTS_PER_IP; index += 1) {
        expect((await post(ctx.app, 'forgot-password', { email: uniqueEmail('many') }, { ip })).statusCode).toBe(200);
      }
      expectError(await post(ctx.app, 'forgot-password', { email: uniqueEmail('many') }, { ip }), 429);
    });

    it('refuses a wrong or malformed reset link', async () => {
      expectInvalidLink(await post(ctx.app, 'reset-password', { token: 'C'.repeat(43), password: STRONG_PASSWORD }));
      expectInvalidLink(await post(ctx.app, 'reset-password', { token: '../../etc', password: STRONG_PASSWORD }));
      expectInvalidLink(await post(ctx.app, 'verify-email', { token: 'D'.repeat(43) }));
    });
  });

  describe('profile', () => {
    it('shows and changes the name and the language', async () => {
      const user = await createUserWithPermissions(ctx.app, ctx.adminToken, []);
      const profile = (await get(ctx.app, 'profile', user.token)).json();
      expect(profile).toMatchObject({ id: user.id, email: user.email, language: null, sessions: 1 });
      const changed = await put(ctx.app, 'profile', { name: 'Renamed', language: 'fr' }, user.token);
      expect(changed.statusCode, changed.body).toBe(200);
      expect(changed.json()).toMatchObject({ name: 'Renamed', language: 'fr' });
      expect((await get(ctx.app, 'me', user.token)).json<{ name: string }>().name).toBe('Renamed');
      expectError(await put(ctx.app, 'profile', { name: 'X', language: 'de' }, user.token), 400);
      expectError(await get(ctx.app, 'profile'), 401);
    });

    it('changes the password only with the current one, and ends the other sessions', async () => {
      const user = await createUserWithPermissions(ctx.app, ctx.adminToken, []);
      const other = await login(ctx.app, user.email, user.password);
      const wrong = await post(
        ctx.app,
        'profile/password',
        { current_password: 'not-it-at-all', password: STRONG_PASSWORD },
        { token: user.token },
      );
      expect(expectError(wrong, 400).errors?.current_password).toEqual(['The current password is not correct']);
      const common = await post(
        ctx.app,
        'profile/password',
        { current_password: user.password, password: 'password1' },
        { token: user.token },
      );
      expectError(common, 400);
      await expectSessionAlive(ctx.app, other, true);

      const changed = await post(
        ctx.app,
        'profile/password',
        { current_password: user.password, password: STRONG_PASSWORD },
        { token: user.token },
      );
      expect(changed.statusCode, changed.body).toBe(200);
      expect(changed.json<{ sessions: number }>().sessions).toBe(1);
      await expectSessionAlive(ctx.app, user.token, true);
      await expectSessionAlive(ctx.app, other, false);
      expectError(await post(ctx.app, 'login', { email: user.email, password: user.password }), 401);
      await login(ctx.app, user.email, STRONG_PASSWORD);
    });

    it('signs out of every other session', async () => {
      const user = await createUserWithPermissions(ctx.app, ctx.adminToken, []);
      const others = [await login(ctx.app, user.email, user.password), await login(ctx.app, user.email, user.password)];
      expect((await get(ctx.app, 'profile', user.token)).json<{ sessions: number }>().sessions).toBe(3);
      const response = await post(ctx.app, 'profile/sign-out-others', {}, { token: user.token });
      expect(response.json<{ sessions: number }>().sessions).toBe(1);
      await expectSessionAlive(ctx.app, user.token, true);
      for (const token of others) await expectSessionAlive(ctx.app, token, false);
      // The administrator's sessions are not touched.
      await login(ctx.app, ADMIN_EMAIL, ADMIN_PASSWORD);
      await expectSessionAlive(ctx.app, ctx.adminToken, true);
    });
  });
});
