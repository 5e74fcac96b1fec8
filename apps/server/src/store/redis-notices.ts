// Configuration changes reach every node (REDIS_URL) and every worker of a primary (store/bus.ts): the node that saves a record publishes the kind
// on a Redis channel; the others recompile their routing as the saving node does. A notice published
// while a node was cut off from Redis is lost to it, so a node whose subscription comes back resyncs
// (recompiles, and warms the cap counters again in case Redis lost them).
import { randomUUID } from 'node:crypto';
import type { Bus } from './bus.js';
import type { WarningLog } from './redis.js';

export interface ConfigNotices {
  /** Tells the other nodes that a record of `kind` changed. Never throws: a lost notice is logged. */
  publish(kind: string): Promise<void>;
  close(): Promise<void>;
}

interface Notice {
  node: string;
  kind: string;
}

export async function shareConfigChanges(
  bus: Bus,
  prefix: string,
  handlers: {
    /** Another node saved a record of `kind`. */
    changed(kind: string): Promise<void>;
    /** The subscription came back after a break: notices may have been missed. */
    resync(): Promise<void>;
  },
  log: WarningLog,
): Promise<ConfigNotices> {
  const node = randomUUID();
  const channel = `${prefix}config-changed`;
  const subscription = await bus.subscribe(
    channel,
    (text) => {
      let notice: Notice;
      try {
        notice = JSON.parse(text) as Notice;
      } catch {
        return;
      }
      if (notice.node === node || typeof notice.kind !== 'string') return;
      handlers
        .changed(notice.kind)
        .catch((error: unknown) => log.warn({ err: error }, 'recompiling after a notice failed'));
    },
    () => {
      handlers.resync().catch((error: unknown) => log.warn({ err: error }, 'resyncing after Redis came back failed'));
    },
  );

  return {
    async publish(kind: string) {
      try {
        await bus.publish(channel, JSON.stringify({ node, kind } satisfies Notice));
      } catch (error) {
        log.warn({ err: error, kind }, 'other nodes were not told of a configuration change (Redis did not answer)');
      }
    },
    close: () => subscription.close(),
  };
}
