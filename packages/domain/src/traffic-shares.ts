// The share of traffic each weighted row gets (§3.4), as the routing weighs them
// (apps/server/src/traffic/rules: compile keeps enabled rows of weight > 0, pickWeighted picks by weight):
// a path among its group's paths, an offer or lander row among its path's rows.

/** A path, or a tracker path's offer or lander row: what the routing weighs. */
export interface WeightedRow {
  enabled?: boolean;
  weight: number;
}

/** The weight the routing counts: an enabled row's weight when it is a number above 0, otherwise none. */
function countedWeight(row: WeightedRow): number {
  if (row.enabled === false) return 0;
  return Number.isFinite(row.weight) && row.weight > 0 ? row.weight : 0;
}

/**
 * Each row's share of its list's traffic, from 0 to 1: its weight over the sum of the enabled rows'
 * weights. A disabled row gets none (null): the routing never sees it. An enabled row of weight 0 (or a
 * list whose enabled rows all weigh 0) gets 0: the routing never picks it.
 */
export function trafficShares(rows: readonly WeightedRow[]): (number | null)[] {
  const total = rows.reduce((sum, row) => sum + countedWeight(row), 0);
  return rows.map((row) => {
    if (row.enabled === false) return null;
    return total > 0 ? countedWeight(row) / total : 0;
  });
}
