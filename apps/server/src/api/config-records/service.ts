import type { ListResponse, ResourceDefinition, ResourceName, TListQuery } from '@switchyard/domain';
import type { Kysely, Transaction } from 'kysely';
import type { Actor } from '../../auth/actor.js';
import { workspaceOf } from '../../auth/workspace.js';
import { ConflictError, NotFoundError } from '../../errors.js';
import type { RecordId, ResourceService } from '../../http/resource-routes.js';
import { now } from '../../store/database.js';
import { keepChange, recordSnapshot } from '../../store/history-keep.js';
import { listFilter, listOrder, listPage } from '../../store/list.js';
import type { ConfigRecordRow, Database } from '../../store/schema.js';
import { checkRecord } from './checks.js';
import { copyName, withoutRowIds } from './clone.js';
import {
  type ConfigRecord,
  decorated,
  hasBackupChain,
  toRecord,
  withBackupChains,
  withRelationNames,
  withSegmentChains,
} from './computed.js';
import { type Db, findRecordRow, parseBody } from './record-reads.js';
import { type ConfigForm, newExternalId, storedBody, withNotices } from './stored-body.js';
import { GUARDED_KINDS, InUseError, recordUsage, type UsedBy } from './usage.js';

export type { ConfigRecord } from './computed.js';
export type { ConfigForm, SaveNotice } from './stored-body.js';

/**
 * Told after a record of `kind` is created, updated, archived or restored (the tracker recompiles), or
 * after the datacenter list that bot verdicts read is edited (`bot-protection`).
 */
export type ConfigChangeListener = (kind: ResourceName | 'bot-protection' | 'live-weights') => Promise<void>;

function isTrue(value: unknown): boolean {
  return value === 'true' || value === '1' || value === true;
}

/**
 * One config entity kind (offers, flows, …) stored in `config_records`: list, get, create, update,
 * archive and restore, with the registry's references checked and chains computed.
 *
 * Every method acts in the actor's workspace. Lists, lookups, chains and relation names read
 * only its records; a record of another workspace is not found (404), as an unknown one; created records
 * belong to it; a reference to another workspace's record is refused as an unknown one (400 on the field).
 */
