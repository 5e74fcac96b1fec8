import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { freePort, killed, request, type Server, startServer } from './child-server.js';
import { eventually } from './eventually.js';
import { createRecord } from './fixtures/config-records.js';
import { postbackPath } from './fixtures/postbacks.js';
import { DESKTOP } from './fixtures/traffic.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, forEachDatabase, login } from './harness.js';

// Two workers behind one primary answer as one server: a campaign saved through one is routed by the
// other at once (no 404 for a campaign just saved), and a postback sent right after its click finds the
// click whichever worker answered it (cluster/settle.ts). Every request here opens its own connection,
// so the kernel hands each to either worker.

const ROUNDS = 12;

const send = (port: number, method: string, url: string, headers: object = {}, body?: object) =>
  request(port, method, url, body, headers, { fresh: true });

forEachDatabase('two workers answer as one server', (db) => {
  let env: NodeJS.ProcessEnv;
  let dataDir: string;
  let flowId: string;
  let postback: string;
  let server: Server | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'switchyard-workers-'));
    env = {
      ...(await db.createDatabase()),
      SWITCHYARD_DATA_DIR: dataDir,
      SWITCHYARD_ADMIN_EMAIL: ADMIN_EMAIL,
      SWITCHYARD_ADMIN_PASSWORD: ADMIN_PASSWORD,
      SWITCHYARD_WEB_DIST: path.join(tmpdir(), 'switchyard-no-dashboard'),
      SWITCHYARD_WORKERS: '2',
    };
    const app = await buildApp({ config: loadConfig(env), print: () => undefined });
    try {
      const token = await login(app, ADMIN_EMAIL, ADMIN_PASSWORD);
      const sale = await createRecord(app, token, 'postback-events', { status_values: ['sale'], is_conversion: true });
      const offer = await createRecord(app, token, 'tracker-offers', { url: 'https://offer.example/?c={clickid}' });
      flowId = String(
        (
          await createRecord(app, token, 'tracker-flows', {
            path_groups: [
              {
                id: 'g',
                name: 'All',
                paths: [{ id: 'p', offers: [{ id: 'o', offer_external_id: offer.external_id }] }],
              },
            ],
          })
        ).external_id,
      );
      postback = `${await postbackPath(app)}?status=sale&payout=2`;
      env.SALE_EVENT = String(sale.external_id);
      env.SOURCE = String((await createRecord(app, token, 'traffic-sources', {})).external_id);
    } finally {
      await app.close();
    }
    const port = await freePort();
    server = await startServer(env, port);
    env.PORT = String(port);
  }, 180_000);

  afterAll(async () => {
    if (server) await killed(server, 'SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  });

  it('routes a campaign just saved, and converts a click just answered, whichever worker is asked', async () => {
    const port = Number(env.PORT);
    // Both workers serve before the rounds begin.
    const ready = () => server?.output.filter((line) => line.includes('"msg":"worker ready"')).length ?? 0;
    await eventually(
      () => ready() >= 2,
      () => `two workers did not start: ${server?.output.join('\n')}`,
      { withinMs: 60_000 },
    );
    const signedIn = await send(port, 'POST', '/api/login', {}, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    const bearer = { authorization: `Bearer ${JSON.parse(signedIn.body).token as string}` };
    const clicks: number[] = [];
    const postbacks: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const saved = await send(port, 'POST', '/api/tracker/campaigns', bearer, {
        name: `Round ${round}`,
        flow_external_id: flowId,
        traffic_source_external_id: env.SOURCE,
        postback_events: [{ postback_event_external_id: env.SALE_EVENT, is_conversion: true }],
      });
      expect(saved.status, saved.body).toBe(201);
      const click = await send(port, 'GET', `/c/${JSON.parse(saved.body).external_id as string}`, {
        'user-agent': DESKTOP,
      });
      clicks.push(click.status);
      const clickId = click.status === 302 ? (new URL(click.location ?? '').searchParams.get('c') ?? '') : 'none';
      postbacks.push((await send(port, 'GET', `${postback}&clickid=${clickId}&txid=t${round}`)).status);
    }
    expect(clicks).toEqual(Array(ROUNDS).fill(302));
    expect(postbacks).toEqual(Array(ROUNDS).fill(200));
  });
});
