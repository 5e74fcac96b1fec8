import { getResource, type ImportAnswer, type ResourceName, ZKeitaroExport } from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ConfigRecordsService } from '../src/api/config-records/service.js';
import type { Actor } from '../src/auth/actor.js';
import { NotFoundError } from '../src/errors.js';
import { keitaroPlan } from '../src/imports/keitaro.js';
import { ImportService } from '../src/imports/service.js';
import type { Database } from '../src/store/schema.js';
import { ScopeGuard, workspaceTables } from '../src/store/scope.js';
import { keitaroExport } from './fixtures/keitaro-export.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, forEachDatabase, login } from './harness.js';

// Imports keep to their workspace: an import reads and writes only its workspace's rows. The import
// service runs here on a database behind ScopeGuard, which refuses any query on a workspace-owned table
// (imports, import_mappings, config_records, …) that names no workspace. Two workspaces import the same
// file: each gets its own records, and neither sees the other's import. On SQLite and PostgreSQL.

const KINDS: ResourceName[] = [
  'affiliate-networks',
  'traffic-sources',
  'tracker-offers',
  'tracker-landers',
  'tracker-flows',
  'tracker-campaigns',
];

forEachDatabase('imports keep to their workspace', (db) => {
  let app: FastifyInstance;
  let imports: ImportService;
  const actors: Record<'A' | 'B' | 'C', Actor> = {} as Record<'A' | 'B' | 'C', Actor>;

  beforeAll(async () => {
    app = await db.buildApp({
      env: { SWITCHYARD_ADMIN_EMAIL: ADMIN_EMAIL, SWITCHYARD_ADMIN_PASSWORD: ADMIN_PASSWORD },
    });
    const root = await login(app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const first = await app.store.db.selectFrom('workspaces').select('id').orderBy('id').executeTakeFirstOrThrow();
    const made = await app.inject({
      method: 'POST',
      url: '/api/workspaces',
      headers: bearer(root),
      payload: { name: 'Imports B' },
    });
    expect(made.statusCode, made.body).toBe(201);
    const actor = (workspaceId: number): Actor => ({ userId: 0, sessionId: 0, permissions: ['/'], workspaceId });
    actors.A = actor(Number(first.id));
    actors.B = actor(made.json<{ id: number }>().id);
    const third = await app.inject({
      method: 'POST',
      url: '/api/workspaces',
      headers: bearer(root),
      payload: { name: 'Imports C' },
    });
    expect(third.statusCode, third.body).toBe(201);
    actors.C = actor(third.json<{ id: number }>().id);
    const guarded = app.store.db.withPlugin(
      new ScopeGuard(await workspaceTables(app.store.db as Kysely<unknown>, app.store.dialect)),
    ) as Kysely<Database>;
    const services = new Map(
      KINDS.map((kind) => [kind, new ConfigRecordsService(guarded, getResource(kind))] as const),
    );
    imports = new ImportService(guarded, services, app.domains.service);
  });

  afterAll(async () => {
    await app?.close();
  });

  it('each workspace imports the same file into records of its own, every query scoped', async () => {
    const plan = () => keitaroPlan(ZKeitaroExport.parse({ ...keitaroExport(), domains: [] }));
    const ofA: ImportAnswer = await imports.run(plan(), 'keitaro', actors.A, false);
    const ofB: ImportAnswer = await imports.run(plan(), 'keitaro', actors.B, false);
    expect(ofA.summary.created).toBe(13);
    // Workspace B's mappings are its own: nothing of A's counts as imported there.
    expect(ofB.summary).toMatchObject({ created: 13, unchanged: 0 });
    const idsOf = (answer: ImportAnswer) => new Set(answer.records.map((record) => record.new_id));
    expect([...idsOf(ofA)].some((id) => idsOf(ofB).has(id))).toBe(false);
    expect((await imports.run(plan(), 'keitaro', actors.B, true)).summary).toMatchObject({ created: 0, unchanged: 13 });

    // An update goes through the records' own service behind the guard too.
    const changed = { ...keitaroExport(), domains: [] };
    changed.offers[0]!.payout_value = 9;
    const update = await imports.run(keitaroPlan(ZKeitaroExport.parse(changed)), 'keitaro', actors.A, false);
    expect(update.summary, JSON.stringify(update.left_out)).toMatchObject({ created: 0, updated: 1, unchanged: 12 });

    expect((await imports.get(ofA.id!, { workspaceId: actors.A.workspaceId! })).summary).toEqual(ofA.summary);
    await expect(imports.get(ofA.id!, { workspaceId: actors.B.workspaceId! })).rejects.toBeInstanceOf(NotFoundError);
  });

  it('two runs at once make each record once: the later one is told to run again', async () => {
    const plan = () => keitaroPlan(ZKeitaroExport.parse({ ...keitaroExport(), domains: [] }));
    const runs = await Promise.all([1, 2].map(() => imports.run(plan(), 'keitaro', actors.C, false)));
    const created = runs.map((run) => run.summary.created);
    expect(created[0]! + created[1]!).toBe(13);
    const stored = await app.store.db
      .selectFrom('config_records')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('workspace_id', '=', actors.C.workspaceId!)
      .executeTakeFirstOrThrow();
    expect(Number(stored.count)).toBe(13);
    // A record the later run wrote from what it could see is brought in line by the next run, and then
    // nothing changes.
    expect((await imports.run(plan(), 'keitaro', actors.C, false)).summary.created).toBe(0);
    const settled = await imports.run(plan(), 'keitaro', actors.C, false);
    expect(settled.summary, JSON.stringify(settled.left_out)).toMatchObject({ created: 0, updated: 0, unchanged: 13 });
  });
});
