// What the engine's decisions share: the routing in force, the counters, the clock, and where events
// and conversions are kept. The engine (engine.ts) owns it; clicks, leads and postbacks read it.
import type { ConversionRepository } from '../conversions/repository.js';
import type { LiveHub } from '../live/hub.js';
import type { EngineStore } from '../store/traffic/engine-store.js';
import type { EventWriter } from '../store/traffic/event-writer.js';
import type { OutboundPostbacks } from './outbound.js';
import type { RefusalLog } from './postback.js';
import type { CapCounters } from './rules/caps.js';
import type { RoutingSnapshot } from './rules/snapshot.js';
import type { Random } from './rules/weighted.js';
import type { BotPolicy } from './visitor/context.js';
import type { ClickRates, LeadUniques } from './visitor/rates.js';
import type { UniqueClicks } from './visitor/uniques.js';
import type { UserAgentCache } from './visitor/user-agent.js';
import { eventIdTime } from './visitor/visitor.js';

export interface EngineLog {
  info(object: unknown, message: string): void;
  warn(object: unknown, message: string): void;
  error(object: unknown, message: string): void;
}

export interface EngineParts {
  /** Swapped whole when the configuration changes. */
  snapshot: RoutingSnapshot;
  readonly random: Random;
  readonly caps: CapCounters;
  readonly now: () => Date;
  readonly userAgents: UserAgentCache;
  readonly events: EventWriter;
  readonly store: EngineStore;
  /** Where a postback's conversion is stored and moved (conversions/move-conversion.ts). */
  readonly conversions: ConversionRepository;
  readonly outbound: OutboundPostbacks;
  /** Live events, for whoever listens (`GET /api/live`). */
  readonly live: LiveHub;
  /** Refused postbacks logged per source address (postback.ts). */
  readonly refusals: RefusalLog;
  /** Email hash → registrations seen (regsCount). */
  registrations: Map<string, number>;
  /** The datacenter networks whose visitors are bots; swapped when administrators edit it. */
  bots: BotPolicy;
  readonly clickRates: ClickRates;
  readonly leadUniques: LeadUniques;
  /** Whether a click is its visitor's first on the campaign within the campaign's window. */
  readonly uniques: UniqueClicks;
  readonly log: EngineLog;
  /** The other workers store what they hold (EngineOptions.storeElsewhere). */
  readonly storeElsewhere?: () => Promise<void>;
}

/** Events younger than this may still wait in the event writer (it writes within a second or so). */
const RECENT_EVENT_MS = 60_000;

/**
 * A stored click or lead; one made in the last minute may still wait in the event writer, which is
 * then asked to write first (an older id, or an unknown one, does not hold up the writer).
 */
export async function storedEvent<T>(
  parts: EngineParts,
  read: () => Promise<T | undefined>,
  id: string,
): Promise<T | undefined> {
  const found = await read();
  if (found !== undefined) return found;
  const made = eventIdTime(id);
  if (made === null || Math.abs(parts.now().getTime() - made) > RECENT_EVENT_MS) return undefined;
  // Always wait for the writer, even with nothing pending here: a batch may be on its way.
  await parts.events.flush();
  const written = await read();
  if (written !== undefined || !parts.storeElsewhere) return written;
  // Answered by another worker, perhaps, and still held there.
  await parts.storeElsewhere();
  return read();
}
