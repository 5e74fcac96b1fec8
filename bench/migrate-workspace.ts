// How long migration 0023 (workspace_id on clicks and leads, filled from their campaigns) takes
// on a database of many clicks. The clicks are generated as part (b) of the bench generates them
// (report-data.ts) into a SQLite database migrated up to 0022, their campaigns in two workspaces (and
// one in none); then the remaining migrations run and are timed. With --postgres the same rows are
// copied into a PostgreSQL database of the run's own (report-data-pg.ts), migrated there and timed.
//
// --workspaces 1 puts every campaign in one workspace: the rollups are then copied, not built again.
//
//   npx tsx bench/migrate-workspace.ts [--clicks 1000000] [--workspaces 2] [--postgres] [--keep]
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Kysely, Migrator } from 'kysely';
import pg from 'pg';
import { migrateToLatest, openStore, SQLITE_FILE_NAME, type Store } from '../apps/server/src/store/database.js';
import { InCodeMigrationProvider } from '../apps/server/src/store/migrations.js';
import { type GeneratedRouting, generateEvents } from './report-data.js';
import { copyToPostgres } from './report-data-pg.js';

const BEFORE = '0022_click_cost_changes_unindexed';
const POSTGRES_ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

function argument(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index < 0 ? undefined : process.argv[index + 1];
}

const clicks = Number(argument('clicks') ?? 1_000_000);
const workspaceCount = Number(argument('workspaces') ?? 2);
const withPostgres = process.argv.includes('--postgres');
/** --keep: the PostgreSQL database is left migrated up to 0022, to try statements on by hand. */
const keep = process.argv.includes('--keep');

/** 20 campaigns: even ones in the first workspace, odd ones in the second (or all in one), and one of none. */
const ROUTING: GeneratedRouting = {
  campaigns: Array.from({ length: 21 }, (_, index) => ({
    externalId: `mw-campaign-${index}`,
    trafficSourceExternalId: 'mw-source',
    flowExternalId: 'mw-flow',
    cost: 0.01,
  })),
  pathGroups: [
    { id: 'g1', paths: [{ id: 'p1', offers: ['o1', 'o2'], landers: ['l1'] }] },
    { id: 'g2', paths: [{ id: 'p2', offers: ['o3'], landers: [] }] },
  ],
};

/** The store migrated up to 0022, with two workspaces and the campaigns' records. */
async function preparedStore(store: Store): Promise<void> {
  const { error } = await new Migrator({
    db: store.db,
    provider: new InCodeMigrationProvider(store.dialect),
  }).migrateTo(BEFORE);
  if (error) throw error;
  const db = store.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
  const now = new Date().toISOString();
  const ids: number[] = [];
  for (const name of ['First', 'Second']) {
    const row = await db
      .insertInto('workspaces')
      .values({ name, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    ids.push(Number(row.id));
  }
  await db
    .insertInto('config_records')
    .values(
      ROUTING.campaigns.map((campaign, index) => ({
        kind: 'tracker-campaigns',
        external_id: campaign.externalId,
        name: campaign.externalId,
        workspace_id: index === 20 ? null : ids[workspaceCount === 1 ? 0 : index % 2],
        created_at: now,
        updated_at: now,
      })),
    )
    .execute();
}

/** Runs the migrations after 0022 and answers how long they took, in seconds. */
async function timedMigration(store: Store): Promise<number> {
  const started = performance.now();
  await migrateToLatest(store);
  const seconds = (performance.now() - started) / 1000;
  const missing = await store.db
    .selectFrom('tracker_clicks')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('workspace_id', 'is', null)
    .executeTakeFirstOrThrow();
  if (Number(missing.n) !== 0) throw new Error(`${missing.n} clicks without a workspace after the migration`);
  return seconds;
}

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'switchyard-migrate-workspace-'));
  const cleanups: (() => Promise<unknown>)[] = [() => rm(dir, { recursive: true, force: true })];
  try {
    const sqlite = openStore({ databaseUrl: undefined, dataDir: dir });
    await preparedStore(sqlite);
    await sqlite.db.destroy();
    const file = path.join(dir, SQLITE_FILE_NAME);
    let generated = performance.now();
    generateEvents(file, ROUTING, {
      clicks,
      conversions: Math.floor(clicks / 100),
      days: 30,
      now: new Date(),
      onProgress: (written) => {
        if (performance.now() - generated > 10_000) {
          generated = performance.now();
          console.log(`  generated ${written.toLocaleString('en')} clicks`);
        }
      },
    });
    console.log(`${clicks.toLocaleString('en')} clicks generated`);

    if (withPostgres) {
      const name = `switchyard_migrate_${process.pid}`;
      const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await admin.connect();
      await admin.query(`create database ${name}`);
      cleanups.push(async () => {
        if (!keep) await admin.query(`drop database if exists ${name} with (force)`);
        await admin.end();
      });
      const url = new URL(POSTGRES_ADMIN_URL);
      url.pathname = `/${name}`;
      const postgres = openStore({ databaseUrl: url.toString(), dataDir: dir });
      try {
        await preparedStore(postgres);
        await copyToPostgres(file, url.toString());
        if (keep) {
          console.log(`kept, up to 0022: ${url}`);
          return;
        }
        console.log(
          `PostgreSQL: 0023 on ${clicks.toLocaleString('en')} clicks: ${(await timedMigration(postgres)).toFixed(1)} s (${workspaceCount} workspaces)`,
        );
      } finally {
        await postgres.db.destroy();
      }
    } else {
      const store = openStore({ databaseUrl: undefined, dataDir: dir });
      try {
        console.log(
          `SQLite: 0023 on ${clicks.toLocaleString('en')} clicks: ${(await timedMigration(store)).toFixed(1)} s (${workspaceCount} workspaces)`,
        );
      } finally {
        await store.db.destroy();
      }
    }
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup();
  }
}

await main();
