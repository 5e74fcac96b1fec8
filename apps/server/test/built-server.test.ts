import { spawnSync } from 'node:child_process';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { SQLITE_FILE_NAME } from '../src/store/database.js';
import { freePort, inParallel, killed, request, type Server, startServer } from './child-server.js';
import { createRecord, type StoredRecord } from './fixtures/config-records.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, login } from './harness.js';

// `npm start` runs the server built to JavaScript (scripts/build-server.mjs) with plain node, no tsx.
// Everything a module of the server finds beside itself must be there in the build too: the worker
// threads' modules (the event writer, the report reader, a backup), the migrations and the seeds, the
// dashboard.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const SERVER_DIR = path.join(ROOT, 'apps/server');

async function loggedIn(port: number, email: string, password: string): Promise<string> {
  const answer = await request(port, 'POST', '/api/login', { email, password });
  expect(answer.status, answer.body).toBe(200);
  return (JSON.parse(answer.body) as { token: string }).token;
}

describe('the server built to JavaScript', () => {
  const servers: Server[] = [];
  const dirs: string[] = [];
  let webDist: string;

  beforeAll(async () => {
    const build = spawnSync(process.execPath, ['scripts/build.mjs', '--server'], { cwd: ROOT, encoding: 'utf8' });
    expect(build.status, `${build.stdout}\n${build.stderr}`).toBe(0);
    // The build is plain JavaScript: no TypeScript file is left to run.
    const built = realpathSync(path.join(SERVER_DIR, 'dist'));
    expect(spawnSync('find', [built, '-name', '*.ts'], { encoding: 'utf8' }).stdout).toBe('');
    // A dashboard of its own, so that serving it does not depend on whether apps/web was built.
    webDist = await mkdtemp(path.join(tmpdir(), 'switchyard-built-web-'));
    dirs.push(webDist);
    mkdirSync(path.join(webDist, 'assets'));
    writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>Switchyard built</title>');
    writeFileSync(path.join(webDist, 'assets', 'app-1234.js'), 'console.log("dashboard");');
  }, 120_000);

  afterAll(async () => {
    for (const server of servers) await killed(server, 'SIGKILL');
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('creates and prints the first administrator on an empty data directory, and serves the dashboard and the API', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'switchyard-built-'));
    dirs.push(dataDir);
    const port = await freePort();
    const server = await startServer(
      {
        SWITCHYARD_DATA_DIR: dataDir,
        SWITCHYARD_CACHE_DIR: path.join(tmpdir(), 'switchyard-test-cache'),
        SWITCHYARD_WEB_DIST: webDist,
        SWITCHYARD_ADMIN_EMAIL: '',
        SWITCHYARD_ADMIN_PASSWORD: '',
      },
      port,
      { built: true, allOutput: true },
    );
    servers.push(server);
    const output = server.output.join('\n');
    expect(output).toContain('Switchyard created the first administrator');
    const email = /email:\s+(\S+)/.exec(output)?.[1];
    const password = /password:\s+(\S+)/.exec(output)?.[1];
    expect(email).toBe('admin@switchyard.local');
    expect(password).toMatch(/^\S{24}$/);
    const token = await loggedIn(port, String(email), String(password));

    const me = await request(port, 'GET', '/api/me', undefined, { authorization: `Bearer ${token}` });
    expect(me.status, me.body).toBe(200);
    expect((JSON.parse(me.body) as { email: string }).email).toBe(email);
    // The seeds ran: the roles of §6 are there.
    const roles = await request(port, 'GET', '/api/roles', undefined, { authorization: `Bearer ${token}` });
    expect(roles.status, roles.body).toBe(200);
    expect((JSON.parse(roles.body) as { total: number }).total).toBeGreaterThan(0);

    const page = await request(port, 'GET', '/campaigns', undefined, { accept: 'text/html' });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>Switchyard built</title>');
    const asset = await request(port, 'GET', '/assets/app-1234.js');
    expect(asset.status).toBe(200);
    expect(asset.body).toBe('console.log("dashboard");');
    await killed(server, 'SIGTERM');
  }, 120_000);

  it('answers clicks, stores them through its writer thread, reports them and backs up through its threads', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'switchyard-built-'));
    dirs.push(dataDir);
    const env = {
      SWITCHYARD_DATA_DIR: dataDir,
      SWITCHYARD_CACHE_DIR: path.join(tmpdir(), 'switchyard-test-cache'),
      SWITCHYARD_WEB_DIST: webDist,
      SWITCHYARD_ADMIN_EMAIL: ADMIN_EMAIL,
      SWITCHYARD_ADMIN_PASSWORD: ADMIN_PASSWORD,
    };
    let campaign: StoredRecord;
    const app = await buildApp({ config: loadConfig(env), print: () => undefined });
    try {
      const token = await login(app, ADMIN_EMAIL, ADMIN_PASSWORD);
      const offer = await createRecord(app, token, 'tracker-offers', { url: 'https://offer.example/?c={clickid}' });
      const flow = await createRecord(app, token, 'tracker-flows', {
        path_groups: [
          { id: 'g', name: 'All', paths: [{ id: 'p', offers: [{ id: 'o', offer_external_id: offer.external_id }] }] },
        ],
      });
      campaign = await createRecord(app, token, 'tracker-campaigns', { flow_external_id: flow.external_id });
    } finally {
      await app.close();
    }

    const port = await freePort();
    const server = await startServer(env, port, { built: true });
    servers.push(server);
    const answers = await inParallel(
      10,
      Array.from({ length: 120 }, (_, index) => () => request(port, 'GET', `/c/${campaign.external_id}?var1=${index}`)),
    );
    const ids = answers.map((answer) => {
      expect(answer.status, answer.body).toBe(302);
      expect(answer.location).toMatch(/^https:\/\/offer\.example\/\?c=/);
      return new URL(String(answer.location)).searchParams.get('c');
    });
    const token = await loggedIn(port, ADMIN_EMAIL, ADMIN_PASSWORD);
    const auth = { authorization: `Bearer ${token}` };
    // The report reader's thread answers, with every click the writer's thread stored.
    // The clicks here send no user agent: bots', counted in.
    const report = await request(port, 'GET', '/api/reports?group_by=campaign&include_bots=true', undefined, auth);
    expect(report.status, report.body).toBe(200);
    expect((JSON.parse(report.body) as { totals: { clicks: number } }).totals.clicks).toBe(120);
    // A backup through the API runs on its own thread.
    const backup = await request(port, 'POST', '/api/backups', undefined, auth);
    expect(backup.status, backup.body).toBe(201);

    await killed(server, 'SIGTERM');
    const db = new SQLite(path.join(dataDir, SQLITE_FILE_NAME), { readonly: true, fileMustExist: true });
    try {
      const stored = new Set(db.prepare('SELECT click_id FROM tracker_clicks').pluck().all() as string[]);
      expect(ids.filter((id) => stored.has(String(id)))).toHaveLength(120);
      expect(stored.size).toBe(120);
    } finally {
      db.close();
    }
  }, 120_000);
});
