import {
  ACCOUNT_MESSAGES,
  ACCOUNT_TOKEN_PATTERN,
  INVITATION_TTL_MS,
  type Invitation,
  type InvitationPreview,
  type InvitationResult,
  type InvitationStatus,
  LANGUAGES,
  type Language,
  type ListResponse,
  type TAcceptInviteForm,
  type TInvitationForm,
  ungrantable,
  VALIDATION_MESSAGES,
} from '@switchyard/domain';
import type { Kysely } from 'kysely';
import type { Actor } from '../../auth/actor.js';
import { rolePermissions } from '../../auth/actor.js';
import { hashPassword } from '../../auth/password.js';
import { hashToken, type SessionClient, type Sessions } from '../../auth/sessions.js';
import { isRoot, workspaceOf } from '../../auth/workspace.js';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../../errors.js';
import { isUniqueViolation, now, parseStringList } from '../../store/database.js';
import type { Database, InvitationRow } from '../../store/schema.js';
import { reachableWorkspaceIds } from '../workspaces/membership.js';
import type { AccountLimits } from './limits.js';
import { type LinkSender, newLinkToken } from './links.js';

/** Largest id a PostgreSQL `integer` holds; larger ones cannot exist. */
const MAX_STORED_ID = 2_147_483_647;

function parseIdList(json: string): number[] {
  const parsed: unknown = JSON.parse(json);
  return Array.isArray(parsed) ? parsed.filter((item): item is number => Number.isInteger(item)) : [];
}

function statusOf(row: InvitationRow, at: number): InvitationStatus {
  if (row.accepted_at) return 'accepted';
  if (row.revoked_at) return 'revoked';
  return Date.parse(row.expires_at) <= at ? 'expired' : 'pending';
}

function toInvitation(row: InvitationRow, at = Date.now()): Invitation {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    roles: parseIdList(row.roles),
    permissions: parseStringList(row.permissions),
    workspaces: parseIdList(row.workspaces),
    language: (LANGUAGES as readonly string[]).includes(row.language) ? (row.language as Language) : 'en',
    invited_by: row.invited_by,
    status: statusOf(row, at),
    created_at: row.created_at,
    expires_at: row.expires_at,
  };
}

function invalidLink(): ValidationError {
  return new ValidationError({ token: [ACCOUNT_MESSAGES.invalidLink] }, ACCOUNT_MESSAGES.invalidLink);
}

/**
 * Whether an invitation is the actor's to see, resend and revoke: one to the acting workspace;
 * for root also one to no workspace at all (made before invitations always named one).
 */
function visibleTo(row: Pick<InvitationRow, 'workspaces'>, actor: Actor): boolean {
  const workspaces = parseIdList(row.workspaces);
  if (isRoot(actor) && workspaces.length === 0) return true;
  return actor.workspaceId !== null && workspaces.includes(actor.workspaceId);
}

/**
 * Invitations: an administrator invites an email with roles and workspaces; the link creates the account.
 * They are managed per workspace, like users: listed per acting workspace, granting only the
 * workspaces the inviter belongs to (none named: the acting one).
 */
