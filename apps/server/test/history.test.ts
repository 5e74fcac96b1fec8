import type { HistoryEntry, HistoryEntryDetail } from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import { createRecord, type StoredRecord } from './fixtures/config-records.js';
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

// The change history. Every create, update, archive and restore of a config record is kept
// with who, when, from where, and the whole record before and after; so are changes to users,
// workspaces and settings, logins and failed logins, token creations. A restore saves an entry's
// "before" as a new change through the same checks as an update, and is refused with 409 when records it
// names are gone. On SQLite and PostgreSQL.

type Path = { id: string; weight: number; offers: { id: string; offer_external_id: string }[] };
type Flow = StoredRecord & { path_groups: { id: string; paths: Path[] }[] };

forEachDatabase('change history', (db) => {
  let app: FastifyInstance;
  let token: string;
  let offer: StoredRecord;

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, as = token) =>
    app.inject({ method, url: `/api/${url}`, headers: bearer(as), ...(payload ? { payload } : {}) });

  async function entries(query: string, as = token): Promise<HistoryEntry[]> {
    const response = await call('GET', `history?${query}`, undefined, as);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ list: HistoryEntry[] }>().list;
  }

  const flowBody = (weights: [number, number], offerId = String(offer.external_id)) => ({
    name: 'Weekend flow',
    path_groups: [
      {
        id: 'g',
        name: 'All',
        paths: [
          { id: 'a', weight: weights[0], offers: [{ id: 'oa', offer_external_id: offerId }] },
          { id: 'b', weight: weights[1], offers: [{ id: 'ob', offer_external_id: offerId }] },
        ],
      },
    ],
  });
  const weights = (flow: Flow) => flow.path_groups[0]!.paths.map((path) => path.weight);

  beforeAll(async () => {
    app = await db.buildApp({
      env: { SWITCHYARD_ADMIN_EMAIL: ADMIN_EMAIL, SWITCHYARD_ADMIN_PASSWORD: ADMIN_PASSWORD },
    });
    token = await login(app, ADMIN_EMAIL, ADMIN_PASSWORD);
    offer = await createRecord(app, token, 'tracker-offers');
  });

  it('keeps each create, update, archive and restore of a record, newest first, with both versions', async () => {
    const created = await call('POST', 'tracker/flows', flowBody([70, 30]));
    const flow = created.json<Flow>();
    await call('PUT', `tracker/flows/${flow.external_id}`, flowBody([10, 90]));
    expect((await call('PUT', `tracker/flows/${flow.external_id}/archive`)).statusCode).toBe(200);
    expect((await call('PUT', `tracker/flows/${flow.external_id}/restore`)).statusCode).toBe(200);

    const list = await entries(`resource=tracker/flows&id=${flow.external_id}`);
    expect(list.map((entry) => entry.action)).toEqual(['restore', 'archive', 'update', 'create']);
    for (const entry of list) {
      expect(entry).toMatchObject({
        resource: 'tracker/flows',
        record_id: flow.external_id,
        record_name: 'Weekend flow',
        user: { id: expect.any(Number), name: expect.any(String) },
        ip: '127.0.0.1',
        restored_from: null,
      });
    }
    const update = list[2]!;
    const detail = (await call('GET', `history/${update.id}`)).json<HistoryEntryDetail>();
    expect(weights(detail.before as Flow)).toEqual([70, 30]);
    expect(weights(detail.after as Flow)).toEqual([10, 90]);
    expect(detail.before).toMatchObject({ name: 'Weekend flow', status: 'active' });
    const archive = (await call('GET', `history/${list[1]!.id}`)).json<HistoryEntryDetail>();
    expect([archive.before?.status, archive.after?.status]).toEqual(['active', 'archived']);
    const creation = (await call('GET', `history/${list[3]!.id}`)).json<HistoryEntryDetail>();
    expect(creation.before).toBeNull();

    // Putting the old weights back is a new change, kept as such, with the update's checks.
    const restored = await call('POST', `history/${update.id}/restore`);
    expect(restored.statusCode, restored.body).toBe(200);
    expect(weights(restored.json<Flow>())).toEqual([70, 30]);
    const [latest] = await entries(`resource=tracker/flows&id=${flow.external_id}`);
    expect(latest).toMatchObject({ action: 'update', restored_from: update.id });
    const read = (await call('GET', `tracker/flows/${flow.external_id}`)).json<Flow>();
    expect(weights(read)).toEqual([70, 30]);

    // A create has nothing before it.
    expectError(await call('POST', `history/${list[3]!.id}/restore`), 409);
  });

  it('restores an archived version as archived', async () => {
    const flow = (await call('POST', 'tracker/flows', flowBody([50, 50]))).json<Flow>();
    await call('PUT', `tracker/flows/${flow.external_id}/archive`);
    await call('PUT', `tracker/flows/${flow.external_id}/restore`);
    const [restore] = await entries(`resource=tracker/flows&id=${flow.external_id}`);
    // The restore's "before" is the archived flow: putting it back archives it again.
    const response = await call('POST', `history/${restore!.id}/restore`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ status: 'archived' });
  });

  it('refuses a restore with 409 when a record the old version names is gone', async () => {
    const other = await createRecord(app, token, 'tracker-offers');
    const flow = (await call('POST', 'tracker/flows', flowBody([1, 1], String(other.external_id)))).json<Flow>();
    await call('PUT', `tracker/flows/${flow.external_id}`, flowBody([1, 1]));
    const [update] = await entries(`resource=tracker/flows&id=${flow.external_id}`);
    await app.store.db.deleteFrom('config_records').where('external_id', '=', String(other.external_id)).execute();
    const refused = await call('POST', `history/${update!.id}/restore`);
    expect(expectError(refused, 409).message).toBe(
      'The earlier version names records that are gone: path_groups.0.paths.0.offers.0.offer_external_id, path_groups.0.paths.1.offers.0.offer_external_id.',
    );
    const read = (await call('GET', `tracker/flows/${flow.external_id}`)).json<Flow>();
    expect(read.path_groups[0]!.paths[0]!.offers[0]!.offer_external_id).toBe(offer.external_id);
  });

  it('keeps users, workspaces, settings, logins and tokens, never a password', async () => {
    const user: TestUser = await createUserWithPermissions(app, token, ['/tracker/flow/get']);
    const failed = await app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: user.email, password: 'not-the-password' },
    });
    expect(failed.statusCode).toBe(401);
    await call('PUT', `users/${user.id}`, { name: 'Renamed', email: user.email, permissions: ['/tracker/flow/get'] });
    await call('PUT', 'account-settings', { registration_enabled: false, registration_role_id: null });
    const made = await call('POST', 'tokens', {
      name: 'Script',
      expires_at: new Date(Date.now() + 86_400_000).toISOString(),
      permissions: ['/tracker/flow/get'],
    });
    expect(made.statusCode, made.body).toBe(201);

    const users = await entries(`resource=users&id=${user.id}`);
    expect(users.map((entry) => entry.action)).toEqual(['update', 'create']);
    const detail = (await call('GET', `history/${users[0]!.id}`)).json<HistoryEntryDetail>();
    expect([detail.before?.name, detail.after?.name]).toEqual([expect.stringMatching(/^User /), 'Renamed']);
    expect(JSON.stringify(detail)).not.toMatch(/password/i);

    const logins = await entries('resource=auth');
    expect(logins.find((entry) => entry.action === 'login_failed' && entry.record_name === user.email)).toMatchObject({
      user: { id: user.id },
      ip: '127.0.0.1',
    });
    expect(logins.some((entry) => entry.action === 'login' && entry.record_name === user.email)).toBe(true);
    expect((await entries('resource=account-settings')).map((entry) => entry.action)).toEqual(['update']);
    expect((await entries('resource=tokens')).map((entry) => [entry.action, entry.record_name])).toEqual([
      ['token_create', 'Script'],
    ]);
    const workspace = (await call('POST', 'workspaces', { name: 'Kept' })).json<{ id: number }>();
    await call('PUT', `workspaces/${workspace.id}`, { name: 'Kept too', currency: 'EUR' });
    const kept = await entries(`resource=workspaces&id=${workspace.id}`);
    expect(kept.map((entry) => [entry.action, entry.record_name])).toEqual([
      ['update', 'Kept too'],
      ['create', 'Kept'],
    ]);
    const change = (await call('GET', `history/${kept[0]!.id}`)).json<HistoryEntryDetail>();
    expect([change.before, change.after]).toEqual([
      { name: 'Kept', currency: 'USD', status: 'active' },
      { name: 'Kept too', currency: 'EUR', status: 'active' },
    ]);
  });

  it('shows each reader only the resources they may get, in their workspace, and restores with update only', async () => {
    const reader = await createUserWithPermissions(app, token, ['/tracker/flow/get']);
    const flow = (await call('POST', 'tracker/flows', flowBody([2, 3]))).json<Flow>();
    await call('PUT', `tracker/flows/${flow.external_id}`, flowBody([3, 2]));
    const seen = await entries('limit=200', reader.token);
    expect(seen.length).toBeGreaterThan(0);
    expect(new Set(seen.map((entry) => entry.resource))).toEqual(new Set(['tracker/flows']));
    const [update] = await entries(`resource=tracker/flows&id=${flow.external_id}`, reader.token);
    expectError(await call('POST', `history/${update!.id}/restore`, undefined, reader.token), 403);

    // Another workspace's member sees none of it.
    const other = await call('POST', 'workspaces', { name: 'Elsewhere' });
    const outsider = await createUserWithPermissions(app, token, ['/tracker', '/general'], {
      workspaces: [other.json<{ id: number }>().id],
    });
    expect(await entries(`resource=tracker/flows&id=${flow.external_id}`, outsider.token)).toEqual([]);
    expectError(await call('GET', `history/${update!.id}`, undefined, outsider.token), 404);
    expectError(await call('GET', 'history?from=2026-11-10&to=2026-11-01'), 400);
  });
});
