import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { closeRedis, openRedis } from '../src/store/redis.js';
import { createRecord } from './fixtures/config-records.js';
import { DESKTOP, IPHONE } from './fixtures/traffic.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  bearer,
  buildProxiedAdminApp,
  type DatabaseUnderTest,
  expectError,
  forEachDatabase,
  login,
} from './harness.js';
import { forEachDatabaseWithRedis, REDIS_URL, redisKeyPrefix } from './redis-support.js';

// A campaign's clicks are unique when no earlier click of the campaign matched them (by `unique_by`)
// within `unique_window_hours`: across the window, across a restart (warmed from the stored clicks), and
// across nodes sharing Redis. On SQLite and PostgreSQL.

const HOUR = 60 * 60 * 1000;
let clock = Date.parse('2026-11-02T10:00:00.000Z');

async function campaignWith(app: FastifyInstance, token: string, body: Record<string, unknown> = {}) {
  const offer = await createRecord(app, token, 'tracker-offers', { url: 'https://offer.example/?c={clickid}' });
  const flow = await createRecord(app, token, 'tracker-flows', {
    path_groups: [
      { id: 'g', name: 'All', paths: [{ id: 'p', offers: [{ id: 'o', offer_external_id: offer.external_id }] }] },
    ],
  });
  const campaign = await createRecord(app, token, 'tracker-campaigns', { flow_external_id: flow.external_id, ...body });
  return String(campaign.external_id);
}

interface Visit {
  ip: string;
  userAgent?: string;
  cookie?: string;
}

/** Clicks once; answers whether the stored click is unique, and the visitor cookie it was given. */
async function click(
  app: FastifyInstance,
  campaign: string,
  visit: Visit,
): Promise<{ unique: boolean; cookie: string }> {
  const response = await app.inject({
    method: 'GET',
    url: `/c/${campaign}`,
    remoteAddress: visit.ip,
    headers: { 'user-agent': visit.userAgent ?? DESKTOP, ...(visit.cookie ? { cookie: visit.cookie } : {}) },
  });
  expect(response.statusCode, response.body).toBe(302);
  const clickId = new URL(String(response.headers.location)).searchParams.get('c') ?? '';
  await app.engine.flush();
  const row = await app.store.db
    .selectFrom('tracker_clicks')
    .select(['is_unique', 'visitor_id'])
    .where('click_id', '=', clickId)
    .executeTakeFirstOrThrow();
  const given = [response.headers['set-cookie'] ?? []].flat().find((line) => line.startsWith('sy_vid='));
  return { unique: Number(row.is_unique) === 1, cookie: given ? given.split(';')[0]! : `sy_vid=${row.visitor_id}` };
}

