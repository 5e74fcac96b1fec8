// Saved report views. `GET /api/report-views` lists the acting user's views in the acting
// workspace; `POST` saves one, `PUT /:id` renames it or changes what it keeps, `DELETE /:id` removes it.
// `GET /:id` opens a view by its link: anyone of the view's workspace who reads reports may, since a link
// is how a view is shared; to anyone else it does not exist (404).
//
// Permissions: /tracker/reports/get, as `GET /api/reports` — a view is a report's settings, nothing more.
// Only its owner lists, changes and deletes a view; to another user those answer 404 as well.
import { REPORT_VIEWS_MAX, type ReportView, ZReportViewForm } from '@switchyard/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { workspaceOf } from '../auth/workspace.js';
import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import { authorize } from '../http/guard.js';
import { parseInput } from '../http/parse.js';
import type { Database } from '../store/schema.js';

const COLUMNS = ['id', 'user_id', 'name', 'params', 'created_at', 'updated_at'] as const;

type Row = { id: number; user_id: number; name: string; params: string; created_at: string; updated_at: string };

function view(row: Row): ReportView {
  return { ...row, id: Number(row.id), user_id: Number(row.user_id) };
}

/** The acting user and workspace of a request that reads reports. */
function reader(request: FastifyRequest): { userId: number; workspaceId: number } {
  const actor = authorize(request, 'tracker', 'reports', 'get');
  return { userId: actor.userId, workspaceId: workspaceOf(actor) };
}

function parseId(text: string): number {
  const id = Number(text);
  if (!Number.isSafeInteger(id) || id <= 0) throw new NotFoundError();
  return id;
}

const NAME_TAKEN = 'You already have a view with this name.';

/** 400 on `name` when the user already has another view of this name in the workspace. */
async function refuseTakenName(
  db: Kysely<Database>,
  owner: { userId: number; workspaceId: number },
  name: string,
  exceptId?: number,
): Promise<void> {
  let query = db
    .selectFrom('report_views')
    .select('id')
    .where('workspace_id', '=', owner.workspaceId)
    .where('user_id', '=', owner.userId)
    .where('name', '=', name);
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  if (await query.executeTakeFirst()) throw new ValidationError({ name: [NAME_TAKEN] });
}

/** A write that lost a race to the unique (workspace, user, name) index reads as the same 400. */
function nameClash(db: Kysely<Database>, owner: { userId: number; workspaceId: number }, name: string, id?: number) {
  return async (error: unknown): Promise<never> => {
    await refuseTakenName(db, owner, name, id);
    throw error;
  };
}

export function reportViewRoutes(app: FastifyInstance, db: Kysely<Database>): void {
  app.get('/report-views', async (request) => {
    const owner = reader(request);
    const rows = await db
      .selectFrom('report_views')
      .select(COLUMNS)
      .where('workspace_id', '=', owner.workspaceId)
      .where('user_id', '=', owner.userId)
      .orderBy('name')
      .orderBy('id')
      .execute();
    return { list: rows.map(view) };
  });

  app.get<{ Params: { id: string } }>('/report-views/:id', async (request) => {
    const { workspaceId } = reader(request);
    const row = await db
      .selectFrom('report_views')
      .select(COLUMNS)
      .where('id', '=', parseId(request.params.id))
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirst();
    if (!row) throw new NotFoundError();
    return view(row);
  });

  app.post('/report-views', async (request, reply) => {
    const owner = reader(request);
    const form = parseInput(ZReportViewForm, request.body);
    await refuseTakenName(db, owner, form.name);
    const count = await db
      .selectFrom('report_views')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('workspace_id', '=', owner.workspaceId)
      .where('user_id', '=', owner.userId)
      .executeTakeFirstOrThrow();
    if (Number(count.count) >= REPORT_VIEWS_MAX) {
      throw new ConflictError(`You have at most ${REPORT_VIEWS_MAX} views in a workspace; delete one first.`);
    }
    const now = new Date().toISOString();
    const row = await db
      .insertInto('report_views')
      .values({
        workspace_id: owner.workspaceId,
        user_id: owner.userId,
        name: form.name,
        params: form.params,
        created_at: now,
        updated_at: now,
      })
      .returning(COLUMNS)
      .executeTakeFirstOrThrow()
      .catch(nameClash(db, owner, form.name));
    reply.code(201);
    return view(row);
  });

  app.put<{ Params: { id: string } }>('/report-views/:id', async (request) => {
    const owner = reader(request);
    const id = parseId(request.params.id);
    const form = parseInput(ZReportViewForm, request.body);
    const mine = await db
      .selectFrom('report_views')
      .select('id')
      .where('id', '=', id)
      .where('workspace_id', '=', owner.workspaceId)
      .where('user_id', '=', owner.userId)
      .executeTakeFirst();
    if (!mine) throw new NotFoundError();
    await refuseTakenName(db, owner, form.name, id);
    const row = await db
      .updateTable('report_views')
      .set({ name: form.name, params: form.params, updated_at: new Date().toISOString() })
      .where('id', '=', id)
      .where('workspace_id', '=', owner.workspaceId)
      .where('user_id', '=', owner.userId)
      .returning(COLUMNS)
      .executeTakeFirst()
      .catch(nameClash(db, owner, form.name, id));
    if (!row) throw new NotFoundError();
    return view(row);
  });

  app.delete<{ Params: { id: string } }>('/report-views/:id', async (request, reply) => {
    const owner = reader(request);
    const result = await db
      .deleteFrom('report_views')
      .where('id', '=', parseId(request.params.id))
      .where('workspace_id', '=', owner.workspaceId)
      .where('user_id', '=', owner.userId)
      .executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw new NotFoundError();
    return reply.code(204).send();
  });
}
