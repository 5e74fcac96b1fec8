import {
  type ListResponse,
  type TListQuery,
  type TWorkspaceForm,
  VALIDATION_MESSAGES,
  type Workspace,
} from '@switchyard/domain';
import type { Kysely } from 'kysely';
import type { Actor } from '../../auth/actor.js';
import { isRoot, TOKEN_OWN_WORKSPACE } from '../../auth/workspace.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../../errors.js';
import type { RecordId, ResourceService } from '../../http/resource-routes.js';
import { newPostbackKey } from '../../store/conversion-states.js';
import { now } from '../../store/database.js';
import { keepChange } from '../../store/history-keep.js';
import { listFilter, listOrder, listPage } from '../../store/list.js';
import type { Database, WorkspaceRow } from '../../store/schema.js';
import { reachesWorkspace } from './membership.js';

function toWorkspace(row: WorkspaceRow): Workspace {
  return {
    id: row.id,
    name: row.name,
    currency: row.currency,
    postback_key: row.postback_key ?? '',
    status: row.status === 'archived' ? 'archived' : 'active',
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/**
 * A user sees and changes only the workspaces they belong to; the root permission reaches every
 * one. A workspace the user does not belong to answers 404, as a record of another workspace does.
 */
export class WorkspacesService implements ResourceService<Workspace, TWorkspaceForm> {
  constructor(private readonly db: Kysely<Database>) {}

  async list(query: TListQuery, actor: Actor): Promise<ListResponse<Workspace>> {
    const filter = listFilter(query, ['name']);
    const page = listPage(query);
    const own = (builder: ReturnType<typeof this.workspaces>) => {
      // A token lists its own workspace only, whatever else its user belongs to.
      if (actor.token) return builder.where('id', '=', actor.token.workspaceId);
      return isRoot(actor)
        ? builder
        : builder.where('id', 'in', (eb) =>
            eb
              .selectFrom('user_workspaces')
              .select('user_workspaces.workspace_id')
              .where('user_workspaces.user_id', '=', actor.userId),
          );
    };
    let rows = own(this.workspaces()).selectAll().where(filter).orderBy(listOrder(query));
    if (page) rows = rows.limit(page.limit).offset(page.offset);
    const [list, count] = await Promise.all([
      rows.execute(),
      own(this.workspaces())
        .select((eb) => eb.fn.countAll<number | string>().as('total'))
        .where(filter)
        .executeTakeFirstOrThrow(),
    ]);
    return { list: list.map(toWorkspace), total: Number(count.total) };
  }

  async get(id: RecordId, actor: Actor): Promise<Workspace> {
    await this.checkReach(id, actor);
    const row = await this.db.selectFrom('workspaces').selectAll().where('id', '=', Number(id)).executeTakeFirst();
    if (!row) throw new NotFoundError();
    return toWorkspace(row);
  }

  /** Whoever creates a workspace (and is not root, who reaches every one anyway) becomes its member. */
  async create(input: TWorkspaceForm, actor: Actor): Promise<Workspace> {
    // A new workspace is beyond the one a token acts in.
    if (actor.token) throw new ForbiddenError(undefined, TOKEN_OWN_WORKSPACE);
    await this.checkCurrency(input.currency);
    const timestamp = now();
    const row = await this.db.transaction().execute(async (trx) => {
      const created = await trx
        .insertInto('workspaces')
        .values({
          name: input.name,
          currency: input.currency,
          postback_key: newPostbackKey(),
          status: 'active',
          created_at: timestamp,
          updated_at: timestamp,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      if (!isRoot(actor)) {
        await trx.insertInto('user_workspaces').values({ user_id: actor.userId, workspace_id: created.id }).execute();
      }
      await keepWorkspaceChange(trx, actor, 'create', null, created);
      return created;
    });
    return toWorkspace(row);
  }

  async update(id: RecordId, input: TWorkspaceForm, actor: Actor): Promise<Workspace> {
    await this.checkReach(id, actor);
    await this.checkCurrency(input.currency);
    const row = await this.db.transaction().execute(async (trx) => {
      const before = await trx.selectFrom('workspaces').selectAll().where('id', '=', Number(id)).executeTakeFirst();
      const after = await trx
        .updateTable('workspaces')
        .set({ name: input.name, currency: input.currency, updated_at: now() })
        .where('id', '=', Number(id))
        .returningAll()
        .executeTakeFirst();
      if (!before || !after) throw new NotFoundError();
      await keepWorkspaceChange(trx, actor, 'update', before, after);
      return after;
    });
    return toWorkspace(row);
  }

  /** A new postback key: every postback URL with the old one is refused from now on. */
  async rotatePostbackKey(id: RecordId, actor: Actor): Promise<Workspace> {
    await this.checkReach(id, actor);
    const row = await this.db
      .updateTable('workspaces')
      .set({ postback_key: newPostbackKey(), updated_at: now() })
      .where('id', '=', Number(id))
      .returningAll()
      .executeTakeFirst();
    if (!row) throw new NotFoundError();
    return toWorkspace(row);
  }

  private workspaces() {
    return this.db.selectFrom('workspaces');
  }

  /** A workspace the actor does not belong to (and cannot reach as root) is not found. */
  private async checkReach(id: RecordId, actor: Actor): Promise<void> {
    if (!(await reachesWorkspace(this.db, actor, Number(id)))) throw new NotFoundError();
  }

  /** A workspace's currency must have a rate, or its conversions could not be converted. */
  private async checkCurrency(code: string): Promise<void> {
    const rate = await this.db.selectFrom('currency_rates').select('code').where('code', '=', code).executeTakeFirst();
    if (!rate) throw new ValidationError({ currency: [VALIDATION_MESSAGES.currencyWithoutRate] });
  }
}

/** A workspace's change, kept with its name, currency and status (never its postback key). */
function keepWorkspaceChange(
  db: Kysely<Database>,
  actor: Actor,
  action: 'create' | 'update',
  before: WorkspaceRow | null,
  after: WorkspaceRow,
): Promise<void> {
  const shown = (row: WorkspaceRow) => ({ name: row.name, currency: row.currency, status: row.status });
  return keepChange(
    db,
    // Kept beside users and settings (no workspace): seen by whoever may read users and workspaces.
    { userId: actor.userId, ip: actor.ip, workspaceId: null },
    {
      action,
      resource: 'workspaces',
      recordId: after.id,
      recordName: after.name,
      before: before ? shown(before) : null,
      after: shown(after),
    },
  );
}