export class InvitationsService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly sessions: Sessions,
    private readonly links: LinkSender,
    private readonly limits: AccountLimits,
  ) {}

  /** Pending and expired invitations (not accepted, not revoked) to the acting workspace, newest first. */
  async list(actor: Actor): Promise<ListResponse<Invitation>> {
    if (!isRoot(actor)) workspaceOf(actor);
    const all = await this.db
      .selectFrom('invitations')
      .selectAll()
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .orderBy('id', 'desc')
      .execute();
    const rows = all.filter((row) => visibleTo(row, actor));
    const at = Date.now();
    return { list: rows.map((row) => toInvitation(row, at)), total: rows.length };
  }

  async invite(form: TInvitationForm, actor: Actor): Promise<InvitationResult> {
    const named = [...new Set(form.workspaces)];
    const reach = await reachableWorkspaceIds(this.db, actor);
    if (reach && named.some((workspaceId) => !reach.has(workspaceId))) {
      throw new ValidationError({ workspaces: [VALIDATION_MESSAGES.unknownWorkspace] });
    }
    const workspaces =
      named.length > 0 || (reach === null && actor.workspaceId === null) ? named : [workspaceOf(actor)];
    const grant = { ...form, roles: [...new Set(form.roles)], workspaces };
    await this.checkGrant(grant, actor);
    await this.checkReferences(grant);
    const existing = await this.db.selectFrom('users').select('id').where('email', '=', form.email).executeTakeFirst();
    if (existing) throw new ValidationError({ email: [VALIDATION_MESSAGES.emailTaken] });

    const { token, hash } = newLinkToken();
    const timestamp = now();
    const id = await this.db.transaction().execute(async (trx) => {
      // A new invitation replaces the live ones before it to the same email that the inviter could revoke
      // (one of another workspace stays: its administrator did not ask for it to go).
      const live = await trx
        .selectFrom('invitations')
        .select(['id', 'workspaces'])
        .where('email', '=', form.email)
        .where('accepted_at', 'is', null)
        .where('revoked_at', 'is', null)
        .execute();
      const replaced = live.filter((row) => visibleTo(row, actor)).map((row) => row.id);
      if (replaced.length > 0) {
        await trx.updateTable('invitations').set({ revoked_at: timestamp }).where('id', 'in', replaced).execute();
      }
      const row = await trx
        .insertInto('invitations')
        .values({
          token_hash: hash,
          email: form.email,
          name: form.name,
          roles: JSON.stringify(grant.roles),
          permissions: JSON.stringify([...new Set(form.permissions)]),
          workspaces: JSON.stringify(grant.workspaces),
          language: form.language,
          invited_by: actor.userId,
          created_at: timestamp,
          expires_at: new Date(Date.parse(timestamp) + INVITATION_TTL_MS).toISOString(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    });
    const invitation = await this.get(id);
    return { invitation, delivery: await this.send(invitation, token, actor) };
  }

  /** A new link (the old one stops working) and a new expiry, sent again. */
  async resend(id: number, actor: Actor): Promise<InvitationResult> {
    const current = await this.get(id, actor);
    if (current.status === 'accepted' || current.status === 'revoked') {
      throw new ConflictError(ACCOUNT_MESSAGES.invitationNotPending);
    }
    await this.checkGrant(current, actor);
    const { token, hash } = newLinkToken();
    const result = await this.db
      .updateTable('invitations')
      .set({ token_hash: hash, expires_at: new Date(Date.now() + INVITATION_TTL_MS).toISOString() })
      .where('id', '=', id)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) throw new ConflictError(ACCOUNT_MESSAGES.invitationNotPending);
    const invitation = await this.get(id);
    return { invitation, delivery: await this.send(invitation, token, actor) };
  }

  async revoke(id: number, actor: Actor): Promise<Invitation> {
    const current = await this.get(id, actor);
    if (current.status === 'accepted') throw new ConflictError(ACCOUNT_MESSAGES.invitationNotPending);
    if (current.status !== 'revoked') {
      await this.db
        .updateTable('invitations')
        .set({ revoked_at: now() })
        .where('id', '=', id)
        .where('accepted_at', 'is', null)
        .execute();
    }
    return this.get(id);
  }

  /** What the accept page shows; the same answer for a wrong, expired, used or revoked link. */
  async preview(token: string, ip: string | null): Promise<InvitationPreview> {
    await this.limits.hit('accept-invite', { ip });
    const row = await this.pendingByToken(token);
    return { email: row.email, name: row.name };
  }

  /** Creates the account with what the invitation grants, and logs it in. */
  async accept(form: TAcceptInviteForm, client: SessionClient): Promise<{ token: string }> {
    await this.limits.hit('accept-invite', { ip: client.ip });
    const invitation = await this.pendingByToken(form.token);
    await this.limits.hit('accept-invite', { email: invitation.email });
    const passwordHash = await hashPassword(form.password);
    const roles = await this.activeIds('roles', parseIdList(invitation.roles));
    const workspaces = await this.activeIds('workspaces', parseIdList(invitation.workspaces));

    let userId: number;
    try {
      userId = await this.db.transaction().execute(async (trx) => {
        const timestamp = now();
        const claimed = await trx
          .updateTable('invitations')
          .set({ accepted_at: timestamp })
          .where('id', '=', invitation.id)
          .where('token_hash', '=', hashToken(form.token))
          .where('accepted_at', 'is', null)
          .where('revoked_at', 'is', null)
          .executeTakeFirst();
        // Two tabs accepting the same link: only one wins.
        if (Number(claimed.numUpdatedRows) !== 1) throw invalidLink();
        const taken = await trx
          .selectFrom('users')
          .select('id')
          .where('email', '=', invitation.email)
          .executeTakeFirst();
        if (taken) throw new ValidationError({ email: [VALIDATION_MESSAGES.emailTaken] });
        const user = await trx
          .insertInto('users')
          .values({
            name: form.name,
            email: invitation.email,
            password_hash: passwordHash,
            active: 1,
            // The invitee proved the address by opening the link sent to it.
            email_verified: 1,
            permissions: invitation.permissions,
            invited_by: invitation.invited_by,
            language: invitation.language,
            status: 'active',
            created_at: timestamp,
            updated_at: timestamp,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        if (roles.length > 0) {
          await trx
            .insertInto('user_roles')
            .values(roles.map((roleId) => ({ user_id: user.id, role_id: roleId })))
            .execute();
        }
        if (workspaces.length > 0) {
          await trx
            .insertInto('user_workspaces')
            .values(workspaces.map((workspaceId) => ({ user_id: user.id, workspace_id: workspaceId })))
            .execute();
        }
        await trx
          .updateTable('invitations')
          .set({ accepted_user_id: user.id })
          .where('id', '=', invitation.id)
          .execute();
        return user.id;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new ValidationError({ email: [VALIDATION_MESSAGES.emailTaken] });
      throw error;
    }
    return { token: await this.sessions.create(userId, client) };
  }

  /** An invitation (with `actor`: one they may see; one to another workspace is not found). */
  private async get(id: number, actor?: Actor): Promise<Invitation> {
    if (!Number.isInteger(id) || id <= 0 || id > MAX_STORED_ID) throw new NotFoundError();
    const row = await this.db.selectFrom('invitations').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row || (actor && !visibleTo(row, actor))) throw new NotFoundError();
    return toInvitation(row);
  }

  private async pendingByToken(token: string): Promise<InvitationRow> {
    if (!ACCOUNT_TOKEN_PATTERN.test(token)) throw invalidLink();
    const row = await this.db
      .selectFrom('invitations')
      .selectAll()
      .where('token_hash', '=', hashToken(token))
      .executeTakeFirst();
    if (!row || statusOf(row, Date.now()) !== 'pending') throw invalidLink();
    return row;
  }

  private async send(invitation: Invitation, token: string, actor: Actor) {
    const inviter = await this.db.selectFrom('users').select('name').where('id', '=', actor.userId).executeTakeFirst();
    return this.links.send({
      kind: 'invitation',
      to: invitation.email,
      language: invitation.language,
      name: invitation.name,
      inviter: inviter?.name ?? '',
      path: this.links.tokenPath('invitation', token),
    });
  }

  /** Nobody can invite with a permission they do not hold, directly or through a role. */
  private async checkGrant(grant: { roles: number[]; permissions: string[] }, actor: Actor): Promise<void> {
    const errors: Record<string, string[]> = {};
    if (ungrantable(actor, grant.permissions).length > 0) errors.permissions = [VALIDATION_MESSAGES.cannotGrant];
    const roles = await this.activeIds('roles', grant.roles);
    if (ungrantable(actor, await rolePermissions(this.db, roles)).length > 0) {
      errors.roles = [VALIDATION_MESSAGES.cannotGrant];
    }
    if (Object.keys(errors).length > 0) throw new ForbiddenError(errors);
  }

  private async checkReferences(grant: { roles: number[]; workspaces: number[] }): Promise<void> {
    const errors: Record<string, string[]> = {};
    if ((await this.activeIds('roles', grant.roles)).length !== grant.roles.length) {
      errors.roles = [VALIDATION_MESSAGES.unknownRole];
    }
    if ((await this.activeIds('workspaces', grant.workspaces)).length !== grant.workspaces.length) {
      errors.workspaces = [VALIDATION_MESSAGES.unknownWorkspace];
    }
    if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  }

  /** The ids among `ids` of active rows of `table`. */
  private async activeIds(table: 'roles' | 'workspaces', ids: readonly number[]): Promise<number[]> {
    const candidates = ids.filter((id) => id <= MAX_STORED_ID);
    if (candidates.length === 0) return [];
    const rows = await this.db
      .selectFrom(table)
      .select('id')
      .where('id', 'in', candidates)
      .where('status', '=', 'active')
      .execute();
    return rows.map((row) => row.id);
  }
}
