// Domains as a resource (GET|POST /api/domains, GET|PUT /api/domains/{id}, archive, restore): each in
// one workspace, its name unique across the instance, shown in Unicode and stored in punycode.
import { domainToUnicode } from 'node:url';
import {
  asciiDomainName,
  type Domain,
  type ListResponse,
  type TCertificateUpload,
  type TDomainForm,
  type TListQuery,
} from '@switchyard/domain';
import { type Kysely, type Selectable, sql } from 'kysely';
import type { Actor } from '../auth/actor.js';
import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import type { RecordId, ResourceService } from '../http/resource-routes.js';
import { now } from '../store/database.js';
import type { DomainTable } from '../store/domains.js';
import { keepChange } from '../store/history-keep.js';
import { listFilter, listOrder, listPage } from '../store/list.js';
import type { Database } from '../store/schema.js';
import { type Scope, scopeCondition } from '../store/scope.js';
import { checkUpload } from './certificates.js';
import type { DomainDns } from './dns.js';

export type DomainRow = Selectable<DomainTable>;

/** Told when a domain changed: routing and certificates follow (on every node, with Redis). */
export type DomainChangeListener = (domainId: number) => Promise<void>;

export const DOMAINS_KIND = 'domains';

function toDomain(row: DomainRow, dns: DomainDns): Domain {
  const addresses = parseAddresses(row.dns_addresses);
  return {
    id: row.id,
    name: domainToUnicode(row.name) || row.name,
    name_ascii: row.name,
    workspace: row.workspace_id,
    index_campaign: row.index_campaign,
    not_found: row.not_found,
    https_only: row.https_only === 1,
    dashboard: row.dashboard === 1,
    noindex: row.noindex === 1,
    dns: {
      addresses,
      points_here: row.dns_checked_at === null ? null : dns.pointsHere(addresses),
      public_ip: dns.publicIp,
      error: row.dns_error,
      checked_at: row.dns_checked_at,
    },
    certificate: {
      status: (['none', 'pending', 'valid', 'failed'] as const).find((status) => status === row.cert_status) ?? 'none',
      source: row.cert_source === 'acme' || row.cert_source === 'upload' ? row.cert_source : null,
      expires_at: row.cert_expires_at,
      issuer: row.cert_issuer,
      reason: row.cert_reason,
      retry_at: row.cert_retry_at,
    },
    status: row.status === 'archived' ? 'archived' : 'active',
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function parseAddresses(json: string): string[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
  } catch {
    return [];
  }
}

function scopeOf(actor: Actor): Scope & { workspaceId: number } {
  if (actor.workspaceId === null) throw new ValidationError({ workspace: ['Choose a workspace first.'] });
  return { workspaceId: actor.workspaceId };
}

export class DomainsService implements ResourceService<Domain, TDomainForm> {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dns: DomainDns,
    private readonly onChange: DomainChangeListener,
  ) {}

  async list(query: TListQuery, actor: Actor): Promise<ListResponse<Domain>> {
    const scope = scopeOf(actor);
    const filter = listFilter(query, ['name']);
    const page = listPage(query);
    let rows = this.rows(scope).selectAll().where(filter).orderBy(listOrder(query));
    if (page) rows = rows.limit(page.limit).offset(page.offset);
    const [list, count] = await Promise.all([
      rows.execute(),
      this.rows(scope)
        .select((eb) => eb.fn.countAll<number | string>().as('total'))
        .where(filter)
        .executeTakeFirstOrThrow(),
    ]);
    return { list: list.map((row) => toDomain(row, this.dns)), total: Number(count.total) };
  }

  async get(id: RecordId, actor: Actor): Promise<Domain> {
    return toDomain(await this.row(id, scopeOf(actor)), this.dns);
  }

  async create(input: TDomainForm, actor: Actor): Promise<Domain> {
    const scope = scopeOf(actor);
    const name = asciiName(input.name);
    await this.checkCampaigns(input, scope);
    await this.checkNameFree(name, null);
    const timestamp = now();
    const look = await this.dns.look(name);
    let row: DomainRow;
    try {
      row = await this.db.transaction().execute(async (trx) => {
        const created = await trx
          .insertInto('domains')
          .values({
            workspace_id: scope.workspaceId,
            name,
            ...settings(input),
            status: 'active',
            created_at: timestamp,
            updated_at: timestamp,
            dns_addresses: JSON.stringify(look.addresses),
            dns_error: look.error,
            dns_checked_at: look.checkedAt,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        await keep(trx, actor, 'create', null, created);
        return created;
      });
    } catch (error) {
      // Two saves of one name at once: the unique index decides, and the loser is told as the check would.
      if (await this.nameTaken(name, null)) throw nameConflict(name);
      throw error;
    }
    await this.onChange(row.id);
    return toDomain(row, this.dns);
  }

  async update(id: RecordId, input: TDomainForm, actor: Actor): Promise<Domain> {
    const scope = scopeOf(actor);
    const before = await this.row(id, scope);
    const name = asciiName(input.name);
    await this.checkCampaigns(input, scope);
    if (name !== before.name) await this.checkNameFree(name, before.id);
    const renamed = name !== before.name;
    const look = renamed ? await this.dns.look(name) : null;
    const after = await this.db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('domains')
        .set({
          name,
          ...settings(input),
          updated_at: now(),
          // A new name needs its own certificate: the old one is dropped.
          ...(look
            ? {
                dns_addresses: JSON.stringify(look.addresses),
                dns_error: look.error,
                dns_checked_at: look.checkedAt,
                cert_status: 'none',
                cert_source: null,
                cert_pem: null,
                cert_key: null,
                cert_expires_at: null,
                cert_issuer: null,
                cert_reason: null,
                cert_retry_at: null,
                cert_failures: 0,
              }
            : {}),
        })
        .where('id', '=', before.id)
        .where(scopeCondition(scope, 'workspace_id'))
        .returningAll()
        .executeTakeFirstOrThrow();
      await keep(trx, actor, 'update', before, updated);
      return updated;
    });
    await this.onChange(after.id);
    return toDomain(after, this.dns);
  }

  archive(id: RecordId, actor: Actor): Promise<Domain> {
    return this.setStatus(id, actor, 'archived');
  }

  restore(id: RecordId, actor: Actor): Promise<Domain> {
    return this.setStatus(id, actor, 'active');
  }

  /** Looks the name up again (after the operator changed DNS); a certificate follows when it points here. */
  async checkDns(id: RecordId, actor: Actor): Promise<Domain> {
    const scope = scopeOf(actor);
    const row = await this.row(id, scope);
    const look = await this.dns.look(row.name);
    const updated = await this.db
      .updateTable('domains')
      .set({ dns_addresses: JSON.stringify(look.addresses), dns_error: look.error, dns_checked_at: look.checkedAt })
      .where('id', '=', row.id)
      .where(scopeCondition(scope, 'workspace_id'))
      .returningAll()
      .executeTakeFirstOrThrow();
    await this.onChange(row.id);
    return toDomain(updated, this.dns);
  }

  /** The operator's own certificate and key (PEM), checked, in place of an ordered one. */
  async upload(id: RecordId, input: TCertificateUpload, actor: Actor): Promise<Domain> {
    const scope = scopeOf(actor);
    const row = await this.row(id, scope);
    const facts = checkUpload(row.name, input.certificate, input.key);
    const updated = await this.db.transaction().execute(async (trx) => {
      const after = await trx
        .updateTable('domains')
        .set({
          cert_status: 'valid',
          cert_source: 'upload',
          cert_pem: `${input.certificate.trim()}\n`,
          cert_key: `${input.key.trim()}\n`,
          cert_expires_at: facts.expiresAt,
          cert_issuer: facts.issuer,
          cert_reason: null,
          cert_retry_at: null,
          cert_failures: 0,
          cert_updated_at: now(),
          updated_at: now(),
        })
        .where('id', '=', row.id)
        .where(scopeCondition(scope, 'workspace_id'))
        .returningAll()
        .executeTakeFirstOrThrow();
      await keep(trx, actor, 'update', row, after);
      return after;
    });
    await this.onChange(row.id);
    return toDomain(updated, this.dns);
  }

  /** A certificate ordered now, whatever the renewal schedule says (the renew button). */
  async requestRenewal(id: RecordId, actor: Actor): Promise<DomainRow> {
    const scope = scopeOf(actor);
    const row = await this.row(id, scope);
    if (row.status !== 'active') throw new ValidationError({ status: ['Restore the domain first.'] });
    await this.db
      .updateTable('domains')
      .set({
        cert_retry_at: null,
        cert_failures: 0,
        cert_lock_until: null,
        // A certificate still in use stays valid while its successor is ordered.
        cert_status: sql<string>`case when cert_status = 'valid' then 'valid' else 'pending' end`,
      })
      .where('id', '=', row.id)
      .where(scopeCondition(scope, 'workspace_id'))
      .execute();
    return this.row(id, scope);
  }

  answer(row: DomainRow): Domain {
    return toDomain(row, this.dns);
  }

  private async setStatus(id: RecordId, actor: Actor, status: 'active' | 'archived'): Promise<Domain> {
    const scope = scopeOf(actor);
    const before = await this.row(id, scope);
    const after = await this.db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('domains')
        .set({ status, updated_at: now() })
        .where('id', '=', before.id)
        .where(scopeCondition(scope, 'workspace_id'))
        .returningAll()
        .executeTakeFirstOrThrow();
      await keep(trx, actor, status === 'archived' ? 'archive' : 'restore', before, updated);
      return updated;
    });
    await this.onChange(after.id);
    return toDomain(after, this.dns);
  }

  private rows(scope: Scope) {
    return this.db.selectFrom('domains').where(scopeCondition(scope, 'workspace_id'));
  }

  async row(id: RecordId, scope: Scope): Promise<DomainRow> {
    const row = await this.rows(scope).selectAll().where('id', '=', Number(id)).executeTakeFirst();
    if (!row) throw new NotFoundError();
    return row;
  }

  /** A name is one workspace's: any other domain holding it, in any workspace, is a conflict. */
  private async checkNameFree(name: string, except: number | null): Promise<void> {
    if (await this.nameTaken(name, except)) throw nameConflict(name);
  }

  private async nameTaken(name: string, except: number | null): Promise<boolean> {
    let query = this.db
      .selectFrom('domains')
      .select('id')
      .where('name', '=', name)
      // Every workspace's rows are read on purpose: the name is unique across the instance.
      .where(scopeCondition({ instance: true }, 'workspace_id'));
    if (except !== null) query = query.where('id', '!=', except);
    return (await query.executeTakeFirst()) !== undefined;
  }

  /** The index and not-found campaigns must be active tracker campaigns of the domain's workspace. */
  private async checkCampaigns(input: TDomainForm, scope: Scope): Promise<void> {
    const wanted = new Map<string, string>();
    if (input.index_campaign) wanted.set('index_campaign', input.index_campaign);
    if (input.not_found !== '404') wanted.set('not_found', input.not_found);
    if (wanted.size === 0) return;
    const found = await this.db
      .selectFrom('config_records')
      .select('external_id')
      .where('kind', '=', 'tracker-campaigns')
      .where('status', '=', 'active')
      .where('external_id', 'in', [...wanted.values()])
      .where(scopeCondition(scope, 'workspace_id'))
      .execute();
    const known = new Set(found.map((row) => row.external_id));
    const errors: Record<string, string[]> = {};
    for (const [field, value] of wanted) {
      if (!known.has(value)) errors[field] = ['No active campaign of this workspace has this id.'];
    }
    if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  }
}

