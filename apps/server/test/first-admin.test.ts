import { execFile } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { SEED_ROLES } from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ADMIN_EMAIL } from '../src/auth/seed.js';
import { bearer, type DatabaseSettings, expectError, forEachDatabase, listTotal, login } from './harness.js';

const run = promisify(execFile);
const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Starts one node in its own process on `database`, with no administrator settings. */
async function bootNode(database: DatabaseSettings): Promise<{ seeded: boolean; printed: string[] }> {
  const env: NodeJS.ProcessEnv = { ...process.env, ...database };
  delete env.SWITCHYARD_ADMIN_EMAIL;
  delete env.SWITCHYARD_ADMIN_PASSWORD;
  env.SWITCHYARD_WEB_DIST = path.join(tmpdir(), 'switchyard-no-dashboard');
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'test/fixtures/boot-node.ts'], {
    cwd: serverDir,
    env,
    // Below the test's own limit, so a stuck node is killed rather than left running after the test.
    timeout: 150_000,
  });
  return JSON.parse(stdout) as { seeded: boolean; printed: string[] };
}

/** A print function that records what it is given. */
function printed(): { print: (text: string) => void; texts: string[] } {
  const texts: string[] = [];
  return { print: (text) => texts.push(text), texts };
}

/** The password line of the notice printed for a generated administrator. */
function passwordIn(text: string): string {
  const match = /password:\s+(\S+)/.exec(text);
  expect(match, text).not.toBeNull();
  return match![1]!;
}

async function me(app: FastifyInstance, token: string) {
  const response = await app.inject({ method: 'GET', url: '/api/me', headers: bearer(token) });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{
    email: string;
    permissions: string[];
    roles: { name: string }[];
    workspaces: { name: string }[];
  }>();
}

forEachDatabase('first administrator', (db) => {
  describe('from SWITCHYARD_ADMIN_EMAIL and SWITCHYARD_ADMIN_PASSWORD', () => {
    it('creates that administrator, prints nothing, and the password works', async () => {
      const output = printed();
      const app = await db.buildApp({
        env: { SWITCHYARD_ADMIN_EMAIL: ' Boss@Example.COM ', SWITCHYARD_ADMIN_PASSWORD: 'configured-password' },
        print: output.print,
      });
      expect(output.texts).toEqual([]);
      const token = await login(app, 'boss@example.com', 'configured-password');
      const current = await me(app, token);
      expect(current).toMatchObject({
        email: 'boss@example.com',
        permissions: ['/'],
        roles: [{ name: 'Administrator' }],
        workspaces: [{ name: 'Default' }],
      });
      expect(await listTotal(app, token, 'users')).toBe(1);
      expect(await listTotal(app, token, 'workspaces')).toBe(1);
      const roles = await app.inject({ method: 'GET', url: '/api/roles?limit=0', headers: bearer(token) });
      expect(roles.json<{ list: { name: string; permissions: string[] }[] }>().list).toEqual(
        SEED_ROLES.map((role) => expect.objectContaining({ name: role.name, permissions: role.permissions })),
      );
      const wrong = await app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { email: 'boss@example.com', password: 'something-else' },
      });
      expectError(wrong, 401);
    });
  });

  describe('without them', () => {
    it('prints a generated password once; it works; a second boot prints nothing and changes nothing', async () => {
      const first = printed();
      const app = await db.buildApp({ print: first.print });
      expect(first.texts).toHaveLength(1);
      const notice = first.texts[0]!;
      expect(notice).toContain(DEFAULT_ADMIN_EMAIL);
      const password = passwordIn(notice);
      expect(password.length).toBeGreaterThanOrEqual(16);
      expect(app.seedResult).toMatchObject({ seeded: true, adminEmail: DEFAULT_ADMIN_EMAIL });

      const token = await login(app, DEFAULT_ADMIN_EMAIL, password);
      expect(await me(app, token)).toMatchObject({ email: DEFAULT_ADMIN_EMAIL, permissions: ['/'] });

      const second = printed();
      const again = await db.buildAppOnSameDatabase(app, { print: second.print });
      expect(second.texts).toEqual([]);
      expect(again.seedResult.seeded).toBe(false);

      // Still one administrator, the same password, the same roles and workspace; the old token still works.
      const secondToken = await login(again, DEFAULT_ADMIN_EMAIL, password);
      expect(await listTotal(again, secondToken, 'users')).toBe(1);
      expect(await listTotal(again, secondToken, 'roles')).toBe(SEED_ROLES.length);
      expect(await listTotal(again, secondToken, 'workspaces')).toBe(1);
      expect(await me(again, token)).toMatchObject({ email: DEFAULT_ADMIN_EMAIL });
    });

    it('a second boot with admin settings given later creates nobody and prints nothing', async () => {
      const first = printed();
      const app = await db.buildApp({ print: first.print });
      const password = passwordIn(first.texts[0]!);
      const second = printed();
      const again = await db.buildAppOnSameDatabase(app, {
        env: { SWITCHYARD_ADMIN_EMAIL: 'late@example.com', SWITCHYARD_ADMIN_PASSWORD: 'late-password-1' },
        print: second.print,
      });
      expect(second.texts).toEqual([]);
      const refused = await again.inject({
        method: 'POST',
        url: '/api/login',
        payload: { email: 'late@example.com', password: 'late-password-1' },
      });
      expectError(refused, 401);
      const token = await login(again, DEFAULT_ADMIN_EMAIL, password);
      expect(await listTotal(again, token, 'users')).toBe(1);
    });

    it('uses SWITCHYARD_ADMIN_EMAIL alone with a generated password', async () => {
      const output = printed();
      const app = await db.buildApp({ env: { SWITCHYARD_ADMIN_EMAIL: 'owner@example.com' }, print: output.print });
      expect(output.texts).toHaveLength(1);
      expect(output.texts[0]).toContain('owner@example.com');
      const token = await login(app, 'owner@example.com', passwordIn(output.texts[0]!));
      expect((await me(app, token)).email).toBe('owner@example.com');
    });

    it('generates a different password for each new database', async () => {
      const a = printed();
      const b = printed();
      await db.buildApp({ print: a.print });
      await db.buildApp({ print: b.print });
      expect(passwordIn(a.texts[0]!)).not.toBe(passwordIn(b.texts[0]!));
    });
  });

  describe('nodes starting together on one empty database', () => {
    it('migrate once and seed exactly one administrator, printed exactly once', async () => {
      const database = await db.createDatabase();
      const nodes = await Promise.all([bootNode(database), bootNode(database), bootNode(database)]);
      expect(nodes.filter((node) => node.seeded)).toHaveLength(1);
      const texts = nodes.flatMap((node) => node.printed);
      expect(texts).toHaveLength(1);
      const password = passwordIn(texts[0]!);

      const output = printed();
      const app = await db.buildApp({ database, print: output.print });
      expect(output.texts).toEqual([]);
      const token = await login(app, DEFAULT_ADMIN_EMAIL, password);
      expect(await listTotal(app, token, 'users')).toBe(1);
      expect(await listTotal(app, token, 'roles')).toBe(SEED_ROLES.length);
      expect(await listTotal(app, token, 'workspaces')).toBe(1);
    }, 180_000); // three processes start (and compile TypeScript) at once
  });
});
