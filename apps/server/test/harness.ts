import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { type BuildOptions, buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import type { TrustProxy } from '../src/http/trusted-proxies.js';
import { announce, describeNeeding, type Service } from './services.js';

// Every API suite runs twice: on SQLite in a temp directory and on a fresh PostgreSQL database.
// Each built app gets its own database, so test files can run in parallel.

export type DatabaseKind = 'sqlite' | 'postgres';

export const ADMIN_EMAIL = 'admin@test.local';
export const ADMIN_PASSWORD = 'admin-password-1';

const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function probePostgres(): Promise<string | null> {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    await client.end().catch(() => undefined);
  }
}

const postgres: Service = {
  missing: `PostgreSQL is NOT reachable at ${POSTGRES_URL}`,
  problem: await probePostgres(),
  suites: 'the PostgreSQL half of the API tests',
  fix: 'Start PostgreSQL or set TEST_DATABASE_URL.',
};
announce(postgres);
export const describePostgres = describeNeeding(postgres, 'PostgreSQL');

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function adminQuery(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

export interface BuildTestAppOptions {
  /** Environment the config is read from; the database settings are filled in. */
  env?: NodeJS.ProcessEnv;
  print?: BuildOptions['print'];
  /** Boot on this database (from `createDatabase`) instead of a new empty one. */
  database?: DatabaseSettings;
  /** The traffic engine's clock, randomness and worker settings. */
  engine?: BuildOptions['engine'];
  /** Honour X-Forwarded-For (as SWITCHYARD_TRUST_PROXY=true does). */
  trustProxy?: TrustProxy;
}

/**
 * The environment variables that select one database: SWITCHYARD_DATA_DIR, with DATABASE_URL on
 * PostgreSQL (the data directory then holds the node's event journal).
 */
export type DatabaseSettings = { readonly DATABASE_URL?: string; readonly SWITCHYARD_DATA_DIR: string };

/** One kind of database under test; every app it builds gets a new empty database, removed afterwards. */
export class DatabaseUnderTest {
  private readonly cleanups: (() => Promise<void>)[] = [];
  /** The database each built app was given, so another app can boot on the same one. */
  private readonly databases = new WeakMap<FastifyInstance, DatabaseSettings>();

  constructor(readonly kind: DatabaseKind) {}

  async buildApp(options: BuildTestAppOptions = {}): Promise<FastifyInstance> {
    const database = options.database ?? (await this.createDatabase());
    const env: NodeJS.ProcessEnv = { ...options.env, ...database };
    env.SWITCHYARD_WEB_DIST ??= path.join(tmpdir(), 'switchyard-no-dashboard');
    // The ASN lookup is built once for every test app on this machine, not once per data directory.
    env.SWITCHYARD_CACHE_DIR ??= path.join(tmpdir(), 'switchyard-test-cache');
    const app = await buildApp({
      config: loadConfig(env),
      print: options.print ?? (() => undefined),
      // Every answer a suite gets is checked against the API document.
      checkAnswers: true,
      ...(options.engine ? { engine: options.engine } : {}),
      ...(options.trustProxy !== undefined ? { trustProxy: options.trustProxy } : {}),
    });
    this.cleanups.push(() => app.close());
    this.databases.set(app, database);
    return app;
  }

  /** Boots another app on the database of `previous` (a restart, or a second node), without emptying it. */
  async buildAppOnSameDatabase(previous: FastifyInstance, options: BuildTestAppOptions = {}): Promise<FastifyInstance> {
    const database = this.databases.get(previous);
    if (!database) throw new Error('buildAppOnSameDatabase needs an app built by this DatabaseUnderTest');
    return this.buildApp({ ...options, database });
  }

  /** A new empty database, removed at cleanup. */
  async createDatabase(): Promise<DatabaseSettings> {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'switchyard-test-'));
    this.cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    if (this.kind === 'postgres') {
      const name = `switchyard_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
      await adminQuery(`CREATE DATABASE "${name}"`);
      this.cleanups.push(() => adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
      return { DATABASE_URL: withDatabase(POSTGRES_URL, name), SWITCHYARD_DATA_DIR: dataDir };
    }
    return { SWITCHYARD_DATA_DIR: dataDir };
  }

  async cleanup(): Promise<void> {
    // Close apps before dropping their databases: last registered, first cleaned.
    for (const cleanup of this.cleanups.reverse()) await cleanup();
    this.cleanups.length = 0;
  }
}

/**
 * Runs the same suite on SQLite and on PostgreSQL. When PostgreSQL is unreachable its half is skipped,
 * loudly; under CI=true it is one failing test instead, which names the URL it tried.
 */
export function forEachDatabase(title: string, suite: (db: DatabaseUnderTest) => void): void {
  for (const kind of ['sqlite', 'postgres'] as const) {
    (kind === 'postgres' ? describePostgres : describe)(`${title} [${kind}]`, () => {
      const db = new DatabaseUnderTest(kind);
      afterAll(() => db.cleanup());
      suite(db);
    });
  }
}

export interface TestApp {
  app: FastifyInstance;
  adminToken: string;
}

/**
 * An app seeded with ADMIN_EMAIL / ADMIN_PASSWORD and the admin logged in, built once for the suite; `env`
 * adds settings (read when the suite starts).
 */
export function useSeededApp(db: DatabaseUnderTest, env: () => NodeJS.ProcessEnv = () => ({})): TestApp {
  const context = {} as TestApp;
  beforeAll(async () => {
    context.app = await db.buildApp({
      env: { ...env(), SWITCHYARD_ADMIN_EMAIL: ADMIN_EMAIL, SWITCHYARD_ADMIN_PASSWORD: ADMIN_PASSWORD },
    });
    context.adminToken = await login(context.app, ADMIN_EMAIL, ADMIN_PASSWORD);
  });
  return context;
}

/**
 * An app seeded with the admin, behind a proxy on 127.0.0.0/8 (visitors' addresses come from
 * X-Forwarded-For), with the admin logged in: the tracker's suites send real HTTP clicks to it.
 */
export async function buildProxiedAdminApp(
  db: DatabaseUnderTest,
  engine?: BuildTestAppOptions['engine'],
): Promise<TestApp> {
  const app = await db.buildApp({
    env: { SWITCHYARD_ADMIN_EMAIL: ADMIN_EMAIL, SWITCHYARD_ADMIN_PASSWORD: ADMIN_PASSWORD },
    trustProxy: ['127.0.0.0/8'],
    ...(engine ? { engine } : {}),
  });
  return { app, adminToken: await login(app, ADMIN_EMAIL, ADMIN_PASSWORD) };
}

export function bearer(token: string): { authorization: string } {
  return { authorization: `Bearer ${token}` };
}

export async function login(
  app: FastifyInstance,
  email: string,
  password: string,
  remoteAddress = '127.0.0.1',
): Promise<string> {
  const response = await app.inject({ method: 'POST', url: '/api/login', payload: { email, password }, remoteAddress });
  expect(response.statusCode, response.body).toBe(200);
  const token = response.json<{ token: string }>().token;
  expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  return token;
}

let userCounter = 0;

export interface TestUser {
  id: number;
  email: string;
  password: string;
  token: string;
}

/** Creates (as the admin) a user holding exactly `permissions` and optional roles, and logs them in. */
export async function createUserWithPermissions(
  app: FastifyInstance,
  adminToken: string,
  permissions: string[],
  extra: { roles?: number[]; workspaces?: number[]; name?: string } = {},
): Promise<TestUser> {
  userCounter += 1;
  const email = `user${userCounter}-${Math.random().toString(36).slice(2, 8)}@test.local`;
  const password = `password-${userCounter}-long`;
  const response = await app.inject({
    method: 'POST',
    url: '/api/users',
    headers: bearer(adminToken),
    payload: { name: extra.name ?? `User ${userCounter}`, email, password, permissions, ...extra },
  });
  expect(response.statusCode, response.body).toBe(201);
  const { id } = response.json<{ id: number }>();
  return { id, email, password, token: await login(app, email, password) };
}

/** Role ids by name, as seeded. */
export async function seededRoles(app: FastifyInstance, adminToken: string): Promise<Record<string, number>> {
  const response = await app.inject({ method: 'GET', url: '/api/roles?limit=0', headers: bearer(adminToken) });
  expect(response.statusCode).toBe(200);
  const { list } = response.json<{ list: { id: number; name: string }[] }>();
  return Object.fromEntries(list.map((role) => [role.name, role.id]));
}

export interface ErrorBody {
  message: string;
  errors?: Record<string, string[]>;
}

/** Asserts the status and the API's error shape (`{ message, errors? }`), and returns the body. */
export function expectError(response: { statusCode: number; body: string }, statusCode: number): ErrorBody {
  expect(response.statusCode, response.body).toBe(statusCode);
  const body = JSON.parse(response.body) as ErrorBody;
  expect(typeof body.message, response.body).toBe('string');
  expect(body.message.length).toBeGreaterThan(0);
  if (body.errors !== undefined) {
    for (const messages of Object.values(body.errors)) {
      expect(Array.isArray(messages)).toBe(true);
      expect(messages.length).toBeGreaterThan(0);
    }
  }
  return body;
}

/** The `total` of a list, read as the admin (status=all, so nothing is filtered out). */
export async function listTotal(app: FastifyInstance, adminToken: string, apiPath: string): Promise<number> {
  const response = await app.inject({
    method: 'GET',
    url: `/api/${apiPath}?status=all&limit=0`,
    headers: bearer(adminToken),
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ total: number }>().total;
}

/** Fails when a response body carries a password, a password hash or any of `secrets` (tokens). */
export function expectNoSecrets(body: string, secrets: readonly string[] = []): void {
  expect(body).not.toMatch(/password/i);
  expect(body).not.toMatch(/scrypt\$/);
  expect(body).not.toMatch(/token/i);
  for (const secret of secrets) expect(body).not.toContain(secret);
}

/** A logger for buildApp that keeps every line it writes in `lines` (what the server says, as JSON). */
export function capturedLog(lines: string[]): BuildOptions['logger'] {
  return {
    level: 'info',
    stream: new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    }),
  };
}
