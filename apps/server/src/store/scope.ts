// Whose rows a read or write may touch. Every service that reads a workspace-owned table takes a
// required Scope and narrows each query with `scopeCondition`; `{ instance: true }` is for the instance's
// own administrators and the engine's internal work, and is written out where it is meant, never implied
// by a missing argument.
//
// ScopeGuard is a Kysely plugin that refuses a query touching a workspace-owned table (one with a
// `workspace_id` column, read from the live database by `workspaceTables`) without a condition on
// workspace_id, or an insert into one without it: tests run the services through it, so a query that
// drops its scope fails there.

import type { Kysely } from 'kysely';
import {
  type KyselyPlugin,
  type OperationNode,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RawBuilder,
  type RootOperationNode,
  type SqlBool,
  sql,
  type UnknownRow,
} from 'kysely';

export type Scope = { readonly workspaceId: number } | { readonly instance: true };

/** The workspace a scope keeps to, or null for the whole instance. */
export function scopeWorkspace(scope: Scope): number | null {
  return 'workspaceId' in scope ? scope.workspaceId : null;
}

/**
 * The condition keeping `column` (a workspace_id, `alias.workspace_id`) to the scope. The instance's
 * reads every row, those of no workspace too, and still names the column: the guard sees it was meant.
 */
export function scopeCondition(scope: Scope, column: string): RawBuilder<SqlBool> {
  const ref = sql.ref(column);
  return 'workspaceId' in scope
    ? sql<SqlBool>`${ref} = ${scope.workspaceId}`
    : sql<SqlBool>`(${ref} is null or ${ref} is not null)`;
}

/** The tables of the live database that carry a workspace_id column (but the membership table). */
export async function workspaceTables(db: Kysely<unknown>, dialect: 'sqlite' | 'postgres'): Promise<string[]> {
  const rows =
    dialect === 'postgres'
      ? await sql<{ name: string }>`select table_name as name from information_schema.columns
          where table_schema = current_schema() and column_name = 'workspace_id'`.execute(db)
      : await sql<{ name: string }>`select m.name as name from sqlite_master m, pragma_table_info(m.name) p
          where m.type = 'table' and p.name = 'workspace_id'`.execute(db);
  // user_workspaces is who belongs where, read to find the acting workspace itself.
  return rows.rows
    .map((row) => row.name)
    .filter((name) => name !== 'user_workspaces')
    .sort();
}

export class ScopeError extends Error {}

/** Where a scope condition may stand: a where clause (the query's, or a subquery's), or a join's `on`. */
const CONDITION_KINDS = new Set(['WhereNode', 'OnNode']);

/** Every node under `node` (Kysely's nodes are plain frozen objects). */
function* walk(node: unknown): Generator<OperationNode> {
  if (node === null || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const item of node) yield* walk(item);
    return;
  }
  if ('kind' in node && typeof node.kind === 'string') yield node as OperationNode;
  for (const value of Object.values(node)) yield* walk(value);
}

function tablesOf(node: unknown): Set<string> {
  const names = new Set<string>();
  for (const child of walk(node)) {
    if (child.kind === 'TableNode') {
      names.add((child as unknown as { table: { identifier: { name: string } } }).table.identifier.name);
    }
  }
  return names;
}

function conditionsNameWorkspace(node: unknown): boolean {
  for (const child of walk(node)) if (CONDITION_KINDS.has(child.kind) && namesWorkspace(child)) return true;
  return false;
}

function namesWorkspace(node: unknown): boolean {
  for (const child of walk(node)) {
    if (
      child.kind === 'ColumnNode' &&
      (child as unknown as { column: { name: string } }).column.name === 'workspace_id'
    )
      return true;
  }
  return false;
}

/** Refuses a query that reads, changes or adds rows of `tables` without naming their workspace. */
export class ScopeGuard implements KyselyPlugin {
  private readonly tables: ReadonlySet<string>;

  constructor(tables: Iterable<string>) {
    this.tables = new Set(tables);
  }

  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    const owned = [...tablesOf(node)].filter((name) => this.tables.has(name));
    if (owned.length === 0) return node;
    // A raw statement is checked whole; a built one by its conditions (or its inserted columns).
    const scoped =
      node.kind === 'RawNode'
        ? namesWorkspace(node)
        : node.kind === 'InsertQueryNode'
          ? namesWorkspace((node as { columns?: unknown }).columns)
          : conditionsNameWorkspace(node);
    if (!scoped) throw new ScopeError(`a query on ${owned.join(', ')} without its workspace scope`);
    return node;
  }

  transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return Promise.resolve(result);
  }
}