forEachDatabase('click uniqueness', (db: DatabaseUnderTest) => {
  let app: FastifyInstance;
  let token: string;
  beforeAll(async () => {
    ({ app, adminToken: token } = await buildProxiedAdminApp(db, { now: () => new Date(clock) }));
  });

  it('matches by address and user agent by default, within 24 hours of the last matching click', async () => {
    const campaign = await campaignWith(app, token);
    const stored = (
      await app.inject({ method: 'GET', url: `/api/tracker/campaigns/${campaign}`, headers: bearer(token) })
    ).json<{ unique_by: string; unique_window_hours: number }>();
    expect(stored).toMatchObject({ unique_by: 'ip_ua', unique_window_hours: 24 });
    expect((await click(app, campaign, { ip: '10.1.0.1' })).unique).toBe(true);
    // A minute later, no cookies: the same visitor.
    clock += 60_000;
    expect((await click(app, campaign, { ip: '10.1.0.1' })).unique).toBe(false);
    expect((await click(app, campaign, { ip: '10.1.0.1', userAgent: IPHONE })).unique).toBe(true);
    expect((await click(app, campaign, { ip: '10.1.0.2' })).unique).toBe(true);
    // Another campaign knows nothing of these clicks.
    expect((await click(app, await campaignWith(app, token), { ip: '10.1.0.1' })).unique).toBe(true);
    // 23 hours after the last matching click: still the same visitor; 24 hours after it: unique again.
    clock += 23 * HOUR;
    expect((await click(app, campaign, { ip: '10.1.0.1' })).unique).toBe(false);
    clock += 24 * HOUR - 1;
    expect((await click(app, campaign, { ip: '10.1.0.1' })).unique).toBe(false);
    clock += 24 * HOUR;
    expect((await click(app, campaign, { ip: '10.1.0.1' })).unique).toBe(true);
  });

  it("keeps to the campaign's own window", async () => {
    const campaign = await campaignWith(app, token, { unique_window_hours: 2 });
    expect((await click(app, campaign, { ip: '10.2.0.1' })).unique).toBe(true);
    clock += 2 * HOUR - 1000;
    expect((await click(app, campaign, { ip: '10.2.0.1' })).unique).toBe(false);
    clock += 2 * HOUR;
    expect((await click(app, campaign, { ip: '10.2.0.1' })).unique).toBe(true);
  });

  it('matches by address alone, by cookie alone, or by either cookie or address and agent', async () => {
    const byIp = await campaignWith(app, token, { unique_by: 'ip' });
    expect((await click(app, byIp, { ip: '10.3.0.1' })).unique).toBe(true);
    expect((await click(app, byIp, { ip: '10.3.0.1', userAgent: IPHONE })).unique).toBe(false);

    const byCookie = await campaignWith(app, token, { unique_by: 'cookie' });
    const first = await click(app, byCookie, { ip: '10.3.0.2' });
    expect(first.unique).toBe(true);
    // Without its cookie the same address and agent is a new visitor; with it (and no other cookie), not.
    expect((await click(app, byCookie, { ip: '10.3.0.2' })).unique).toBe(true);
    expect((await click(app, byCookie, { ip: '10.3.0.9', cookie: first.cookie })).unique).toBe(false);

    const either = await campaignWith(app, token, { unique_by: 'cookie_or_ip_ua' });
    const visitor = await click(app, either, { ip: '10.3.0.3' });
    expect(visitor.unique).toBe(true);
    expect((await click(app, either, { ip: '10.3.0.3' })).unique).toBe(false);
    expect((await click(app, either, { ip: '10.3.0.4', cookie: visitor.cookie })).unique).toBe(false);
    expect((await click(app, either, { ip: '10.3.0.5' })).unique).toBe(true);
  });

  it('refuses hostile values of the new fields with 400 on the field', async () => {
    const flow = await createRecord(app, token, 'tracker-flows');
    const source = await createRecord(app, token, 'traffic-sources');
    const base = {
      name: 'Hostile',
      flow_external_id: flow.external_id,
      traffic_source_external_id: source.external_id,
    };
    const cases: [Record<string, unknown>, string][] = [
      [{ unique_by: 'fingerprint' }, 'unique_by'],
      [{ unique_by: 'x'.repeat(1_000_000) }, 'unique_by'],
      [{ unique_by: ['ip'] }, 'unique_by'],
      [{ unique_window_hours: 1e308 }, 'unique_window_hours'],
      [{ unique_window_hours: 0 }, 'unique_window_hours'],
      [{ unique_window_hours: -24 }, 'unique_window_hours'],
      [{ unique_window_hours: 1.5 }, 'unique_window_hours'],
      [{ unique_window_hours: '24' }, 'unique_window_hours'],
      [{ unique_window_hours: 721 }, 'unique_window_hours'],
    ];
    for (const [body, field] of cases) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/tracker/campaigns',
        headers: bearer(token),
        payload: { ...base, ...body },
      });
      expect(Object.keys(expectError(response, 400).errors ?? {}), JSON.stringify(body).slice(0, 80)).toEqual([field]);
    }
  });
  it('remembers the stored clicks across a restart', async () => {
    const campaign = await campaignWith(app, token);
    expect((await click(app, campaign, { ip: '10.4.0.1' })).unique).toBe(true);
    await app.close();
    const restarted = await db.buildAppOnSameDatabase(app, {
      engine: { now: () => new Date(clock) },
      trustProxy: ['127.0.0.0/8'],
    });
    expect((await click(restarted, campaign, { ip: '10.4.0.1' })).unique).toBe(false);
    expect((await click(restarted, campaign, { ip: '10.4.0.2' })).unique).toBe(true);
  });
});

