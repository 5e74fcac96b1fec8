import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { type Answer, freePort, inParallel, killed, request, type Server, startServer } from './child-server.js';
import { createRecord, type StoredRecord } from './fixtures/config-records.js';
import { postbackPath } from './fixtures/postbacks.js';
import { IPHONE } from './fixtures/traffic.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, forEachDatabase, login } from './harness.js';

// Nothing answered is lost on a process crash. The server runs as a child process, takes
// clicks and leads from many connections at once, and is killed with SIGKILL right after its last
// answer; restarted on the same data directory and database, it must know every click and lead it
// answered (a postback for each is accepted, none 404s), and caps set before the crash must hold exactly
// across it.

const CLICKS = 3000;
const LEADS = 300;
/** The click cap and the lead cap (a path's Regs Daily Cap), and how many of each come before the kill. */
const CLICK_CAP = 50;
const CLICKS_ON_CAP_BEFORE = 30;
const LEAD_CAP = 40;
const LEADS_ON_CAP_BEFORE = 25;
const CONNECTIONS = 50;
/** Clicks through a lander before the lp clicks' kill. */
const LP_CLICKS = 300;

const idOf = (location: string | undefined) => new URL(String(location)).searchParams.get('c') ?? '';
const hostOf = (location: string | undefined) => new URL(String(location)).hostname;

