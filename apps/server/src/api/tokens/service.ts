// Personal API tokens (packages/domain/src/api-tokens.ts). A token is made, listed and revoked by
// its user from a signed-in session; it authenticates as `Authorization: Bearer syt_…`, acting for its
// user, in its workspace only, with the permissions both it and the user hold now.
import { randomBytes } from 'node:crypto';
import {
  API_TOKEN_MESSAGES,
  API_TOKEN_PATTERN,
  API_TOKEN_PREFIX,
  type ApiToken,
  apiTokenExpiryProblem,
  type CreatedApiToken,
  normalizePermissions,
  type TApiTokenForm,
  tokenPermissions,
  ungrantable,
  VALIDATION_MESSAGES,
} from '@switchyard/domain';
import type { Kysely, Selectable } from 'kysely';
import type { Actor } from '../../auth/actor.js';
import { effectivePermissions } from '../../auth/actor.js';
import { hashToken } from '../../auth/sessions.js';
import { workspaceOf } from '../../auth/workspace.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../../errors.js';
import type { ApiTokenTable } from '../../store/api-tokens.js';
import { parseStringList } from '../../store/database.js';
import { keepChange } from '../../store/history-keep.js';
import type { Database } from '../../store/schema.js';

/** last_used_at is written at most this often per token. */
const TOUCH_INTERVAL_MS = 60_000;

/** What a live token authenticates as (its workspace is the only one it acts in). */
export interface TokenActor {
  userId: number;
  permissions: string[];
  token: { id: number; workspaceId: number };
}

function listed(row: Selectable<ApiTokenTable>): ApiToken {
  return {
    id: row.id,
    name: row.name,
    permissions: parseStringList(row.permissions),
    workspace_id: row.workspace_id,
    created_at: row.created_at,
    expires_at: row.expires_at,
    last_used_at: row.last_used_at,
    last_used_ip: row.last_used_ip,
  };
}

/** Tokens are managed from a session: a token cannot make or revoke tokens (nor widen itself). */
function fromSession(actor: Actor): void {
  if (actor.token) throw new ForbiddenError(undefined, API_TOKEN_MESSAGES.fromSession);
}

export class ApiTokensService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async create(form: TApiTokenForm, actor: Actor): Promise<CreatedApiToken> {
    fromSession(actor);
    const workspaceId = workspaceOf(actor);
    const now = this.clock();
    const errors: Record<string, string[]> = {};
    const expiry = apiTokenExpiryProblem(form.expires_at, now);
    if (expiry) errors.expires_at = [expiry];
    if (ungrantable(actor, form.permissions).length > 0) errors.permissions = [VALIDATION_MESSAGES.cannotGrant];
    if (Object.keys(errors).length > 0) throw new ValidationError(errors);
    const token = `${API_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
    const row = await this.db
      .insertInto('api_tokens')
      .values({
        token_hash: hashToken(token),
        user_id: actor.userId,
        workspace_id: workspaceId,
        name: form.name,
        permissions: JSON.stringify(normalizePermissions(form.permissions)),
        created_at: now.toISOString(),
        expires_at: new Date(form.expires_at).toISOString(),
        last_used_at: null,
        last_used_ip: null,
        revoked_at: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await this.keep(actor, 'token_create', null, listed(row));
    return { ...listed(row), token };
  }

  /** The acting user's live tokens in the acting workspace, newest first. */
  async list(actor: Actor): Promise<{ list: ApiToken[]; total: number }> {
    const rows = await this.db
      .selectFrom('api_tokens')
      .selectAll()
      .where('user_id', '=', actor.userId)
      .where('workspace_id', '=', workspaceOf(actor))
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', this.clock().toISOString())
      .orderBy('id', 'desc')
      .execute();
    return { list: rows.map(listed), total: rows.length };
  }

  async revoke(id: number, actor: Actor): Promise<void> {
    fromSession(actor);
    const before = await this.db.selectFrom('api_tokens').selectAll().where('id', '=', id).executeTakeFirst();
    const result = await this.db
      .updateTable('api_tokens')
      .set({ revoked_at: this.clock().toISOString() })
      .where('id', '=', id)
      .where('user_id', '=', actor.userId)
      .where('workspace_id', '=', workspaceOf(actor))
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0 || !before) throw new NotFoundError();
    await this.keep(actor, 'token_revoke', listed(before), null);
  }

  /** Token creations and revocations are kept (never the secret). */
  private keep(actor: Actor, action: 'token_create' | 'token_revoke', before: ApiToken | null, after: ApiToken | null) {
    const token = (after ?? before)!;
    return keepChange(
      this.db,
      { userId: actor.userId, ip: actor.ip, workspaceId: token.workspace_id },
      { action, resource: 'tokens', recordId: token.id, recordName: token.name, before, after },
    );
  }

  /** The live token `secret` names, noting its use; null when unknown, expired, revoked or its user is gone. */
  async authenticate(secret: string, ip: string | null): Promise<TokenActor | null> {
    if (!API_TOKEN_PATTERN.test(secret)) return null;
    const row = await this.db
      .selectFrom('api_tokens')
      .selectAll()
      .where('token_hash', '=', hashToken(secret))
      .executeTakeFirst();
    const now = this.clock();
    if (!row || row.revoked_at !== null || Date.parse(row.expires_at) <= now.getTime()) return null;
    const userPermissions = await effectivePermissions(this.db, row.user_id);
    if (!userPermissions) return null;
    const lastUsed = row.last_used_at ? Date.parse(row.last_used_at) : 0;
    if (now.getTime() - lastUsed >= TOUCH_INTERVAL_MS || row.last_used_ip !== ip) {
      await this.db
        .updateTable('api_tokens')
        .set({ last_used_at: now.toISOString(), last_used_ip: ip })
        .where('id', '=', row.id)
        .execute();
    }
    return {
      userId: row.user_id,
      permissions: tokenPermissions(parseStringList(row.permissions), userPermissions),
      token: { id: row.id, workspaceId: row.workspace_id },
    };
  }
}
