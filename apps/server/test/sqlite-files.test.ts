import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, existsSync, readdirSync, readlinkSync } from 'node:fs';
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

// The server's SQLite files are the operator's to open beside it. An outside process that
// opens the database read-write and closes it (a sqlite3 shell, a monitoring query, a backup script)
// must never delete a file the server writes into, and every answered click stays visible to a fresh
// reader. A backup taken with `npm run backup` while clicks flow holds every click answered before it.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
/** The journal's segments rotate after 30 s; the clean-up then makes the database durable. */
const SEGMENT_GONE_WITHIN_MS = 70_000;

/** Debian's sqlite3 shell (.ci/run installs it): it checkpoints and deletes the WAL when it closes last. */
const SQLITE_SHELL = process.env.SQLITE3_PATH ?? '/usr/bin/sqlite3';

const clickIdOf = (location: string | undefined) => new URL(String(location)).searchParams.get('c') ?? '';

/** How many of `ids` a fresh connection of this process finds in tracker_clicks. */
function storedOf(file: string, ids: readonly string[]): number {
  const reader = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    const found = reader.prepare('SELECT click_id FROM tracker_clicks').pluck().all() as string[];
    const wanted = new Set(ids);
    return found.filter((id) => wanted.has(id)).length;
  } finally {
    reader.close();
  }
}

/** The server's open descriptors of the database's files that were deleted under it (Linux). */
function deletedUnder(pid: number, file: string): string[] {
  const fds = `/proc/${pid}/fd`;
  const targets: string[] = [];
  for (const fd of readdirSync(fds)) {
    try {
      targets.push(readlinkSync(path.join(fds, fd)));
    } catch {
      // Closed meanwhile.
    }
  }
  return targets.filter((target) => target.startsWith(file) && target.endsWith('(deleted)'));
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: 'pipe' });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('close', (code) => resolve({ code: code ?? -1, output }));
  });
}

describe.runIf(process.platform === 'linux' && (process.env.CI === 'true' || existsSync(SQLITE_SHELL)))(
  'the SQLite files beside the running server',
  () => {
    let dataDir: string;
    let env: NodeJS.ProcessEnv;
    let dbFile: string;
    let campaign: StoredRecord;
    const servers: Server[] = [];
    const dirs: string[] = [];

    beforeAll(async () => {
      dataDir = await mkdtemp(path.join(tmpdir(), 'switchyard-files-'));
      dirs.push(dataDir);
      dbFile = path.join(dataDir, SQLITE_FILE_NAME);
      env = {
        SWITCHYARD_DATA_DIR: dataDir,
        SWITCHYARD_CACHE_DIR: path.join(tmpdir(), 'switchyard-test-cache'),
        SWITCHYARD_ADMIN_EMAIL: ADMIN_EMAIL,
        SWITCHYARD_ADMIN_PASSWORD: ADMIN_PASSWORD,
        SWITCHYARD_WEB_DIST: path.join(tmpdir(), 'switchyard-no-dashboard'),
      };
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
    });

    afterAll(async () => {
      for (const server of servers) await killed(server, 'SIGKILL');
      for (const dir of dirs) await rm(dir, { recursive: true, force: true });
    });

    const clicks = async (port: number, count: number): Promise<string[]> => {
      const answers = await inParallel(
        20,
        Array.from(
          { length: count },
          (_, index) => () => request(port, 'GET', `/c/${campaign.external_id}?var1=${index}`),
        ),
      );
      return answers.map((answer) => {
        expect(answer.status, answer.body).toBe(302);
        return clickIdOf(answer.location);
      });
    };

    it('keeps every answered click when other processes open the database read-write beside it', async () => {
      const port = await freePort();
      const server = await startServer(env, port);
      servers.push(server);
      const pid = server.child.pid!;
      const answered = await clicks(port, 300);

      // Once the first segment of the journal is deleted, the server has made the database durable.
      const journal = path.join(dataDir, 'journal');
      const first = readdirSync(journal).filter((name) => name.endsWith('.journal'))[0];
      expect(first).toBeDefined();
      await expect
        .poll(() => existsSync(path.join(journal, String(first))), {
          timeout: SEGMENT_GONE_WITHIN_MS,
          interval: 250,
          message: 'the first journal segment was never cleaned up',
        })
        .toBe(false);

      for (let round = 0; round < 3; round += 1) {
        // An operator's shell: read-write, a query, closed.
        const counted = execFileSync(SQLITE_SHELL, [dbFile, 'SELECT count(*) FROM tracker_clicks;'], {
          encoding: 'utf8',
        });
        expect(Number(counted)).toBeGreaterThanOrEqual(300);
        answered.push(...(await clicks(port, 100)));
        expect(deletedUnder(pid, dbFile)).toEqual([]);
      }

      await expect.poll(() => storedOf(dbFile, answered), { timeout: 10_000, interval: 250 }).toBe(answered.length);
      expect(answered).toHaveLength(600);
      await killed(server, 'SIGTERM');
    }, 150_000);

    it('backs up during a burst of clicks: the copy is whole, holds every click answered before, and serves', async () => {
      const port = await freePort();
      const server = await startServer(env, port);
      servers.push(server);
      const before = await clicks(port, 500);
      const backupDir = await mkdtemp(path.join(tmpdir(), 'switchyard-backup-'));
      dirs.push(backupDir);
      const backupFile = path.join(backupDir, 'copy.db');

      // The backup begins with clicks still flowing, and they go on until it is done.
      let flowing = true;
      const during: string[] = [];
      const burst = (async () => {
        while (flowing) during.push(...(await clicks(port, 200)));
      })();
      const backup = await run('npm', ['run', '--silent', 'backup', '--', backupFile], env);
      flowing = false;
      await burst;
      expect(backup.code, backup.output).toBe(0);
      expect(during.length).toBeGreaterThan(0);

      const copy = new SQLite(backupFile, { readonly: true, fileMustExist: true });
      const inCopy = copy.prepare('SELECT count(*) FROM tracker_clicks').pluck().get() as number;
      expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
      copy.close();
      expect(storedOf(backupFile, before)).toBe(before.length);
      expect(readdirSync(backupDir)).toEqual(['copy.db']);

      // Restored into a data directory of its own, it starts a server that reports those clicks.
      const restored = await mkdtemp(path.join(tmpdir(), 'switchyard-restored-'));
      dirs.push(restored);
      copyFileSync(backupFile, path.join(restored, SQLITE_FILE_NAME));
      const restoredPort = await freePort();
      const second = await startServer({ ...env, SWITCHYARD_DATA_DIR: restored }, restoredPort);
      servers.push(second);
      const loggedIn = await request(restoredPort, 'POST', '/api/login', {
        email: ADMIN_EMAIL,
        password: ADMIN_PASSWORD,
      });
      expect(loggedIn.status, loggedIn.body).toBe(200);
      const { token } = JSON.parse(loggedIn.body) as { token: string };
      // The clicks here send no user agent: bots', counted in.
      const report = await request(restoredPort, 'GET', '/api/reports?group_by=campaign&include_bots=true', undefined, {
        authorization: `Bearer ${token}`,
      });
      expect(report.status, report.body).toBe(200);
      const { totals } = JSON.parse(report.body) as { totals: { clicks: number } };
      expect(totals.clicks).toBe(inCopy);
      expect(totals.clicks).toBeGreaterThanOrEqual(600 + before.length);
      await killed(second, 'SIGTERM');
      await killed(server, 'SIGTERM');
    }, 150_000);
  },
);
