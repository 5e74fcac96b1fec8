import { CURRENCIES, DEFAULT_EMAIL_WEIGHTS, VALIDATION_MESSAGES } from '@switchyard/domain';
import { describe, expect, it } from 'vitest';
import { sanitizeRichText } from '../src/api/config-records/rich-text.js';
import { type Body, createRecord, minimalBody, type StoredRecord, uniqueName } from './fixtures/config-records.js';
import { bearer, createUserWithPermissions, expectError, forEachDatabase, useSeededApp } from './harness.js';

// What the server computes or rewrites: backup offer chains, segment chains, relation names, rich text,
// and the reference data of §7.4.

function segmentCondition(...segmentIds: string[]): string {
  return JSON.stringify({
    type: 'AndCondition',
    data: {
      Conditions: [
        { type: 'SegmentCondition', data: { Var: 'segment', Value: { Operation: 'IN', Values: segmentIds } } },
      ],
    },
  });
}

describe('rich text (§2.6)', () => {
  it.each([
    [
      '<p><b>bold</b> <i>it</i> <u>u</u> <a href="https://x.test/" onclick="evil()">link</a></p>',
      '<p><b>bold</b> <i>it</i> <u>u</u> <a href="https://x.test/">link</a></p>',
    ],
    ['<script>alert(1)</script><p>text</p>', '<p>text</p>'],
    ['<a href="javascript:alert(1)">x</a>', '<a>x</a>'],
    // Only the dashboard's own images stay (remote ones: rich-text-images.test.ts).
    ['<img src="/a.png" alt="a" onerror="evil()">', '<img src="/a.png" alt="a" />'],
    [
      '<blockquote>q</blockquote><pre><code>c</code></pre><ol><li>1</li></ol><ul><li>2</li></ul>',
      '<blockquote>q</blockquote><pre><code>c</code></pre><ol><li>1</li></ol><ul><li>2</li></ul>',
    ],
    ['<div style="color:red"><strong>s</strong><em>e</em><br></div>', '<strong>s</strong><em>e</em><br />'],
    ['<p><br></p>', ''],
    ['<p>&nbsp; </p><p></p>', ''],
    ['', ''],
  ])('%s → %s', (input, output) => {
    expect(sanitizeRichText(input).html).toBe(output);
  });
});

