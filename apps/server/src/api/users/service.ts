import {
  type ListResponse,
  type TListQuery,
  type TUserForm,
  type TUserUpdate,
  type User,
  ungrantable,
  VALIDATION_MESSAGES,
} from '@switchyard/domain';
import { type ExpressionBuilder, type Kysely, sql, type Transaction } from 'kysely';
import type { Actor } from '../../auth/actor.js';
import { hashPassword } from '../../auth/password.js';
import { endWhatThePasswordOpened } from '../../auth/password-changed.js';
import type { Sessions } from '../../auth/sessions.js';
import { isRoot, workspaceOf } from '../../auth/workspace.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../../errors.js';
import type { RecordId, ResourceService } from '../../http/resource-routes.js';
import { fromBoolean, isUniqueViolation, now, parseStringList, toBoolean } from '../../store/database.js';
import { keepChange } from '../../store/history-keep.js';
import { listFilter, listOrder, listPage } from '../../store/list.js';
import type { Database, UserRow } from '../../store/schema.js';
import { memberWorkspaceIds, reachableWorkspaceIds } from '../workspaces/membership.js';

type UserInput = Omit<TUserForm, 'password'> & { password?: string | undefined };

/** The columns a user record is read from; the password hash is never among them. */
const USER_COLUMNS = [
  'id',
  'name',
  'email',
  'permissions',
  'active',
  'email_verified',
  'status',
  'created_at',
  'updated_at',
] as const;
type UserRecordRow = Pick<UserRow, (typeof USER_COLUMNS)[number]>;

function unique<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}

/** Largest id a PostgreSQL `integer` holds; larger ones cannot exist and would make the query fail. */
const MAX_STORED_ID = 2_147_483_647;

function storableIds(ids: readonly number[]): number[] {
  return ids.filter((id) => id <= MAX_STORED_ID);
}

function emailTaken(): ValidationError {
  return new ValidationError({ email: [VALIDATION_MESSAGES.emailTaken] });
}

/**
 * The users of the acting workspace, and for root also the users of no workspace (someone who
 * registered, or was taken out of every workspace): only root can place them.
 */
function visibleIn(workspaceId: number | null, root: boolean) {
  return (eb: ExpressionBuilder<Database, 'users'>) => {
    const members = eb
      .selectFrom('user_workspaces')
      .select('user_workspaces.user_id')
      .where('user_workspaces.workspace_id', '=', workspaceId ?? 0);
    if (!root) return eb('users.id', 'in', members);
    const noWorkspace = eb.not(
      eb.exists(
        eb
          .selectFrom('user_workspaces')
          .select(sql<number>`1`.as('one'))
          .whereRef('user_workspaces.user_id', '=', 'users.id'),
      ),
    );
    return eb.or([eb('users.id', 'in', members), noWorkspace]);
  };
}

/**
 * Users are managed per workspace: an administrator sees, edits and adds only the users of the
 * workspace they act in, and grants only the workspaces they belong to. Root reaches every user.
 */