forEachDatabase('answered events across a kill -9', (db) => {
  let env: NodeJS.ProcessEnv;
  let dataDir: string;
  /** `/{key}/postback` of the seeded workspace. */
  let keyedPostback = '';
  let plain: StoredRecord;
  let capped: StoredRecord;
  let sharedCap: StoredRecord;
  let apiPlain: StoredRecord;
  let apiCapped: StoredRecord;
  let landed: StoredRecord;
  const servers: Server[] = [];

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'switchyard-durability-'));
    env = {
      ...(await db.createDatabase()),
      SWITCHYARD_DATA_DIR: dataDir,
      SWITCHYARD_ADMIN_EMAIL: ADMIN_EMAIL,
      SWITCHYARD_ADMIN_PASSWORD: ADMIN_PASSWORD,
      SWITCHYARD_WEB_DIST: path.join(tmpdir(), 'switchyard-no-dashboard'),
    };
    // Configured in this process, then closed: the server under test starts on what it left.
    const app = await buildApp({ config: loadConfig(env), print: () => undefined });
    try {
      keyedPostback = await postbackPath(app);
      const token = await login(app, ADMIN_EMAIL, ADMIN_PASSWORD);
      const offer = await createRecord(app, token, 'tracker-offers', { url: 'https://plain.example/?c={clickid}' });
      const backup = await createRecord(app, token, 'tracker-offers', { url: 'https://backup.example/?c={clickid}' });
      const cappedOffer = await createRecord(app, token, 'tracker-offers', {
        url: 'https://capped.example/?c={clickid}',
        daily_cap: CLICK_CAP,
        backup_offer_external_id: backup.external_id,
      });
      const flowOf = (offerId: unknown) =>
        createRecord(app, token, 'tracker-flows', {
          path_groups: [
            { id: 'g', name: 'All', paths: [{ id: 'p', offers: [{ id: 'o', offer_external_id: offerId }] }] },
          ],
        });
      plain = await createRecord(app, token, 'tracker-campaigns', {
        flow_external_id: (await flowOf(offer.external_id)).external_id,
      });
      capped = await createRecord(app, token, 'tracker-campaigns', {
        flow_external_id: (await flowOf(cappedOffer.external_id)).external_id,
      });
      const sharedOffer = await createRecord(app, token, 'tracker-offers', {
        url: 'https://capped.example/?c={clickid}',
        daily_cap: CLICK_CAP,
        backup_offer_external_id: backup.external_id,
      });
      sharedCap = await createRecord(app, token, 'tracker-campaigns', {
        flow_external_id: (await flowOf(sharedOffer.external_id)).external_id,
      });
      const apiOffer = await createRecord(app, token, 'offers', { url: 'https://api-offer.example/?lead={lead_id}' });
      const plainFlow = await createRecord(app, token, 'flows', {
        path_groups: [{ id: 'all', name: 'All', paths: [{ id: 'p', offer_external_id: apiOffer.external_id }] }],
      });
      apiPlain = await createRecord(app, token, 'campaigns', { flow_external_id: plainFlow.external_id });
      const apiFlow = await createRecord(app, token, 'flows', {
        path_groups: [
          {
            id: 'first',
            name: 'First',
            priority: 1,
            paths: [{ id: 'capped', offer_external_id: apiOffer.external_id, daily_cap: LEAD_CAP }],
          },
          {
            id: 'second',
            name: 'Second',
            priority: 2,
            paths: [{ id: 'spare', offer_external_id: apiOffer.external_id }],
          },
        ],
      });
      apiCapped = await createRecord(app, token, 'campaigns', { flow_external_id: apiFlow.external_id });
      const lander = await createRecord(app, token, 'tracker-landers', { url: 'https://lander.example/?c={clickid}' });
      const landerFlow = await createRecord(app, token, 'tracker-flows', {
        path_groups: [
          {
            id: 'g',
            name: 'All',
            paths: [
              {
                id: 'p',
                landers: [{ id: 'l', lander_external_id: lander.external_id }],
                offers: [{ id: 'o', offer_external_id: offer.external_id }],
              },
            ],
          },
        ],
      });
      landed = await createRecord(app, token, 'tracker-campaigns', { flow_external_id: landerFlow.external_id });
    } finally {
      await app.close();
    }
  });

  afterAll(async () => {
    for (const server of servers) await killed(server, 'SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  });

  const lead = (port: number, campaign: StoredRecord) => () =>
    request(
      port,
      'POST',
      `/v1/campaigns/${campaign.external_id}/leads`,
      { email: `someone-${Math.random().toString(36).slice(2)}@gmail.com`, country: 'DE' },
      { 'x-api-key': String(campaign.ingest_token) },
    );

  it('finds every click and lead it answered, and holds the caps exactly, after a kill -9', async () => {
    const port = await freePort();
    const first = await startServer(env, port);
    servers.push(first);

    // Clicks and leads from many connections at once; the capped campaign's clicks and leads come in the
    // last wave, so that the kill falls among them.
    const tasks: (() => Promise<Answer & { kind: string }>)[] = [];
    const tagged = (kind: string, task: () => Promise<Answer>) => async () => ({ ...(await task()), kind });
    for (let index = 0; index < CLICKS; index += 1) {
      tasks.push(tagged('click', () => request(port, 'GET', `/c/${plain.external_id}?var1=z${index % 7}`)));
    }
    for (let index = 0; index < LEADS; index += 1) {
      tasks.splice(Math.floor((index * tasks.length) / LEADS), 0, tagged('lead', lead(port, apiPlain)));
    }
    for (let index = 0; index < CLICKS_ON_CAP_BEFORE; index += 1) {
      tasks.push(tagged('capped-click', () => request(port, 'GET', `/c/${capped.external_id}`)));
    }
    for (let index = 0; index < LEADS_ON_CAP_BEFORE; index += 1) {
      tasks.push(tagged('capped-lead', lead(port, apiCapped)));
    }
    const started = Date.now();
    const answers = await inParallel(CONNECTIONS, tasks);
    const loadMs = Date.now() - started;
    // Right after the last answer.
    first.child.kill('SIGKILL');
    await killed(first, 'SIGKILL');

    const clickIds = answers
      .filter((answer) => answer.kind.endsWith('click'))
      .map((answer) => {
        expect(answer.status, answer.body).toBe(302);
        return idOf(answer.location);
      });
    const leads = answers
      .filter((answer) => answer.kind.endsWith('lead'))
      .map((answer) => {
        expect(answer.status, answer.body).toBe(200);
        return JSON.parse(answer.body) as { lead_id: string; path_group: { id: string } | null };
      });
    const cappedBefore = answers.filter((a) => a.kind === 'capped-click' && hostOf(a.location) === 'capped.example');
    expect(cappedBefore).toHaveLength(CLICKS_ON_CAP_BEFORE);
    expect(leads.filter((one) => one.path_group?.id === 'first')).toHaveLength(LEADS_ON_CAP_BEFORE);

    const second = await startServer(env, port);
    servers.push(second);
    const replayLine = second.output.find((line) => line.includes('event journal replayed'));
    const replay = replayLine ? (JSON.parse(replayLine) as { events: number; stored: number }) : null;

    // Every answered click and lead is known: a postback for each is accepted.
    const ids = [...clickIds.map((id) => `clickid=${id}`), ...leads.map((one) => `lead_id=${one.lead_id}`)];
    const postbacks = await inParallel(
      20,
      ids.map((id) => () => request(port, 'GET', `${keyedPostback}?${id}&payout=1&txid=t`)),
    );
    const refused = postbacks
      .map((answer, index) => ({ answer, id: ids[index] }))
      .filter((x) => x.answer.status !== 200);
    expect(refused.slice(0, 5)).toEqual([]);

    // The caps go on from where they were: the rest of the click cap, and no more, to the capped offer.
    const after = await inParallel(
      10,
      Array.from({ length: CLICK_CAP }, () => () => request(port, 'GET', `/c/${capped.external_id}`)),
    );
    const hosts = after.map((answer) => hostOf(answer.location));
    expect(hosts.filter((host) => host === 'capped.example')).toHaveLength(CLICK_CAP - CLICKS_ON_CAP_BEFORE);
    expect(hosts.filter((host) => host === 'backup.example')).toHaveLength(CLICKS_ON_CAP_BEFORE);
    const leadsAfter = await inParallel(
      5,
      Array.from({ length: LEAD_CAP }, () => lead(port, apiCapped)),
    );
    const groups = leadsAfter.map((answer) => {
      expect(answer.status, answer.body).toBe(200);
      return (JSON.parse(answer.body) as { path_group: { id: string } }).path_group.id;
    });
    expect(groups.filter((group) => group === 'first')).toHaveLength(LEAD_CAP - LEADS_ON_CAP_BEFORE);
    expect(groups.filter((group) => group === 'second')).toHaveLength(LEADS_ON_CAP_BEFORE);
    console.info(
      `durability [${db.kind}]: ${clickIds.length} clicks and ${leads.length} leads answered in ${loadMs} ms ` +
        `before the kill, all ${ids.length} found after it; the journal held ${replay?.events ?? 0} events, ` +
        `of which ${replay?.stored ?? 0} were not yet in the database and were stored from it`,
    );
    await killed(second, 'SIGTERM');
    // Two servers started and thousands of requests: about 20 s alone, more on a busy machine.
  }, 120_000);

  // An lp click (a lander's offer link followed) is answered only once journaled, like a click.
  it('keeps every lp click it answered, once each, after a kill -9', async () => {
    const port = await freePort();
    const first = await startServer(env, port);
    servers.push(first);
    const clicks = await inParallel(
      CONNECTIONS,
      Array.from({ length: LP_CLICKS }, () => () => request(port, 'GET', `/c/${landed.external_id}`)),
    );
    const ids = clicks.map((answer) => {
      expect(answer.status, answer.body).toBe(302);
      return idOf(answer.location);
    });
    // Two of every three go on, and every fifth of those twice; the kill falls right after the last answer.
    const onward = ids.filter((_, index) => index % 3 !== 0);
    const visits = [...onward, ...onward.filter((_, index) => index % 5 === 0)];
    const answers = await inParallel(
      CONNECTIONS,
      visits.map(
        (id) => () =>
          request(port, 'GET', `/c/${landed.external_id}/offer?clickid=${id}`, undefined, { 'user-agent': IPHONE }),
      ),
    );
    first.child.kill('SIGKILL');
    await killed(first, 'SIGKILL');
    for (const answer of answers) {
      expect(answer.status, answer.body).toBe(302);
      expect(hostOf(answer.location)).toBe('plain.example');
    }
    // Restarted (the journal replayed), then stopped: what it holds is in the database.
    const second = await startServer(env, port);
    servers.push(second);
    await killed(second, 'SIGTERM');
    const app = await buildApp({ config: loadConfig(env), print: () => undefined });
    try {
      const went = await app.store.db
        .selectFrom('tracker_clicks')
        .select('click_id')
        .where('campaign_external_id', '=', String(landed.external_id))
        .where('lp_clicked_at', 'is not', null)
        .execute();
      expect(went.map((row) => row.click_id).sort()).toEqual([...onward].sort());
      const cubes = await app.store.db
        .selectFrom('report_rollups')
        .select((eb) => eb.fn.sum<number | string>('lp_clicks').as('lp'))
        .where('cube', '=', 'campaign')
        .where('k1', '=', String(landed.external_id))
        .executeTakeFirstOrThrow();
      expect(Number(cubes.lp)).toBe(onward.length);
    } finally {
      await app.close();
    }
  }, 120_000);

  // Several nodes share the caps through Redis. On PostgreSQL each has a data directory of its own; on
  // SQLite they share the database's, and each replays only its own journal.
  it('holds a cap shared through Redis exactly when one of two nodes is killed and restarted', async () => {
    const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
    const nodeEnv = async () => ({
      ...env,
      REDIS_URL: redisUrl,
      SWITCHYARD_DATA_DIR: db.kind === 'postgres' ? await mkdtemp(path.join(tmpdir(), 'switchyard-node-')) : dataDir,
    });
    const [envA, envB] = [await nodeEnv(), await nodeEnv()];
    const [portA, portB] = [await freePort(), await freePort()];
    let nodeA = await startServer(envA, portA);
    const nodeB = await startServer(envB, portB);
    servers.push(nodeA, nodeB);
    // A campaign of its own, so that the first test's clicks do not count here.
    const cappedClick = (port: number) => () => request(port, 'GET', `/c/${sharedCap.external_id}`);
    const before = await inParallel(
      10,
      Array.from({ length: CLICKS_ON_CAP_BEFORE }, (_, index) => cappedClick(index % 2 ? portB : portA)),
    );
    nodeA.child.kill('SIGKILL');
    await killed(nodeA, 'SIGKILL');
    nodeA = await startServer(envA, portA);
    servers.push(nodeA);
    const after = await inParallel(
      10,
      Array.from({ length: CLICK_CAP }, (_, index) => cappedClick(index % 2 ? portB : portA)),
    );
    const hosts = [...before, ...after].map((answer) => {
      expect(answer.status, answer.body).toBe(302);
      return hostOf(answer.location);
    });
    expect(hosts.filter((host) => host === 'capped.example')).toHaveLength(CLICK_CAP);
    expect(hosts.filter((host) => host === 'backup.example')).toHaveLength(CLICKS_ON_CAP_BEFORE);
    // Every click answered by either node is known to both.
    for (const answer of before) {
      expect((await request(portB, 'GET', `${keyedPostback}?clickid=${idOf(answer.location)}`)).status).toBe(200);
    }
    await killed(nodeA, 'SIGTERM');
    await killed(nodeB, 'SIGTERM');
    if (db.kind === 'postgres') {
      for (const dir of [envA.SWITCHYARD_DATA_DIR, envB.SWITCHYARD_DATA_DIR]) await rm(dir, { recursive: true });
    }
  }, 120_000);
});