forEachDatabase('computed fields', (db) => {
  const ctx = useSeededApp(db);
  const send = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: Body) =>
    ctx.app.inject({ method, url: `/api/${url}`, headers: bearer(ctx.adminToken), ...(payload ? { payload } : {}) });

  describe.each([
    ['offers', 'offers'],
    ['tracker-offers', 'tracker/offers'],
  ] as const)('%s backup chain', (kind, apiPath) => {
    async function offer(backup: string | null = null, dailyCap = 0): Promise<StoredRecord> {
      return createRecord(ctx.app, ctx.adminToken, kind, { backup_offer_external_id: backup, daily_cap: dailyCap });
    }

    it('follows backup_offer_external_id, nearest first, and refuses a loop', async () => {
      const c = await offer(null, 50);
      const b = await offer(c.external_id as string, 0);
      const a = await offer(b.external_id as string, 200);
      expect(a.backup_offers_chain).toEqual([b.external_id, c.external_id]);
      expect(a.min_daily_cap).toBe(50);
      expect((await send('GET', `${apiPath}/${c.external_id}`)).json()).toMatchObject({ backup_offers_chain: [] });

      // c → a would close the loop a → b → c → a.
      const body = await minimalBody(ctx.app, ctx.adminToken, kind);
      const loop = expectError(
        await send('PUT', `${apiPath}/${c.external_id}`, { ...body, backup_offer_external_id: a.external_id }),
        400,
      );
      expect(loop.errors).toEqual({ backup_offer_external_id: [VALIDATION_MESSAGES.backupChainLoop] });
      const self = expectError(
        await send('PUT', `${apiPath}/${a.external_id}`, { ...body, backup_offer_external_id: a.external_id }),
        400,
      );
      expect(self.errors?.backup_offer_external_id).toEqual([VALIDATION_MESSAGES.backupChainLoop]);
      expect((await send('GET', `${apiPath}/${c.external_id}`)).json()).toMatchObject({
        backup_offer_external_id: null,
      });

      // A backup of the other offer kind is unknown here.
      const foreign = await createRecord(ctx.app, ctx.adminToken, kind === 'offers' ? 'tracker-offers' : 'offers');
      const unknown = expectError(
        await send('POST', apiPath, { ...body, backup_offer_external_id: foreign.external_id }),
        400,
      );
      expect(unknown.errors?.backup_offer_external_id).toEqual([VALIDATION_MESSAGES.unknownReference]);

      const listed = await send(
        'GET',
        `${apiPath}?with_backup_chain=true&limit=0&search=${encodeURIComponent(a.name)}`,
      );
      expect(listed.json()).toMatchObject({
        total: 1,
        list: [{ backup_offers_chain: [b.external_id, c.external_id], min_daily_cap: 50 }],
      });
    });

    it('sanitizes the description; empty editor content is stored as ""', async () => {
      const rich = await createRecord(ctx.app, ctx.adminToken, kind, {
        description: '<p onclick="x()">Hello <script>bad()</script><b>world</b></p>',
      });
      expect(rich.description).toBe('<p>Hello <b>world</b></p>');
      const empty = await createRecord(ctx.app, ctx.adminToken, kind, { description: '<p><br></p>' });
      expect(empty.description).toBe('');
    });
  });

  describe.each([
    ['segments', 'segments'],
    ['tracker-segments', 'tracker/segments'],
  ] as const)('%s chain', (kind, apiPath) => {
    it('computes segments_chain through other segments and refuses a segment that would refer to itself', async () => {
      const c = await createRecord(ctx.app, ctx.adminToken, kind);
      const b = await createRecord(ctx.app, ctx.adminToken, kind, {
        condition: segmentCondition(c.external_id as string),
      });
      const a = await createRecord(ctx.app, ctx.adminToken, kind, {
        condition: segmentCondition(b.external_id as string),
      });
      expect(a.segments_chain).toEqual([b.external_id, c.external_id]);

      const withChain = await send(
        'GET',
        `${apiPath.replace('segments', 'segments-with-chain')}?search=${encodeURIComponent(a.name)}`,
      );
      expect(withChain.statusCode, withChain.body).toBe(200);
      expect(withChain.json()).toMatchObject({
        total: 1,
        list: [{ external_id: a.external_id, segments_chain: [b.external_id, c.external_id] }],
      });

      const loop = expectError(
        await send('PUT', `${apiPath}/${c.external_id}`, {
          name: c.name,
          condition: segmentCondition(a.external_id as string),
        }),
        400,
      );
      expect(loop.errors).toEqual({ condition: [VALIDATION_MESSAGES.segmentChainLoop] });
      const unknown = expectError(
        await send('POST', apiPath, { name: uniqueName('s'), condition: segmentCondition('noSuchSegment') }),
        400,
      );
      expect(unknown.errors).toEqual({ condition: [VALIDATION_MESSAGES.unknownReference] });
    });

    it('the with-chain list needs the segments get permission', async () => {
      const section = kind === 'segments' ? 'api' : 'tracker';
      const path = apiPath.replace('segments', 'segments-with-chain');
      const without = await createUserWithPermissions(ctx.app, ctx.adminToken, []);
      expectError(await ctx.app.inject({ method: 'GET', url: `/api/${path}`, headers: bearer(without.token) }), 403);
      expectError(await ctx.app.inject({ method: 'GET', url: `/api/${path}` }), 401);
      const holder = await createUserWithPermissions(ctx.app, ctx.adminToken, [`/${section}/segments/get`]);
      expect(
        (await ctx.app.inject({ method: 'GET', url: `/api/${path}`, headers: bearer(holder.token) })).statusCode,
      ).toBe(200);
    });
  });

  it('campaigns with_relations carry the flow and traffic source names', async () => {
    const campaign = await createRecord(ctx.app, ctx.adminToken, 'campaigns');
    const flow = (await send('GET', `flows/${campaign.flow_external_id}`)).json<StoredRecord>();
    const source = (await send('GET', `traffic-sources/${campaign.traffic_source_external_id}`)).json<StoredRecord>();
    const plain = (await send('GET', `campaigns?search=${encodeURIComponent(campaign.name)}`)).json();
    expect(plain.list[0]).not.toHaveProperty('flow_name');
    const related = (
      await send('GET', `campaigns?with_relations=true&search=${encodeURIComponent(campaign.name)}`)
    ).json();
    expect(related.list[0]).toMatchObject({ flow_name: flow.name, traffic_source_name: source.name });
  });

  it('path groups name their flow', async () => {
    const offer = await createRecord(ctx.app, ctx.adminToken, 'offers');
    const flow = await createRecord(ctx.app, ctx.adminToken, 'flows', {
      path_groups: [
        { id: 'g1', flow_external_id: 'other', paths: [{ id: 'p1', offer_external_id: offer.external_id }] },
      ],
    });
    expect((flow.path_groups as { flow_external_id: string }[])[0]?.flow_external_id).toBe(flow.external_id);
  });

  describe('reference data (§7.4)', () => {
    it('every currency of the domain list', async () => {
      const response = await send('GET', 'currency');
      expect(response.statusCode).toBe(200);
      const currencies = response.json<{ Code: string; Name: string }[]>();
      expect(currencies).toHaveLength(CURRENCIES.length);
      expect(currencies).toContainEqual({ Code: 'USD', Name: expect.any(String) });
      expect(currencies).toContainEqual(expect.objectContaining({ Code: 'EUR' }));
    });

    it('default email weights', async () => {
      const response = await send('GET', 'default-email-weights');
      expect(response.json()).toEqual(DEFAULT_EMAIL_WEIGHTS);
      expect(DEFAULT_EMAIL_WEIGHTS.length).toBeGreaterThan(0);
    });

    it('timezone locations', async () => {
      const zones = (await send('GET', 'timezone/locations')).json<{ name: string }[]>();
      expect(zones.length).toBeGreaterThan(300);
      const names = zones.map((zone) => zone.name);
      expect(names).toEqual(expect.arrayContaining(['Europe/London', 'America/New_York', 'Asia/Tokyo', 'Etc/UTC']));
    });

    it('any signed-in user may read it; nobody else', async () => {
      const user = await createUserWithPermissions(ctx.app, ctx.adminToken, []);
      for (const url of ['currency', 'default-email-weights', 'timezone/locations']) {
        expect(
          (await ctx.app.inject({ method: 'GET', url: `/api/${url}`, headers: bearer(user.token) })).statusCode,
        ).toBe(200);
        expectError(await ctx.app.inject({ method: 'GET', url: `/api/${url}` }), 401);
      }
    });
  });
});
