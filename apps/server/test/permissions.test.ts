import { ERROR_MESSAGES, VALIDATION_MESSAGES } from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  bearer,
  createUserWithPermissions,
  expectError,
  expectNoSecrets,
  forEachDatabase,
  listTotal,
  login,
  seededRoles,
  type TestUser,
  useSeededApp,
} from './harness.js';

type Action = 'list' | 'get' | 'create' | 'update';

interface Case {
  /** Path below /api. */
  apiPath: string;
  /** The §6 permission key of the resource: `/general/<key>/<action>`. */
  key: string;
  actions: Action[];
  /** A body that create and update accept. */
  body?: () => Record<string, unknown>;
}

let counter = 0;
const CASES: Case[] = [
  {
    apiPath: 'users',
    key: 'user',
    actions: ['list', 'get', 'create', 'update'],
    body: () => {
      counter += 1;
      return {
        name: `Matrix ${counter}`,
        email: `matrix${counter}-${Date.now()}@test.local`,
        password: 'long-enough-1',
      };
    },
  },
  {
    apiPath: 'workspaces',
    key: 'workspace',
    actions: ['list', 'get', 'create', 'update'],
    body: () => {
      counter += 1;
      return { name: `Workspace ${counter}` };
    },
  },
  { apiPath: 'roles', key: 'role', actions: ['list', 'get'] },
];

const PERMISSION_ACTION: Record<Action, string> = { list: 'get', get: 'get', create: 'create', update: 'update' };

