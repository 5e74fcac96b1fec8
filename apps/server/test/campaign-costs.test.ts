import { type CostImportResponse, type ReportResponse, ZReportQuery } from '@switchyard/domain';
import SQLite from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { costDeltas, MICROS, spread, updateCampaignCost } from '../src/costs/service.js';
import { ReportsService } from '../src/reports/service.js';
import { SQLITE_BUSY_TIMEOUT_MS } from '../src/store/database.js';
import { rollupDeltas } from '../src/store/report-rollups.js';
import { createRecord, type StoredRecord } from './fixtures/config-records.js';
import { DESKTOP, GB_IP } from './fixtures/traffic.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, expectError, forEachDatabase, login } from './harness.js';

// A campaign's cost set after the fact over a range of days, for the whole campaign or one
// parameter value, by the API and by a CSV import; reports then show exactly the amount, read from the
// rollups and from the events alike. On SQLite and PostgreSQL.

// The cost update's turns of the event loop, each running `between.hook` first when a test sets one: a
// way to act, from outside the update's transaction, between two of its steps.
const between = vi.hoisted(() => ({ hook: undefined as (() => Promise<void>) | undefined }));
vi.mock('../src/costs/turns.js', async (importOriginal) => {
  const turns = await importOriginal<typeof import('../src/costs/turns.js')>();
  return {
    ...turns,
    turn: async () => {
      await between.hook?.();
      await turns.turn();
    },
  };
});

describe("a cost change's cube deltas", () => {
  it('sum every click of a row, carry the cost alone, and come in the order the event writer locks rows', async () => {
    const click = (id: number, workspace: number, at: string, country: string, cost: number) => ({
      id,
      click_id: `c${id}`,
      created_at: at,
      cost,
      is_unique: 1,
      is_bot: 0,
      workspace_id: workspace,
      campaign_external_id: 'camp',
      offer_external_id: 'offer',
      country,
    });
    // More clicks than one page of deltas (pages of 250), in two workspaces whose ids order differently
    // as numbers and as text, in no order of their own.
    const moves = Array.from({ length: 1_000 }, (_, index) =>
      click(
        index,
        index % 3 === 0 ? 10 : 2,
        `2026-11-0${1 + (index % 3)}T${String(index % 24).padStart(2, '0')}:15:00.000Z`,
        ['US', 'DE', 'FR'][index % 3]!,
        0.25,
      ),
    );
    const deltas = await costDeltas(moves);
    const key = (delta: (typeof deltas)[number]) => [delta.workspace_id, delta.cube, delta.bucket, delta.k1, delta.k2];
    // Each row once, with the cost of all its clicks and no click counted.
    expect(new Set(deltas.map((delta) => key(delta).join('|'))).size).toBe(deltas.length);
    const expected = new Map<string, number>();
    for (const delta of rollupDeltas(moves, [])) {
      const name = key(delta).join('|');
      expected.set(name, (expected.get(name) ?? 0) + delta.cost);
    }
    expect(deltas.length).toBe(expected.size);
    for (const delta of deltas) {
      expect(delta.cost).toBeCloseTo(expected.get(key(delta).join('|'))!, 9);
      expect([delta.clicks, delta.unique_clicks, delta.leads, delta.bot_clicks, delta.lp_clicks]).toEqual([
        0, 0, 0, 0, 0,
      ]);
    }
    // Ordered by workspace as a number, then cube, bucket and keys as text: rollupDeltas' own order.
    const ordered = [...deltas].sort((a, b) => {
      if (a.workspace_id !== b.workspace_id) return a.workspace_id - b.workspace_id;
      for (const name of ['cube', 'bucket', 'k1', 'k2'] as const)
        if (a[name] !== b[name]) return a[name] < b[name] ? -1 : 1;
      return 0;
    });
    expect(deltas.map(key)).toEqual(ordered.map(key));
    expect(deltas[0]!.workspace_id).toBe(2);
    expect(deltas.at(-1)!.workspace_id).toBe(10);
  });
});

describe('spreading an amount over clicks', () => {
  it('gives each click an equal share in millionths, the remainder on the last, summing exactly', () => {
    expect(spread(10, 3)).toEqual([3_333_333, 3_333_333, 3_333_334]);
    expect(spread(0.01, 3)).toEqual([3333, 3333, 3334]);
    expect(spread(100, 4)).toEqual([25_000_000, 25_000_000, 25_000_000, 25_000_000]);
    expect(spread(0, 2)).toEqual([0, 0]);
    for (const [amount, count] of [
      [123.45, 7],
      [1e9, 3],
      [0.07, 11],
    ] as const) {
      expect(spread(amount, count).reduce((sum, share) => sum + share, 0)).toBe(Math.round(amount * 1e6));
    }
  });
});