// Two nodes (two apps) on one database and one Redis: uniqueness is decided in Redis.
const PREFIX = redisKeyPrefix();

forEachDatabaseWithRedis('click uniqueness across nodes sharing Redis', (db: DatabaseUnderTest) => {
  const apps: FastifyInstance[] = [];
  let env: NodeJS.ProcessEnv;

  async function node(): Promise<FastifyInstance> {
    const app = await buildApp({
      config: loadConfig(env),
      print: () => undefined,
      redisKeyPrefix: PREFIX,
      engine: { now: () => new Date(clock) },
    });
    apps.push(app);
    return app;
  }

  beforeAll(async () => {
    env = {
      ...(await db.createDatabase()),
      REDIS_URL,
      SWITCHYARD_ADMIN_EMAIL: ADMIN_EMAIL,
      SWITCHYARD_ADMIN_PASSWORD: ADMIN_PASSWORD,
      SWITCHYARD_WEB_DIST: path.join(tmpdir(), 'switchyard-no-dashboard'),
    };
  });

  afterAll(async () => {
    for (const app of apps.reverse()) await app.close();
    const cleaner = await openRedis(REDIS_URL);
    const keys: string[] = [];
    for await (const batch of cleaner.scanStream({ match: `${PREFIX}*`, count: 500 })) keys.push(...batch);
    if (keys.length > 0) await cleaner.del(...keys);
    await closeRedis(cleaner);
  });

  it('calls a visitor unique once across both nodes, at once and after Redis lost its keys', async () => {
    const nodeA = await node();
    const token = await login(nodeA, ADMIN_EMAIL, ADMIN_PASSWORD);
    const campaign = await campaignWith(nodeA, token);
    const nodeB = await node();
    // Ten clicks of one visitor and ten of ten others, at once, spread over both nodes.
    const clicks = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        click(index % 2 === 0 ? nodeA : nodeB, campaign, { ip: index < 10 ? '10.5.0.1' : `10.5.1.${index}` }),
      ),
    );
    expect(clicks.slice(0, 10).filter((one) => one.unique)).toHaveLength(1);
    expect(clicks.slice(10).every((one) => one.unique)).toBe(true);

    const keys = await nodeA.engine.flush().then(async () => {
      const client = await openRedis(REDIS_URL);
      const found: string[] = [];
      for await (const batch of client.scanStream({ match: `${PREFIX}uq:*`, count: 500 })) found.push(...batch);
      if (found.length > 0) await client.del(...found);
      await closeRedis(client);
      return found;
    });
    // One key per visitor, and the mark that Redis was warmed.
    expect(keys).toHaveLength(12);
    // A Redis restarted empty: the next node to start warms it from the stored clicks.
    const nodeC = await node();
    expect((await click(nodeB, campaign, { ip: '10.5.0.1' })).unique).toBe(false);
    expect((await click(nodeC, campaign, { ip: '10.5.1.15' })).unique).toBe(false);
    expect((await click(nodeC, campaign, { ip: '10.5.2.1' })).unique).toBe(true);
  });
});

describe('click uniqueness keys', () => {
  it('differ by campaign and kind', async () => {
    const { uniqueKeys } = await import('../src/traffic/visitor/uniques.js');
    const subject = { cookieId: undefined, visitorId: 'v', ip: '1.2.3.4', userAgent: 'ua' };
    const [a] = uniqueKeys('c1', 'ip_ua', subject);
    const [b] = uniqueKeys('c2', 'ip_ua', subject);
    const [c] = uniqueKeys('c1', 'ip', subject);
    expect(new Set([a, b, c]).size).toBe(3);
    expect(uniqueKeys('c1', 'cookie_or_ip_ua', subject)).toHaveLength(2);
    expect(Number.isSafeInteger(a)).toBe(true);
  });
});
