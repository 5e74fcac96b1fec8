// Reading the change history and putting an earlier version back. Entries are the acting
// workspace's, and only of the resources the reader may `get`. A restore saves an entry's "before" as a
// new change, through the record's own update (its validation and the update permission) and kept as a
// restore of that entry. Entries about users (their changes, logins) are shown only for users of
// the acting workspace, and the instance's own entries (its settings) only to its administrators.
import {
  can,
  HISTORY_ACTIONS,
  HISTORY_MESSAGES,
  type HistoryAction,
  type HistoryEntry,
  type HistoryEntryDetail,
  RESOURCES,
  type ResourceName,
  type THistoryQuery,
  VALIDATION_MESSAGES,
} from '@switchyard/domain';
import type { ExpressionBuilder, Kysely, Selectable } from 'kysely';
import { sql } from 'kysely';
import type { ConfigForm, ConfigRecordsService } from '../api/config-records/service.js';
import type { Actor } from '../auth/actor.js';
import { isInstanceAdmin } from '../auth/instance.js';
import { workspaceOf } from '../auth/workspace.js';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../errors.js';
import { checkOutboundTargets, type TargetOptions } from '../http/outbound-targets.js';
import { nextDay, startOfLocalDay } from '../report-plan/time.js';
import type { HistoryTable } from '../store/history.js';
import type { Database } from '../store/schema.js';

/** History resources that are no registry resource, and what reading them needs. */
const OTHER_RESOURCES: Record<string, { section: 'general'; resource: string }> = {
  auth: { section: 'general', resource: 'user' },
  tokens: { section: 'general', resource: 'user' },
};

/**
 * History kinds about the instance rather than a workspace, its settings: read by the
 * instance's administrators only. Any other entry kept without a workspace that is not about one user or
 * one workspace is the instance's too (workspaceEntries).
 */
export const INSTANCE_RESOURCES: readonly string[] = [
  'account-settings',
  'bot-protection',
  'currency-rates',
  'registration',
  'smtp',
];

/** The history resources `actor` may read: those whose records they may get, and the instance's own. */
export function readableResources(actor: Actor): string[] {
  const readable = RESOURCES.filter((definition) =>
    can(actor, definition.permission.section, definition.permission.resource, 'get'),
  ).map((definition) => definition.apiPath);
  for (const [resource, permission] of Object.entries(OTHER_RESOURCES)) {
    if (can(actor, permission.section, permission.resource, 'get')) readable.push(resource);
  }
  if (isInstanceAdmin(actor)) readable.push(...INSTANCE_RESOURCES);
  return readable;
}

/** History kinds whose record is a user (its id is the record id): a user's changes, logins. */
const USER_RESOURCES = ['users', 'auth'];

type HistoryScope = ExpressionBuilder<Database & { h: HistoryTable }, 'h'>;

/**
 * The entries a reader who is not the instance's administrator may see, beside the readable resources:
 * the acting workspace's, those about users only for its members; of those kept without a workspace,
 * only the ones about its members (a user made by no workspace, a login) and about the workspace itself.
 */
function workspaceEntries(eb: HistoryScope, workspaceId: number) {
  const members = eb
    .selectFrom('user_workspaces')
    .select(sql<string>`cast(user_workspaces.user_id as text)`.as('id'))
    .where('user_workspaces.workspace_id', '=', workspaceId);
  const aboutMember = eb.and([eb('h.resource', 'in', USER_RESOURCES), eb('h.record_id', 'in', members)]);
  return eb.and([
    eb('h.resource', 'not in', INSTANCE_RESOURCES),
    eb.or([
      eb.and([
        eb('h.workspace_id', '=', workspaceId),
        eb.or([eb('h.resource', 'not in', USER_RESOURCES), aboutMember]),
      ]),
      eb.and([
        eb('h.workspace_id', 'is', null),
        eb.or([
          aboutMember,
          eb.and([eb('h.resource', '=', 'workspaces'), eb('h.record_id', '=', String(workspaceId))]),
        ]),
      ]),
    ]),
  ]);
}

function parseJson(text: string | null): Record<string, unknown> | null {
  if (text === null) return null;
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return null;
  }
}

