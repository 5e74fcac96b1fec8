import type { ReportView } from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
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

// Saved report views: the reports screen's URL state under a name, per user and workspace,
// opened by its link by anyone of the workspace who reads reports, and by nobody else.

const PARAMS = 'group_by=offer%2Ccountry&range=lastMonth&attribution=postback&timezone=Europe%2FParis';

forEachDatabase('report views', (db) => {
  let app: FastifyInstance;
  let token: string;
  let workspaceId: number;
  let otherWorkspace: number;
  let colleague: TestUser;
  let outsider: TestUser;
  let noReports: TestUser;
  let saved: ReportView;

  async function send(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    options: { as?: string; payload?: unknown; acting?: number } = {},
  ) {
    return app.inject({
      method,
      url,
      headers: {
        ...bearer(options.as ?? token),
        ...(options.acting !== undefined ? { 'x-workspace': String(options.acting) } : {}),
      },
      ...(options.payload !== undefined ? { payload: options.payload as object } : {}),
    });
  }

  async function list(as = token, acting?: number): Promise<ReportView[]> {
    const response = await send('GET', '/api/report-views', { as, acting });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ list: ReportView[] }>().list;
  }

  beforeAll(async () => {
    app = await db.buildApp({
      env: { SWITCHYARD_ADMIN_EMAIL: ADMIN_EMAIL, SWITCHYARD_ADMIN_PASSWORD: ADMIN_PASSWORD },
    });
    token = await login(app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const workspace = await app.store.db.selectFrom('workspaces').select('id').orderBy('id').executeTakeFirstOrThrow();
    workspaceId = workspace.id;
    const made = await send('POST', '/api/workspaces', { payload: { name: `Other ${Date.now()}` } });
    expect(made.statusCode, made.body).toBe(201);
    otherWorkspace = made.json<{ id: number }>().id;
    colleague = await createUserWithPermissions(app, token, ['/tracker/reports/get'], { workspaces: [workspaceId] });
    outsider = await createUserWithPermissions(app, token, ['/tracker/reports/get'], { workspaces: [otherWorkspace] });
    noReports = await createUserWithPermissions(app, token, ['/tracker/campaign/get'], { workspaces: [workspaceId] });
  });

  it('saves the report state under a name and lists it for its owner', async () => {
    const created = await send('POST', '/api/report-views', {
      payload: { name: '  Offers by country  ', params: `?${PARAMS}` },
    });
    expect(created.statusCode, created.body).toBe(201);
    saved = created.json<ReportView>();
    expect(saved).toMatchObject({ name: 'Offers by country', params: PARAMS });
    expect(typeof saved.id).toBe('number');
    const second = await send('POST', '/api/report-views', { payload: { name: 'All defaults', params: '' } });
    expect(second.statusCode, second.body).toBe(201);
    expect((await list()).map((one) => one.name)).toEqual(['All defaults', 'Offers by country']);
  });

  it('opens a view by its link for another user of the workspace, but does not list it as theirs', async () => {
    const opened = await send('GET', `/api/report-views/${saved.id}`, { as: colleague.token });
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.json<ReportView>()).toMatchObject({ id: saved.id, name: 'Offers by country', params: PARAMS });
    expect(await list(colleague.token)).toEqual([]);
    // Theirs to read, not to change.
    expect(
      (
        await send('PUT', `/api/report-views/${saved.id}`, {
          as: colleague.token,
          payload: { name: 'Mine', params: '' },
        })
      ).statusCode,
    ).toBe(404);
    expect((await send('DELETE', `/api/report-views/${saved.id}`, { as: colleague.token })).statusCode).toBe(404);
  });

  it('is a 404 from another workspace, and needs the reports permission', async () => {
    expectError(await send('GET', `/api/report-views/${saved.id}`, { as: outsider.token }), 404);
    expectError(await send('GET', `/api/report-views/${saved.id}`, { acting: otherWorkspace }), 404);
    expect(await list(token, otherWorkspace)).toEqual([]);
    expectError(await send('GET', '/api/report-views/999999'), 404);
    expectError(await send('GET', '/api/report-views/not-a-number'), 404);
    expect((await send('GET', `/api/report-views/${saved.id}`, { as: noReports.token })).statusCode).toBe(403);
    expect((await send('GET', '/api/report-views', { as: noReports.token })).statusCode).toBe(403);
  });

  it('refuses a missing, long or taken name, and parameters the screen does not have', async () => {
    const unnamed = expectError(await send('POST', '/api/report-views', { payload: { name: '   ', params: '' } }), 400);
    expect(Object.keys(unnamed.errors ?? {})).toEqual(['name']);
    const missing = expectError(await send('POST', '/api/report-views', { payload: { params: PARAMS } }), 400);
    expect(Object.keys(missing.errors ?? {})).toEqual(['name']);
    const long = expectError(
      await send('POST', '/api/report-views', { payload: { name: 'x'.repeat(256), params: '' } }),
      400,
    );
    expect(Object.keys(long.errors ?? {})).toEqual(['name']);
    expect(
      (await send('POST', '/api/report-views', { payload: { name: 'y'.repeat(255), params: '' } })).statusCode,
    ).toBe(201);
    const taken = expectError(
      await send('POST', '/api/report-views', { payload: { name: 'Offers by country', params: '' } }),
      400,
    );
    expect(taken.errors?.name?.[0]).toMatch(/already/);
    const unknown = expectError(
      await send('POST', '/api/report-views', { payload: { name: 'Odd', params: 'group_by=offer&page=3' } }),
      400,
    );
    expect(Object.keys(unknown.errors ?? {})).toEqual(['params']);
    const huge = expectError(
      await send('POST', '/api/report-views', { payload: { name: 'Huge', params: `search=${'a'.repeat(4000)}` } }),
      400,
    );
    expect(Object.keys(huge.errors ?? {})).toEqual(['params']);
    expectError(
      await send('POST', '/api/report-views', { payload: { name: 'Typed', params: { group_by: 'x' } } }),
      400,
    );
  });

  it('lets another user, or the same user in another workspace, reuse a name', async () => {
    const theirs = await send('POST', '/api/report-views', {
      as: colleague.token,
      payload: { name: 'Offers by country', params: 'group_by=offer' },
    });
    expect(theirs.statusCode, theirs.body).toBe(201);
    const elsewhere = await send('POST', '/api/report-views', {
      acting: otherWorkspace,
      payload: { name: 'Offers by country', params: '' },
    });
    expect(elsewhere.statusCode, elsewhere.body).toBe(201);
    expect((await list(colleague.token)).map((one) => one.name)).toEqual(['Offers by country']);
  });

  it('renames and changes a view, refusing a name its owner already uses', async () => {
    const taken = expectError(
      await send('PUT', `/api/report-views/${saved.id}`, { payload: { name: 'All defaults', params: PARAMS } }),
      400,
    );
    expect(Object.keys(taken.errors ?? {})).toEqual(['name']);
    // Its own name is not taken by itself.
    const same = await send('PUT', `/api/report-views/${saved.id}`, {
      payload: { name: 'Offers by country', params: 'group_by=offer&range=yesterday' },
    });
    expect(same.statusCode, same.body).toBe(200);
    const renamed = await send('PUT', `/api/report-views/${saved.id}`, {
      payload: { name: 'Offers, last month', params: PARAMS },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json<ReportView>()).toMatchObject({ id: saved.id, name: 'Offers, last month', params: PARAMS });
    expect((await send('GET', `/api/report-views/${saved.id}`, { as: colleague.token })).json<ReportView>().name).toBe(
      'Offers, last month',
    );
    expectError(
      await send('PUT', `/api/report-views/${saved.id}`, {
        acting: otherWorkspace,
        payload: { name: 'Z', params: '' },
      }),
      404,
    );
  });

  it('deletes a view, after which its link is a 404', async () => {
    expect((await send('DELETE', `/api/report-views/${saved.id}`, { acting: otherWorkspace })).statusCode).toBe(404);
    expect((await send('DELETE', `/api/report-views/${saved.id}`)).statusCode).toBe(204);
    expectError(await send('GET', `/api/report-views/${saved.id}`, { as: colleague.token }), 404);
    expect((await send('DELETE', `/api/report-views/${saved.id}`)).statusCode).toBe(404);
    expect((await list()).map((one) => one.name)).not.toContain('Offers, last month');
  });
});
