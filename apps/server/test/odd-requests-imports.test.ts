import type { CostImportResponse } from '@switchyard/domain';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { createRecord, type StoredRecord } from './fixtures/config-records.js';
import { DE_IP } from './fixtures/traffic.js';
import { bearer, expectError, forEachDatabase, useSeededApp } from './harness.js';

// Imports as a spreadsheet writes them (odd-requests.test.ts has the other odd requests), read
// by csv-parse, each unreadable line named by its line and column; a cost import of many lines answers.

forEachDatabase('odd requests: imports', (db) => {
  const ctx = useSeededApp(db);
  let campaign: StoredRecord;
  let workspaceId: number;

  beforeAll(async () => {
    const { app, adminToken: token } = ctx;
    const workspace = await app.store.db.selectFrom('workspaces').select('id').orderBy('id').executeTakeFirstOrThrow();
    workspaceId = Number(workspace.id);
    const source = await createRecord(app, token, 'traffic-sources');
    const offer = await createRecord(app, token, 'tracker-offers', { url: 'https://offer.example/?c={clickid}' });
    const flow = await createRecord(app, token, 'tracker-flows', {
      path_groups: [
        { id: 'g1', name: 'All', paths: [{ id: 'p1', offers: [{ id: 'o1', offer_external_id: offer.external_id }] }] },
      ],
    });
    campaign = await createRecord(app, token, 'tracker-campaigns', {
      name: 'Spring, "best" offers',
      traffic_source_external_id: source.external_id,
      flow_external_id: flow.external_id,
    });
  });

  async function click(): Promise<string> {
    const response = await ctx.app.inject({ method: 'GET', url: `/c/${campaign.external_id}`, remoteAddress: DE_IP });
    expect(response.statusCode, response.body).toBe(302);
    return new URL(String(response.headers.location)).searchParams.get('c')!;
  }

  const post = (url: string, text: string) =>
    ctx.app.inject({
      method: 'POST',
      url: `/api/${url}`,
      headers: { ...bearer(ctx.adminToken), 'content-type': 'text/csv' },
      payload: text,
    });

  /** `count` clicks of the campaign at noon (UTC) of `day`, var1 `zone-<n % zones>`, written straight to the table. */
  async function clicksOn(day: string, count: number, zones = count): Promise<void> {
    const rows = Array.from({ length: count }, (_, n) => ({
      click_id: `${day}-${n}-${Math.random().toString(36).slice(2, 8)}`,
      created_at: `${day}T12:00:00.000Z`,
      campaign_external_id: String(campaign.external_id),
      workspace_id: workspaceId,
      visitor_id: `v${n}`,
      reason: 'matched',
      cost: 0.1,
      is_unique: 1,
      is_bot: 0,
      var1: `zone-${n % zones}`,
      vars: JSON.stringify({ var1: `zone-${n % zones}` }),
    }));
    for (let start = 0; start < rows.length; start += 500) {
      await ctx.app.store.db
        .insertInto('tracker_clicks')
        .values(rows.slice(start, start + 500))
        .execute();
    }
  }

  const costOf = async (day: string) =>
    Number(
      (
        await sql<{ total: number }>`select sum(cost) as total from tracker_clicks
          where campaign_external_id = ${String(campaign.external_id)} and created_at like ${`${day}%`}`.execute(
          ctx.app.store.db,
        )
      ).rows[0]?.total ?? 0,
    );

  describe('the conversion import', () => {
    it('keeps a quoted field with a comma (and a doubled quote) on its line', async () => {
      const clickId = await click();
      const response = await post(
        'conversions/import',
        ['clickid,status,payout,txid,currency', `"${clickId}",approved,5,"order 7, ""gift""",USD`].join('\r\n'),
      );
      expect(response.statusCode, response.body).toBe(200);
      const answer = response.json<{ lines: { line: number; outcome: string }[] }>();
      expect(answer.lines.map((line) => [line.line, line.outcome])).toEqual([[2, 'converted']]);
      const stored = await ctx.app.store.db
        .selectFrom('conversions')
        .select(['txid', 'payout'])
        .where('click_id', '=', clickId)
        .execute();
      expect(stored).toEqual([{ txid: 'order 7, "gift"', payout: 5 }]);
    });

    it('refuses an import with an unreadable line, naming its line and column, and counts nothing', async () => {
      const clickId = await click();
      const response = await post(
        'conversions/import',
        [`${clickId},approved,5,first,USD`, `${clickId},approved,"5"x,second,USD`].join('\n'),
      );
      expect(expectError(response, 400).errors?.text).toEqual([
        expect.stringMatching(/^Line 2, column 3: Invalid Closing Quote/),
      ]);
      const stored = await ctx.app.store.db
        .selectFrom('conversions')
        .selectAll()
        .where('click_id', '=', clickId)
        .execute();
      expect(stored).toEqual([]);
    });
  });

  describe('the cost import', () => {
    it('reads a campaign named with a comma and quotes, and names the column of each refused line', async () => {
      await clicksOn('2026-09-01', 2);
      const text = [
        'date;campaign;var_name;var_value;amount',
        '2026-09-01;"Spring, ""best"" offers";;;7',
        `2026-09-31;${campaign.external_id};;;1`,
        `2026-09-01;${campaign.external_id};referrer;x;1`,
        `2026-09-01;${campaign.external_id};var1;zone-1;-4`,
        '2026-09-01;no such campaign;;;1',
      ].join('\n');
      const response = await post('tracker/campaigns/costs/import', text);
      expect(response.statusCode, response.body).toBe(200);
      const answer = response.json<CostImportResponse>();
      expect(answer.lines.map((line) => [line.line, line.status, line.clicks, line.column])).toEqual([
        [2, 200, 2, null],
        [3, 400, 0, 1],
        [4, 400, 0, 3],
        [5, 400, 0, 5],
        [6, 404, 0, 2],
      ]);
      expect(await costOf('2026-09-01')).toBeCloseTo(7, 6);
    });

    it('names the line and column of a line that is not CSV, and changes nothing', async () => {
      await clicksOn('2026-09-02', 1);
      const text = [`2026-09-02,${campaign.external_id},,,3`, `2026-09-02,"${campaign.external_id}"x,,,4`].join('\n');
      const response = await post('tracker/campaigns/costs/import', text);
      expect(expectError(response, 400).errors?.text).toEqual([
        expect.stringMatching(/^Line 2, column 2: Invalid Closing Quote/),
      ]);
      expect(await costOf('2026-09-02')).toBeCloseTo(0.1, 6);
    });

    it('answers every line of a 20,000-line import, later lines winning for the clicks they share', async () => {
      // 20 days of 1,000 zones: one line per day and zone, then one per day for the whole day.
      const days = Array.from({ length: 20 }, (_, n) => `2026-10-${String(n + 1).padStart(2, '0')}`);
      for (const day of days) await clicksOn(day, 1000);
      const lines = days.flatMap((day) =>
        Array.from({ length: 1000 }, (_, zone) => `${day},${campaign.external_id},var1,zone-${zone},0.5`),
      );
      lines.push(`${days[0]},${campaign.external_id},,,100`);
      const response = await post('tracker/campaigns/costs/import', lines.join('\n'));
      expect(response.statusCode, response.body.slice(0, 500)).toBe(200);
      const answer = response.json<CostImportResponse>();
      expect(answer).toMatchObject({ updated: 20_001, refused: 0 });
      expect(answer.lines[20_000]).toMatchObject({ line: 20_001, status: 200, clicks: 1000 });
      expect(await costOf(days[0]!)).toBeCloseTo(100, 4);
      expect(await costOf(days[19]!)).toBeCloseTo(500, 4);
    });
  });
});
