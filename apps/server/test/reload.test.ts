import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { journalDir, loadConfig } from '../src/config.js';
import { freePort, killed, type Server, startServer, workerPids } from './child-server.js';
import { eventually } from './eventually.js';
import { createRecord, type StoredRecord } from './fixtures/config-records.js';
import { SseStream } from './fixtures/sse.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, forEachDatabase, login } from './harness.js';

// Restarts drop nothing: the server runs as a primary with two workers and takes clicks at a steady
// rate through two reloads (one by `npm run reload`'s script, one by SIGHUP) and a worker killed with
// SIGKILL. Every click is answered, every answered click is stored, and a daily cap set before holds
// exactly through it all and after a restart. The live stream and reports work from either worker.

/** A click every this many ms, one in CAPPED_EVERY on the capped campaign. */
const CLICK_EVERY_MS = 25;
const CAPPED_EVERY = 8;
const CAP = 40;
const MAX_SOCKETS = 20;
const SERVER_DIR = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

interface Sent {
  capped: boolean;
  status: number;
  location: string;
  /** Connection errors before the answer (a request cut off by the killed worker, sent again). */
  cutOff: number;
  at: number;
}

const hostOf = (location: string) => new URL(location).hostname;
const idOf = (location: string) => new URL(location).searchParams.get('c') ?? '';

