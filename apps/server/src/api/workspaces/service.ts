import {
  type ListResponse,
  type TListQuery,
  type TWorkspaceForm,
  VALIDATION_MESSAGES,
  type Workspace,
} from '@switchyard/domain';
import type { Kysely } from 'kysely';
import { NotFoundError, ValidationError } from '../../errors.js';
import { newPostbackKey } from '../../store/conversion-states.js';
import { now } from '../../store/database.js';
import { listFilter, listOrder, listPage } from '../../store/list.js';
import type { Database, WorkspaceRow } from '../../store/schema.js';
import type { RecordId, ResourceService } from '../resource-routes.js';

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

export class WorkspacesService implements ResourceService<Workspace, TWorkspaceForm> {
  constructor(private readonly db: Kysely<Database>) {}

  async list(query: TListQuery): Promise<ListResponse<Workspace>> {
    const filter = listFilter(query, ['name']);
    const page = listPage(query);
    let rows = this.db.selectFrom('workspaces').selectAll().where(filter).orderBy(listOrder(query));
    if (page) rows = rows.limit(page.limit).offset(page.offset);
    const [list, count] = await Promise.all([
      rows.execute(),
      this.db
        .selectFrom('workspaces')
        .select((eb) => eb.fn.countAll<number | string>().as('total'))
        .where(filter)
        .executeTakeFirstOrThrow(),
    ]);
    return { list: list.map(toWorkspace), total: Number(count.total) };
  }

  async get(id: RecordId): Promise<Workspace> {
    const row = await this.db.selectFrom('workspaces').selectAll().where('id', '=', Number(id)).executeTakeFirst();
    if (!row) throw new NotFoundError();
    return toWorkspace(row);
  }

  async create(input: TWorkspaceForm): Promise<Workspace> {
    await this.checkCurrency(input.currency);
    const timestamp = now();
    const row = await this.db
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
    return toWorkspace(row);
  }

  async update(id: RecordId, input: TWorkspaceForm): Promise<Workspace> {
    await this.checkCurrency(input.currency);
    const row = await this.db
      .updateTable('workspaces')
      .set({ name: input.name, currency: input.currency, updated_at: now() })
      .where('id', '=', Number(id))
      .returningAll()
      .executeTakeFirst();
    if (!row) throw new NotFoundError();
    return toWorkspace(row);
  }

  /** A new postback key: every postback URL with the old one is refused from now on. */
  async rotatePostbackKey(id: RecordId): Promise<Workspace> {
    const row = await this.db
      .updateTable('workspaces')
      .set({ postback_key: newPostbackKey(), updated_at: now() })
      .where('id', '=', Number(id))
      .returningAll()
      .executeTakeFirst();
    if (!row) throw new NotFoundError();
    return toWorkspace(row);
  }

  /** A workspace's currency must have a rate, or its conversions could not be converted. */
  private async checkCurrency(code: string): Promise<void> {
    const rate = await this.db.selectFrom('currency_rates').select('code').where('code', '=', code).executeTakeFirst();
    if (!rate) throw new ValidationError({ currency: [VALIDATION_MESSAGES.currencyWithoutRate] });
  }
}
