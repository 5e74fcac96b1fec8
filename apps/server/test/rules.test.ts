import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Rule, RulePreviewAnswer } from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import { LOCKS, underLease } from '../src/jobs/lease.js';
import { ruleForm } from '../src/rules/engine.js';
import { createRecord, type StoredRecord } from './fixtures/config-records.js';
import { postbackPath } from './fixtures/postbacks.js';
import { DESKTOP, GB_IP } from './fixtures/traffic.js';
import { bearer, buildProxiedAdminApp, createUserWithPermissions, expectError, forEachDatabase } from './harness.js';

// Rules that watch the report and act: excluding a zone, pausing a path (never the last one), the preview,
// the cooldown, and one run per window however many nodes run the engine.

forEachDatabase('rules', (db) => {
  let app: FastifyInstance;
  let token: string;
  let source: StoredRecord;
  let campaign: StoredRecord;
  let postbacks: string;

  const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    app.inject({ method, url: `/api${url}`, headers: bearer(token), ...(payload ? { payload } : {}) });

  /** A click from `zone` (var2); answers the offer host it was sent to and its click id. */
  async function click(target: StoredRecord, zone: string): Promise<{ host: string; clickId: string }> {
    const clicked = await app.inject({
      method: 'GET',
      url: `/c/${target.external_id}?zone=${zone}`,
      // A home connection: a datacenter address's clicks are bots', which rules do not count.
      remoteAddress: GB_IP,
      headers: { 'user-agent': DESKTOP },
    });
    expect(clicked.statusCode, clicked.body).toBe(302);
    const location = new URL(String(clicked.headers.location));
    return { host: location.hostname, clickId: location.searchParams.get('c') ?? '' };
  }

  async function createRule(body: object): Promise<Rule> {
    const response = await api('POST', '/rules', body);
    expect(response.statusCode, response.body).toBe(201);
    return response.json<Rule>();
  }

  async function storedRule(id: number) {
    const row = await app.store.db.selectFrom('rules').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    return { row, form: ruleForm(row)! };
  }

  async function campaignExcluded(): Promise<unknown> {
    return (await api('GET', `/tracker/campaigns/${campaign.external_id}`)).json<{ excluded: unknown }>().excluded;
  }

  const zoneRule = {
    name: 'Zones that never convert',
    group_by: 'var2',
    window: 1440,
    conditions: [
      { metric: 'clicks', operator: '>=', value: 5, min_clicks: 5 },
      { metric: 'conversions', operator: '=', value: 0, min_clicks: 5 },
    ],
    actions: [{ type: 'exclude' }],
    cooldown: 60,
  };

  beforeAll(async () => {
    ({ app, adminToken: token } = await buildProxiedAdminApp(db));
    const sale = await createRecord(app, token, 'postback-events', { status_values: ['approved'] });
    source = await createRecord(app, token, 'traffic-sources', {
      parameters: [{ name: 'Zone', ts_parameter: 'zone', ts_token: '{zone}', internal_token: 'var2', enabled: true }],
    });
    const main = await createRecord(app, token, 'tracker-offers', { url: 'https://main.example/?c={clickid}' });
    const fallback = await createRecord(app, token, 'tracker-offers', { url: 'https://fallback.example/?c={clickid}' });
    const flow = await createRecord(app, token, 'tracker-flows', {
      path_groups: [
        {
          id: 'g1',
          name: 'Main',
          paths: [{ id: 'p1', name: 'Main', offers: [{ id: 'o1', offer_external_id: main.external_id }] }],
        },
        {
          id: 'g2',
          name: 'Fallback',
          paths: [{ id: 'pf', name: 'Fallback', offers: [{ id: 'of', offer_external_id: fallback.external_id }] }],
        },
      ],
    });
    campaign = await createRecord(app, token, 'tracker-campaigns', {
      traffic_source_external_id: source.external_id,
      flow_external_id: flow.external_id,
      postback_events: [{ postback_event_external_id: sale.external_id, is_conversion: true }],
      payout_rule_sets: [{ id: 'rs', postback_event_external_id: sale.external_id, default_payout: 10, rules: [] }],
    });
    postbacks = await postbackPath(app);
    for (let n = 0; n < 6; n += 1) expect((await click(campaign, 'z-bad')).host).toBe('main.example');
    for (let n = 0; n < 6; n += 1) {
      const { host, clickId } = await click(campaign, 'z-good');
      expect(host).toBe('main.example');
      if (n === 0) {
        const posted = await app.inject({
          method: 'GET',
          url: `${postbacks}?clickid=${clickId}&status=approved&txid=t${n}`,
          remoteAddress: '203.0.113.7',
        });
        expect(posted.statusCode, posted.body).toBe(200);
      }
    }
    // Too small a sample: three clicks, no conversion, below min_clicks.
    for (let n = 0; n < 3; n += 1) await click(campaign, 'z-new');
    await app.engine.flush();
  });

  it('refuses an unknown metric, a window out of range and actions that do not fit, on their fields', async () => {
    const cases: [object, string][] = [
      [{ conditions: [{ metric: 'ctr', operator: '>', value: 1 }] }, 'conditions.0.metric'],
      [{ conditions: [{ metric: 'cm_nothing_here', operator: '>', value: 1 }] }, 'conditions.0.metric'],
      [{ window: 5 }, 'window'],
      [{ window: 43_201 }, 'window'],
      [{ window: 1e308 }, 'window'],
      [{ actions: [{ type: 'pause' }] }, 'actions.0.type'],
      [{ actions: [{ type: 'notify' }, { type: 'set_weight', weight: 5 }] }, 'actions.1.type'],
      [{ group_by: 'offer', actions: [{ type: 'exclude' }] }, 'actions.0.type'],
      [{ scope: { kind: 'workspace' } }, 'scope.kind'],
      [{ scope: { kind: 'campaign', id: 'NoSuchCampaign' } }, 'scope.id'],
      [{ conditions: [{ metric: 'roi', operator: '!=', value: 1 }] }, 'conditions.0.operator'],
    ];
    for (const [change, field] of cases) {
      const response = await api('POST', '/rules', {
        ...zoneRule,
        scope: { kind: 'campaign', id: campaign.external_id },
        ...change,
      });
      const body = expectError(response, 400);
      expect(Object.keys(body.errors ?? {}), JSON.stringify(change)).toContain(field);
    }
    expect((await api('GET', '/rules')).json<{ total: number }>().total).toBe(0);
  });

  it('needs /tracker/rule: reading to preview and list, creating to create', async () => {
    const rule = await createRule({ ...zoneRule, scope: { kind: 'campaign', id: campaign.external_id } });
    const reader = await createUserWithPermissions(app, token, ['/tracker/rule/get']);
    const stranger = await createUserWithPermissions(app, token, ['/tracker/campaign']);
    const as = (user: { token: string }, method: 'GET' | 'POST', url: string, payload?: object) =>
      app.inject({ method, url: `/api${url}`, headers: bearer(user.token), ...(payload ? { payload } : {}) });
    expect((await as(reader, 'GET', '/rules')).json<{ total: number }>().total).toBe(1);
    expect((await as(reader, 'POST', `/rules/${rule.id}/preview`)).statusCode).toBe(200);
    expect((await as(reader, 'GET', `/rules/${rule.id}/runs`)).statusCode).toBe(200);
    expectError(await as(reader, 'POST', '/rules', { ...zoneRule, scope: rule.scope }), 403);
    for (const url of ['/rules', `/rules/${rule.id}`, `/rules/${rule.id}/runs`]) {
      expectError(await as(stranger, 'GET', url), 403);
    }
    expectError(await as(stranger, 'POST', `/rules/${rule.id}/preview`), 403);
    expect((await api('GET', '/rules/999999')).statusCode).toBe(404);
    expect((await api('DELETE', `/rules/${rule.id}`)).statusCode).toBe(204);
  });

  it('previews what a rule would do, changing nothing', async () => {
    const rule = await createRule({ ...zoneRule, scope: { kind: 'campaign', id: campaign.external_id } });
    const response = await api('POST', `/rules/${rule.id}/preview`);
    expect(response.statusCode, response.body).toBe(200);
    const preview = response.json<RulePreviewAnswer>();
    expect(preview.rows.map((row) => row.value)).toEqual(['z-bad']);
    expect(preview.rows[0]?.values).toEqual({ clicks: 6, conversions: 0 });
    expect(preview.rows[0]?.actions).toEqual([
      { type: 'exclude', done: false, detail: `var2=z-bad excluded from ${campaign.name}` },
    ]);
    expect(await campaignExcluded()).toEqual({});
    expect((await api('GET', `/rules/${rule.id}/runs`)).json<{ total: number }>().total).toBe(0);
    expect((await api('DELETE', `/rules/${rule.id}`)).statusCode).toBe(204);
  });

  it('previews a rule not saved yet, and an unsaved edit of a saved one', async () => {
    const unsaved = { ...zoneRule, scope: { kind: 'campaign', id: campaign.external_id } };
    const saved = (await api('GET', '/rules')).json<{ total: number }>().total;
    const response = await api('POST', '/rules/preview', unsaved);
    expect(response.statusCode, response.body).toBe(200);
    const preview = response.json<RulePreviewAnswer>();
    expect(preview.rule_id).toBeNull();
    expect(preview.rows.map((row) => row.value)).toEqual(['z-bad']);
    expect((await api('GET', '/rules')).json<{ total: number }>().total).toBe(saved);
    const bad = await api('POST', '/rules/preview', { ...unsaved, window: 5 });
    expect(Object.keys(expectError(bad, 400).errors ?? {})).toEqual(['window']);

    const rule = await createRule(unsaved);
    const edited = { ...unsaved, conditions: [{ metric: 'clicks', operator: '>=', value: 5, min_clicks: 5 }] };
    const editedPreview = (await api('POST', `/rules/${rule.id}/preview`, edited)).json<RulePreviewAnswer>();
    expect(editedPreview.rows.map((row) => row.value).sort()).toEqual(['z-bad', 'z-good']);
    expect((await api('GET', `/rules/${rule.id}`)).json<Rule>().conditions).toHaveLength(2);
    expect((await api('DELETE', `/rules/${rule.id}`)).statusCode).toBe(204);
  });

  it('reads custom metrics in its conditions', async () => {
    const made = await api('POST', '/report-metrics', { name: 'Unconverted', formula: 'clicks - conversions' });
    expect(made.statusCode, made.body).toBe(201);
    const key = made.json<{ key: string }>().key;
    const rule = await createRule({
      ...zoneRule,
      scope: { kind: 'campaign', id: campaign.external_id },
      conditions: [{ metric: key, operator: '>=', value: 5, min_clicks: 1 }],
      actions: [{ type: 'notify' }],
    });
    const preview = (await api('POST', `/rules/${rule.id}/preview`)).json<RulePreviewAnswer>();
    // z-bad: 6 clicks, none converted; z-good: 6 clicks, one converted (5); z-new: 3.
    expect(preview.rows.map((row) => [row.value, row.values[key]]).sort()).toEqual([
      ['z-bad', 6],
      ['z-good', 5],
    ]);
    expect((await api('DELETE', `/rules/${rule.id}`)).statusCode).toBe(204);
  });

  it('excludes a zone: its clicks take the fallback, and history rolls it back', async () => {
    const rule = await createRule({ ...zoneRule, scope: { kind: 'campaign', id: campaign.external_id } });
    expect(await app.rules.runOnce()).toBe(1);
    expect(await campaignExcluded()).toEqual({ var2: ['z-bad'] });
    expect((await click(campaign, 'z-bad')).host).toBe('fallback.example');
    expect((await click(campaign, 'z-good')).host).toBe('main.example');

    const runs = (await api('GET', `/rules/${rule.id}/runs`)).json<{ list: RuleRunAnswer[] }>().list;
    expect(runs).toHaveLength(1);
    expect(runs[0]?.matched).toBe(1);
    expect(runs[0]?.rows[0]).toMatchObject({ value: 'z-bad', values: { clicks: 6, conversions: 0 } });
    expect(runs[0]?.rows[0]?.actions[0]).toMatchObject({ type: 'exclude', done: true });

    const history = (await api('GET', `/history?resource=tracker/campaigns&id=${campaign.external_id}`)).json<{
      list: { id: number; author?: string; user: unknown }[];
    }>().list;
    const entry = history[0]!;
    expect(entry.author).toBe(`Rule: ${zoneRule.name}`);
    expect(entry.user).toBeNull();
    const restored = await api('POST', `/history/${entry.id}/restore`);
    expect(restored.statusCode, restored.body).toBe(200);
    expect(await campaignExcluded()).toEqual({});
    expect((await click(campaign, 'z-bad')).host).toBe('main.example');

    // The same window again: nothing runs twice.
    expect(await app.rules.runOnce()).toBe(0);

    // The cooldown: a later window matches the zone again but does not act on it within the cooldown.
    const { row, form } = await storedRule(rule.id);
    expect(await app.rules.runRule(row, form, '2999-01-01T00:00:00.000Z')).toBe(true);
    expect(await campaignExcluded()).toEqual({});
    const cooled = (await api('GET', `/rules/${rule.id}/runs`)).json<{ list: RuleRunAnswer[] }>().list[0];
    expect(cooled?.rows[0]?.actions).toEqual([{ type: 'exclude', done: false, detail: 'cooldown' }]);
    // Without a cooldown it acts again.
    const changed = await api('PUT', `/rules/${rule.id}`, { ...zoneRule, scope: form.scope, cooldown: 0 });
    expect(changed.statusCode, changed.body).toBe(200);
    const again = await storedRule(rule.id);
    expect(await app.rules.runRule(again.row, again.form, '2999-01-01T00:05:00.000Z')).toBe(true);
    expect(await campaignExcluded()).toEqual({ var2: ['z-bad'] });
    expect((await api('DELETE', `/rules/${rule.id}`)).statusCode).toBe(204);
  });

  it('never pauses the last enabled path of a group: it notifies instead', async () => {
    const offer = await createRecord(app, token, 'tracker-offers', { url: 'https://paths.example/?c={clickid}' });
    const flow = await createRecord(app, token, 'tracker-flows', {
      path_groups: [
        {
          id: 'pg',
          name: 'Two paths',
          paths: ['pa', 'pb'].map((id) => ({
            id,
            name: id,
            offers: [{ id: `${id}-o`, offer_external_id: offer.external_id }],
          })),
        },
      ],
    });
    const guarded = await createRecord(app, token, 'tracker-campaigns', {
      traffic_source_external_id: source.external_id,
      flow_external_id: flow.external_id,
    });
    for (let n = 0; n < 20; n += 1) await click(guarded, 'z');
    await app.engine.flush();
    const rule = await createRule({
      name: 'Pause every path',
      scope: { kind: 'campaign', id: guarded.external_id },
      group_by: 'path',
      window: 60,
      conditions: [{ metric: 'clicks', operator: '>', value: 0, min_clicks: 1 }],
      actions: [{ type: 'pause' }],
    });
    const before = (await api('GET', '/notifications')).json<{ total: number }>().total;
    const { row, form } = await storedRule(rule.id);
    expect(await app.rules.runRule(row, form, '2999-02-01T00:00:00.000Z')).toBe(true);
    const paths = (await api('GET', `/tracker/flows/${flow.external_id}`)).json<{
      path_groups: { paths: { id: string; enabled: boolean }[] }[];
    }>().path_groups[0]!.paths;
    // Both paths had clicks: one was paused, the other is the last enabled and stays.
    expect(paths.filter((path) => path.enabled)).toHaveLength(1);
    const notifications = (await api('GET', '/notifications')).json<{
      total: number;
      list: { title: string; kind: string }[];
    }>();
    expect(notifications.total).toBe(before + 1);
    expect(notifications.list[0]).toMatchObject({ kind: 'rule', title: expect.stringContaining('Pause every path') });
    const run = (await api('GET', `/rules/${rule.id}/runs`)).json<{ list: RuleRunAnswer[] }>().list[0]!;
    const details = run.rows.flatMap((outcome) => outcome.actions.map((action) => `${action.type}:${action.done}`));
    expect(details.sort()).toEqual(['notify:true', 'pause:false', 'pause:true']);
    expect((await click(guarded, 'z')).host).toBe('paths.example');
    expect((await api('DELETE', `/rules/${rule.id}`)).statusCode).toBe(204);
  });

  it('calls a signed webhook with the rule, the values and the metrics; a refused one does not stop the rest', async () => {
    const received: { headers: IncomingHttpHeaders; body: string }[] = [];
    const server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      request.on('end', () => {
        received.push({ headers: request.headers, body });
        response.end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    try {
      const rule = await createRule({
        name: 'Tell my server',
        scope: { kind: 'campaign', id: campaign.external_id },
        group_by: 'campaign',
        window: 1440,
        conditions: [{ metric: 'clicks', operator: '>=', value: 10, min_clicks: 10 }],
        actions: [{ type: 'webhook', url, secret: 's3cret' }, { type: 'notify' }],
        cooldown: 0,
      });
      expect(JSON.stringify((await api('GET', `/rules/${rule.id}`)).json())).not.toContain('s3cret');
      const { row, form } = await storedRule(rule.id);
      // This node may not reach private addresses: the webhook is refused, the notification still goes.
      expect(await app.rules.runRule(row, form, '2999-04-01T00:00:00.000Z')).toBe(true);
      const refused = (await api('GET', `/rules/${rule.id}/runs`)).json<{ list: RuleRunAnswer[] }>().list[0]!;
      expect(refused.rows[0]?.actions.map((action) => [action.type, action.done])).toEqual([
        ['webhook', false],
        ['notify', true],
      ]);
      expect(refused.rows[0]?.actions[0]?.detail).toMatch(/^refused/);
      expect(received).toHaveLength(0);

      // A change that sends the secret back empty (as the answer shows it) keeps the stored one.
      const shown = (await api('GET', `/rules/${rule.id}`)).json<Rule & { id?: number }>();
      const { id: _id, created_at: _c, updated_at: _u, last_run_at: _l, ...change } = shown;
      expect((await api('PUT', `/rules/${rule.id}`, change)).statusCode).toBe(200);
      const kept = await storedRule(rule.id);
      // Sent from a second node that may reach private addresses: on PostgreSQL. A second server on one
      // SQLite file has no report engine of its own (the first holds the columnar store), so its rules wait;
      // the signature of the same webhook code is checked on both databases in alerts.test.ts.
      if (db.kind === 'sqlite') {
        expect((await api('DELETE', `/rules/${rule.id}`)).statusCode).toBe(204);
        return;
      }
      const open = await db.buildAppOnSameDatabase(app, { env: { SWITCHYARD_ALLOW_PRIVATE_TARGETS: 'true' } });
      expect(await open.rules.runRule(kept.row, kept.form, '2999-04-01T00:05:00.000Z')).toBe(true);
      expect(received).toHaveLength(1);
      const { headers, body } = received[0]!;
      const timestamp = String(headers['x-switchyard-timestamp']);
      const expected = `sha256=${createHmac('sha256', 's3cret').update(`${timestamp}.${body}`).digest('hex')}`;
      expect(headers['x-switchyard-signature']).toBe(expected);
      const sent = JSON.parse(body) as { rule: { name: string }; value: string; metrics: Record<string, number> };
      expect(sent.rule.name).toBe('Tell my server');
      expect(sent.value).toBe(campaign.external_id);
      expect(sent.metrics.clicks).toBeGreaterThanOrEqual(15);
      expect((await api('DELETE', `/rules/${rule.id}`)).statusCode).toBe(204);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('runs a rule once per window with two nodes on one database', async () => {
    const rule = await createRule({
      name: 'Once per window',
      group_by: 'campaign',
      window: 60,
      conditions: [{ metric: 'clicks', operator: '>=', value: 1, min_clicks: 1 }],
      actions: [{ type: 'notify' }],
    });
    const other = db.kind === 'postgres' ? await db.buildAppOnSameDatabase(app) : app;
    const results = await Promise.all(
      [app, other, app, other].map((node) =>
        underLease(node.store.db, db.kind === 'postgres', LOCKS.rules, () => node.rules.runOnce()),
      ),
    );
    const ran = results.reduce<number>((total, count) => total + (count ?? 0), 0);
    expect(ran).toBe(1);
    expect((await api('GET', `/rules/${rule.id}/runs`)).json<{ total: number }>().total).toBe(1);
    // Without the lease too, the (rule, window) claim lets only one node run it.
    const { row, form } = await storedRule(rule.id);
    const claims = await Promise.all(
      [app, other].map((node) => node.rules.runRule(row, form, '2999-03-01T00:00:00.000Z')),
    );
    expect(claims.filter(Boolean)).toHaveLength(1);
  });
});

type RuleRunAnswer = {
  matched: number;
  rows: { value: string; values: Record<string, number>; actions: { type: string; done: boolean; detail: string }[] }[];
};
