// An import plan written through each resource's own service (validation, references and
// history as a person's save), keyed by the old ids in `import_mappings`: a record imported before is
// updated, or left as it is when its form is the one last written. Shared records are written one by
// one; a campaign's own records (its flow, its redirect URLs, the campaign) in one transaction, so a
// campaign comes over whole or not at all. A dry run builds and validates the same forms, writes nothing.
import { createHash } from 'node:crypto';
import {
  getResource,
  type ImportAnswer,
  type ImportedRecord,
  type ImportSource,
  type LeftOut,
  type ResourceName,
  ZDomainForm,
} from '@switchyard/domain';
import type { Kysely, Transaction } from 'kysely';
import type { ConfigForm, ConfigRecordsService } from '../api/config-records/service.js';
import type { Actor } from '../auth/actor.js';
import { workspaceOf } from '../auth/workspace.js';
import type { DomainsService } from '../domains/service.js';
import { ApiError, NotFoundError } from '../errors.js';
import { now } from '../store/database.js';
import { saveOldLinks } from '../store/old-link-rows.js';
import type { Database } from '../store/schema.js';
import { type Scope, scopeCondition } from '../store/scope.js';
import { adoptMapping, liveDomainMappings, liveMappings, type Mapping } from './mappings.js';
import type { ImportPlan, PlannedDomain, PlannedRecord } from './plan.js';

/** A record that cannot be written, and why (its form's first problems, or the error met). */
class RecordRefused extends Error {}

function reasonOf(error: unknown): string {
  if (error instanceof RecordRefused) return error.message;
  if (error instanceof ApiError) {
    const fields = Object.entries(error.errors ?? {}).map(([field, messages]) => `${field}: ${messages.join(' ')}`);
    return fields.length > 0 ? fields.slice(0, 3).join('; ') : error.message;
  }
  return error instanceof Error ? error.message.slice(0, 300) : String(error);
}

