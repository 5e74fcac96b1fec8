import { writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  bearer,
  createUserWithPermissions,
  expectError,
  forEachDatabase,
  type TestUser,
  useSeededApp,
} from './harness.js';

// The instance's administrators back the SQLite database up from the dashboard, while the
// server runs; on PostgreSQL they are told to use pg_dump.
forEachDatabase('backups through the API', (db) => {
  const context = useSeededApp(db);
  let workspaceAdmin: TestUser;
  const scratch: string[] = [];

  beforeAll(async () => {
    // Every workspace section, as a workspace's administrator holds them, but not the instance's.
    workspaceAdmin = await createUserWithPermissions(context.app, context.adminToken, ['/api', '/tracker', '/general']);
  });
  afterAll(async () => {
    for (const dir of scratch) await rm(dir, { recursive: true, force: true });
  });

  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, token = context.adminToken) =>
    context.app.inject({ method, url, headers: bearer(token) });

  it('is refused to whoever does not administer the instance', async () => {
    expectError(await call('GET', '/api/backups', workspaceAdmin.token), 403);
    expectError(await call('POST', '/api/backups', workspaceAdmin.token), 403);
    expectError(await call('GET', '/api/backups/switchyard-20260101-000000.db', workspaceAdmin.token), 403);
    expectError(await call('DELETE', '/api/backups/switchyard-20260101-000000.db', workspaceAdmin.token), 403);
  });

  if (db.kind === 'sqlite') {
    it('makes, lists, downloads and deletes a whole copy of the database', async () => {
      const made = await call('POST', '/api/backups');
      expect(made.statusCode, made.body).toBe(201);
      const backup = made.json<{ name: string; bytes: number; journal_events: number }>();
      expect(backup.name).toMatch(/^switchyard-\d{8}-\d{6}\.db$/);
      expect(backup.bytes).toBeGreaterThan(0);

      const listed = await call('GET', '/api/backups');
      expect(listed.json<{ list: { name: string }[] }>().list.map((entry) => entry.name)).toEqual([backup.name]);

      const download = await call('GET', `/api/backups/${backup.name}`);
      expect(download.statusCode).toBe(200);
      expect(download.headers['content-disposition']).toBe(`attachment; filename="${backup.name}"`);
      const dir = await mkdtemp(path.join(tmpdir(), 'switchyard-download-'));
      scratch.push(dir);
      const file = path.join(dir, backup.name);
      writeFileSync(file, download.rawPayload);
      expect(download.rawPayload.length).toBe(backup.bytes);
      const copy = new SQLite(file, { readonly: true, fileMustExist: true });
      try {
        expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
        const users = copy.prepare('SELECT email FROM users').pluck().all();
        expect(users).toContain(workspaceAdmin.email);
      } finally {
        copy.close();
      }

      expectError(await call('GET', '/api/backups/..%2Fswitchyard.db'), 404);
      expectError(await call('GET', '/api/backups/switchyard-20260101-000000.db'), 404);
      expect((await call('DELETE', `/api/backups/${backup.name}`)).statusCode).toBe(204);
      expect((await call('GET', '/api/backups')).json()).toEqual({ list: [], total: 0 });
    });
  } else {
    it('points to pg_dump on PostgreSQL', async () => {
      const body = expectError(await call('POST', '/api/backups'), 400);
      expect(body.message).toBe('This instance keeps its data in PostgreSQL: back it up with pg_dump.');
      expect((await call('GET', '/api/backups')).json()).toEqual({ list: [], total: 0 });
    });
  }
});
