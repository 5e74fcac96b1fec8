// The server built in the bench's own process (buildApp, no HTTP), on SQLite or on a PostgreSQL database
// of its own in TEST_DATABASE_URL's server, with an administrator logged in: for the scripts that time
// one API call over rows written straight to the tables (cost-import.ts, cost-update.ts).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app.js';
import { loadConfig } from '../apps/server/src/config.js';

const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const EMAIL = 'bench@switchyard.local';
const PASSWORD = 'bench-password-1';

export interface InProcessApp {
  app: FastifyInstance;
  /** The administrator's bearer token, as headers. */
  headers: Record<string, string>;
  /** The first workspace's id. */
  workspaceId: number;
  /** Creates a record through the API (`POST /api/<apiPath>`), or throws. */
  create(apiPath: string, payload: object): Promise<{ external_id: string }>;
  /** Closes the server and removes its data directory and database. */
  close(): Promise<void>;
}

async function admin(query: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    await client.query(query);
  } finally {
    await client.end();
  }
}

export async function inProcessApp(kind: 'sqlite' | 'postgres', name: string): Promise<InProcessApp> {
  const dataDir = await mkdtemp(path.join(tmpdir(), `switchyard-${name}-`));
  const database = `switchyard_${name.replaceAll('-', '_')}_${process.pid}`;
  let databaseUrl: string | undefined;
  if (kind === 'postgres') {
    await admin(`CREATE DATABASE "${database}"`);
    const url = new URL(POSTGRES_URL);
    url.pathname = `/${database}`;
    databaseUrl = url.toString();
  }
  const app = await buildApp({
    config: loadConfig({
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      SWITCHYARD_DATA_DIR: dataDir,
      SWITCHYARD_ADMIN_EMAIL: EMAIL,
      SWITCHYARD_ADMIN_PASSWORD: PASSWORD,
      SWITCHYARD_WEB_DIST: path.join(tmpdir(), 'switchyard-no-dashboard'),
      SWITCHYARD_CACHE_DIR: path.join(tmpdir(), 'switchyard-test-cache'),
    }),
    print: () => undefined,
    logger: false,
  });
  const close = async () => {
    await app.close();
    await rm(dataDir, { recursive: true, force: true });
    if (databaseUrl) await admin(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
  };
  try {
    const login = await app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: EMAIL, password: PASSWORD },
    });
    const headers = { authorization: `Bearer ${login.json<{ token: string }>().token}` };
    const workspace = await app.store.db.selectFrom('workspaces').select('id').orderBy('id').executeTakeFirstOrThrow();
    const create = async (apiPath: string, payload: object) => {
      const response = await app.inject({ method: 'POST', url: `/api/${apiPath}`, headers, payload });
      if (response.statusCode !== 201) throw new Error(`${apiPath}: ${response.body}`);
      return response.json<{ external_id: string }>();
    };
    return { app, headers, workspaceId: Number(workspace.id), create, close };
  } catch (error) {
    await close();
    throw error;
  }
}