export class ImportService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly services: ReadonlyMap<ResourceName, ConfigRecordsService>,
    private readonly domains: DomainsService,
  ) {}

  async run(plan: ImportPlan, source: ImportSource, actor: Actor, dryRun: boolean): Promise<ImportAnswer> {
    const workspaceId = workspaceOf(actor);
    const scope = { workspaceId };
    const startedAt = now();
    const { live: mappings, stale } = await liveMappings(this.db, scope, source);
    const ids = new Map([...mappings].map(([key, mapping]) => [key, mapping.external_id]));
    const resolve = (oldKind: string, oldId: string) => ids.get(`${oldKind}:${oldId}`) ?? null;
    const records: ImportedRecord[] = [];
    const leftOut: LeftOut[] = [];
    const total = plan.shared.length + plan.campaigns.length;
    let done = 0;
    const importId = dryRun ? null : await this.open(workspaceId, source, actor, total, startedAt);

    const write = async (
      record: PlannedRecord,
      within: Transaction<Database> | undefined,
      campaign: ImportedRecord['campaign'],
    ) => {
      const key = `${record.oldKind}:${record.oldId}`;
      const definition = getResource(record.kind);
      const parsed = definition.form?.safeParse(record.build(resolve));
      if (!parsed?.success) {
        const issues = parsed?.error.issues ?? [];
        throw new RecordRefused(
          issues
            .slice(0, 3)
            .map((issue) => `${issue.path.join('.') || 'form'}: ${issue.message}`)
            .join('; ') || 'no form',
        );
      }
      const form = parsed.data as ConfigForm;
      const hash = createHash('sha256').update(JSON.stringify(form)).digest('hex');
      const existing = mappings.get(key);
      const service = this.services.get(record.kind);
      if (!service) throw new RecordRefused(`no service for ${record.kind}`);
      let action: ImportedRecord['action'];
      let newId: string | null = existing?.external_id ?? null;
      if (existing && existing.form_hash === hash) action = 'unchanged';
      else if (existing) {
        action = 'updated';
        if (within) await service.update(existing.external_id, form, actor, { within });
      } else {
        action = 'created';
        if (within) newId = String((await service.create(form, actor, { within })).external_id);
      }
      if (within && action !== 'unchanged') {
        const values = { kind: record.kind, external_id: newId!, form_hash: hash, updated_at: now() };
        // The mapping as this run read it (absent, or one whose record is gone): a run that wrote it
        // meanwhile makes this one fail, and the unit roll back, rather than leave a duplicate.
        const seen = existing?.external_id ?? stale.get(key);
        const written = await within
          .insertInto('import_mappings')
          .values({ workspace_id: workspaceId, source, old_kind: record.oldKind, old_id: record.oldId, ...values })
          .onConflict((conflict) =>
            conflict
              .columns(['workspace_id', 'source', 'old_kind', 'old_id'])
              .doUpdateSet(values)
              .where('import_mappings.external_id', '=', seen ?? ''),
          )
          .executeTakeFirst();
        if (Number(written.numInsertedOrUpdatedRows ?? 0) !== 1) {
          throw new RecordRefused('another import wrote it meanwhile; run this one again');
        }
      }
      ids.set(key, newId ?? `new:${key}`);
      return {
        kind: record.kind,
        old_kind: record.oldKind,
        old_id: record.oldId,
        name: record.name,
        new_id: newId,
        action,
        campaign,
      } satisfies ImportedRecord;
    };
    /** Runs `work` in a transaction, or without one in a dry run (nothing is written then). */
    const unit = <T>(work: (trx: Transaction<Database> | undefined) => Promise<T>): Promise<T> =>
      dryRun ? work(undefined) : this.db.transaction().execute((trx) => work(trx));

    for (const record of plan.shared) {
      try {
        records.push(await unit((trx) => write(record, trx, null)));
      } catch (error) {
        // Written by another run meanwhile: what names it here names that one's record.
        if (error instanceof RecordRefused && !dryRun) await adoptMapping(this.db, scope, source, record, ids);
        leftOut.push({
          kind: record.oldKind,
          old_id: record.oldId,
          name: record.name,
          reason: reasonOf(error),
          campaign: null,
        });
      }
      done += 1;
      await this.progress(scope, importId, done);
    }
    if (!dryRun) {
      // A shared record another run wrote meanwhile (this run's was refused) is still named by its id.
      const { live } = await liveMappings(this.db, scope, source);
      for (const [key, mapping] of live) if (!ids.has(key)) ids.set(key, mapping.external_id);
    }
    let oldLinksChanged = false;
    for (const campaign of plan.campaigns) {
      const owner = { old_id: campaign.oldId, name: campaign.name };
      const before = new Map(ids);
      let current = campaign.records[0];
      try {
        const written = await unit(async (trx) => {
          const list: ImportedRecord[] = [];
          for (const record of campaign.records) {
            current = record;
            list.push(await write(record, trx, owner));
          }
          // Its old links with it: they name the campaign written (or kept) in this same unit.
          const made = campaign.records.find((record) => record.kind === 'tracker-campaigns');
          const newId = made ? ids.get(`${made.oldKind}:${made.oldId}`) : undefined;
          if (trx && newId && !newId.startsWith('new:')) {
            if (await saveOldLinks(trx, scope, newId, campaign.oldLinks, [source])) oldLinksChanged = true;
          }
          return list;
        });
        records.push(...written);
      } catch (error) {
        // Rolled back: none of the campaign's records, nor their ids, stay.
        ids.clear();
        for (const [key, value] of before) ids.set(key, value);
        leftOut.push({
          kind: 'campaign',
          old_id: campaign.oldId,
          name: campaign.name,
          reason: `nothing of it imported: its ${current?.kind ?? 'record'} ${current?.name ?? ''} failed: ${reasonOf(error)}`,
          campaign: owner,
        });
      }
      done += 1;
      await this.progress(scope, importId, done);
    }
    // Filters, settings and macros the plan (and building the forms) found no equivalent for.
    leftOut.unshift(...plan.leftOut);
    // Domains through their own service (DNS looked up, names unique across workspaces), after the
    // campaigns they open on.
    const domainMappings = await liveDomainMappings(this.db, scope, source);
    for (const domain of plan.domains) {
      try {
        records.push(await this.writeDomain(domain, domainMappings, resolve, source, actor, dryRun));
      } catch (error) {
        leftOut.push({
          kind: 'domain',
          old_id: domain.oldId,
          name: domain.name,
          reason: reasonOf(error),
          campaign: null,
        });
      }
    }
    if (!dryRun) {
      for (const kind of new Set([
        ...records.filter((r) => r.action !== 'unchanged').map((r) => r.kind as ResourceName),
        // Old links are compiled into routing with the campaigns: a change recompiles it everywhere.
        ...(oldLinksChanged ? (['tracker-campaigns'] as const) : []),
      ])) {
        await this.services.get(kind)?.changed();
      }
    }
    const count = (action: ImportedRecord['action']) => records.filter((record) => record.action === action).length;
    const answer: ImportAnswer = {
      id: importId,
      from: source,
      dry_run: dryRun,
      status: 'done',
      progress: { done, total },
      summary: {
        created: count('created'),
        updated: count('updated'),
        unchanged: count('unchanged'),
        left_out: leftOut.length,
      },
      records,
      left_out: leftOut,
      error: null,
      created_at: startedAt,
      finished_at: now(),
    };
    if (importId !== null) {
      await this.db
        .updateTable('imports')
        .set({
          status: 'done',
          done,
          result: JSON.stringify({ summary: answer.summary, records, left_out: leftOut }),
          finished_at: answer.finished_at,
        })
        .where('id', '=', importId)
        .where(scopeCondition(scope, 'workspace_id'))
        .execute();
    }
    return answer;
  }

  async get(id: number, scope: Scope): Promise<ImportAnswer> {
    const row = await this.db
      .selectFrom('imports')
      .selectAll()
      .where('id', '=', id)
      .where(scopeCondition(scope, 'workspace_id'))
      .executeTakeFirst();
    if (!row) throw new NotFoundError();
    const result = JSON.parse(row.result) as Pick<ImportAnswer, 'summary' | 'records' | 'left_out'>;
    return {
      id: Number(row.id),
      from: row.source as ImportSource,
      dry_run: false,
      status: row.status as ImportAnswer['status'],
      progress: { done: Number(row.done), total: Number(row.total) },
      summary: result.summary,
      records: result.records,
      left_out: result.left_out,
      error: row.error,
      created_at: row.created_at,
      finished_at: row.finished_at,
    };
  }

  private async writeDomain(
    domain: PlannedDomain,
    mappings: Map<string, Mapping>,
    resolve: (oldKind: string, oldId: string) => string | null,
    source: ImportSource,
    actor: Actor,
    dryRun: boolean,
  ): Promise<ImportedRecord> {
    const campaign = domain.indexCampaignOldId === null ? null : resolve('campaign', domain.indexCampaignOldId);
    // A dry run's campaign to be created has no id yet; any valid one stands in to check the form.
    const index = campaign?.startsWith('new:') ? 'not-created-yet' : campaign;
    const parsed = ZDomainForm.safeParse({ name: domain.name, index_campaign: index, https_only: domain.httpsOnly });
    if (!parsed.success) {
      throw new RecordRefused(
        parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '),
      );
    }
    const hash = createHash('sha256').update(JSON.stringify(parsed.data)).digest('hex');
    const existing = mappings.get(`domain:${domain.oldId}`);
    let newId = existing?.external_id ?? null;
    const action: ImportedRecord['action'] = !existing
      ? 'created'
      : existing.form_hash === hash
        ? 'unchanged'
        : 'updated';
    if (!dryRun && action !== 'unchanged') {
      if (existing) await this.domains.update(Number(existing.external_id), parsed.data, actor);
      else newId = String((await this.domains.create(parsed.data, actor)).id);
      const values = { kind: 'domains', external_id: newId!, form_hash: hash, updated_at: now() };
      await this.db
        .insertInto('import_mappings')
        .values({ workspace_id: workspaceOf(actor), source, old_kind: 'domain', old_id: domain.oldId, ...values })
        .onConflict((conflict) =>
          conflict.columns(['workspace_id', 'source', 'old_kind', 'old_id']).doUpdateSet(values),
        )
        .execute();
    }
    return {
      kind: 'domains',
      old_kind: 'domain',
      old_id: domain.oldId,
      name: domain.name,
      new_id: newId,
      action,
      campaign: null,
    };
  }

  private async open(workspaceId: number, source: ImportSource, actor: Actor, total: number, at: string) {
    const row = await this.db
      .insertInto('imports')
      .values({
        workspace_id: workspaceId,
        source,
        status: 'running',
        done: 0,
        total,
        result: JSON.stringify({
          summary: { created: 0, updated: 0, unchanged: 0, left_out: 0 },
          records: [],
          left_out: [],
        }),
        error: null,
        created_by: actor.userId || null,
        created_at: at,
        finished_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  private async progress(scope: Scope, id: number | null, done: number): Promise<void> {
    if (id === null) return;
    await this.db
      .updateTable('imports')
      .set({ done })
      .where('id', '=', id)
      .where(scopeCondition(scope, 'workspace_id'))
      .execute();
  }
}
