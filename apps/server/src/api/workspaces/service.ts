import type { ListResponse, TListQuery, TWorkspaceForm, Workspace } from '@switchyard/domain';
import type { Kysely } from 'kysely';
import { NotFoundError } from '../../errors.js';
import { now } from '../../store/database.js';
import { listFilter, listOrder, listPage } from '../../store/list.js';
import type { Database, WorkspaceRow } from '../../store/schema.js';
import type { RecordId, ResourceService } from '../resource-routes.js';

function toWorkspace(row: WorkspaceRow): Workspace {
  return {
    id: row.id,
    name: row.name,
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
    const timestamp = now();
    const row = await this.db
      .insertInto('workspaces')
      .values({ name: input.name, status: 'active', created_at: timestamp, updated_at: timestamp })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toWorkspace(row);
  }

  async update(id: RecordId, input: TWorkspaceForm): Promise<Workspace> {
    const row = await this.db
      .updateTable('workspaces')
      .set({ name: input.name, updated_at: now() })
      .where('id', '=', Number(id))
      .returningAll()
      .executeTakeFirst();
    if (!row) throw new NotFoundError();
    return toWorkspace(row);
  }
}
