// /api/rules: the acting workspace's rules (list, get, create, change, delete), what one would do now
// (preview, which changes nothing) and the log of its runs. Permission: /tracker/rule/….
import { type Rule, type RuleRun, type TRuleForm, ZRuleForm } from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { workspaceOf } from '../auth/workspace.js';
import { NotFoundError, ValidationError } from '../errors.js';
import { authorize } from '../http/guard.js';
import { parseInput } from '../http/parse.js';
import { now } from '../store/database.js';
import type { Database } from '../store/schema.js';
import { type Scope, scopeCondition } from '../store/scope.js';
import { type RuleEngine, ruleForm, type StoredRule } from './engine.js';

type IdParams = { Params: { id: string } };
const RUNS_SHOWN = 100;

function parseId(text: string): number {
  const id = Number(text);
  if (!Number.isSafeInteger(id) || id <= 0) throw new NotFoundError();
  return id;
}

type RuleRow = StoredRule & { created_at: string; updated_at: string };

function answer(row: RuleRow): Rule {
  const form = ruleForm(row);
  if (!form) throw new Error(`rule ${row.id} does not read`);
  const actions = form.actions.map((action) => (action.type === 'webhook' ? { ...action, secret: '' } : action));
  return {
    id: Number(row.id),
    ...form,
    actions,
    created_at: row.created_at,
    updated_at: row.updated_at,
    last_run_at: row.last_run_at,
  };
}

function stored(form: TRuleForm) {
  const { name, enabled, ...body } = form;
  return { name, enabled: enabled ? 1 : 0, body: JSON.stringify(body) };
}

