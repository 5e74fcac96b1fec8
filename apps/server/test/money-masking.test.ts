import {
  MONEY_METRICS,
  MONEY_PERMISSION,
  type OutboundPostbackEntry,
  type PostbackLogEntry,
  REPORT_METRICS,
  type ReportResponse,
} from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  isAdministratorRoleName,
  moneyPermissionMigration,
  withMoneyPermission,
} from '../src/store/migrations/0010-money-permission.js';
import { createRecord, type StoredRecord } from './fixtures/config-records.js';
import { postbackPath } from './fixtures/postbacks.js';
import { DE_IP, Receiver } from './fixtures/traffic.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  bearer,
  createUserWithPermissions,
  expectError,
  forEachDatabase,
  login,
  seededRoles,
  type TestUser,
} from './harness.js';

// Money masking: `/tracker/reports/money` (root's and administrators' by default) shows cost,
// revenue, profit, ROI, EPC and payouts. Without it, reports and the postback log leave those keys out
// (absent, not zero), and a report cannot be sorted by one of them.

const NOT_MONEY = REPORT_METRICS.filter((metric) => !(MONEY_METRICS as readonly string[]).includes(metric));

describe('the money permission migration', () => {
  it('grants administrators the permission unless a broader one already does', () => {
    expect(withMoneyPermission(['/'])).toBeNull();
    expect(withMoneyPermission(['/tracker'])).toBeNull();
    expect(withMoneyPermission(['/tracker/reports'])).toBeNull();
    expect(withMoneyPermission([MONEY_PERMISSION])).toBeNull();
    expect(withMoneyPermission(['/tracker/reports/get', '/general'])).toEqual([
      '/tracker/reports/get',
      '/general',
      MONEY_PERMISSION,
    ]);
    expect(isAdministratorRoleName('Administrator')).toBe(true);
    expect(isAdministratorRoleName(' administrator ')).toBe(true);
    expect(isAdministratorRoleName('Analyst')).toBe(false);
  });
});

