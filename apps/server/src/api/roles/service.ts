import type { ListResponse, Role, TListQuery } from '@switchyard/domain';
import type { Kysely } from 'kysely';
import { NotFoundError } from '../../errors.js';
import type { RecordId, ResourceService } from '../../http/resource-routes.js';
import { parseStringList } from '../../store/database.js';
import { listFilter, listOrder, listPage } from '../../store/list.js';
import type { Database, RoleRow } from '../../store/schema.js';

export function toRole(row: RoleRow): Role {
  return {
    id: row.id,
    name: row.name,
    permissions: parseStringList(row.permissions),
    status: row.status === 'archived' ? 'archived' : 'active',
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** Roles are seeded and read-only for now (§6: the dashboard only loads them as a lookup). */
export class RolesService implements ResourceService<Role> {
  constructor(private readonly db: Kysely<Database>) {}

  async list(query: TListQuery): Promise<ListResponse<Role>> {
    const filter = listFilter(query, ['name']);
    const page = listPage(query);
    let rows = this.db.selectFrom('roles').selectAll().where(filter).orderBy(listOrder(query));
    if (page) rows = rows.limit(page.limit).offset(page.offset);
    const [list, count] = await Promise.all([
      rows.execute(),
      this.db
        .selectFrom('roles')
        .select((eb) => eb.fn.countAll<number | string>().as('total'))
        .where(filter)
        .executeTakeFirstOrThrow(),
    ]);
    return { list: list.map(toRole), total: Number(count.total) };
  }

  async get(id: RecordId): Promise<Role> {
    const row = await this.db.selectFrom('roles').selectAll().where('id', '=', Number(id)).executeTakeFirst();
    if (!row) throw new NotFoundError();
    return toRole(row);
  }
}