/** What the form cannot know alone: that its custom metrics and its scope's record exist in the workspace. */
async function checkReferences(db: Kysely<Database>, scope: Scope, form: TRuleForm): Promise<void> {
  const errors: Record<string, string[]> = {};
  const custom = form.conditions.filter((condition) => condition.metric.startsWith('cm_'));
  if (custom.length > 0) {
    const keys = new Set(
      (await db.selectFrom('custom_metrics').select('key').where(scopeCondition(scope, 'workspace_id')).execute()).map(
        (row) => row.key,
      ),
    );
    form.conditions.forEach((condition, index) => {
      if (condition.metric.startsWith('cm_') && !keys.has(condition.metric)) {
        errors[`conditions.${index}.metric`] = ['No such metric in this workspace.'];
      }
    });
  }
  if (form.scope.kind !== 'workspace') {
    const kind = form.scope.kind === 'campaign' ? 'tracker-campaigns' : 'traffic-sources';
    const found = await db
      .selectFrom('config_records')
      .select('external_id')
      .where('kind', '=', kind)
      .where('external_id', '=', form.scope.id ?? '')
      .where(scopeCondition(scope, 'workspace_id'))
      .executeTakeFirst();
    if (!found) errors['scope.id'] = [`No such ${form.scope.kind.replace('_', ' ')} in this workspace.`];
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
}

/** A webhook action sent with an empty secret keeps the one stored for the same URL. */
function keepSecrets(form: TRuleForm, previous: TRuleForm | null): TRuleForm {
  const stored = new Map(
    (previous?.actions ?? []).flatMap((action) => (action.type === 'webhook' ? [[action.url, action.secret]] : [])),
  );
  const actions = form.actions.map((action) =>
    action.type === 'webhook' && action.secret === '' ? { ...action, secret: stored.get(action.url) ?? '' } : action,
  );
  return { ...form, actions };
}

export function ruleRoutes(app: FastifyInstance, db: Kysely<Database>, engine: RuleEngine): void {
  const columns = ['id', 'workspace_id', 'name', 'body', 'enabled', 'last_run_at', 'created_at', 'updated_at'] as const;
  const find = async (scope: Scope, id: number): Promise<RuleRow> => {
    const row = await db
      .selectFrom('rules')
      .select([...columns])
      .where('id', '=', id)
      .where(scopeCondition(scope, 'workspace_id'))
      .executeTakeFirst();
    if (!row) throw new NotFoundError();
    return row;
  };

  app.get('/rules', async (request) => {
    const scope = { workspaceId: workspaceOf(authorize(request, 'tracker', 'rule', 'get')) };
    const rows = await db
      .selectFrom('rules')
      .select([...columns])
      .where(scopeCondition(scope, 'workspace_id'))
      .orderBy('id')
      .execute();
    const list = rows.flatMap((row) => (ruleForm(row) ? [answer(row)] : []));
    return { list, total: list.length };
  });

  app.get<IdParams>('/rules/:id', async (request) => {
    const scope = { workspaceId: workspaceOf(authorize(request, 'tracker', 'rule', 'get')) };
    return answer(await find(scope, parseId(request.params.id)));
  });

  app.post('/rules', async (request, reply) => {
    const workspaceId = workspaceOf(authorize(request, 'tracker', 'rule', 'create'));
    const form = parseInput(ZRuleForm, request.body);
    await checkReferences(db, { workspaceId }, form);
    const timestamp = now();
    const row = await db
      .insertInto('rules')
      .values({
        workspace_id: workspaceId,
        ...stored(form),
        last_run_at: null,
        created_at: timestamp,
        updated_at: timestamp,
      })
      .returning([...columns])
      .executeTakeFirstOrThrow();
    return reply.code(201).send(answer(row));
  });

  app.put<IdParams>('/rules/:id', async (request) => {
    const workspaceId = workspaceOf(authorize(request, 'tracker', 'rule', 'update'));
    const id = parseId(request.params.id);
    const form = keepSecrets(parseInput(ZRuleForm, request.body), ruleForm(await find({ workspaceId }, id)));
    await checkReferences(db, { workspaceId }, form);
    const row = await db
      .updateTable('rules')
      .set({ ...stored(form), updated_at: now() })
      .where('id', '=', id)
      .where(scopeCondition({ workspaceId }, 'workspace_id'))
      .returning([...columns])
      .executeTakeFirstOrThrow();
    return answer(row);
  });

  app.delete<IdParams>('/rules/:id', async (request, reply) => {
    const workspaceId = workspaceOf(authorize(request, 'tracker', 'rule', 'archive'));
    const id = parseId(request.params.id);
    await find({ workspaceId }, id);
    await db
      .deleteFrom('rule_cooldowns')
      .where('rule_id', '=', id)
      .where(scopeCondition({ workspaceId }, 'workspace_id'))
      .execute();
    await db
      .deleteFrom('rule_runs')
      .where('rule_id', '=', id)
      .where(scopeCondition({ workspaceId }, 'workspace_id'))
      .execute();
    await db.deleteFrom('rules').where('id', '=', id).where(scopeCondition({ workspaceId }, 'workspace_id')).execute();
    return reply.code(204).send();
  });

  // The form's preview of a rule not saved yet: no cooldown holds for it. Reading rights suffice, as the
  // stored rule's preview: nothing is written.
  app.post('/rules/preview', async (request) => {
    const workspaceId = workspaceOf(authorize(request, 'tracker', 'rule', 'get'));
    const form = parseInput(ZRuleForm, request.body);
    await checkReferences(db, { workspaceId }, form);
    const rows = await engine.evaluate(0, workspaceId, form, false);
    return { rule_id: null, matched: rows.length, rows };
  });

  // With a body, the unsaved edit of the stored rule (under its cooldowns); without, the stored rule.
  app.post<IdParams>('/rules/:id/preview', async (request) => {
    const workspaceId = workspaceOf(authorize(request, 'tracker', 'rule', 'get'));
    const row = await find({ workspaceId }, parseId(request.params.id));
    const edited = request.body !== undefined && request.body !== null;
    const form = edited ? parseInput(ZRuleForm, request.body) : ruleForm(row);
    if (!form) throw new NotFoundError();
    if (edited) await checkReferences(db, { workspaceId }, form);
    const rows = await engine.evaluate(row.id, workspaceId, form, false);
    return { rule_id: Number(row.id), matched: rows.length, rows };
  });

  app.get<IdParams>('/rules/:id/runs', async (request) => {
    const workspaceId = workspaceOf(authorize(request, 'tracker', 'rule', 'get'));
    const row = await find({ workspaceId }, parseId(request.params.id));
    const runs = await db
      .selectFrom('rule_runs')
      .select(['id', 'started_at', 'window_start', 'matched', 'rows', 'error'])
      .where('rule_id', '=', row.id)
      .where(scopeCondition({ workspaceId }, 'workspace_id'))
      .orderBy('started_at', 'desc')
      .orderBy('id', 'desc')
      .limit(RUNS_SHOWN)
      .execute();
    const list: RuleRun[] = runs.map((run) => ({
      id: Number(run.id),
      started_at: run.started_at,
      window_start: run.window_start,
      matched: Number(run.matched),
      rows: JSON.parse(run.rows) as RuleRun['rows'],
      error: run.error,
    }));
    return { list, total: list.length };
  });
}