export class HistoryService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly configServices: ReadonlyMap<ResourceName, ConfigRecordsService>,
    private readonly targets: TargetOptions,
  ) {}

  /**
   * Entries the actor may read, of the resources they may get: the instance's administrators see their
   * acting workspace's and every one kept without a workspace; anyone else, workspaceEntries.
   */
  private visible(actor: Actor) {
    const workspaceId = workspaceOf(actor);
    const readable = readableResources(actor);
    const instance = isInstanceAdmin(actor);
    return this.db
      .selectFrom('history as h')
      .leftJoin('users as u', 'u.id', 'h.user_id')
      .where((eb) =>
        eb.and([
          instance
            ? eb.or([eb('h.workspace_id', '=', workspaceId), eb('h.workspace_id', 'is', null)])
            : workspaceEntries(eb, workspaceId),
          readable.length > 0 ? eb('h.resource', 'in', readable) : sql<boolean>`1 = 0`,
        ]),
      );
  }

  async list(query: THistoryQuery, actor: Actor): Promise<{ list: HistoryEntry[]; total: number }> {
    let rows = this.visible(actor);
    if (query.resource) rows = rows.where('h.resource', '=', query.resource);
    if (query.id) rows = rows.where('h.record_id', '=', query.id);
    if (query.user) rows = rows.where('h.user_id', '=', query.user);
    if (query.from) rows = rows.where('h.created_at', '>=', startOfLocalDay(query.from, query.timezone).toISOString());
    if (query.to) {
      rows = rows.where('h.created_at', '<', startOfLocalDay(nextDay(query.to), query.timezone).toISOString());
    }
    const [list, count] = await Promise.all([
      rows
        .selectAll('h')
        .select('u.name as user_name')
        .orderBy('h.created_at', 'desc')
        .orderBy('h.id', 'desc')
        .limit(query.limit)
        .offset((query.page - 1) * query.limit)
        .execute(),
      rows.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { list: list.map((row) => this.entry(row)), total: Number(count.total) };
  }

  async get(id: number, actor: Actor): Promise<HistoryEntryDetail> {
    const row = await this.visible(actor)
      .selectAll('h')
      .select('u.name as user_name')
      .where('h.id', '=', id)
      .executeTakeFirst();
    if (!row) throw new NotFoundError();
    return { ...this.entry(row), before: parseJson(row.before), after: parseJson(row.after) };
  }

  /**
   * Saves the entry's "before" as a new change of its record: its fields through the record's update,
   * and its status (active or archived) if that differs. 409 when there is no "before", when the entry
   * is of no config record, or when the version names records that are gone.
   */
  async restore(id: number, actor: Actor): Promise<unknown> {
    const entry = await this.get(id, actor);
    const definition = RESOURCES.find((candidate) => candidate.apiPath === entry.resource);
    const service = definition ? this.configServices.get(definition.name) : undefined;
    if (!definition || !service || entry.record_id === null) throw new ConflictError(HISTORY_MESSAGES.notRestorable);
    const { section, resource } = definition.permission;
    if (!can(actor, section, resource, 'update')) throw new ForbiddenError();
    if (!entry.before) throw new ConflictError(HISTORY_MESSAGES.nothingBefore);
    const { status, ...fields } = entry.before;
    const form = definition.form?.safeParse(fields);
    if (!form?.success) throw new ConflictError(HISTORY_MESSAGES.notRestorable);
    const recordId = definition.idField === 'id' ? Number(entry.record_id) : entry.record_id;
    try {
      if (definition.name === 'traffic-sources') {
        await checkOutboundTargets(definition.name, form.data as Record<string, unknown>, this.targets);
      }
      let record = await service.update(recordId, form.data as ConfigForm, actor, { restoredFrom: id });
      if ((status === 'archived' || status === 'active') && record.status !== status) {
        record = await service.setStatusFromHistory(recordId, actor, status, id);
      }
      return record;
    } catch (error) {
      if (error instanceof ValidationError && referencesGone(error)) {
        const fields = Object.entries(error.errors ?? {})
          .filter(([, messages]) => messages.includes(VALIDATION_MESSAGES.unknownReference))
          .map(([field]) => field);
        throw new ConflictError(`${HISTORY_MESSAGES.referencesGone}: ${fields.join(', ')}.`);
      }
      throw error;
    }
  }

  private entry(row: Selectable<HistoryTable> & { user_name: string | null }): HistoryEntry {
    return {
      id: Number(row.id),
      created_at: row.created_at,
      action: (HISTORY_ACTIONS as readonly string[]).includes(row.action) ? (row.action as HistoryAction) : 'update',
      resource: row.resource,
      record_id: row.record_id,
      record_name: row.record_name,
      user: row.user_id === null ? null : { id: Number(row.user_id), name: row.user_name },
      ...(row.author ? { author: row.author } : {}),
      ip: row.ip,
      restored_from: row.restored_from === null ? null : Number(row.restored_from),
    };
  }
}

function referencesGone(error: ValidationError): boolean {
  return Object.values(error.errors ?? {}).some((messages) => messages.includes(VALIDATION_MESSAGES.unknownReference));
}