function asciiName(typed: string): string {
  const name = asciiDomainName(typed);
  if (name === null) throw new ValidationError({ name: ['Enter a host name such as track.example.com.'] });
  return name;
}

function nameConflict(name: string): ConflictError {
  return new ConflictError(
    `The domain ${domainToUnicode(name) || name} is already added, here or in another workspace.`,
  );
}

function settings(input: TDomainForm) {
  return {
    index_campaign: input.index_campaign,
    not_found: input.not_found,
    https_only: input.https_only ? 1 : 0,
    dashboard: input.dashboard ? 1 : 0,
    noindex: input.noindex ? 1 : 0,
  };
}

/** A domain as history keeps it: its settings, never its certificate's key. */
function keep(
  db: Kysely<Database>,
  actor: Actor,
  action: 'create' | 'update' | 'archive' | 'restore',
  before: DomainRow | null,
  after: DomainRow,
): Promise<void> {
  const shown = (row: DomainRow) => ({
    name: domainToUnicode(row.name) || row.name,
    status: row.status,
    index_campaign: row.index_campaign,
    not_found: row.not_found,
    https_only: row.https_only === 1,
    dashboard: row.dashboard === 1,
    noindex: row.noindex === 1,
    certificate: row.cert_source,
  });
  return keepChange(
    db,
    { userId: actor.userId, ip: actor.ip, workspaceId: after.workspace_id },
    {
      action,
      resource: 'domains',
      recordId: after.id,
      recordName: after.name,
      before: before ? shown(before) : null,
      after: shown(after),
    },
  );
}
