// The weights Thompson sampling chose for the optimized path groups (optimization/tuner.ts), one row per
// arm: a path (`path:{path}`), or an offer or lander row within a path (`offer:{path}:{row}`,
// `lander:{path}:{row}`), with the estimates the flow editor shows. Routing reads them at each compile.
import { liveWeightKey } from '@switchyard/domain';
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';
import { type Scope, scopeCondition } from './scope.js';

export interface LiveWeightTable {
  workspace_id: number | null;
  flow_kind: string;
  flow_external_id: string;
  group_id: string;
  arm: string;
  weight: number;
  mean: number;
  low: number;
  high: number;
  p_best: number;
  clicks: number;
  conversions: number;
  /** 1 once every arm of its bandit had the minimum sample: only then does routing use `weight`. */
  moved: number;
  computed_at: string;
}

export type LiveWeightRow = Omit<LiveWeightTable, 'workspace_id' | 'flow_kind' | 'flow_external_id'>;

/** Every moved weight in the scope, by `liveWeightKey`. */
export async function readLiveWeights(db: Kysely<Database>, scope: Scope): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('live_weights')
    .select(['flow_kind', 'flow_external_id', 'group_id', 'arm', 'weight'])
    .where('moved', '=', 1)
    .where(scopeCondition(scope, 'workspace_id'))
    .execute();
  return new Map(
    rows.map((row) => [liveWeightKey(row.flow_kind, row.flow_external_id, row.group_id, row.arm), Number(row.weight)]),
  );
}

/** One flow's rows, for the flow editor. */
export function flowLiveWeights(
  db: Kysely<Database>,
  scope: Scope,
  flowKind: string,
  flow: string,
): Promise<(LiveWeightRow & { group_id: string })[]> {
  return db
    .selectFrom('live_weights')
    .select([
      'group_id',
      'arm',
      'weight',
      'mean',
      'low',
      'high',
      'p_best',
      'clicks',
      'conversions',
      'moved',
      'computed_at',
    ])
    .where('flow_kind', '=', flowKind)
    .where('flow_external_id', '=', flow)
    .where(scopeCondition(scope, 'workspace_id'))
    .orderBy('group_id')
    .orderBy('arm')
    .execute();
}

/** Replaces one path group's rows with `rows`, in one transaction. */
export async function replaceGroupWeights(
  db: Kysely<Database>,
  scope: Scope,
  at: { workspaceId: number | null; flowKind: string; flow: string; group: string },
  rows: readonly LiveWeightRow[],
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom('live_weights')
      .where('flow_kind', '=', at.flowKind)
      .where('flow_external_id', '=', at.flow)
      .where('group_id', '=', at.group)
      .where(scopeCondition(scope, 'workspace_id'))
      .execute();
    if (rows.length === 0) return;
    await trx
      .insertInto('live_weights')
      .values(
        rows.map((row) => ({
          ...row,
          workspace_id: at.workspaceId,
          flow_kind: at.flowKind,
          flow_external_id: at.flow,
        })),
      )
      .execute();
  });
}

/** Drops the rows of groups that are no longer optimized (or no longer exist). */
export async function dropOtherWeights(db: Kysely<Database>, scope: Scope, kept: ReadonlySet<string>): Promise<number> {
  const rows = await db
    .selectFrom('live_weights')
    .select(['flow_kind', 'flow_external_id', 'group_id'])
    .distinct()
    .where(scopeCondition(scope, 'workspace_id'))
    .execute();
  let dropped = 0;
  for (const row of rows) {
    if (kept.has(liveWeightKey(row.flow_kind, row.flow_external_id, row.group_id, ''))) continue;
    await db
      .deleteFrom('live_weights')
      .where('flow_kind', '=', row.flow_kind)
      .where('flow_external_id', '=', row.flow_external_id)
      .where('group_id', '=', row.group_id)
      .where(scopeCondition(scope, 'workspace_id'))
      .execute();
    dropped += 1;
  }
  return dropped;
}