forEachDatabase('permissions', (db) => {
  const ctx = useSeededApp(db);

  // Creating a user costs two password hashes, so users holding the same permissions are shared.
  const usersByPermissions = new Map<string, Promise<TestUser>>();
  function userWith(permissions: string[]): Promise<TestUser> {
    const key = JSON.stringify([...permissions].sort());
    let user = usersByPermissions.get(key);
    if (!user) {
      user = createUserWithPermissions(ctx.app, ctx.adminToken, permissions);
      usersByPermissions.set(key, user);
    }
    return user;
  }

  let target: Promise<TestUser> | undefined;
  /**
   * An id of a record the action can target: a user without permissions that no test acts as (updates
   * change its email and password), the Default workspace, a role.
   */
  async function targetId(app: FastifyInstance, apiPath: string): Promise<number> {
    if (apiPath === 'users') {
      target ??= createUserWithPermissions(app, ctx.adminToken, []);
      return (await target).id;
    }
    const response = await app.inject({ method: 'GET', url: `/api/${apiPath}`, headers: bearer(ctx.adminToken) });
    return response.json<{ list: { id: number }[] }>().list[0]!.id;
  }

  /** Runs an action; `get` and `update` target `id`. */
  async function perform(testCase: Case, action: Action, token: string, id: number) {
    const headers = bearer(token);
    const base = `/api/${testCase.apiPath}`;
    switch (action) {
      case 'list':
        return ctx.app.inject({ method: 'GET', url: base, headers });
      case 'get':
        return ctx.app.inject({ method: 'GET', url: `${base}/${id}`, headers });
      case 'create':
        return ctx.app.inject({ method: 'POST', url: base, headers, payload: testCase.body!() });
      case 'update':
        return ctx.app.inject({ method: 'PUT', url: `${base}/${id}`, headers, payload: testCase.body!() });
    }
  }

  const ALLOWED_STATUS: Record<Action, number> = { list: 200, get: 200, create: 201, update: 200 };

  for (const testCase of CASES) {
    describe(`/api/${testCase.apiPath}`, () => {
      for (const action of testCase.actions) {
        const needed = `/general/${testCase.key}/${PERMISSION_ACTION[action]}`;
        const otherActions = (['get', 'create', 'update'] as const)
          .filter((other) => other !== PERMISSION_ACTION[action])
          .map((other) => `/general/${testCase.key}/${other}`);

        it(`${action}: 403 without ${needed}, even holding the other actions and other resources`, async () => {
          const others = ['user', 'workspace', 'role', 'traffic-source']
            .filter((key) => key !== testCase.key)
            .map((key) => `/general/${key}/get`);
          const lacking = await userWith([
            '/api',
            '/tracker',
            ...others,
            ...otherActions.filter(
              (permission) => permission !== '/general/role/create' && permission !== '/general/role/update',
            ),
          ]);
          const id = await targetId(ctx.app, testCase.apiPath);
          const before = await ctx.app.inject({
            method: 'GET',
            url: `/api/${testCase.apiPath}/${id}`,
            headers: bearer(ctx.adminToken),
          });
          const total = await listTotal(ctx.app, ctx.adminToken, testCase.apiPath);
          const response = await perform(testCase, action, lacking.token, id);
          expect(expectError(response, 403)).toEqual({ message: ERROR_MESSAGES.forbidden });
          // Nothing written.
          expect(await listTotal(ctx.app, ctx.adminToken, testCase.apiPath)).toBe(total);
          const after = await ctx.app.inject({
            method: 'GET',
            url: `/api/${testCase.apiPath}/${id}`,
            headers: bearer(ctx.adminToken),
          });
          expect(after.json()).toEqual(before.json());
        });

        it(`${action}: 403 with no permissions at all`, async () => {
          const nobody = await userWith([]);
          const id = await targetId(ctx.app, testCase.apiPath);
          expectError(await perform(testCase, action, nobody.token, id), 403);
        });

        for (const granting of [needed, `/general/${testCase.key}`, '/general']) {
          it(`${action}: allowed with exactly ${granting}`, async () => {
            const user = await userWith([granting]);
            const id = await targetId(ctx.app, testCase.apiPath);
            const response = await perform(testCase, action, user.token, id);
            expect(response.statusCode, response.body).toBe(ALLOWED_STATUS[action]);
            expectNoSecrets(response.body, [user.token, ctx.adminToken]);
          });
        }
      }
    });
  }

  describe('/api/roles is read-only', () => {
    it('has no create or update, even for the administrator', async () => {
      const roles = await seededRoles(ctx.app, ctx.adminToken);
      const before = await listTotal(ctx.app, ctx.adminToken, 'roles');
      const create = await ctx.app.inject({
        method: 'POST',
        url: '/api/roles',
        headers: bearer(ctx.adminToken),
        payload: { name: 'Sneaky', permissions: ['/'] },
      });
      expectError(create, 404);
      const update = await ctx.app.inject({
        method: 'PUT',
        url: `/api/roles/${roles.Analyst}`,
        headers: bearer(ctx.adminToken),
        payload: { name: 'Analyst', permissions: ['/'] },
      });
      expectError(update, 404);
      expect(await listTotal(ctx.app, ctx.adminToken, 'roles')).toBe(before);
      const analyst = await ctx.app.inject({
        method: 'GET',
        url: `/api/roles/${roles.Analyst}`,
        headers: bearer(ctx.adminToken),
      });
      expect(analyst.json<{ permissions: string[] }>().permissions).not.toContain('/');
    });
  });

  describe('escalation', () => {
    let manager: TestUser;
    let roles: Record<string, number>;

    beforeAll(async () => {
      // Manages users, but holds nothing else.
      manager = await createUserWithPermissions(ctx.app, ctx.adminToken, ['/general/user']);
      roles = await seededRoles(ctx.app, ctx.adminToken);
    });

    function createAs(token: string, extra: Record<string, unknown>) {
      counter += 1;
      return ctx.app.inject({
        method: 'POST',
        url: '/api/users',
        headers: bearer(token),
        payload: {
          name: `Escalation ${counter}`,
          email: `escalation${counter}@test.local`,
          password: 'long-enough-1',
          ...extra,
        },
      });
    }

    it('refuses to create a user with a permission the creator does not hold', async () => {
      const before = await listTotal(ctx.app, ctx.adminToken, 'users');
      for (const permissions of [
        ['/'],
        ['/general'],
        ['/general/workspace/get'],
        ['/api/flow/get', '/general/user/get'],
      ]) {
        const body = expectError(await createAs(manager.token, { permissions }), 403);
        expect(body.errors).toEqual({ permissions: [VALIDATION_MESSAGES.cannotGrant] });
      }
      expect(await listTotal(ctx.app, ctx.adminToken, 'users')).toBe(before);
    });

    it('refuses to create a user with a role whose permissions the creator does not hold', async () => {
      const before = await listTotal(ctx.app, ctx.adminToken, 'users');
      for (const role of ['Administrator', 'Analyst', 'API manager']) {
        const body = expectError(await createAs(manager.token, { roles: [roles[role]] }), 403);
        expect(body.errors).toEqual({ roles: [VALIDATION_MESSAGES.cannotGrant] });
      }
      const both = expectError(
        await createAs(manager.token, { roles: [roles.Administrator], permissions: ['/'] }),
        403,
      );
      expect(Object.keys(both.errors ?? {}).sort()).toEqual(['permissions', 'roles']);
      expect(await listTotal(ctx.app, ctx.adminToken, 'users')).toBe(before);
    });

    it('allows granting what the creator holds, directly or through a role', async () => {
      const allowed = await createAs(manager.token, { permissions: ['/general/user/get', '/general/user/update'] });
      expect(allowed.statusCode, allowed.body).toBe(201);

      const apiManager = await createUserWithPermissions(ctx.app, ctx.adminToken, ['/general/user'], {
        roles: [roles['API manager']!],
      });
      const withRole = await createAs(apiManager.token, {
        roles: [roles['API manager']],
        permissions: ['/api/flow/get'],
      });
      expect(withRole.statusCode, withRole.body).toBe(201);
      expect(withRole.json<{ roles: number[] }>().roles).toEqual([roles['API manager']]);
      // Holding the role's permissions (not the role itself) is what counts: /api covers nothing of Analyst's /tracker.
      expectError(await createAs(apiManager.token, { roles: [roles.Analyst] }), 403);
    });

    it('refuses to raise a user, or oneself, above the editor', async () => {
      const target = await createUserWithPermissions(ctx.app, ctx.adminToken, []);
      const raise = await ctx.app.inject({
        method: 'PUT',
        url: `/api/users/${target.id}`,
        headers: bearer(manager.token),
        payload: { name: 'Target', email: target.email, permissions: ['/general/workspace'] },
      });
      expect(expectError(raise, 403).errors).toEqual({ permissions: [VALIDATION_MESSAGES.cannotGrant] });
      const withRole = await ctx.app.inject({
        method: 'PUT',
        url: `/api/users/${target.id}`,
        headers: bearer(manager.token),
        payload: { name: 'Target', email: target.email, roles: [roles.Administrator] },
      });
      expect(expectError(withRole, 403).errors).toEqual({ roles: [VALIDATION_MESSAGES.cannotGrant] });

      const self = await ctx.app.inject({
        method: 'PUT',
        url: `/api/users/${manager.id}`,
        headers: bearer(manager.token),
        payload: { name: 'Manager', email: manager.email, permissions: ['/'] },
      });
      expectError(self, 403);

      const stored = await ctx.app.inject({
        method: 'GET',
        url: `/api/users/${target.id}`,
        headers: bearer(ctx.adminToken),
      });
      expect(stored.json<{ permissions: string[]; roles: number[] }>()).toMatchObject({ permissions: [], roles: [] });
      const me = await ctx.app.inject({ method: 'GET', url: '/api/me', headers: bearer(manager.token) });
      expect(me.json<{ permissions: string[] }>().permissions).toEqual(['/general/user']);
    });

    it('refuses to edit a user who holds more than the editor (no taking over an administrator)', async () => {
      const admin = await ctx.app.inject({ method: 'GET', url: '/api/me', headers: bearer(ctx.adminToken) });
      const { id } = admin.json<{ id: number }>();
      const takeover = await ctx.app.inject({
        method: 'PUT',
        url: `/api/users/${id}`,
        headers: bearer(manager.token),
        payload: {
          name: 'Administrator',
          email: ADMIN_EMAIL,
          password: 'taken-over-now',
          roles: [roles.Administrator],
        },
      });
      expectError(takeover, 403);
      const deactivate = await ctx.app.inject({
        method: 'PUT',
        url: `/api/users/${id}`,
        headers: bearer(manager.token),
        payload: { name: 'Administrator', email: ADMIN_EMAIL, active: false },
      });
      expectError(deactivate, 403);
      await login(ctx.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    });
  });
});