forEachDatabase('money masking', (db) => {
  let app: FastifyInstance;
  let token: string;
  let clock = Date.parse('2026-06-01T09:00:00.000Z');
  const receiver = new Receiver();
  let campaign: StoredRecord;
  let workspaceId: number;
  let masked: TestUser;
  let moneyed: TestUser;
  let wholeReports: TestUser;

  beforeAll(async () => {
    const port = await receiver.listen();
    app = await db.buildApp({
      env: {
        SWITCHYARD_ADMIN_EMAIL: ADMIN_EMAIL,
        SWITCHYARD_ADMIN_PASSWORD: ADMIN_PASSWORD,
        SWITCHYARD_ALLOW_PRIVATE_TARGETS: 'true',
      },
      engine: { now: () => new Date(clock), outbound: { intervalMs: 0, baseDelayMs: 1000, timeoutMs: 5000 } },
    });
    token = await login(app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const sale = await createRecord(app, token, 'postback-events', { status_values: ['approved'] });
    const source = await createRecord(app, token, 'traffic-sources', {
      postback_events: [
        {
          postback_event_external_id: sale.external_id,
          postback_url: `http://127.0.0.1:${port}/pb?c={clickid}&p={payout}`,
        },
      ],
    });
    const offer = await createRecord(app, token, 'tracker-offers', { url: 'https://offer.example/?c={clickid}' });
    const flow = await createRecord(app, token, 'tracker-flows', {
      path_groups: [
        { id: 'g', name: 'All', paths: [{ id: 'p', offers: [{ id: 'o', offer_external_id: offer.external_id }] }] },
      ],
    });
    campaign = await createRecord(app, token, 'tracker-campaigns', {
      traffic_source_external_id: source.external_id,
      flow_external_id: flow.external_id,
      postback_events: [
        { postback_event_external_id: sale.external_id, is_conversion: true, send_to_traffic_source: true },
      ],
      payout_rule_sets: [{ id: 'rs', postback_event_external_id: sale.external_id, default_payout: 4.5, rules: [] }],
    });
    const workspace = await app.store.db.selectFrom('workspaces').select('id').orderBy('id').executeTakeFirstOrThrow();
    workspaceId = workspace.id;
    const member = { workspaces: [workspaceId] };
    masked = await createUserWithPermissions(app, token, ['/tracker/reports/get'], member);
    moneyed = await createUserWithPermissions(app, token, ['/tracker/reports/get', MONEY_PERMISSION], member);
    wholeReports = await createUserWithPermissions(app, token, ['/tracker/reports'], member);

    for (const txid of ['t-1', 't-2']) {
      clock += 1000;
      const clicked = await app.inject({ method: 'GET', url: `/c/${campaign.external_id}`, remoteAddress: DE_IP });
      expect(clicked.statusCode, clicked.body).toBe(302);
      const clickId = new URL(String(clicked.headers.location)).searchParams.get('c')!;
      clock += 1000;
      const posted = await app.inject({
        method: 'GET',
        url: `${await postbackPath(app)}?clickid=${clickId}&payout=10&status=approved&txid=${txid}`,
        remoteAddress: '203.0.113.7',
      });
      expect(posted.statusCode, posted.body).toBe(200);
    }
  });

  async function get<T>(url: string, as: TestUser | string): Promise<T> {
    const response = await app.inject({ method: 'GET', url, headers: bearer(typeof as === 'string' ? as : as.token) });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<T>();
  }

  const report = (as: TestUser | string, query = 'group_by=campaign') =>
    // This file's clicks come from a datacenter address: bots', counted in.
    get<ReportResponse>(`/api/reports?include_bots=true&${query}`, as);

  it('leaves every money figure out of a report without the permission, keeping the counts', async () => {
    for (const query of ['group_by=campaign', 'group_by=day', 'group_by=campaign,offer&limit=0']) {
      const answer = await report(masked, query);
      expect(answer.list.length).toBeGreaterThan(0);
      for (const figures of [...answer.list, answer.totals]) {
        for (const metric of MONEY_METRICS) expect(figures, `${query}: ${metric}`).not.toHaveProperty(metric);
        for (const metric of NOT_MONEY) expect(figures, `${query}: ${metric}`).toHaveProperty(metric);
      }
      expect(answer.totals).toMatchObject({ clicks: 2, conversions: 2 });
    }
    const text = JSON.stringify(await report(masked));
    for (const metric of MONEY_METRICS) expect(text).not.toContain(`"${metric}"`);
  });

  it('shows the money figures with the permission, through a broader one, and to root', async () => {
    for (const as of [moneyed, wholeReports, token]) {
      const answer = await report(as);
      for (const figures of [...answer.list, answer.totals]) {
        for (const metric of REPORT_METRICS) expect(figures).toHaveProperty(metric);
      }
      expect(answer.totals).toMatchObject({ clicks: 2, conversions: 2, revenue: 9 });
    }
  });

  it('refuses to sort by a money figure without the permission, on order_by', async () => {
    for (const metric of MONEY_METRICS) {
      const response = await app.inject({
        method: 'GET',
        url: `/api/reports?group_by=campaign&order_by=${metric}`,
        headers: bearer(masked.token),
      });
      const body = expectError(response, 400);
      expect(Object.keys(body.errors ?? {})).toEqual(['order_by']);
      expect(JSON.stringify(body.errors)).toContain('/tracker/reports/money');
    }
    expect((await report(masked, 'group_by=campaign&order_by=clicks&order=desc')).list.length).toBeGreaterThan(0);
    expect((await report(moneyed, 'group_by=campaign&order_by=revenue&order=desc')).list.length).toBeGreaterThan(0);
  });

  it('leaves the payout and revenue out of the postback log, and the amount the network sent', async () => {
    const hidden = await get<{ list: PostbackLogEntry[] }>('/api/postback-log', masked);
    expect(hidden.list).toHaveLength(2);
    for (const entry of hidden.list) {
      expect(entry.conversion).not.toBeNull();
      expect(entry.conversion).not.toHaveProperty('payout');
      expect(entry.conversion).not.toHaveProperty('revenue');
      expect(entry.conversion).toMatchObject({ state: 'approved', currency: expect.any(String) });
      expect(entry.raw).not.toHaveProperty('payout');
      expect(entry.raw).toMatchObject({ status: 'approved' });
    }

    const shown = await get<{ list: PostbackLogEntry[] }>('/api/postback-log', moneyed);
    for (const entry of shown.list) {
      expect(entry.conversion).toMatchObject({ payout: 4.5, revenue: 10 });
      expect(entry.raw).toMatchObject({ payout: '10' });
    }
  });

  it('lists outbound postbacks without any amount field, their URL as sent', async () => {
    const hidden = await get<{ list: OutboundPostbackEntry[] }>('/api/outbound-postbacks', masked);
    expect(hidden.list).toHaveLength(2);
    for (const entry of hidden.list) {
      for (const name of ['payout', 'revenue']) expect(entry).not.toHaveProperty(name);
      expect(entry.url).toContain('/pb?');
    }
  });

  it('gives the permission to administrators: the seeded role holds it', async () => {
    const roles = await get<{ list: { name: string; permissions: string[] }[] }>('/api/roles?limit=0', token);
    const administrator = roles.list.find((role) => role.name === 'Administrator');
    expect(administrator?.permissions.some((held) => held === '/' || held === MONEY_PERMISSION)).toBe(true);
    const analyst = roles.list.find((role) => role.name === 'Analyst');
    expect(analyst?.permissions).not.toContain(MONEY_PERMISSION);

    // A user holding only the Administrator role sees money.
    const ids = await seededRoles(app, token);
    const administered = await createUserWithPermissions(app, token, [], {
      roles: [ids.Administrator!],
      workspaces: [workspaceId],
    });
    expect((await report(administered)).totals).toHaveProperty('revenue', 9);
    // The Analyst role does not.
    const analysed = await createUserWithPermissions(app, token, [], {
      roles: [ids.Analyst!],
      workspaces: [workspaceId],
    });
    expect((await report(analysed)).totals).not.toHaveProperty('revenue');
  });

  it('migrates an existing administrator role that lacks it, and no other role', async () => {
    const ids = await seededRoles(app, token);
    const narrowed = ['/tracker/reports/get', '/general'];
    await app.store.db
      .updateTable('roles')
      .set({ permissions: JSON.stringify(narrowed) })
      .where('id', '=', ids.Administrator!)
      .execute();
    const permissionsOf = async (id: number) =>
      JSON.parse(
        (await app.store.db.selectFrom('roles').select('permissions').where('id', '=', id).executeTakeFirstOrThrow())
          .permissions,
      ) as string[];
    const before = await Promise.all(
      ['Analyst', 'Tracker manager', 'API manager'].map((name) => permissionsOf(ids[name]!)),
    );

    await moneyPermissionMigration().up(app.store.db);
    expect(await permissionsOf(ids.Administrator!)).toEqual([...narrowed, MONEY_PERMISSION]);
    expect(
      await Promise.all(['Analyst', 'Tracker manager', 'API manager'].map((name) => permissionsOf(ids[name]!))),
    ).toEqual(before);

    // Running it again changes nothing.
    await moneyPermissionMigration().up(app.store.db);
    expect(await permissionsOf(ids.Administrator!)).toEqual([...narrowed, MONEY_PERMISSION]);

    await app.store.db
      .updateTable('roles')
      .set({ permissions: JSON.stringify(['/']) })
      .where('id', '=', ids.Administrator!)
      .execute();
  });

  it('records the migration as 0010_money_permission', async () => {
    const applied = await app.store.db
      .selectFrom('kysely_migration' as never)
      .select('name' as never)
      .execute();
    expect((applied as { name: string }[]).map((row) => row.name)).toContain('0010_money_permission');
  });
});
