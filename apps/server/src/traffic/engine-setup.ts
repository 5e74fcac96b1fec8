// What a traffic engine is made of, built from its options: the parts its clicks, leads and postbacks
// share (parts.ts), and the settings of its own life (the journal's directory, the network cache, the
// postback log's days, the `remote` mode's fetch). engine.ts runs them.
import { tmpdir } from 'node:os';
import path from 'node:path';
import type SQLite from 'better-sqlite3';
import type { Kysely } from 'kysely';
import { DEFAULT_POSTBACK_LOG_DAYS } from '../config.js';
import { ConversionRepository } from '../conversions/repository.js';
import { LiveHub } from '../live/hub.js';
import { defaultBotProtection } from '../store/bot-protection.js';
import type { Database } from '../store/schema.js';
import { EngineStore } from '../store/traffic/engine-store.js';
import { EventWriter, type EventWriterOptions } from '../store/traffic/event-writer.js';
import { Journal } from '../store/traffic/journal.js';
import { REMOTE_DEFAULTS, type RemoteOptions } from './http/remote-target.js';
import { type OutboundOptions, OutboundPostbacks } from './outbound.js';
import type { EngineLog, EngineParts } from './parts.js';
import { RefusalLog } from './postback.js';
import { type CapCounters, InProcessCapCounters } from './rules/caps.js';
import { compileRouting } from './rules/compile.js';
import type { RoutingSnapshot } from './rules/snapshot.js';
import type { Random } from './rules/weighted.js';
import { ClickRates, LeadUniques } from './visitor/rates.js';
import { InMemoryUniqueClicks, type UniqueClicks } from './visitor/uniques.js';
import { UserAgentCache } from './visitor/user-agent.js';

export interface JournalSettings {
  /** The directory of the journal's segments (one node's own). */
  dir: string;
  /** How often kept events are flushed to the disk; 0 waits for the disk before every answer. */
  fsyncIntervalMs: number;
}

export interface EngineOptions {
  random?: Random;
  caps?: CapCounters;
  /** Click uniqueness; in this process unless replaced (Redis shares it between nodes). */
  uniques?: UniqueClicks;
  now?: () => Date;
  events?: Omit<EventWriterOptions, 'log' | 'journal'>;
  /** The event journal; without it an answered event lives only in memory until it is written. */
  journal?: JournalSettings;
  /** The outbound postback worker (its clock defaults to `now`). */
  outbound?: OutboundOptions;
  /** Days the postback log keeps (SWITCHYARD_POSTBACK_LOG_DAYS); pruned at start and hourly. */
  postbackLogDays?: number;
  /**
   * Where the network (ASN) lookup built from its package's data is kept between starts; without it, a
   * directory shared by every server on this machine under the system's temporary directory.
   */
  cacheDir?: string;
  /** The `remote` redirect mode's fetch; private targets and the resolver follow `outbound`'s. */
  remote?: Partial<Pick<RemoteOptions, 'timeoutMs' | 'maxChars' | 'isPublic'>>;
  /**
   * Has the other processes serving clicks store the events they hold (a primary's other workers): a
   * postback for a click one of them answered a moment ago finds it.
   */
  storeElsewhere?: () => Promise<void>;
}

export interface EngineSetup {
  parts: EngineParts;
  journalDir: string | undefined;
  cacheDir: string;
  postbackLogDays: number;
  remote: RemoteOptions;
}

export function datacenterSet(settings: { datacenter_asns: readonly { asn: number }[] }): Set<number> {
  return new Set(settings.datacenter_asns.map((entry) => entry.asn));
}

/** Nothing routes until the first compile (TrafficEngine.start). */
const EMPTY_SNAPSHOT: RoutingSnapshot = compileRouting([]);

export function engineSetup(
  db: Kysely<Database>,
  log: EngineLog,
  options: EngineOptions,
  sqlite: SQLite.Database | undefined,
): EngineSetup {
  const now = options.now ?? (() => new Date());
  const journal = options.journal
    ? new Journal({ dir: options.journal.dir, fsyncIntervalMs: options.journal.fsyncIntervalMs, log })
    : undefined;
  const live = new LiveHub();
  return {
    journalDir: options.journal?.dir,
    cacheDir: options.cacheDir ?? path.join(tmpdir(), 'switchyard-cache'),
    postbackLogDays: options.postbackLogDays ?? DEFAULT_POSTBACK_LOG_DAYS,
    remote: {
      allowPrivateTargets: options.outbound?.allowPrivateTargets ?? false,
      timeoutMs: options.remote?.timeoutMs ?? REMOTE_DEFAULTS.timeoutMs,
      maxChars: options.remote?.maxChars ?? REMOTE_DEFAULTS.maxChars,
      ...(options.outbound?.resolveHost ? { resolve: options.outbound.resolveHost } : {}),
      ...(options.remote?.isPublic ? { isPublic: options.remote.isPublic } : {}),
    },
    parts: {
      snapshot: EMPTY_SNAPSHOT,
      random: options.random ?? Math.random,
      caps: options.caps ?? new InProcessCapCounters(),
      now,
      userAgents: new UserAgentCache(),
      events: new EventWriter(db, { ...options.events, ...(sqlite ? { sqlite } : {}), log, journal }),
      store: new EngineStore(db, sqlite, options.events?.feed),
      conversions: new ConversionRepository(db, sqlite ? 'sqlite' : 'postgres'),
      outbound: new OutboundPostbacks(db, log, { now, ...options.outbound }, live),
      live,
      registrations: new Map(),
      bots: { datacenterAsns: datacenterSet(defaultBotProtection()) },
      clickRates: new ClickRates(),
      leadUniques: new LeadUniques(),
      uniques: options.uniques ?? new InMemoryUniqueClicks(),
      refusals: new RefusalLog(),
      log,
      ...(options.storeElsewhere ? { storeElsewhere: options.storeElsewhere } : {}),
    },
  };
}
