import { ERROR_MESSAGES } from '@switchyard/domain';
import { describe, expect, it } from 'vitest';
import { hashToken } from '../src/auth/sessions.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  bearer,
  createUserWithPermissions,
  expectError,
  expectNoSecrets,
  forEachDatabase,
  login,
  seededRoles,
  useSeededApp,
} from './harness.js';

interface Me {
  id: number;
  name: string;
  email: string;
  permissions: string[];
  roles: { id: number; name: string }[];
  workspaces: { id: number; name: string }[];
  workspace_id: number | null;
}

forEachDatabase('authentication', (db) => {
  const ctx = useSeededApp(db);

  async function me(token: string) {
    return ctx.app.inject({ method: 'GET', url: '/api/me', headers: bearer(token) });
  }

  describe('POST /api/login', () => {
    it('answers a 43-character base64url token for the right credentials', async () => {
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
      });
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json<Record<string, unknown>>();
      expect(Object.keys(body)).toEqual(['token']);
      expect(body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(response.body).not.toMatch(/password|scrypt\$/i);
    });

    it('reads the email case-insensitively and around spaces', async () => {
      const token = await login(ctx.app, `  ${ADMIN_EMAIL.toUpperCase()} `, ADMIN_PASSWORD, '10.1.0.1');
      expect((await me(token)).statusCode).toBe(200);
    });

    it('gives each login its own token', async () => {
      const first = await login(ctx.app, ADMIN_EMAIL, ADMIN_PASSWORD, '10.1.0.2');
      const second = await login(ctx.app, ADMIN_EMAIL, ADMIN_PASSWORD, '10.1.0.2');
      expect(first).not.toBe(second);
    });

    it('stores only a hash of the token', async () => {
      const token = await login(ctx.app, ADMIN_EMAIL, ADMIN_PASSWORD, '10.1.0.3');
      const rows = await ctx.app.store.db.selectFrom('sessions').select('token_hash').execute();
      expect(rows.some((row) => row.token_hash === token)).toBe(false);
      expect(rows.some((row) => row.token_hash === hashToken(token))).toBe(true);
    });

    it('answers the same 401 for a wrong password and for an unknown email', async () => {
      const wrongPassword = await ctx.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { email: ADMIN_EMAIL, password: 'not-the-password' },
        remoteAddress: '10.1.1.1',
      });
      const unknownEmail = await ctx.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { email: 'nobody@test.local', password: ADMIN_PASSWORD },
        remoteAddress: '10.1.1.2',
      });
      const wrong = expectError(wrongPassword, 401);
      const unknown = expectError(unknownEmail, 401);
      expect(wrong).toEqual({ message: ERROR_MESSAGES.invalidCredentials });
      expect(unknown).toEqual(wrong);
      expect(unknownEmail.body).toBe(wrongPassword.body);
    });

    it('answers 400 naming the fields when the email or password is missing', async () => {
      const response = await ctx.app.inject({ method: 'POST', url: '/api/login', payload: {} });
      const body = expectError(response, 400);
      expect(body.errors?.email?.length).toBeGreaterThan(0);
      expect(body.errors?.password?.length).toBeGreaterThan(0);
    });

    it('answers 400, not 500, to a malformed JSON body', async () => {
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/login',
        headers: { 'content-type': 'application/json' },
        payload: '{"email": "admin@test.local", "password": ',
      });
      expectError(response, 400);
    });
  });

  describe('GET /api/me', () => {
    it('returns the id, name, email, effective permissions, roles, workspaces and the acting one', async () => {
      const response = await me(ctx.adminToken);
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json<Me>();
      expect(Object.keys(body).sort()).toEqual([
        'email',
        'id',
        'name',
        'permissions',
        'roles',
        'workspace_id',
        'workspaces',
      ]);
      expect(body.email).toBe(ADMIN_EMAIL);
      expect(typeof body.id).toBe('number');
      expect(body.name.length).toBeGreaterThan(0);
      expect(body.permissions).toEqual(['/']);
      expect(body.roles).toEqual([{ id: expect.any(Number), name: 'Administrator' }]);
      expect(body.workspaces).toEqual([{ id: expect.any(Number), name: 'Default', currency: 'USD' }]);
      expect(body.workspace_id).toBe(body.workspaces[0]?.id);
      expectNoSecrets(response.body, [ctx.adminToken]);
    });

    it('returns the union of role and own permissions, without the ones already implied', async () => {
      const roles = await seededRoles(ctx.app, ctx.adminToken);
      const apiManager = roles['API manager']!;
      const user = await createUserWithPermissions(
        ctx.app,
        ctx.adminToken,
        ['/general/workspace/get', '/api/flow/get', '/general/user'],
        { roles: [apiManager] },
      );
      const response = await me(user.token);
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json<Me>();
      expect(body.id).toBe(user.id);
      expect(body.email).toBe(user.email);
      // `/api/flow/get` is implied by the role's `/api`.
      expect(body.permissions).toEqual(
        [
          '/api',
          '/general/affiliate-network',
          '/general/event',
          '/general/postback-event',
          '/general/traffic-source',
          '/general/user',
          '/general/workspace/get',
        ].sort(),
      );
      expect(body.roles).toEqual([{ id: apiManager, name: 'API manager' }]);
      // Created with no workspaces: a member of the one the administrator acted in.
      expect(body.workspaces).toEqual([{ id: expect.any(Number), name: 'Default', currency: 'USD' }]);
      expectNoSecrets(response.body, [user.token, user.password]);
    });
  });

  describe('401 on /api without a live session', () => {
    it('without a token', async () => {
      expect(expectError(await ctx.app.inject({ method: 'GET', url: '/api/me' }), 401).message).toBe(
        ERROR_MESSAGES.unauthenticated,
      );
      expectError(await ctx.app.inject({ method: 'GET', url: '/api/users' }), 401);
      expectError(await ctx.app.inject({ method: 'POST', url: '/api/logout' }), 401);
    });

    it('before looking at the body: a malformed body without a token is a 401', async () => {
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/users',
        headers: { 'content-type': 'application/json' },
        payload: '{"name": ',
      });
      expectError(response, 401);
    });

    it('with a garbage token', async () => {
      for (const authorization of [
        'Bearer garbage',
        `Bearer ${'A'.repeat(43)}`,
        `Bearer ${ctx.adminToken}x`,
        'Bearer',
        ctx.adminToken,
        `Basic ${Buffer.from(`${ADMIN_EMAIL}:${ADMIN_PASSWORD}`).toString('base64')}`,
      ]) {
        const response = await ctx.app.inject({ method: 'GET', url: '/api/me', headers: { authorization } });
        expectError(response, 401);
      }
    });

    it('with a token revoked by POST /api/logout, while other sessions stay live', async () => {
      const token = await login(ctx.app, ADMIN_EMAIL, ADMIN_PASSWORD, '10.1.2.1');
      expect((await me(token)).statusCode).toBe(200);
      const logout = await ctx.app.inject({ method: 'POST', url: '/api/logout', headers: bearer(token) });
      expect(logout.statusCode, logout.body).toBe(200);
      expectNoSecrets(logout.body, [token]);
      expectError(await me(token), 401);
      expectError(await ctx.app.inject({ method: 'POST', url: '/api/logout', headers: bearer(token) }), 401);
      expect((await me(ctx.adminToken)).statusCode).toBe(200);
    });

    it('logout accepts an empty JSON body', async () => {
      const token = await login(ctx.app, ADMIN_EMAIL, ADMIN_PASSWORD, '10.1.2.2');
      const logout = await ctx.app.inject({
        method: 'POST',
        url: '/api/logout',
        headers: { ...bearer(token), 'content-type': 'application/json' },
      });
      expect(logout.statusCode, logout.body).toBe(200);
      expectError(await me(token), 401);
    });
  });

  describe('deactivated users', () => {
    it('cannot log in, and their existing tokens stop working', async () => {
      const user = await createUserWithPermissions(ctx.app, ctx.adminToken, ['/general/workspace/get']);
      const secondToken = await login(ctx.app, user.email, user.password, '10.1.3.1');
      expect((await me(user.token)).statusCode).toBe(200);

      const deactivate = await ctx.app.inject({
        method: 'PUT',
        url: `/api/users/${user.id}`,
        headers: bearer(ctx.adminToken),
        payload: { name: 'Deactivated', email: user.email, permissions: ['/general/workspace/get'], active: false },
      });
      expect(deactivate.statusCode, deactivate.body).toBe(200);
      expect(deactivate.json<{ active: boolean }>().active).toBe(false);
      expectNoSecrets(deactivate.body);

      expectError(await me(user.token), 401);
      expectError(await me(secondToken), 401);
      expectError(await ctx.app.inject({ method: 'GET', url: '/api/workspaces', headers: bearer(user.token) }), 401);

      const refused = await ctx.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { email: user.email, password: user.password },
        remoteAddress: '10.1.3.2',
      });
      // The same answer as a wrong password: it does not tell whether the account exists.
      expect(expectError(refused, 401)).toEqual({ message: ERROR_MESSAGES.invalidCredentials });

      const reactivate = await ctx.app.inject({
        method: 'PUT',
        url: `/api/users/${user.id}`,
        headers: bearer(ctx.adminToken),
        payload: { name: 'Reactivated', email: user.email, permissions: ['/general/workspace/get'], active: true },
      });
      expect(reactivate.statusCode, reactivate.body).toBe(200);
      // Old sessions stay ended; a new login works.
      expectError(await me(user.token), 401);
      const fresh = await login(ctx.app, user.email, user.password, '10.1.3.3');
      expect((await me(fresh)).statusCode).toBe(200);
    });

    it('a user cannot deactivate their own account', async () => {
      const self = await me(ctx.adminToken);
      const { id } = self.json<Me>();
      const response = await ctx.app.inject({
        method: 'PUT',
        url: `/api/users/${id}`,
        headers: bearer(ctx.adminToken),
        payload: { name: 'Administrator', email: ADMIN_EMAIL, active: false },
      });
      expect(expectError(response, 400).errors?.active?.length).toBeGreaterThan(0);
      expect((await me(ctx.adminToken)).statusCode).toBe(200);
    });
  });

  describe('password changes', () => {
    it('end the other sessions of the user; the new password works and the old one does not', async () => {
      const user = await createUserWithPermissions(ctx.app, ctx.adminToken, []);
      const response = await ctx.app.inject({
        method: 'PUT',
        url: `/api/users/${user.id}`,
        headers: bearer(ctx.adminToken),
        payload: { name: 'Renamed', email: user.email, password: 'a-brand-new-password' },
      });
      expect(response.statusCode, response.body).toBe(200);
      expectNoSecrets(response.body);
      expectError(await me(user.token), 401);
      const refused = await ctx.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { email: user.email, password: user.password },
        remoteAddress: '10.1.4.1',
      });
      expectError(refused, 401);
      await login(ctx.app, user.email, 'a-brand-new-password', '10.1.4.2');
    });

    it("changing one's own password keeps the session making the change and ends the others", async () => {
      const user = await createUserWithPermissions(ctx.app, ctx.adminToken, ['/general/user']);
      const other = await login(ctx.app, user.email, user.password, '10.1.4.3');
      const response = await ctx.app.inject({
        method: 'PUT',
        url: `/api/users/${user.id}`,
        headers: bearer(user.token),
        payload: { name: 'Self', email: user.email, permissions: ['/general/user'], password: 'my-own-new-password' },
      });
      expect(response.statusCode, response.body).toBe(200);
      expectNoSecrets(response.body, [user.token, other]);
      expect((await me(user.token)).statusCode).toBe(200);
      expectError(await me(other), 401);
    });
  });
});