forEachDatabase('campaign costs', (db) => {
  let app: FastifyInstance;
  let token: string;
  let clock = Date.parse('2026-11-10T03:00:00.000Z');
  let campaign: StoredRecord;
  let workspaceId: number;

  const at = (iso: string) => {
    clock = Date.parse(iso);
  };

  async function click(zone: string) {
    const response = await app.inject({
      method: 'GET',
      url: `/c/${campaign.external_id}?zone=${zone}`,
      remoteAddress: GB_IP,
      headers: { 'user-agent': DESKTOP },
    });
    expect(response.statusCode, response.body).toBe(302);
  }

  async function updateCost(body: unknown, id = campaign.external_id, headers: Record<string, string> = {}) {
    return app.inject({
      method: 'POST',
      url: `/api/tracker/campaigns/${id}/costs`,
      headers: { ...bearer(token), ...headers },
      payload: body as Record<string, unknown>,
    });
  }

  /** The report from the API (rollups where they can) and from the events alone: they must agree. */
  async function report(input: Record<string, string>): Promise<ReportResponse> {
    const response = await app.inject({
      method: 'GET',
      url: `/api/reports?${new URLSearchParams(input)}`,
      headers: bearer(token),
    });
    expect(response.statusCode, response.body).toBe(200);
    const fromApi = response.json<ReportResponse>();
    const query = ZReportQuery.parse({ limit: 0, ...input });
    const fromEvents = await new ReportsService(app.store.db, { rollups: false }).run(query, { workspaceId });
    expect(fromApi.totals.cost).toBe(fromEvents.totals.cost);
    expect(fromApi.list.map((row) => [row.label, row.cost])).toEqual(
      fromEvents.list.map((row) => [row.label, row.cost]),
    );
    return fromApi;
  }

  const costOf = async (from: string, to: string, extra: Record<string, string> = {}) =>
    (await report({ group_by: 'campaign', date_from: from, date_to: to, ...extra })).totals.cost;

  beforeAll(async () => {
    app = await db.buildApp({
      env: { SWITCHYARD_ADMIN_EMAIL: ADMIN_EMAIL, SWITCHYARD_ADMIN_PASSWORD: ADMIN_PASSWORD },
      engine: { now: () => new Date(clock), outbound: { intervalMs: 0 } },
    });
    token = await login(app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const workspace = await app.store.db.selectFrom('workspaces').select('id').orderBy('id').executeTakeFirstOrThrow();
    workspaceId = Number(workspace.id);
    const source = await createRecord(app, token, 'traffic-sources', {
      parameters: [{ name: 'Zone', ts_parameter: 'zone', ts_token: '{zone}', internal_token: 'var1', enabled: true }],
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
      cost_model: 'CPC',
      cost: 0.25,
    });
    // UTC days: 11-10 (zone-7, zone-7, zone-8), 11-11 (zone-8, zone-7), 11-12 (zone-7).
    at('2026-11-10T03:00:00.000Z');
    await click('zone-7');
    at('2026-11-10T12:00:00.000Z');
    await click('zone-7');
    at('2026-11-10T13:10:00.000Z');
    await click('zone-8');
    at('2026-11-11T04:30:00.000Z');
    await click('zone-8');
    at('2026-11-11T20:00:00.000Z');
    await click('zone-7');
    at('2026-11-12T09:00:00.000Z');
    await click('zone-7');
    await app.engine.flush();
  });

  it('starts from the CPC cost of each click', async () => {
    expect(await costOf('2026-11-10', '2026-11-12')).toBe(1.5);
  });

  it('sets the cost over a range: the report shows exactly the amount, the day outside untouched', async () => {
    const response = await updateCost({ start: '2026-11-10', end: '2026-11-11', timezone: 'UTC', amount: 10 });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ clicks: 5 });

    expect(await costOf('2026-11-10', '2026-11-11')).toBe(10);
    expect(await costOf('2026-11-12', '2026-11-12')).toBe(0.25);
    const byDay = await report({ group_by: 'day', date_from: '2026-11-10', date_to: '2026-11-12' });
    const days = new Map(byDay.list.map((row) => [row.day, row.cost]));
    expect(days.get('2026-11-10')).toBe(6);
    expect(days.get('2026-11-11')).toBe(4);
    expect(days.get('2026-11-12')).toBe(0.25);
    // An amount that does not divide evenly still sums exactly.
    const again = await updateCost({ start: '2026-11-10', end: '2026-11-11', amount: 1 });
    expect(again.json()).toEqual({ clicks: 5 });
    expect(await costOf('2026-11-10', '2026-11-11')).toBe(1);
    const uneven = await updateCost({ start: '2026-11-10', end: '2026-11-12', amount: 100 / 3 });
    expect(uneven.json()).toEqual({ clicks: 6 });
    expect(await costOf('2026-11-10', '2026-11-12')).toBe(33.333333);
    // Equal shares in millionths, the remainder on the last click of the campaign's index order.
    const costs = await app.store.db
      .selectFrom('tracker_clicks')
      .select('cost')
      .where('campaign_external_id', '=', String(campaign.external_id))
      .where('created_at', '<', '2026-11-13')
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    expect(costs.map((row) => Number(row.cost))).toEqual([5.555555, 5.555555, 5.555555, 5.555555, 5.555555, 5.555558]);
  });

  it('sets the cost of one parameter value: only its clicks change', async () => {
    await updateCost({ start: '2026-11-10', end: '2026-11-11', amount: 40 });
    const response = await updateCost({
      start: '2026-11-10',
      end: '2026-11-11',
      timezone: 'UTC',
      amount: 9,
      filter: { var1: 'zone-7' },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ clicks: 3 });
    const vars = (value: string) => ({ vars: JSON.stringify({ var1: value }) });
    expect(await costOf('2026-11-10', '2026-11-11', vars('zone-7'))).toBe(9);
    // The two zone-8 clicks kept their 8 each.
    expect(await costOf('2026-11-10', '2026-11-11', vars('zone-8'))).toBe(16);
    expect(await costOf('2026-11-10', '2026-11-11')).toBe(25);
    const byVar = await report({ group_by: 'var1', date_from: '2026-11-10', date_to: '2026-11-12' });
    const zones = new Map(byVar.list.map((row) => [row.var1, row.cost]));
    // zone-8's two clicks are all in the range; zone-7 adds its click of 11-12 (33.333333 / 6 then).
    expect(zones.get('zone-8')).toBe(16);
    expect(zones.get('zone-7')).toBeCloseTo(9 + (await costOf('2026-11-12', '2026-11-12')), 6);
  });

  it('reads the days in the timezone given', async () => {
    // In Asia/Kolkata (UTC+5:30), 11-11 runs from 11-10T18:30Z to 11-11T18:30Z: the zone-8 click at 04:30.
    const response = await updateCost({ start: '2026-11-11', end: '2026-11-11', timezone: 'Asia/Kolkata', amount: 2 });
    expect(response.json()).toEqual({ clicks: 1 });
    expect(await costOf('2026-11-11', '2026-11-11', { timezone: 'Asia/Kolkata' })).toBe(2);
  });

  it('answers 400 on start when the range has no clicks, and changes nothing', async () => {
    const before = await costOf('2026-11-01', '2026-11-30');
    const response = await updateCost({ start: '2026-11-20', end: '2026-11-21', amount: 5 });
    expect(expectError(response, 400).errors).toEqual({ start: ['No clicks in this range'] });
    const filtered = await updateCost({ start: '2026-11-10', end: '2026-11-11', amount: 5, filter: { var1: 'none' } });
    expect(expectError(filtered, 400).errors?.start).toEqual(['No clicks in this range']);
    expect(await costOf('2026-11-01', '2026-11-30')).toBe(before);
  });

  it('refuses bad input on its field', async () => {
    const errorsOf = async (body: unknown) => expectError(await updateCost(body), 400).errors ?? {};
    expect(Object.keys(await errorsOf({}))).toEqual(expect.arrayContaining(['start', 'end', 'amount']));
    expect(Object.keys(await errorsOf({ start: '2026-11-31', end: '2026-11-10', amount: 1 }))).toContain('start');
    expect(Object.keys(await errorsOf({ start: '2026-11-11', end: '2026-11-10', amount: 1 }))).toEqual(['end']);
    expect(Object.keys(await errorsOf({ start: '2026-11-10', end: '2026-11-10', amount: -1 }))).toEqual(['amount']);
    expect(Object.keys(await errorsOf({ start: '2026-11-10', end: '2026-11-10', amount: 2e9 }))).toEqual(['amount']);
    expect(Object.keys(await errorsOf({ start: '2026-11-10', end: '2026-11-10', amount: '5' }))).toEqual(['amount']);
    expect(
      Object.keys(await errorsOf({ start: '2026-11-10', end: '2026-11-10', amount: 1, timezone: 'Mars/Base' })),
    ).toEqual(['timezone']);
    const filter = await errorsOf({ start: '2026-11-10', end: '2026-11-10', amount: 1, filter: { referrer: 'x' } });
    expect(Object.keys(filter)[0]).toMatch(/^filter/);
  });

  it("answers 404 for an unknown campaign and for another workspace's", async () => {
    expectError(await updateCost({ start: '2026-11-10', end: '2026-11-10', amount: 1 }, 'no-such-campaign'), 404);
    const created = await app.inject({
      method: 'POST',
      url: '/api/workspaces',
      headers: bearer(token),
      payload: { name: 'Client B' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const other = created.json<{ id: number }>().id;
    const foreignId = 'foreign-campaign-costs';
    await app.store.db
      .insertInto('config_records')
      .values({
        kind: 'tracker-campaigns',
        external_id: foreignId,
        workspace_id: other,
        name: 'Client B campaign',
        body: '{}',
        status: 'active',
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
      })
      .execute();
    expectError(await updateCost({ start: '2026-11-10', end: '2026-11-10', amount: 1 }, foreignId), 404);
    // In its own workspace it is found (and has no clicks).
    const own = await updateCost({ start: '2026-11-10', end: '2026-11-10', amount: 1 }, foreignId, {
      'x-workspace': String(other),
    });
    expect(expectError(own, 400).errors).toEqual({ start: ['No clicks in this range'] });
  });

  it('imports CSV lines, each answered through the same update', async () => {
    const text = [
      'date,campaign,var_name,var_value,amount',
      `2026-11-12,${campaign.name},,,7`,
      `2026-11-11,${campaign.external_id},var1,zone-8,3`,
      `2026-11-13,${campaign.external_id},,,1`,
      '2026-11-10,no-such-campaign,,,1',
      `2026-11-10,${campaign.external_id},referrer,x,1`,
      `2026-11-10,${campaign.external_id},,,-4`,
    ].join('\n');
    const response = await app.inject({
      method: 'POST',
      url: '/api/tracker/campaigns/costs/import',
      headers: bearer(token),
      payload: { text },
    });
    expect(response.statusCode, response.body).toBe(200);
    const answer = response.json<CostImportResponse>();
    expect(answer.lines.map((line) => [line.line, line.status, line.clicks])).toEqual([
      [2, 200, 1],
      [3, 200, 1],
      [4, 400, 0],
      [5, 404, 0],
      [6, 400, 0],
      [7, 400, 0],
    ]);
    expect(answer.lines[2]!.message).toBe('No clicks in this range');
    expect(answer).toMatchObject({ updated: 2, refused: 4 });
    expect(await costOf('2026-11-12', '2026-11-12')).toBe(7);
    expect(await costOf('2026-11-11', '2026-11-11', { vars: JSON.stringify({ var1: 'zone-8' }) })).toBe(3);

    const csv = await app.inject({
      method: 'POST',
      url: '/api/tracker/campaigns/costs/import',
      headers: { ...bearer(token), 'content-type': 'text/csv' },
      payload: `2026-11-12,${campaign.external_id},,,8.5\n`,
    });
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.json<CostImportResponse>().lines[0]).toMatchObject({ status: 200, clicks: 1 });
    expect(await costOf('2026-11-12', '2026-11-12')).toBe(8.5);

    const empty = await app.inject({
      method: 'POST',
      url: '/api/tracker/campaigns/costs/import',
      headers: bearer(token),
      payload: { text: '' },
    });
    expect(Object.keys(expectError(empty, 400).errors ?? {})).toEqual(['text']);
  });

  it('lets the event loop run while it updates many clicks, and still sets exactly the amount', async () => {
    // 50,000 clicks of one day, written straight to the table (the rollups follow from the report check).
    const day = '2026-10-05';
    await sql`insert into tracker_clicks (click_id, created_at, campaign_external_id, visitor_id, reason, cost, is_unique)
      with recursive n(i) as (select 1 union all select i + 1 from n where i < 50000)
      select ${'bulk-'} || i, ${`${day}T10:00:00.000Z`}, ${String(campaign.external_id)}, ${'v'}, ${'matched'}, 0, 0 from n`.execute(
      app.store.db,
    );
    // Called directly (the route first waits for the event writer, which lets timers run anyway).
    let ticks = 0;
    const timer = setInterval(() => {
      ticks += 1;
    }, 1);
    try {
      const input = { start: day, end: day, timezone: 'UTC', amount: 500, filter: {} };
      expect(await updateCampaignCost(app.store, String(campaign.external_id), input, { instance: true })).toBe(50_000);
    } finally {
      clearInterval(timer);
    }
    // Timers fired during the update: it did not hold the event loop from start to end (on SQLite, whose
    // driver answers synchronously, it did before it yielded between pages).
    expect(ticks).toBeGreaterThan(0);
    const rows = await app.store.db
      .selectFrom('tracker_clicks')
      .select((eb) => eb.fn.sum<number>('cost').as('cost'))
      .where('created_at', 'like', `${day}%`)
      .executeTakeFirstOrThrow();
    expect(Math.round(Number(rows.cost) * 1e6) / 1e6).toBe(500);
  });

  /** `count` clicks of the campaign at 10:00 on `day`, written straight to the table, named `prefix` and a number. */
  async function insertClicks(prefix: string, day: string, count: number) {
    await sql`insert into tracker_clicks (click_id, created_at, campaign_external_id, workspace_id, visitor_id, reason, cost, is_unique)
      with recursive n(i) as (select 1 union all select i + 1 from n where i < ${count})
      select ${prefix} || i, ${`${day}T10:00:00.000Z`}, ${String(campaign.external_id)}, ${workspaceId}, ${'v'}, ${'matched'}, 0, 0 from n`.execute(
      app.store.db,
    );
  }

  // SQLite only: PostgreSQL's driver waits without holding the event loop, so the update runs where asked.
  it.runIf(db.kind === 'sqlite')(
    'runs on a connection of its own, and a write through the API meanwhile waits for it and is kept',
    async () => {
      const day = '2026-10-06';
      await insertClicks('thread-', day, 20_000);
      // Every statement the event loop's connection runs (better-sqlite3 prepares each one it runs).
      const sqlite = app.store.sqlite!;
      const original = sqlite.prepare.bind(sqlite);
      const prepared: string[] = [];
      const prepare = vi.spyOn(sqlite, 'prepare').mockImplementation(((text: string) => {
        prepared.push(text);
        return original(text);
      }) as typeof sqlite.prepare);
      // A third connection, to see when the update holds the write lock.
      const probe = new SQLite(sqlite.name, { timeout: 0 });
      const locked = () => {
        try {
          probe.exec('begin immediate; rollback');
          return false;
        } catch {
          return true;
        }
      };
      let update: Awaited<ReturnType<typeof updateCost>> | undefined;
      let created: StoredRecord;
      try {
        const updating = updateCost({ start: day, end: day, timezone: 'UTC', amount: 200 }).then((answer) => {
          update = answer;
        });
        while (!update && !locked()) await new Promise((resolve) => setTimeout(resolve, 2));
        // Asked while the update holds the write lock on its own connection.
        expect(update).toBeUndefined();
        created = await createRecord(app, token, 'tracker-offers', { url: 'https://offer.example/during' });
        await updating;
      } finally {
        prepare.mockRestore();
        probe.close();
      }
      if (!update) throw new Error('no answer');
      expect(update.statusCode, update.body).toBe(200);
      expect(update.json()).toEqual({ clicks: 20_000 });
      // The update's statements ran elsewhere: none of them touched tracker_clicks on this connection.
      expect(prepared.filter((text) => /update\s+"tracker_clicks"/i.test(text))).toEqual([]);
      expect(prepared.some((text) => /insert into "config_records"/i.test(text))).toBe(true);
      const rows = await app.store.db
        .selectFrom('tracker_clicks')
        .select((eb) => eb.fn.sum<number>('cost').as('cost'))
        .where('click_id', 'like', 'thread-%')
        .executeTakeFirstOrThrow();
      expect(Math.round(Number(rows.cost) * 1e6) / 1e6).toBe(200);
      const offer = await app.store.db
        .selectFrom('config_records')
        .select('external_id')
        .where('kind', '=', 'tracker-offers')
        .where('external_id', '=', String(created.external_id))
        .executeTakeFirst();
      expect(offer).toEqual({ external_id: created.external_id });
    },
  );

  it.runIf(db.kind === 'sqlite')(
    "waits out another process's write longer than the event loop's busy timeout, and then sets the cost",
    async () => {
      const day = '2026-10-08';
      await insertClicks('waits-', day, 10);
      // Another process's long write: the write lock held past SQLITE_BUSY_TIMEOUT_MS.
      const other = new SQLite(app.store.sqlite!.name);
      other.exec('begin immediate');
      const release = setTimeout(() => other.exec('commit'), SQLITE_BUSY_TIMEOUT_MS + 3_000);
      try {
        const response = await updateCost({ start: day, end: day, timezone: 'UTC', amount: 5 });
        expect(response.statusCode, response.body).toBe(200);
        expect(response.json()).toEqual({ clicks: 10 });
      } finally {
        clearTimeout(release);
        if (other.inTransaction) other.exec('commit');
        other.close();
      }
    },
    30_000,
  );

  // PostgreSQL only: on SQLite, BEGIN IMMEDIATE holds the write lock throughout, so no other writer can insert.
  it.runIf(db.kind === 'postgres')(
    'leaves a click written between its two readings with its own cost, and spreads the amount over the others',
    async () => {
      // 1,002 clicks: the second reading's first page (1,000) ends before the phantom's place, at 11:00.
      const day = '2026-10-07';
      await sql`insert into tracker_clicks (click_id, created_at, campaign_external_id, workspace_id, visitor_id, reason, cost, is_unique)
        select ${'counted-'} || i, ${`${day}T10:00:00.000Z`}, ${String(campaign.external_id)}, ${workspaceId}, ${'v'}, ${'matched'}, 0, 0
        from generate_series(1, 1001) as i`.execute(app.store.db);
      await sql`insert into tracker_clicks (click_id, created_at, campaign_external_id, workspace_id, visitor_id, reason, cost, is_unique)
        values (${'counted-last'}, ${`${day}T12:00:00.000Z`}, ${String(campaign.external_id)}, ${workspaceId}, ${'v'}, ${'matched'}, 0, 0)`.execute(
        app.store.db,
      );

      let phantomWritten = false;
      between.hook = async () => {
        if (phantomWritten) return;
        // The first reading is over once the update holds the range's last click (FOR UPDATE), which another
        // connection's SKIP LOCKED then passes by.
        const free = await app.store.db
          .selectFrom('tracker_clicks')
          .select('id')
          .where('click_id', '=', 'counted-last')
          .forUpdate()
          .skipLocked()
          .execute();
        if (free.length > 0) return;
        phantomWritten = true;
        // A real click, stored by the event writer on its own connection: a new row waits on no row lock.
        at(`${day}T11:00:00.000Z`);
        await click('zone-9');
        await app.engine.flush();
      };
      const input = { start: day, end: day, timezone: 'UTC', amount: 100, filter: {} };
      try {
        // The humans the first reading counted, the phantom not among them.
        expect(await updateCampaignCost(app.store, String(campaign.external_id), input, { workspaceId })).toBe(1_002);
      } finally {
        between.hook = undefined;
      }
      expect(phantomWritten).toBe(true);

      const rows = await app.store.db
        .selectFrom('tracker_clicks')
        .select(['click_id', 'created_at', 'cost'])
        .where('campaign_external_id', '=', String(campaign.external_id))
        .where('created_at', 'like', `${day}%`)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      expect(rows).toHaveLength(1_003);
      // The phantom, read by the second reading's second page, kept its CPC cost.
      const phantom = rows[1_001]!;
      expect(phantom.click_id).not.toMatch(/^counted-/);
      expect([phantom.created_at, Number(phantom.cost)]).toEqual([`${day}T11:00:00.000Z`, 0.25]);
      // 100 over 1,002 clicks: 0.0998 each, the remainder on the last, exactly 100 in millionths.
      const shares = rows.filter((row) => row !== phantom).map((row) => Math.round(Number(row.cost) * MICROS));
      expect(shares).toEqual([...new Array<number>(1_001).fill(99_800), 100_200]);
      expect(shares.reduce((sum, share) => sum + share, 0)).toBe(100 * MICROS);
    },
  );
});
