import type { ApiToken, CreatedApiToken } from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import { createRecord } from './fixtures/config-records.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  bearer,
  createUserWithPermissions,
  expectError,
  forEachDatabase,
  login,
  type TestUser,
} from './harness.js';

// Personal API tokens. Made from a session with a name, an expiry and permissions no wider than
// the user's; shown once and kept as a hash; acting in their own workspace only, within the permissions
// both the token and its user hold; refused with 401 once expired or revoked. On SQLite and PostgreSQL.

const inDays = (days: number) => new Date(Date.now() + days * 24 * 60 * 60 * 1000).toISOString();

forEachDatabase('API tokens', (db) => {
  let app: FastifyInstance;
  let adminToken: string;
  let workspaceA: number;
  let workspaceB: number;
  let member: TestUser;

  const call = (
    token: string,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: object,
    headers = {},
  ) =>
    app.inject({
      method,
      url: `/api/${url}`,
      headers: { ...bearer(token), ...headers },
      ...(payload ? { payload } : {}),
    });

  async function makeToken(session: string, body: object, headers = {}): Promise<CreatedApiToken> {
    const response = await call(session, 'POST', 'tokens', body, headers);
    expect(response.statusCode, response.body).toBe(201);
    return response.json<CreatedApiToken>();
  }

  beforeAll(async () => {
    app = await db.buildApp({
      env: { SWITCHYARD_ADMIN_EMAIL: ADMIN_EMAIL, SWITCHYARD_ADMIN_PASSWORD: ADMIN_PASSWORD },
    });
    adminToken = await login(app, ADMIN_EMAIL, ADMIN_PASSWORD);
    workspaceA = Number(
      (await app.store.db.selectFrom('workspaces').select('id').orderBy('id').executeTakeFirstOrThrow()).id,
    );
    const created = await call(adminToken, 'POST', 'workspaces', { name: 'Client B' });
    expect(created.statusCode, created.body).toBe(201);
    workspaceB = created.json<{ id: number }>().id;
    member = await createUserWithPermissions(app, adminToken, ['/tracker/offer', '/tracker/reports/get'], {
      workspaces: [workspaceA, workspaceB],
    });
  });

  it('shows the secret once, keeps only its hash, and lists the token without it', async () => {
    const made = await makeToken(member.token, {
      name: 'Pause script',
      expires_at: inDays(30),
      permissions: ['/tracker/offer/get'],
    });
    expect(made.token).toMatch(/^syt_[A-Za-z0-9_-]{43}$/);
    expect(made).toMatchObject({ name: 'Pause script', permissions: ['/tracker/offer/get'], workspace_id: workspaceA });
    const stored = await app.store.db
      .selectFrom('api_tokens')
      .selectAll()
      .where('id', '=', made.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(made.token.slice(4));
    expect(stored.token_hash).toMatch(/^[0-9a-f]{64}$/);

    const listed = await call(member.token, 'GET', 'tokens');
    expect(listed.statusCode).toBe(200);
    expect(listed.body).not.toContain(made.token);
    const { token: _secret, ...rest } = made;
    expect(listed.json<{ list: ApiToken[] }>().list).toEqual([rest]);
  });

  it('acts within its permissions only, and never on its user account or its tokens', async () => {
    const { token } = await makeToken(member.token, {
      name: 'Read offers',
      expires_at: inDays(7),
      permissions: ['/tracker/offer/get'],
    });
    const offer = await createRecord(app, adminToken, 'tracker-offers');
    expect((await call(token, 'GET', `tracker/offers/${offer.external_id}`)).statusCode).toBe(200);
    expect((await call(token, 'POST', 'tracker/offers', { name: 'x', url: 'https://x.example/' })).statusCode).toBe(
      403,
    );
    expect((await call(token, 'GET', 'reports?group_by=campaign')).statusCode).toBe(403);
    expect((await call(token, 'GET', 'users')).statusCode).toBe(403);
    expectError(
      await call(token, 'POST', 'tokens', { name: 'more', expires_at: inDays(1), permissions: ['/tracker/offer/get'] }),
      403,
    );
    expectError(
      await call(token, 'POST', 'profile/password', { current_password: member.password, password: 'another-long-1' }),
      403,
    );
    expectError(await call(token, 'PUT', 'profile', { name: 'Renamed' }), 403);

    // Last used: when and from where.
    const [listed] = (await call(member.token, 'GET', 'tokens')).json<{ list: ApiToken[] }>().list;
    expect(listed?.last_used_at).not.toBeNull();
    expect(listed?.last_used_ip).toBe('127.0.0.1');
  });

  it('refuses permissions the user does not hold, a past expiry and one too far away', async () => {
    const wider = await call(member.token, 'POST', 'tokens', {
      name: 'Wide',
      expires_at: inDays(1),
      permissions: ['/general'],
    });
    expect(expectError(wider, 400).errors).toEqual({ permissions: ['You cannot grant a permission you do not hold'] });
    const past = await call(member.token, 'POST', 'tokens', {
      name: 'Old',
      expires_at: inDays(-1),
      permissions: ['/tracker/offer/get'],
    });
    expect(expectError(past, 400).errors).toEqual({ expires_at: ['Choose a time in the future.'] });
    const far = await call(member.token, 'POST', 'tokens', {
      name: 'Far',
      expires_at: inDays(400),
      permissions: ['/tracker/offer/get'],
    });
    expect(expectError(far, 400).errors).toEqual({ expires_at: ['A token lives at most 366 days.'] });
    const bad = await call(member.token, 'POST', 'tokens', { name: '', expires_at: 'soon', permissions: [] });
    expect(Object.keys(expectError(bad, 400).errors ?? {}).sort()).toEqual(['expires_at', 'name', 'permissions']);
  });

  it('acts in its own workspace only', async () => {
    const offerB = await createRecord(app, adminToken, 'tracker-offers').then(async () => {
      const response = await call(
        adminToken,
        'POST',
        'tracker/offers',
        { name: 'Offer of B', url: 'https://b.example/' },
        {
          'x-workspace': String(workspaceB),
        },
      );
      expect(response.statusCode, response.body).toBe(201);
      return response.json<{ external_id: string }>();
    });
    const { token } = await makeToken(member.token, {
      name: 'A only',
      expires_at: inDays(7),
      permissions: ['/tracker/offer'],
    });
    expect((await call(token, 'GET', `tracker/offers/${offerB.external_id}`)).statusCode).toBe(404);
    const listed = (await call(token, 'GET', 'tracker/offers?limit=0')).json<{ list: { name: string }[] }>();
    expect(listed.list.map((offer) => offer.name)).not.toContain('Offer of B');
    expectError(await call(token, 'GET', 'tracker/offers', undefined, { 'x-workspace': String(workspaceB) }), 403);

    // Made in B, it reads B's offer and not A's.
    const inB = await makeToken(
      member.token,
      { name: 'B only', expires_at: inDays(7), permissions: ['/tracker/offer'] },
      {
        'x-workspace': String(workspaceB),
      },
    );
    expect(inB.workspace_id).toBe(workspaceB);
    expect((await call(inB.token, 'GET', `tracker/offers/${offerB.external_id}`)).statusCode).toBe(200);
  });

  it('is refused with 401 once revoked or expired, and narrows with its user', async () => {
    const revoked = await makeToken(member.token, {
      name: 'Revoked',
      expires_at: inDays(7),
      permissions: ['/tracker/offer/get'],
    });
    expect((await call(revoked.token, 'GET', 'tracker/offers')).statusCode).toBe(200);
    const removal = await call(member.token, 'DELETE', `tokens/${revoked.id}`);
    expect(removal.statusCode, removal.body).toBe(204);
    expectError(await call(revoked.token, 'GET', 'tracker/offers'), 401);
    expect((await call(member.token, 'DELETE', `tokens/${revoked.id}`)).statusCode).toBe(404);
    const listed = (await call(member.token, 'GET', 'tokens')).json<{ list: ApiToken[] }>().list;
    expect(listed.map((token) => token.id)).not.toContain(revoked.id);

    const expiring = await makeToken(member.token, {
      name: 'Expiring',
      expires_at: inDays(7),
      permissions: ['/tracker/offer/get'],
    });
    await app.store.db
      .updateTable('api_tokens')
      .set({ expires_at: inDays(-1) })
      .where('id', '=', expiring.id)
      .execute();
    expectError(await call(expiring.token, 'GET', 'tracker/offers'), 401);

    // Another user cannot revoke it; and a token whose user loses a permission loses it too.
    const other = await createUserWithPermissions(app, adminToken, ['/tracker/offer'], { workspaces: [workspaceA] });
    const narrowing = await makeToken(other.token, {
      name: 'Narrowing',
      expires_at: inDays(7),
      permissions: ['/tracker/offer'],
    });
    expect((await call(member.token, 'DELETE', `tokens/${narrowing.id}`)).statusCode).toBe(404);
    expect((await call(narrowing.token, 'GET', 'tracker/offers')).statusCode).toBe(200);
    const narrowed = await call(adminToken, 'PUT', `users/${other.id}`, {
      name: 'Narrowed',
      email: other.email,
      permissions: ['/tracker/lander/get'],
      workspaces: [workspaceA],
    });
    expect(narrowed.statusCode, narrowed.body).toBe(200);
    expect((await call(narrowing.token, 'GET', 'tracker/offers')).statusCode).toBe(403);
    expectError(await call('syt_' + 'x'.repeat(43), 'GET', 'tracker/offers'), 401);
  });
});