export class ConfigRecordsService implements ResourceService<ConfigRecord, ConfigForm, ConfigForm> {
  private readonly kind: ResourceName;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly definition: ResourceDefinition,
    private readonly onChange: ConfigChangeListener = async () => undefined,
    /** SWITCHYARD_PUBLIC_URL's origin: absolute image URLs on it stay in rich text. */
    private readonly ownOrigin?: string,
  ) {
    this.kind = definition.name;
  }

  async list(
    query: TListQuery,
    actor: Actor,
    rawQuery: Record<string, unknown> = {},
  ): Promise<ListResponse<ConfigRecord>> {
    const workspaceId = workspaceOf(actor);
    const filter = listFilter({ ...query, search: query.search.replaceAll('\0', '') }, ['name']);
    const page = listPage(query);
    let rows = this.db
      .selectFrom('config_records')
      .selectAll()
      .where('kind', '=', this.kind)
      .where('workspace_id', '=', workspaceId)
      .where(filter)
      .orderBy(listOrder(query));
    if (page) rows = rows.limit(page.limit).offset(page.offset);
    const [found, count] = await Promise.all([
      rows.execute(),
      this.db
        .selectFrom('config_records')
        .select((eb) => eb.fn.countAll<number | string>().as('total'))
        .where('kind', '=', this.kind)
        .where('workspace_id', '=', workspaceId)
        .where(filter)
        .executeTakeFirstOrThrow(),
    ]);
    let list = found.map((row) => toRecord(this.definition, row));
    if (hasBackupChain(this.definition) && isTrue(rawQuery.with_backup_chain)) {
      list = await withBackupChains(this.db, this.kind, workspaceId, list);
    }
    if (isTrue(rawQuery.with_relations)) list = await withRelationNames(this.db, this.definition, workspaceId, list);
    return { list, total: Number(count.total) };
  }

  /** §7.2 `segments-with-chain`: the list, each record with its `segments_chain`. */
  async listWithChain(query: TListQuery, actor: Actor): Promise<ListResponse<ConfigRecord>> {
    const { list, total } = await this.list(query, actor);
    return { list: await withSegmentChains(this.db, this.kind, workspaceOf(actor), list), total };
  }

  async get(id: RecordId, actor: Actor): Promise<ConfigRecord> {
    const workspaceId = workspaceOf(actor);
    return this.decorated(this.db, workspaceId, await this.findRow(this.db, workspaceId, id));
  }

  /**
   * `options.within`: a transaction of the caller's (an import's campaign, all of it or none); the
   * caller then tells of the change (`changed`) once it commits.
   */
  async create(
    input: ConfigForm,
    actor: Actor,
    options: { within?: Transaction<Database> } = {},
  ): Promise<ConfigRecord> {
    const workspaceId = workspaceOf(actor);
    const record = await this.inTransaction(options.within, async (trx) => {
      const externalId = newExternalId();
      const { body, notices } = this.prepared(input, externalId, {});
      await this.check(trx, workspaceId, body, externalId);
      const timestamp = now();
      const row = await trx
        .insertInto('config_records')
        .values({
          kind: this.kind,
          external_id: externalId,
          workspace_id: workspaceId,
          name: input.name,
          body: JSON.stringify(body),
          status: 'active',
          created_at: timestamp,
          updated_at: timestamp,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await this.keep(trx, actor, 'create', null, row);
      return withNotices(await this.decorated(trx, workspaceId, row), notices);
    });
    if (!options.within) await this.onChange(this.kind);
    return record;
  }

  /** Tells the tracker of changes made within a caller's transaction, once it committed. */
  changed(): Promise<void> {
    return this.onChange(this.kind);
  }

  private inTransaction<T>(
    within: Transaction<Database> | undefined,
    work: (trx: Transaction<Database>) => Promise<T>,
  ): Promise<T> {
    return within ? work(within) : this.db.transaction().execute(work);
  }

  /** `restoredFrom`: the history entry whose "before" this update puts back. */
  async update(
    id: RecordId,
    input: ConfigForm,
    actor: Actor,
    options: { restoredFrom?: number; within?: Transaction<Database> } = {},
  ): Promise<ConfigRecord> {
    const workspaceId = workspaceOf(actor);
    const record = await this.inTransaction(options.within, async (trx) => {
      const existing = await this.findRow(trx, workspaceId, id);
      const { body, notices } = this.prepared(input, existing.external_id, parseBody(existing.body));
      await this.check(trx, workspaceId, body, existing.external_id);
      const row = await trx
        .updateTable('config_records')
        .set({ name: input.name, body: JSON.stringify(body), updated_at: now() })
        .where('id', '=', existing.id)
        .where('workspace_id', '=', workspaceId)
        .returningAll()
        .executeTakeFirstOrThrow();
      await this.keep(trx, actor, 'update', existing, row, options.restoredFrom);
      return withNotices(await this.decorated(trx, workspaceId, row), notices);
    });
    if (!options.within) await this.onChange(this.kind);
    return record;
  }

  /**
   * Archives the record; one that active records still use (GUARDED_KINDS: what routing sends visitors
   * to) only with `force`, else a 409 naming them. Archived anyway, routing skips it as a disabled one.
   */
  async archive(id: RecordId, actor: Actor, options: { force?: boolean } = {}): Promise<ConfigRecord> {
    const workspaceId = workspaceOf(actor);
    if (!options.force && GUARDED_KINDS.has(this.kind)) {
      const existing = await this.findRow(this.db, workspaceId, id);
      const users = await recordUsage(this.db, workspaceId, this.kind, existing.external_id);
      if (users.length > 0) throw new InUseError(users);
    }
    return this.setStatus(id, actor, 'archived');
  }

  /**
   * A copy of the record (clone.ts): "(copy)" after its name, new row ids, the same references
   * — or `flowExternalId` in place of a campaign's flow. Saved as a new record is, through the form.
   */
  async clone(id: RecordId, actor: Actor, options: { flowExternalId?: string } = {}): Promise<ConfigRecord> {
    const existing = await this.findRow(this.db, workspaceOf(actor), id);
    const { ingest_token: _token, ...body } = withoutRowIds(JSON.parse(existing.body) as Record<string, unknown>);
    if (options.flowExternalId !== undefined) body.flow_external_id = options.flowExternalId;
    const form = this.definition.form;
    if (!form) throw new NotFoundError();
    const parsed = form.safeParse({ ...body, name: copyName(existing.name) });
    if (!parsed.success) throw new ConflictError('The record no longer reads as it must and cannot be copied.');
    return this.create(parsed.data as ConfigForm, actor);
  }

  /** Removes a record made a moment ago (a campaign's flow copy whose campaign copy failed). */
  async discard(externalId: string, actor: Actor): Promise<void> {
    await this.db
      .deleteFrom('config_records')
      .where('kind', '=', this.kind)
      .where('workspace_id', '=', workspaceOf(actor))
      .where('external_id', '=', externalId)
      .execute();
    await this.onChange(this.kind);
  }

  /** The active records that use this one (and the campaigns running flows among them). */
  async usage(id: RecordId, actor: Actor): Promise<{ used_by: UsedBy[] }> {
    const workspaceId = workspaceOf(actor);
    const existing = await this.findRow(this.db, workspaceId, id);
    return { used_by: await recordUsage(this.db, workspaceId, this.kind, existing.external_id) };
  }

  restore(id: RecordId, actor: Actor): Promise<ConfigRecord> {
    return this.setStatus(id, actor, 'active');
  }

  private async setStatus(
    id: RecordId,
    actor: Actor,
    status: 'active' | 'archived',
    restoredFrom?: number,
  ): Promise<ConfigRecord> {
    const workspaceId = workspaceOf(actor);
    const row = await this.db.transaction().execute(async (trx) => {
      const existing = await this.findRow(trx, workspaceId, id);
      const changed = await trx
        .updateTable('config_records')
        .set({ status, updated_at: now() })
        .where('id', '=', existing.id)
        .where('workspace_id', '=', workspaceId)
        .returningAll()
        .executeTakeFirst();
      if (!changed) throw new NotFoundError();
      if (existing.status !== status) {
        await this.keep(trx, actor, status === 'archived' ? 'archive' : 'restore', existing, changed, restoredFrom);
      }
      return changed;
    });
    await this.onChange(this.kind);
    return this.decorated(this.db, workspaceId, row);
  }

  /** Pauses or enables a record with `enabled` (a bulk action): saved through `update`, so as any edit. */
  async setEnabled(id: RecordId, actor: Actor, enabled: boolean): Promise<ConfigRecord> {
    const existing = await this.findRow(this.db, workspaceOf(actor), id);
    const form = this.definition.updateForm ?? this.definition.form;
    if (!form) throw new NotFoundError();
    const parsed = form.safeParse({ ...parseBody(existing.body), name: existing.name, enabled });
    if (!parsed.success) throw new ConflictError('The record no longer reads as it must; edit it first.');
    return this.update(id, parsed.data as ConfigForm, actor);
  }

  /**
   * Moves a record to another workspace (a bulk action). What it names must exist there (400 on the
   * field otherwise), and nothing active of its workspace may still use it (409, as archiving).
   */
  async moveTo(id: RecordId, actor: Actor, target: number): Promise<ConfigRecord> {
    const workspaceId = workspaceOf(actor);
    const row = await this.db.transaction().execute(async (trx) => {
      const existing = await this.findRow(trx, workspaceId, id);
      if (target === workspaceId) return existing;
      await this.check(trx, target, parseBody(existing.body), existing.external_id);
      const users = await recordUsage(trx, workspaceId, this.kind, existing.external_id);
      if (users.length > 0) throw new InUseError(users);
      const moved = await trx
        .updateTable('config_records')
        .set({ workspace_id: target, updated_at: now() })
        .where('id', '=', existing.id)
        .where('workspace_id', '=', workspaceId)
        .returningAll()
        .executeTakeFirstOrThrow();
      await this.keep(trx, actor, 'update', existing, moved);
      return moved;
    });
    await this.onChange(this.kind);
    return this.decorated(this.db, target, row);
  }

  /** Puts back a status a history entry's "before" had, kept as that restore. */
  setStatusFromHistory(id: RecordId, actor: Actor, status: 'active' | 'archived', entry: number) {
    return this.setStatus(id, actor, status, entry);
  }

  /** The change, kept with its author in the same transaction. */
  private keep(
    trx: Db,
    actor: Actor,
    action: 'create' | 'update' | 'archive' | 'restore',
    before: ConfigRecordRow | null,
    after: ConfigRecordRow,
    restoredFrom?: number,
  ): Promise<void> {
    return keepChange(
      trx,
      {
        userId: actor.userId || null,
        ip: actor.ip,
        workspaceId: after.workspace_id ?? null,
        author: actor.author ?? null,
      },
      {
        action,
        resource: this.definition.apiPath,
        recordId: (after as unknown as Record<string, unknown>)[this.definition.idField] as string | number,
        recordName: after.name,
        before: before ? recordSnapshot(before) : null,
        after: recordSnapshot(after),
        restoredFrom: restoredFrom ?? null,
      },
    );
  }

  /** References to the same workspace's records, chains that do not lead back here (checks.ts). */
  private check(trx: Db, workspaceId: number, body: Record<string, unknown>, externalId: string): Promise<void> {
    return checkRecord(trx, this.definition, workspaceId, body, externalId);
  }

  /** The record as answered, with what the server computes for its kind (computed.ts). */
  private decorated(db: Db, workspaceId: number, row: ConfigRecordRow): Promise<ConfigRecord> {
    return decorated(db, this.definition, workspaceId, row);
  }

  /** The record `id` names among the workspace's records of this kind; any other is not found. */
  private findRow(db: Db, workspaceId: number, id: RecordId): Promise<ConfigRecordRow> {
    return findRecordRow(db, this.definition, workspaceId, id);
  }

  /** The form as stored, and what the saving person is told of (stored-body.ts). */
  private prepared(input: ConfigForm, externalId: string, stored: Record<string, unknown>) {
    return storedBody(this.definition, input, externalId, stored, this.ownOrigin);
  }
}
