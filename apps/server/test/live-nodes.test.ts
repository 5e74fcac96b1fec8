import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createRecord } from './fixtures/config-records.js';
import { SseStream } from './fixtures/sse.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, type DatabaseUnderTest, login } from './harness.js';
import { forEachDatabaseWithRedis, REDIS_URL, redisKeyPrefix } from './redis-support.js';

// Live events across nodes: two apps on one database and one Redis (REDIS_URL). A click on node A reaches a
// stream open on node B, once; node A's own stream gets it once too. Skipped loudly without Redis (a
// failure under CI=true), as test/redis.test.ts is.

const PREFIX = redisKeyPrefix();

forEachDatabaseWithRedis('live events across two nodes', (db: DatabaseUnderTest) => {
  const apps: FastifyInstance[] = [];
  const streams: SseStream[] = [];
  let env: NodeJS.ProcessEnv;
  let nodeA: FastifyInstance;
  let nodeB: FastifyInstance;
  let token: string;
  let campaignId: string;

  async function node(): Promise<FastifyInstance> {
    const app = await buildApp({ config: loadConfig(env), print: () => undefined, redisKeyPrefix: PREFIX });
    apps.push(app);
    await app.listen({ port: 0, host: '127.0.0.1' });
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
    nodeA = await node();
    token = await login(nodeA, ADMIN_EMAIL, ADMIN_PASSWORD);
    const offer = await createRecord(nodeA, token, 'tracker-offers', { url: 'https://offer.example/?c={clickid}' });
    const flow = await createRecord(nodeA, token, 'tracker-flows', {
      path_groups: [
        { id: 'g', name: 'All', paths: [{ id: 'p', offers: [{ id: 'o', offer_external_id: offer.external_id }] }] },
      ],
    });
    campaignId = String(
      (await createRecord(nodeA, token, 'tracker-campaigns', { flow_external_id: flow.external_id })).external_id,
    );
    nodeB = await node();
  });

  afterAll(async () => {
    for (const stream of streams) stream.close();
    // Before the database is dropped (forEachDatabase's cleanup, registered earlier, runs later).
    for (const app of apps.reverse()) await app.close();
  });

  async function clickOnA(): Promise<string> {
    const response = await nodeA.inject({ method: 'GET', url: `/c/${campaignId}`, remoteAddress: '81.2.69.160' });
    expect(response.statusCode, response.body).toBe(302);
    return new URL(String(response.headers.location)).searchParams.get('c')!;
  }

  it("a click on node A reaches node B's stream, and each stream gets it once", async () => {
    // Nobody listens anywhere yet: node A publishes nothing, not even to Redis.
    expect(nodeA.engine.live.listening).toBe(false);
    const onB = await SseStream.open(nodeB, `/api/live?campaign=${campaignId}`, bearer(token));
    const onA = await SseStream.open(nodeA, '/api/live', bearer(token));
    streams.push(onB, onA);
    // Node A learns through Redis that node B listens.
    await vi.waitFor(() => expect(nodeA.engine.live.othersListening).toBe(true), { timeout: 5000 });

    const first = await clickOnA();
    const second = await clickOnA();
    for (const stream of [onB, onA]) {
      await stream.next((message) => message.data.id === second);
      const ids = stream.messages.filter((message) => message.event === 'click').map((message) => message.data.id);
      expect(ids).toEqual([first, second]);
      expect(stream.messages[0]?.data).toMatchObject({ campaign: campaignId, sampled: false, rate: 1 });
    }
  });

  it('closes with streams open, ending them', async () => {
    const open = await SseStream.open(nodeB, '/api/live', bearer(token));
    streams.push(open);
    apps.splice(apps.indexOf(nodeB), 1);
    await nodeB.close();
    await open.ended();
  });
});
