// The routing in force, read whole from the store and compiled: the config records routing depends on,
// the datacenter list, the click tokens, the optimizer's live weights, the hosted landers and the old
// trackers' links. The engine swaps the result in at once (engine.ts).
import type { Kysely } from 'kysely';
import { readBotProtection } from '../store/bot-protection.js';
import { readLiveWeights } from '../store/live-weights.js';
import { readOldLinks } from '../store/old-link-rows.js';
import type { Database } from '../store/schema.js';
import type { EngineStore } from '../store/traffic/engine-store.js';
import { datacenterSet } from './engine-setup.js';
import { compileRouting, ROUTING_KINDS } from './rules/compile.js';
import type { RoutingSnapshot } from './rules/snapshot.js';
import type { BotPolicy } from './visitor/context.js';

export async function loadRouting(
  store: EngineStore,
  db: Kysely<Database>,
): Promise<{ snapshot: RoutingSnapshot; bots: BotPolicy }> {
  const [rows, bots, defaultWorkspace, tokens, liveWeights, hostedLanders, oldLinks] = await Promise.all([
    store.routingRows([...ROUTING_KINDS]),
    readBotProtection(db),
    store.defaultWorkspaceId(),
    store.clickTokens(),
    readLiveWeights(db, { instance: true }),
    store.hostedLanders(),
    // The engine's own work: every workspace's old links.
    readOldLinks(db, { instance: true }),
  ]);
  const snapshot = compileRouting(rows, defaultWorkspace, {
    clickTokens: new Map(
      tokens.map((row) => [row.campaign_external_id, { hash: row.token_hash, workspaceId: row.workspace_id }]),
    ),
    liveWeights,
    hostedLanders,
    oldLinks,
  });
  return { snapshot, bots: { datacenterAsns: datacenterSet(bots) } };
}
