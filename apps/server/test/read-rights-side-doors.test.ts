import type { ClickReplay, HistoryEntry } from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createRecord, uniqueName } from './fixtures/config-records.js';
import { postbackPath } from './fixtures/postbacks.js';
import { type SseMessage, SseStream } from './fixtures/sse.js';
import { DESKTOP, GB_IP } from './fixtures/traffic.js';
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

// Read rights hold at the side doors too. Two workspaces, A (the seeded one, where the
// root administrator acts) and B, and a member of B only: history shows them none of A's entries nor A's
// users, nor the instance's settings; cloning needs the right to read the source; and a role without the
// money permission finds no payout in a raw postback, the events the CSV export reads, the live stream,
// a replay or the inspector. On SQLite and PostgreSQL.

/** Payout-like parameters a network may send, each with a value found nowhere else in the answers. */
const AMOUNTS = { payout: '17.31', amount: '17.32', commission: '17.33', sum: '17.34', Revenue: '17.35' };

forEachDatabase('read rights through the side doors', (db) => {
  let app: FastifyInstance;
  let token: string;
  let workspaceA: number;
  let workspaceB: number;
  let memberB: TestUser;
  const streams: SseStream[] = [];

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, as: string, payload?: object, workspace?: number) =>
    app.inject({
      method,
      url: `/api/${url}`,
      headers: { ...bearer(as), ...(workspace ? { 'x-workspace': String(workspace) } : {}) },
      ...(payload ? { payload } : {}),
    });

  beforeAll(async () => {
    app = await db.buildApp({
      env: { SWITCHYARD_ADMIN_EMAIL: ADMIN_EMAIL, SWITCHYARD_ADMIN_PASSWORD: ADMIN_PASSWORD },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    token = await login(app, ADMIN_EMAIL, ADMIN_PASSWORD);
    workspaceA = (await app.store.db.selectFrom('workspaces').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
    const made = await call('POST', 'workspaces', token, { name: uniqueName('Workspace B') });
    expect(made.statusCode, made.body).toBe(201);
    workspaceB = made.json<{ id: number }>().id;
    memberB = await createUserWithPermissions(app, token, ['/general', '/tracker'], {
      workspaces: [workspaceB],
      name: 'Bea of B',
    });
  });

  afterAll(() => {
    for (const stream of streams) stream.close();
  });

  async function history(as: string): Promise<{ list: HistoryEntry[]; body: string }> {
    const response = await call('GET', 'history?limit=1000', as);
    expect(response.statusCode, response.body).toBe(200);
    return { list: response.json<{ list: HistoryEntry[] }>().list, body: response.body };
  }

  it("shows a member of B none of A's entries, A's users or the instance's settings", async () => {
    // In A: a user of A only, their login, a failed login of no one, A itself renamed, instance settings.
    const alice = await createUserWithPermissions(app, token, ['/tracker/flow/get'], {
      workspaces: [workspaceA],
      name: 'Alice of A',
    });
    const failed = await app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: 'nobody-of-a@test.local', password: 'not-a-password' },
    });
    expect(failed.statusCode).toBe(401);
    const renamed = await call('PUT', `workspaces/${workspaceA}`, token, { name: 'A renamed', currency: 'EUR' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    for (const [url, payload] of [
      ['account-settings', { registration_enabled: true, registration_role_id: null }],
      ['bot-protection', { datacenter_asns: [{ asn: 64_512, name: 'Instance-wide ASN' }] }],
    ] as const) {
      const response = await call('PUT', url, token, payload);
      expect(response.statusCode, response.body).toBe(200);
    }
    // Kept in B's history, yet about a user of A only: made by root acting in B.
    const carol = await call(
      'POST',
      'users',
      token,
      {
        name: 'Carol of A',
        email: 'carol-of-a@test.local',
        password: 'carol-password-1',
        permissions: [],
        workspaces: [workspaceA],
      },
      workspaceB,
    );
    expect(carol.statusCode, carol.body).toBe(201);
    // B's own: a user of B (made acting in B), and a flow made by the member.
    const dave = await call(
      'POST',
      'users',
      token,
      { name: 'Dave of B', email: 'dave-of-b@test.local', password: 'dave-password-1', permissions: [] },
      workspaceB,
    );
    expect(dave.statusCode, dave.body).toBe(201);
    await createRecord(app, memberB.token, 'tracker-flows', { name: 'Flow of B' });

    const seen = await history(memberB.token);
    for (const leak of ['Alice of A', alice.email, 'Carol of A', 'carol-of-a', 'nobody-of-a', 'A renamed']) {
      expect(seen.body).not.toContain(leak);
    }
    for (const entry of seen.list) {
      expect(['account-settings', 'bot-protection']).not.toContain(entry.resource);
      if (entry.resource === 'workspaces') expect(entry.record_id).toBe(String(workspaceB));
    }
    // What is B's is still shown: its user, its flow, the member's own login and B's workspace.
    const shown = seen.list.map((entry) => `${entry.resource} ${entry.action} ${entry.record_name}`);
    expect(shown).toEqual(
      expect.arrayContaining([
        'users create Dave of B',
        'tracker/flows create Flow of B',
        `auth login ${memberB.email}`,
        expect.stringMatching(/^workspaces create Workspace B/),
      ]),
    );
    expect(
      seen.list.find(
        (entry) => entry.resource === 'users' && entry.record_id === String(dave.json<{ id: number }>().id),
      ),
    ).toBeDefined();

    // Nor is any of A's entry found by its id; the instance's administrator still sees them all.
    const root = (await history(token)).list;
    const foreign = root.filter(
      (entry) =>
        ['account-settings', 'bot-protection'].includes(entry.resource) ||
        entry.record_name === 'Carol of A' ||
        entry.record_name === alice.email ||
        entry.record_name === 'nobody-of-a@test.local' ||
        (entry.resource === 'workspaces' && entry.record_id === String(workspaceA)),
    );
    expect(new Set(foreign.map((entry) => entry.resource))).toEqual(
      new Set(['account-settings', 'bot-protection', 'auth', 'workspaces']),
    );
    for (const entry of foreign) expectError(await call('GET', `history/${entry.id}`, memberB.token), 404);
    const rootInB = await call('GET', 'history?resource=users&limit=1000', token, undefined, workspaceB);
    expect(rootInB.json<{ list: HistoryEntry[] }>().list.map((entry) => entry.record_name)).toContain('Carol of A');
  });

  it('refuses a clone of an offer the user cannot read, and tells nothing of it', async () => {
    const offer = await createRecord(app, token, 'tracker-offers', {
      url: 'https://secret-offer.example/?c={clickid}',
      payout: 7.77,
    });
    const creator = await createUserWithPermissions(app, token, ['/tracker/offer/create'], {
      workspaces: [workspaceA],
    });
    const before = await app.store.db.selectFrom('config_records').select('id').execute();
    const refused = await call('POST', `tracker/offers/${offer.external_id}/clone`, creator.token);
    expectError(refused, 403);
    for (const leak of ['secret-offer', '7.77', String(offer.name)]) expect(refused.body).not.toContain(leak);
    expect(await app.store.db.selectFrom('config_records').select('id').execute()).toHaveLength(before.length);

    // A campaign cloned with its flow needs the right to read the flow too.
    const flow = await createRecord(app, token, 'tracker-flows');
    const campaign = await createRecord(app, token, 'tracker-campaigns', { flow_external_id: flow.external_id });
    const campaigner = await createUserWithPermissions(app, token, ['/tracker/campaign', '/tracker/flow/create'], {
      workspaces: [workspaceA],
    });
    const withFlow = await call('POST', `tracker/campaigns/${campaign.external_id}/clone`, campaigner.token, {
      with_flow: true,
    });
    expectError(withFlow, 403);

    // Reading and creating, the clone is made.
    const reader = await createUserWithPermissions(app, token, ['/tracker/offer/get', '/tracker/offer/create'], {
      workspaces: [workspaceA],
    });
    const copy = await call('POST', `tracker/offers/${offer.external_id}/clone`, reader.token);
    expect(copy.statusCode, copy.body).toBe(201);
  });

  it('shows a role without money no payout in raw, the CSV export, the live stream, replay or inspector', async () => {
    const sale = await createRecord(app, token, 'postback-events', { status_values: ['approved'] });
    const offer = await createRecord(app, token, 'tracker-offers', { url: 'https://offer.example/?c={clickid}' });
    const flow = await createRecord(app, token, 'tracker-flows', {
      path_groups: [
        { id: 'g', name: 'All', paths: [{ id: 'p', offers: [{ id: 'o', offer_external_id: offer.external_id }] }] },
      ],
    });
    const campaign = await createRecord(app, token, 'tracker-campaigns', {
      flow_external_id: flow.external_id,
      postback_events: [{ postback_event_external_id: sale.external_id, is_conversion: true }],
      payout_rule_sets: [{ id: 'rs', postback_event_external_id: sale.external_id, default_payout: 4.5, rules: [] }],
    });
    const masked = await createUserWithPermissions(app, token, ['/tracker/reports/get'], {
      workspaces: [workspaceA],
    });
    const stream = await SseStream.open(app, '/api/live', bearer(masked.token));
    streams.push(stream);

    const clicked = await app.inject({
      method: 'GET',
      url: `/c/${campaign.external_id}`,
      remoteAddress: GB_IP,
      headers: { 'user-agent': DESKTOP },
    });
    expect(clicked.statusCode, clicked.body).toBe(302);
    const clickId = new URL(String(clicked.headers.location)).searchParams.get('c') ?? '';
    await app.engine.flush();
    const amounts = new URLSearchParams(AMOUNTS).toString();
    const posted = await app.inject({
      method: 'GET',
      url: `${await postbackPath(app)}?clickid=${clickId}&status=approved&txid=side-1&${amounts}`,
    });
    expect(posted.statusCode, posted.body).toBe(200);
    await app.engine.flush();

    const read = async (url: string, as: string) => {
      const response = await call('GET', url, as);
      expect(response.statusCode, response.body).toBe(200);
      return response;
    };
    const expectNoMoney = (where: string, body: string) => {
      for (const value of Object.values(AMOUNTS)) expect(body, `${where}: ${value}`).not.toContain(value);
      for (const key of ['payout', 'revenue', 'cost', 'profit']) expect(body, where).not.toContain(`"${key}"`);
    };

    // The conversions' raw postback, as the event tables and their CSV export read them (its page size).
    const conversions = await read('events/conversions?limit=1000', masked.token);
    const [conversion] = conversions.json<{ list: { raw: Record<string, string> }[] }>().list;
    expect(conversion?.raw).toMatchObject({ clickid: clickId, status: 'approved', txid: 'side-1' });
    expectNoMoney('conversions', conversions.body);
    for (const kind of ['clicks', 'leads'])
      expectNoMoney(kind, (await read(`events/${kind}?limit=1000`, masked.token)).body);
    expectNoMoney('postback log', (await read('postback-log', masked.token)).body);

    // The live stream.
    const isConversion = (message: SseMessage) => message.event === 'conversion' && message.data.click_id === clickId;
    const live = await stream.next(isConversion);
    const click = await stream.next((message) => message.event === 'click' && message.data.id === clickId);
    expect(live.message.data).toMatchObject({ state: 'approved', change: 'new' });
    expectNoMoney('live', JSON.stringify([live.message.data, click.message.data]));

    // Replay and the inspector (one answer).
    const replay = await read(`events/clicks/${clickId}/replay`, masked.token);
    expect(replay.json<ClickReplay>().click.conversions).toHaveLength(1);
    expectNoMoney('replay', replay.body);

    // Whoever sees money sees it all.
    const whole = await read('events/conversions?limit=1000', token);
    expect(whole.json<{ list: { raw: Record<string, string>; payout: number }[] }>().list[0]).toMatchObject({
      payout: 4.5,
      raw: AMOUNTS,
    });
    expect((await read(`events/clicks/${clickId}/replay`, token)).json<ClickReplay>().click.conversions).toEqual([
      expect.objectContaining({ payout: 4.5 }),
    ]);
  });
});
