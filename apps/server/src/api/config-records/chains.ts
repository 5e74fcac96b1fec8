import { parseConditionText, referencedSegments } from '@switchyard/domain';

/** The records each of `ids` points to (only the ids that exist are keys). */
export type NextLinks = (ids: readonly string[]) => Promise<Map<string, readonly string[]>>;

/**
 * Every record reachable from `start` by following links, nearest first, each once. Used for
 * `backup_offers_chain` (one link per offer) and `segments_chain` (the segments a condition names).
 */
export async function followChain(start: readonly string[], next: NextLinks): Promise<string[]> {
  const reached: string[] = [];
  const seen = new Set<string>();
  let frontier = [...new Set(start)];
  while (frontier.length > 0) {
    const links = await next(frontier.filter((id) => !seen.has(id)));
    const following: string[] = [];
    for (const id of frontier) {
      if (seen.has(id) || !links.has(id)) continue;
      seen.add(id);
      reached.push(id);
      following.push(...(links.get(id) ?? []));
    }
    frontier = [...new Set(following)].filter((id) => !seen.has(id));
  }
  return reached;
}

/** The next offer of a backup chain. */
export function backupLinks(body: Record<string, unknown>): string[] {
  const backup = body.backup_offer_external_id;
  return typeof backup === 'string' && backup !== '' ? [backup] : [];
}

/** The segments a segment's condition names directly. */
export function segmentLinks(body: Record<string, unknown>): string[] {
  if (typeof body.condition !== 'string') return [];
  const { tree } = parseConditionText(body.condition);
  return tree ? referencedSegments(tree) : [];
}