forEachDatabase('reloads and a killed worker under steady clicks', (db) => {
  let env: NodeJS.ProcessEnv;
  let dataDir: string;
  let plain: StoredRecord;
  let capped: StoredRecord;
  let cappedOfferId: string;
  const servers: Server[] = [];

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'switchyard-reload-'));
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
      const offer = await createRecord(app, token, 'tracker-offers', { url: 'https://plain.example/?c={clickid}' });
      const backup = await createRecord(app, token, 'tracker-offers', { url: 'https://backup.example/?c={clickid}' });
      const cappedOffer = await createRecord(app, token, 'tracker-offers', {
        url: 'https://capped.example/?c={clickid}',
        daily_cap: CAP,
        backup_offer_external_id: backup.external_id,
      });
      cappedOfferId = String(cappedOffer.external_id);
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
    } finally {
      await app.close();
    }
  });

  afterAll(async () => {
    for (const server of servers) await killed(server, 'SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  });

  it('answers and stores every click through two reloads and a kill -9, and holds the cap', async () => {
    const port = await freePort();
    const server = await startServer(env, port);
    servers.push(server);
    await until(() => workerPids(server).length === 2 && readyCount(server) >= 2, 'two workers', server);
    phase('started');

    // The live stream, open on one worker, shows the clicks both answer (the other's through the primary).
    const fresh = new http.Agent({ keepAlive: false });
    const session = await send(port, fresh, 'POST', '/api/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    const { token } = JSON.parse(session.body) as { token: string };
    const listening = { server: { address: () => ({ port }) } } as unknown as FastifyInstance;
    const stream = await SseStream.open(listening, '/api/live', { authorization: `Bearer ${token}` });
    await sleep(1000);
    const seen = await Promise.all(Array.from({ length: 10 }, () => click(port, fresh, `/c/${plain.external_id}`)));
    await until(() => stream.messages.filter((message) => message.event === 'click').length >= seen.length, 'live');
    stream.close();

    // Kept-alive connections, each used in turn (fifo), as a busy ad network's would be.
    const agent = new http.Agent({ keepAlive: true, maxSockets: MAX_SOCKETS, scheduling: 'fifo' });
    const sent: Sent[] = seen.map((answer) => ({ ...answer, capped: false }));
    const pending: Promise<void>[] = [];
    let stop = false;
    let index = 0;
    const load = (async () => {
      while (!stop) {
        const isCapped = index % CAPPED_EVERY === 0;
        index += 1;
        const campaign = isCapped ? capped : plain;
        pending.push(
          click(port, agent, `/c/${campaign.external_id}`).then(
            (answer) => void sent.push({ ...answer, capped: isCapped }),
          ),
        );
        await sleep(CLICK_EVERY_MS);
      }
    })();

    // Reload by `npm run reload`'s script, which finds the primary by its pid file.
    await sleep(1000);
    let before = workerPids(server);
    const script = await promisify(execFile)(process.execPath, ['src/reload-cli.mjs'], {
      cwd: SERVER_DIR,
      env: { ...process.env, INIT_CWD: SERVER_DIR, SWITCHYARD_DATA_DIR: dataDir },
    });
    expect(script.stdout).toContain(`process ${server.child.pid}`);
    phase('first reload');
    await until(() => replaced(server, before), 'the first reload', server);

    // Reload by SIGHUP.
    await sleep(500);
    before = workerPids(server);
    server.child.kill('SIGHUP');
    phase('second reload');
    await until(() => replaced(server, before), 'the second reload', server);
    const reloadsDoneAt = Date.now();

    // A worker killed outright; the primary starts another, which replays its journal.
    await sleep(500);
    const [victim, survivor] = workerPids(server) as [number, number];
    const readyBefore = readyCount(server);
    phase('kill -9');
    process.kill(victim, 'SIGKILL');
    await until(
      () =>
        readyCount(server) > readyBefore && workerPids(server).length === 2 && workerPids(server).includes(survivor),
      'a replacement worker',
      server,
    );
    await sleep(1000);
    phase('load ends');
    stop = true;
    await load;
    await Promise.all(pending);
    agent.destroy();

    // Reports answer from either worker: on SQLite one of them runs the report reader for both. The
    // clicks here carry no browser's agent, so they count as bots'.
    const reports = await Promise.all(
      Array.from({ length: 6 }, () =>
        send(port, fresh, 'GET', '/api/reports?group_by=campaign&include_bots=true', undefined, {
          authorization: `Bearer ${token}`,
        }),
      ),
    );
    for (const report of reports) {
      expect(report.status, report.body).toBe(200);
      expect((JSON.parse(report.body) as { totals: { clicks: number } }).totals.clicks).toBeGreaterThan(0);
    }

    phase('stop');
    // Stopped cleanly: every event stored, no journal segment left.
    await killed(server, 'SIGTERM');
    const segments = readdirSync(journalDir(loadConfig(env))).filter((name) => name.endsWith('.journal'));
    expect(segments).toEqual([]);

    // Every request answered; only the kill -9 may have cut a request off (sent again, as browsers do).
    const statuses = new Set(sent.map((one) => one.status));
    expect([...statuses]).toEqual([302]);
    expect(sent.filter((one) => one.cutOff > 0 && one.at < reloadsDoneAt)).toEqual([]);
    const cutOff = sent.reduce((sum, one) => sum + one.cutOff, 0);
    // At most one per kept-alive connection, those the killed worker held.
    expect(cutOff).toBeLessThanOrEqual(MAX_SOCKETS);

    const cappedHosts = sent.filter((one) => one.capped).map((one) => hostOf(one.location));
    expect(cappedHosts.length).toBeGreaterThan(CAP);
    expect(cappedHosts.filter((host) => host === 'capped.example')).toHaveLength(CAP);
    expect(cappedHosts.filter((host) => host !== 'capped.example').every((host) => host === 'backup.example')).toBe(
      true,
    );

    // Every answered click is stored, and nothing else but what a cut-off request may have left.
    const app = await buildApp({ config: loadConfig(env), print: () => undefined });
    try {
      const rows = await app.store.db.selectFrom('tracker_clicks').select(['click_id', 'offer_external_id']).execute();
      const stored = new Set(rows.map((row) => row.click_id));
      const missing = sent.map((one) => idOf(one.location)).filter((id) => !stored.has(id));
      expect(missing).toEqual([]);
      expect(rows.length).toBeGreaterThanOrEqual(sent.length);
      expect(rows.length).toBeLessThanOrEqual(sent.length + cutOff);
      expect(rows.filter((row) => row.offer_external_id === cappedOfferId)).toHaveLength(CAP);
    } finally {
      await app.close();
    }

    // After a restart the cap still holds: the capped campaign sends only to the backup.
    const again = await startServer({ ...env, SWITCHYARD_WORKERS: '1' }, port);
    servers.push(again);
    const agentAgain = new http.Agent({ keepAlive: true });
    const after = await Promise.all(
      Array.from({ length: 10 }, () => click(port, agentAgain, `/c/${capped.external_id}`)),
    );
    agentAgain.destroy();
    expect(after.map((one) => hostOf(one.location))).toEqual(Array(10).fill('backup.example'));
    await killed(again, 'SIGTERM');
    console.info(
      `reload [${db.kind}]: ${sent.length} clicks answered through two reloads and a kill -9 ` +
        `(${cutOff} cut off by the kill and sent again); ${CAP} of ${cappedHosts.length} capped clicks to the capped offer`,
    );
    // Three server starts and two reloads, each worker start several seconds on a busy machine.
  }, 600_000);
});

/** Where the test is, for a run that fails on a busy machine. */
function phase(name: string): void {
  console.info(`reload test: ${name} at ${new Date().toISOString()}`);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function until(check: () => boolean, what: string, server?: Server): Promise<void> {
  await eventually(check, () => `timed out waiting for ${what}: ${server?.output.join('\n') ?? ''}`, {
    withinMs: 240_000,
  });
}

/** Workers the primary has said are ready, so far. */
function readyCount(server: Server): number {
  return server.output.filter((line) => line.includes('"msg":"worker ready"')).length;
}

/** Whether none of `before` is left and two workers run again. */
function replaced(server: Server, before: number[]): boolean {
  const now = workerPids(server);
  return now.length === 2 && now.every((pid) => !before.includes(pid));
}

/** One click; a connection error before any answer (the killed worker's) is sent again. */
async function click(
  port: number,
  agent: http.Agent,
  url: string,
): Promise<{ status: number; location: string; cutOff: number; at: number }> {
  for (let cutOff = 0; ; cutOff += 1) {
    try {
      const answer = await get(port, agent, url);
      return { ...answer, cutOff, at: Date.now() };
    } catch (error) {
      if (cutOff >= 3) throw error;
    }
  }
}

function send(
  port: number,
  agent: http.Agent,
  method: string,
  url: string,
  body?: object,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const payload = body ? JSON.stringify(body) : undefined;
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: url,
        agent,
        headers: { ...headers, ...(payload ? { 'content-type': 'application/json' } : {}) },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => {
          text += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

function get(port: number, agent: http.Agent, url: string): Promise<{ status: number; location: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, path: url, agent }, (response) => {
      response.resume();
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, location: String(response.headers.location ?? '') }),
      );
    });
    request.on('error', reject);
  });
}
