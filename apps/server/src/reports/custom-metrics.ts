// Custom metrics. `GET /api/report-metrics` lists the acting workspace's; `POST` adds one,
// `PUT /:id` changes its name or formula, `DELETE /:id` removes it. A formula is checked on save (400
// naming the position of the mistake); reports then compute each from a row's figures (figures.ts).
//
// Permissions: reading needs /tracker/reports/get (whoever reads reports sees their columns); writing
// also needs /tracker/campaign/update, since a metric changes the reports of everyone in the workspace —
// the operators who manage campaigns and their costs define them. Another workspace's metric is a 404.
import {
  type CustomMetric,
  type CustomMetricDefinition,
  customMetricKeyOf,
  formulaUsesMoney,
  parseFormula,
  ZCustomMetricForm,
} from '@switchyard/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Actor } from '../auth/actor.js';
import { workspaceOf } from '../auth/workspace.js';
import { ConflictError, NotFoundError } from '../errors.js';
import { authorize } from '../http/guard.js';
import { parseInput } from '../http/parse.js';
import type { Database } from '../store/schema.js';

/** At most this many custom metrics per workspace (each is a column and a computation per row). */
export const MAX_CUSTOM_METRICS = 50;

type Row = { id: number; key: string; name: string; formula: string; created_at: string; updated_at: string };

function view(row: Row): CustomMetric {
  const parsed = parseFormula(row.formula);
  return {
    id: Number(row.id),
    key: row.key,
    name: row.name,
    formula: row.formula,
    money: parsed.ok && formulaUsesMoney(parsed.ast),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** The workspace's custom metrics, oldest first (the order of their columns). */
export async function customMetricsOf(db: Kysely<Database>, workspaceId: number): Promise<CustomMetric[]> {
  const rows = await db
    .selectFrom('custom_metrics')
    .select(['id', 'key', 'name', 'formula', 'created_at', 'updated_at'])
    .where('workspace_id', '=', workspaceId)
    .orderBy('id')
    .execute();
  return rows.map(view);
}

export function definitionsOf(metrics: readonly CustomMetric[]): CustomMetricDefinition[] {
  return metrics.map(({ key, formula }) => ({ key, formula }));
}

function writer(request: FastifyRequest): Actor {
  authorize(request, 'tracker', 'reports', 'get');
  return authorize(request, 'tracker', 'campaign', 'update');
}

function parseId(text: string): number {
  const id = Number(text);
  if (!Number.isSafeInteger(id) || id <= 0) throw new NotFoundError();
  return id;
}

/** A key for the name that no other metric of the workspace has: `cm_rpm`, else `cm_rpm_2`, … */
async function freeKey(db: Kysely<Database>, workspaceId: number, name: string): Promise<string> {
  const base = customMetricKeyOf(name);
  const taken = new Set(
    (await db.selectFrom('custom_metrics').select('key').where('workspace_id', '=', workspaceId).execute()).map(
      (row) => row.key,
    ),
  );
  if (!taken.has(base)) return base;
  for (let n = 2; ; n += 1) {
    const key = `${base}_${n}`;
    if (!taken.has(key)) return key;
  }
}

export function customMetricRoutes(app: FastifyInstance, db: Kysely<Database>): void {
  app.get('/report-metrics', async (request) => {
    const actor = authorize(request, 'tracker', 'reports', 'get');
    return { list: await customMetricsOf(db, workspaceOf(actor)) };
  });

  app.post('/report-metrics', async (request, reply) => {
    const workspaceId = workspaceOf(writer(request));
    const form = parseInput(ZCustomMetricForm, request.body);
    const count = await db
      .selectFrom('custom_metrics')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirstOrThrow();
    if (Number(count.count) >= MAX_CUSTOM_METRICS) {
      throw new ConflictError(`A workspace has at most ${MAX_CUSTOM_METRICS} custom metrics.`);
    }
    const now = new Date().toISOString();
    const key = await freeKey(db, workspaceId, form.name);
    // Two saves of the same name at once: the unique (workspace_id, key) index refuses the second.
    const row = await db
      .insertInto('custom_metrics')
      .values({
        workspace_id: workspaceId,
        key,
        name: form.name,
        formula: form.formula.trim(),
        created_at: now,
        updated_at: now,
      })
      .returning(['id', 'key', 'name', 'formula', 'created_at', 'updated_at'])
      .executeTakeFirstOrThrow()
      .catch(async (error: unknown) => {
        const clash = await db
          .selectFrom('custom_metrics')
          .select('id')
          .where('workspace_id', '=', workspaceId)
          .where('key', '=', key)
          .executeTakeFirst();
        if (clash) throw new ConflictError('Another metric was just saved under this name; save again.');
        throw error;
      });
    reply.code(201);
    return view(row);
  });

  app.put<{ Params: { id: string } }>('/report-metrics/:id', async (request) => {
    const workspaceId = workspaceOf(writer(request));
    const id = parseId(request.params.id);
    const form = parseInput(ZCustomMetricForm, request.body);
    // The key stays: sorted reports, saved links and exports keep naming the same column.
    const row = await db
      .updateTable('custom_metrics')
      .set({ name: form.name, formula: form.formula.trim(), updated_at: new Date().toISOString() })
      .where('id', '=', id)
      .where('workspace_id', '=', workspaceId)
      .returning(['id', 'key', 'name', 'formula', 'created_at', 'updated_at'])
      .executeTakeFirst();
    if (!row) throw new NotFoundError();
    return view(row);
  });

  app.delete<{ Params: { id: string } }>('/report-metrics/:id', async (request, reply) => {
    const workspaceId = workspaceOf(writer(request));
    const id = parseId(request.params.id);
    const result = await db
      .deleteFrom('custom_metrics')
      .where('id', '=', id)
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw new NotFoundError();
    return reply.code(204).send();
  });
}
