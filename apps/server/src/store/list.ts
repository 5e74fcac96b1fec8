import { SORT_FIELDS, type TListQuery } from '@switchyard/domain';
import { type Expression, type SqlBool, sql } from 'kysely';

// Shared by every list endpoint: the status filter, the case-insensitive search and the ordering.
// Column names come from code, never from the request; the search text is always a bound value.

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

export function listFilter(query: TListQuery, searchColumns: readonly string[]): Expression<SqlBool> {
  const conditions: Expression<SqlBool>[] = [];
  if (query.status !== 'all') conditions.push(sql<SqlBool>`${sql.ref('status')} = ${query.status}`);
  if (query.search && searchColumns.length > 0) {
    const pattern = `%${escapeLike(query.search.toLowerCase())}%`;
    const matches = searchColumns.map(
      (column) => sql<SqlBool>`lower(${sql.ref(column)}) like ${pattern} escape ${'\\'}`,
    );
    conditions.push(sql<SqlBool>`(${sql.join(matches, sql` or `)})`);
  }
  if (conditions.length === 0) return sql<SqlBool>`1 = 1`;
  return sql<SqlBool>`${sql.join(conditions, sql` and `)}`;
}

/** ORDER BY terms: the asked field (names compare case-insensitively in both dialects), then id. */
export function listOrder(query: TListQuery): Expression<unknown> {
  const direction = query.order === 'desc' ? sql`desc` : sql`asc`;
  const id = sql`${sql.ref('id')} ${direction}`;
  // A figure (`?stats=`) is sorted by the list's service, never here (http/list-order.ts).
  if (!query.order_by || !(SORT_FIELDS as readonly string[]).includes(query.order_by)) return id;
  const field = query.order_by === 'name' ? sql`lower(${sql.ref('name')})` : sql.ref(query.order_by);
  return sql`${field} ${direction}, ${id}`;
}

/** LIMIT/OFFSET for a page; `limit=0` asks for every record. */
export function listPage(query: TListQuery): { limit: number; offset: number } | null {
  if (query.limit === 0) return null;
  return { limit: query.limit, offset: (query.page - 1) * query.limit };
}