export class UsersService implements ResourceService<User, TUserForm, TUserUpdate> {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly sessions: Sessions,
  ) {}

  async list(query: TListQuery, actor: Actor): Promise<ListResponse<User>> {
    const root = isRoot(actor);
    const visible = visibleIn(root ? actor.workspaceId : workspaceOf(actor), root);
    const filter = listFilter(query, ['name', 'email']);
    const page = listPage(query);
    let rows = this.db.selectFrom('users').select(USER_COLUMNS).where(visible).where(filter).orderBy(listOrder(query));
    if (page) rows = rows.limit(page.limit).offset(page.offset);
    const [list, count] = await Promise.all([
      rows.execute(),
      this.db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number | string>().as('total'))
        .where(visible)
        .where(filter)
        .executeTakeFirstOrThrow(),
    ]);
    return { list: await this.toUsers(list, actor), total: Number(count.total) };
  }

  async get(id: RecordId, actor: Actor): Promise<User> {
    await this.checkVisible(Number(id), actor);
    return this.read(Number(id), actor);
  }

  private async read(id: number, actor: Actor): Promise<User> {
    const row = await this.db.selectFrom('users').select(USER_COLUMNS).where('id', '=', id).executeTakeFirst();
    if (!row) throw new NotFoundError();
    const [user] = await this.toUsers([row], actor);
    if (!user) throw new NotFoundError();
    return user;
  }

  /** A user outside the acting workspace is not found, unless the actor is root. */
  private async checkVisible(userId: number, actor: Actor): Promise<void> {
    if (isRoot(actor)) return;
    const member = await this.db
      .selectFrom('user_workspaces')
      .select('user_id')
      .where('user_id', '=', userId)
      .where('workspace_id', '=', workspaceOf(actor))
      .executeTakeFirst();
    if (!member) throw new NotFoundError();
  }

  /**
   * Creating: the `workspaces` may name only workspaces the creator belongs to (any, for root); none means
   * the acting workspace, so whoever an administrator adds can work where the administrator works.
   */
  async create(input: TUserForm, actor: Actor): Promise<User> {
    const normalized = this.normalize(input);
    await this.checkGrant(normalized, actor);
    await this.checkReach(normalized.workspaces, actor);
    const form = { ...normalized, workspaces: this.orActing(normalized.workspaces, actor) };
    await this.checkReferences(form);
    const passwordHash = await hashPassword(input.password);
    const timestamp = now();
    let id: number;
    try {
      id = await this.db.transaction().execute(async (trx) => {
        await this.checkEmailFree(trx, form.email);
        const { id } = await trx
          .insertInto('users')
          .values({
            name: form.name,
            email: form.email,
            password_hash: passwordHash,
            active: fromBoolean(form.active),
            email_verified: 0,
            permissions: JSON.stringify(form.permissions),
            invited_by: actor.userId,
            status: 'active',
            created_at: timestamp,
            updated_at: timestamp,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await this.replaceLinks(trx, id, form);
        return id;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw emailTaken();
      throw error;
    }
    const created = await this.read(id, actor);
    await this.keep(actor, 'create', null, created);
    return created;
  }

  /**
   * Updating: `workspaces` sets the user's memberships among the workspaces the editor reaches; the ones
   * beyond the editor's reach (which the editor is not shown) are kept. An empty list keeps the memberships
   * as they are: a PUT that leaves the field out must not take a user out of every workspace.
   */
  async update(id: RecordId, input: TUserUpdate, actor: Actor): Promise<User> {
    const userId = Number(id);
    await this.checkVisible(userId, actor);
    const target = await this.db
      .selectFrom('users')
      .select(['id', 'permissions'])
      .where('id', '=', userId)
      .executeTakeFirst();
    if (!target) throw new NotFoundError();
    // Editing a user means being able to grant everything they hold: otherwise a user manager could
    // take over an administrator by resetting their password.
    const targetRoles = await this.db
      .selectFrom('user_roles')
      .select('role_id')
      .where('user_id', '=', userId)
      .execute();
    const targetPermissions = [
      ...parseStringList(target.permissions),
      ...(await this.rolesById(targetRoles.map((row) => row.role_id))).flatMap((role) => role.permissions),
    ];
    if (ungrantable(actor, targetPermissions).length > 0) throw new ForbiddenError();
    const before = await this.read(userId, actor);

    const normalized = this.normalize(input);
    await this.checkGrant(normalized, actor);
    await this.checkReach(normalized.workspaces, actor);
    const form = { ...normalized, workspaces: await this.mergedWorkspaces(userId, normalized.workspaces, actor) };
    if (userId === actor.userId && !form.active) {
      throw new ValidationError({ active: [VALIDATION_MESSAGES.cannotDeactivateSelf] });
    }
    await this.checkReferences(normalized);
    const passwordHash = form.password ? await hashPassword(form.password) : undefined;

    try {
      await this.db.transaction().execute(async (trx) => {
        await this.checkEmailFree(trx, form.email, userId);
        await trx
          .updateTable('users')
          .set({
            name: form.name,
            email: form.email,
            active: fromBoolean(form.active),
            permissions: JSON.stringify(form.permissions),
            updated_at: now(),
            ...(passwordHash ? { password_hash: passwordHash } : {}),
          })
          .where('id', '=', userId)
          .execute();
        await this.replaceLinks(trx, userId, form);
        if (passwordHash) {
          // A new password ends the user's reset links and other sessions; the one making the change stays.
          await endWhatThePasswordOpened(
            trx,
            this.sessions,
            userId,
            userId === actor.userId ? actor.sessionId : undefined,
          );
        }
        if (!form.active) await this.sessions.revokeAllOf(userId, undefined, trx);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw emailTaken();
      throw error;
    }
    const after = await this.read(userId, actor);
    await this.keep(actor, 'update', before, after);
    return after;
  }

  /** A user's change kept with both versions (never a password or its hash). */
  private keep(actor: Actor, action: 'create' | 'update', before: User | null, after: User): Promise<void> {
    return keepChange(
      this.db,
      { userId: actor.userId, ip: actor.ip, workspaceId: actor.workspaceId },
      { action, resource: 'users', recordId: after.id, recordName: after.name, before, after },
    );
  }

  /** The named workspaces, or else the acting one (none for root when no workspace exists at all). */
  private orActing(workspaces: number[], actor: Actor): number[] {
    if (workspaces.length > 0) return workspaces;
    if (isRoot(actor) && actor.workspaceId === null) return [];
    return [workspaceOf(actor)];
  }

  /** A workspace the actor does not belong to cannot be granted (root grants any). */
  private async checkReach(workspaces: readonly number[], actor: Actor): Promise<void> {
    const reach = await reachableWorkspaceIds(this.db, actor);
    if (reach && workspaces.some((workspaceId) => !reach.has(workspaceId))) {
      throw new ValidationError({ workspaces: [VALIDATION_MESSAGES.unknownWorkspace] });
    }
  }

  /** The memberships an update leaves: the named ones, plus the current ones beyond the editor's reach. */
  private async mergedWorkspaces(userId: number, named: readonly number[], actor: Actor): Promise<number[]> {
    const current = await memberWorkspaceIds(this.db, userId);
    if (named.length === 0) return current;
    const reach = await reachableWorkspaceIds(this.db, actor);
    if (!reach) return [...named];
    return unique([...named, ...current.filter((workspaceId) => !reach.has(workspaceId))]);
  }

  private normalize<T extends UserInput>(input: T): T {
    return {
      ...input,
      roles: unique(input.roles),
      workspaces: unique(input.workspaces),
      permissions: unique(input.permissions),
    };
  }

  /** Nobody can grant a permission they do not hold, directly or through a role. */
  private async checkGrant(form: UserInput, actor: Actor): Promise<void> {
    const errors: Record<string, string[]> = {};
    if (ungrantable(actor, form.permissions).length > 0) errors.permissions = [VALIDATION_MESSAGES.cannotGrant];
    const roles = await this.rolesById(form.roles);
    if (roles.some((role) => ungrantable(actor, role.permissions).length > 0)) {
      errors.roles = [VALIDATION_MESSAGES.cannotGrant];
    }
    if (Object.keys(errors).length > 0) throw new ForbiddenError(errors);
  }

  private async checkReferences(form: UserInput): Promise<void> {
    const errors: Record<string, string[]> = {};
    const roles = await this.rolesById(form.roles);
    if (roles.length !== form.roles.length) errors.roles = [VALIDATION_MESSAGES.unknownRole];
    if (form.workspaces.length > 0) {
      const candidates = storableIds(form.workspaces);
      const workspaces =
        candidates.length === 0
          ? []
          : await this.db
              .selectFrom('workspaces')
              .select('id')
              .where('id', 'in', candidates)
              .where('status', '=', 'active')
              .execute();
      if (workspaces.length !== form.workspaces.length) errors.workspaces = [VALIDATION_MESSAGES.unknownWorkspace];
    }
    if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  }

  private async checkEmailFree(trx: Transaction<Database>, email: string, exceptUserId?: number): Promise<void> {
    let query = trx.selectFrom('users').select('id').where('email', '=', email);
    if (exceptUserId !== undefined) query = query.where('id', '!=', exceptUserId);
    if (await query.executeTakeFirst()) throw emailTaken();
  }

  private async rolesById(ids: readonly number[]): Promise<{ id: number; permissions: string[] }[]> {
    // Ids beyond a PostgreSQL integer cannot exist; leaving them out keeps the query valid.
    const candidates = storableIds(ids);
    if (candidates.length === 0) return [];
    const rows = await this.db
      .selectFrom('roles')
      .select(['id', 'permissions'])
      .where('id', 'in', candidates)
      .where('status', '=', 'active')
      .execute();
    return rows.map((row) => ({ id: row.id, permissions: parseStringList(row.permissions) }));
  }

  private async replaceLinks(trx: Transaction<Database>, userId: number, form: UserInput): Promise<void> {
    await trx.deleteFrom('user_roles').where('user_id', '=', userId).execute();
    await trx.deleteFrom('user_workspaces').where('user_id', '=', userId).execute();
    if (form.roles.length > 0) {
      await trx
        .insertInto('user_roles')
        .values(form.roles.map((roleId) => ({ user_id: userId, role_id: roleId })))
        .execute();
    }
    if (form.workspaces.length > 0) {
      await trx
        .insertInto('user_workspaces')
        .values(form.workspaces.map((workspaceId) => ({ user_id: userId, workspace_id: workspaceId })))
        .execute();
    }
  }

  /** Records as the actor sees them: only the workspaces the actor reaches are named (all, for root). */
  private async toUsers(rows: readonly UserRecordRow[], actor: Actor): Promise<User[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((row) => row.id);
    const [roleLinks, allWorkspaceLinks, reach] = await Promise.all([
      this.db.selectFrom('user_roles').selectAll().where('user_id', 'in', ids).orderBy('role_id').execute(),
      this.db.selectFrom('user_workspaces').selectAll().where('user_id', 'in', ids).orderBy('workspace_id').execute(),
      reachableWorkspaceIds(this.db, actor),
    ]);
    const workspaceLinks = reach ? allWorkspaceLinks.filter((link) => reach.has(link.workspace_id)) : allWorkspaceLinks;
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      email: row.email,
      roles: roleLinks.filter((link) => link.user_id === row.id).map((link) => link.role_id),
      permissions: parseStringList(row.permissions),
      workspaces: workspaceLinks.filter((link) => link.user_id === row.id).map((link) => link.workspace_id),
      active: toBoolean(row.active),
      email_verified: toBoolean(row.email_verified),
      status: row.status === 'archived' ? 'archived' : 'active',
      created_at: row.created_at,
      updated_at: row.updated_at,
    }));
  }
}
