import { ERROR_MESSAGES, VALIDATION_MESSAGES } from '@switchyard/domain';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_EMAIL,
  bearer,
  createUserWithPermissions,
  expectError,
  expectNoSecrets,
  forEachDatabase,
  listTotal,
  seededRoles,
  useSeededApp,
} from './harness.js';

let counter = 0;
function validUser(extra: Record<string, unknown> = {}): Record<string, unknown> {
  counter += 1;
  return { name: `Valid ${counter}`, email: `valid${counter}@test.local`, password: 'long-enough-1', ...extra };
}

/** The error messages of a field, or of its items (`permissions.0`) when the field is a list. */
function messagesOf(errors: Record<string, string[]> | undefined, field: string): string[] {
  return Object.entries(errors ?? {})
    .filter(([path]) => path === field || path.startsWith(`${field}.`))
    .flatMap(([, messages]) => messages);
}

forEachDatabase('validation', (db) => {
  const ctx = useSeededApp(db);
  let roles: Record<string, number>;
  let workspaceId: number;

  beforeAll(async () => {
    roles = await seededRoles(ctx.app, ctx.adminToken);
    const workspaces = await ctx.app.inject({ method: 'GET', url: '/api/workspaces', headers: bearer(ctx.adminToken) });
    workspaceId = workspaces.json<{ list: { id: number }[] }>().list[0]!.id;
  });

  function post(apiPath: string, payload: unknown) {
    return ctx.app.inject({
      method: 'POST',
      url: `/api/${apiPath}`,
      headers: { ...bearer(ctx.adminToken), 'content-type': 'application/json' },
      payload: JSON.stringify(payload),
    });
  }

  function put(apiPath: string, payload: unknown) {
    return ctx.app.inject({
      method: 'PUT',
      url: `/api/${apiPath}`,
      headers: { ...bearer(ctx.adminToken), 'content-type': 'application/json' },
      payload: JSON.stringify(payload),
    });
  }

  describe('POST /api/users with an invalid body: 400 naming the field, nothing written', () => {
    const cases: [string, () => Record<string, unknown>, string, string][] = [
      ['missing name', () => validUser({ name: undefined }), 'name', VALIDATION_MESSAGES.required],
      ['blank name', () => validUser({ name: '   ' }), 'name', VALIDATION_MESSAGES.required],
      ['bad email', () => validUser({ email: 'not-an-email' }), 'email', VALIDATION_MESSAGES.invalidEmail],
      ['missing email', () => validUser({ email: undefined }), 'email', VALIDATION_MESSAGES.required],
      ['short password', () => validUser({ password: 'short' }), 'password', VALIDATION_MESSAGES.passwordTooShort],
      ['missing password', () => validUser({ password: undefined }), 'password', VALIDATION_MESSAGES.required],
      [
        'unknown permission string',
        () => validUser({ permissions: ['/general/user/get', '/general/nonsense'] }),
        'permissions',
        VALIDATION_MESSAGES.unknownPermission,
      ],
      [
        'permission of an action the resource lacks',
        () => validUser({ permissions: ['/general/role/create'] }),
        'permissions',
        VALIDATION_MESSAGES.unknownPermission,
      ],
      ['unknown role id', () => validUser({ roles: [987_654] }), 'roles', VALIDATION_MESSAGES.unknownRole],
      ['role id beyond any stored id', () => validUser({ roles: [2 ** 40] }), 'roles', VALIDATION_MESSAGES.unknownRole],
      [
        'unknown workspace id',
        () => validUser({ workspaces: [987_654] }),
        'workspaces',
        VALIDATION_MESSAGES.unknownWorkspace,
      ],
      [
        'workspace id beyond any stored id',
        () => validUser({ workspaces: [2 ** 40] }),
        'workspaces',
        VALIDATION_MESSAGES.unknownWorkspace,
      ],
    ];

    for (const [title, body, field, message] of cases) {
      it(title, async () => {
        const before = await listTotal(ctx.app, ctx.adminToken, 'users');
        const payload = body();
        const response = await post('users', payload);
        const error = expectError(response, 400);
        expect(error.message).toBe(ERROR_MESSAGES.validation);
        expect(messagesOf(error.errors, field)).toContain(message);
        // The field may be named, but neither the password given nor any hash is echoed.
        if (typeof payload.password === 'string') expect(response.body).not.toContain(payload.password);
        expect(response.body).not.toMatch(/scrypt\$/);
        expect(await listTotal(ctx.app, ctx.adminToken, 'users')).toBe(before);
      });
    }

    it('names every invalid field at once', async () => {
      const response = await post('users', { email: 'nope', password: 'x', roles: ['one'], active: 'yes' });
      const error = expectError(response, 400);
      for (const field of ['name', 'email', 'password', 'roles', 'active']) {
        expect(messagesOf(error.errors, field).length, field).toBeGreaterThan(0);
      }
    });

    for (const [title, payload] of [
      ['null', null],
      ['an array', [validUser()]],
      ['a string', 'name=x'],
      ['a number', 42],
    ] as const) {
      it(`a body that is ${title}`, async () => {
        const before = await listTotal(ctx.app, ctx.adminToken, 'users');
        const response = await post('users', payload);
        expect(Object.keys(expectError(response, 400).errors ?? {}).length).toBeGreaterThan(0);
        expect(await listTotal(ctx.app, ctx.adminToken, 'users')).toBe(before);
      });
    }

    it('a valid body with a known role, permission and workspace is accepted', async () => {
      const response = await post(
        'users',
        validUser({ roles: [roles.Analyst], permissions: ['/general/user/get'], workspaces: [workspaceId] }),
      );
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json()).toMatchObject({
        roles: [roles.Analyst],
        permissions: ['/general/user/get'],
        workspaces: [workspaceId],
        active: true,
        status: 'active',
      });
      expectNoSecrets(response.body);
    });

    it('ignores fields that are not part of the form', async () => {
      const response = await post(
        'users',
        validUser({ id: 1, password_hash: 'scrypt$1$1$1$x$y', email_verified: true, status: 'archived' }),
      );
      expect(response.statusCode, response.body).toBe(201);
      const user = response.json<{ id: number; email_verified: boolean; status: string }>();
      expect(user.id).not.toBe(1);
      expect(user.email_verified).toBe(false);
      expect(user.status).toBe('active');
    });
  });

  describe('PUT /api/users/:id with an invalid body: 400, nothing changed', () => {
    it('keeps the stored user', async () => {
      const user = await createUserWithPermissions(ctx.app, ctx.adminToken, ['/general/user/get']);
      const url = `users/${user.id}`;
      const before = await ctx.app.inject({ method: 'GET', url: `/api/${url}`, headers: bearer(ctx.adminToken) });
      for (const [payload, field] of [
        [{ name: '', email: user.email }, 'name'],
        [{ name: 'X', email: 'broken' }, 'email'],
        [{ name: 'X', email: user.email, password: 'short' }, 'password'],
        [{ name: 'X', email: user.email, permissions: ['/everything'] }, 'permissions'],
        [{ name: 'X', email: user.email, roles: [987_654] }, 'roles'],
        [{ name: 'X', email: user.email, workspaces: [2 ** 40] }, 'workspaces'],
      ] as const) {
        const error = expectError(await put(url, payload), 400);
        expect(messagesOf(error.errors, field).length, field).toBeGreaterThan(0);
      }
      const after = await ctx.app.inject({ method: 'GET', url: `/api/${url}`, headers: bearer(ctx.adminToken) });
      expect(after.json()).toEqual(before.json());
    });

    it('an empty password keeps the current one', async () => {
      const user = await createUserWithPermissions(ctx.app, ctx.adminToken, []);
      const response = await put(`users/${user.id}`, { name: 'Same password', email: user.email, password: '' });
      expect(response.statusCode, response.body).toBe(200);
      const me = await ctx.app.inject({ method: 'GET', url: '/api/me', headers: bearer(user.token) });
      expect(me.statusCode).toBe(200);
    });
  });

  describe('workspaces', () => {
    it('400 for a missing, blank or too long name; nothing written', async () => {
      const before = await listTotal(ctx.app, ctx.adminToken, 'workspaces');
      for (const payload of [{}, { name: '  ' }, { name: 'x'.repeat(101) }, { name: 42 }]) {
        const error = expectError(await post('workspaces', payload), 400);
        expect(error.errors?.name?.length).toBeGreaterThan(0);
      }
      const error = expectError(await put(`workspaces/${workspaceId}`, { name: '' }), 400);
      expect(error.errors?.name).toEqual([VALIDATION_MESSAGES.required]);
      expect(await listTotal(ctx.app, ctx.adminToken, 'workspaces')).toBe(before);
      const stored = await ctx.app.inject({
        method: 'GET',
        url: `/api/workspaces/${workspaceId}`,
        headers: bearer(ctx.adminToken),
      });
      expect(stored.json<{ name: string }>().name).toBe('Default');
    });

    it('creates and updates with a valid name, trimmed', async () => {
      const created = await post('workspaces', { name: '  Europe  ' });
      expect(created.statusCode, created.body).toBe(201);
      const workspace = created.json<{ id: number; name: string; status: string }>();
      expect(workspace).toMatchObject({ name: 'Europe', status: 'active' });
      const updated = await put(`workspaces/${workspace.id}`, { name: 'Europe West' });
      expect(updated.statusCode, updated.body).toBe(200);
      expect(updated.json<{ name: string }>().name).toBe('Europe West');
    });
  });

  describe('malformed JSON: 400, not 500', () => {
    for (const [method, url] of [
      ['POST', '/api/users'],
      ['POST', '/api/workspaces'],
      ['PUT', '/api/workspaces/1'],
      ['PUT', '/api/users/1'],
    ] as const) {
      it(`${method} ${url}`, async () => {
        for (const payload of ['{"name": ', '{name: "x"}', "{'name': 'x'}", '[1, 2', 'undefined']) {
          const response = await ctx.app.inject({
            method,
            url,
            headers: { ...bearer(ctx.adminToken), 'content-type': 'application/json' },
            payload,
          });
          expect(expectError(response, 400).message).toBe(VALIDATION_MESSAGES.malformedJson);
        }
      });
    }

    it('refuses a prototype-poisoning body without a 500', async () => {
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/workspaces',
        headers: { ...bearer(ctx.adminToken), 'content-type': 'application/json' },
        payload: '{"name": "Poison", "__proto__": {"admin": true}}',
      });
      expect(response.statusCode).toBeGreaterThanOrEqual(400);
      expect(response.statusCode).toBeLessThan(500);
    });

    it('answers a 4xx, not 500, to a body that is not JSON; nothing written', async () => {
      const before = await listTotal(ctx.app, ctx.adminToken, 'workspaces');
      for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
        const response = await ctx.app.inject({
          method: 'POST',
          url: '/api/workspaces',
          headers: { ...bearer(ctx.adminToken), 'content-type': contentType },
          payload: 'name=x',
        });
        expect([400, 415], `${contentType}: ${response.body}`).toContain(response.statusCode);
        expectError(response, response.statusCode);
      }
      expect(await listTotal(ctx.app, ctx.adminToken, 'workspaces')).toBe(before);
    });
  });

  describe('unknown ids: 404', () => {
    for (const apiPath of ['users', 'workspaces', 'roles']) {
      it(`GET /api/${apiPath}/:id`, async () => {
        for (const id of ['987654', '0', '-1', 'abc', '1.5', '1e3', '99999999999', '2147483648', '%20']) {
          const response = await ctx.app.inject({
            method: 'GET',
            url: `/api/${apiPath}/${id}`,
            headers: bearer(ctx.adminToken),
          });
          expect(expectError(response, 404).message, id).toBe(ERROR_MESSAGES.notFound);
        }
      });
    }

    it('PUT /api/users/:id and /api/workspaces/:id', async () => {
      const usersBefore = await listTotal(ctx.app, ctx.adminToken, 'users');
      const workspacesBefore = await listTotal(ctx.app, ctx.adminToken, 'workspaces');
      for (const id of ['987654', '99999999999', 'abc']) {
        expectError(await put(`users/${id}`, validUser()), 404);
        expectError(await put(`workspaces/${id}`, { name: 'Ghost' }), 404);
      }
      expect(await listTotal(ctx.app, ctx.adminToken, 'users')).toBe(usersBefore);
      expect(await listTotal(ctx.app, ctx.adminToken, 'workspaces')).toBe(workspacesBefore);
    });

    it('an unknown /api path answers a JSON 404', async () => {
      const response = await ctx.app.inject({
        method: 'GET',
        url: '/api/nothing-here',
        headers: bearer(ctx.adminToken),
      });
      expectError(response, 404);
    });
  });

  describe('duplicate email', () => {
    it('create: 400 with errors.email, in any letter case; nothing written', async () => {
      const before = await listTotal(ctx.app, ctx.adminToken, 'users');
      for (const email of [ADMIN_EMAIL, ADMIN_EMAIL.toUpperCase(), ` ${ADMIN_EMAIL} `]) {
        const error = expectError(await post('users', validUser({ email })), 400);
        expect(error.errors?.email).toEqual([VALIDATION_MESSAGES.emailTaken]);
      }
      expect(await listTotal(ctx.app, ctx.adminToken, 'users')).toBe(before);
    });

    it("update to another user's email: 400 with errors.email; own email is fine", async () => {
      const user = await createUserWithPermissions(ctx.app, ctx.adminToken, []);
      const error = expectError(await put(`users/${user.id}`, { name: 'Thief', email: ADMIN_EMAIL }), 400);
      expect(error.errors?.email).toEqual([VALIDATION_MESSAGES.emailTaken]);
      const same = await put(`users/${user.id}`, { name: 'Keeps email', email: user.email.toUpperCase() });
      expect(same.statusCode, same.body).toBe(200);
      expect(same.json<{ email: string }>().email).toBe(user.email);
    });
  });
});
