// Live events across nodes (REDIS_URL) and across the workers of a primary (store/bus.ts). A node with
// a stream open says so on the bus when the first one opens and then every few seconds; the others then publish their events on a second channel,
// and only then: while nobody anywhere listens, a click costs no Redis command. Every node delivers what
// the others published to its own streams; its own events it has already delivered itself.
import { randomUUID } from 'node:crypto';
import type { Bus } from '../store/bus.js';
import type { WarningLog } from '../store/redis.js';
import type { LiveEvent, LiveHub } from './hub.js';

/** How often a node with open streams repeats that it listens; a notice holds for three of these. */
export const LISTENING_NOTICE_MS = 5000;

interface Published {
  node: string;
  event?: LiveEvent;
  /** A listening notice instead of an event. */
  listening?: true;
}

export interface SharedLive {
  close(): Promise<void>;
}

export async function shareLiveEvents(bus: Bus, prefix: string, hub: LiveHub, log: WarningLog): Promise<SharedLive> {
  const node = randomUUID();
  const channel = `${prefix}live-events`;
  const subscription = await bus.subscribe(channel, (text) => {
    let message: Published;
    try {
      message = JSON.parse(text) as Published;
    } catch {
      return;
    }
    if (message.node === node) return;
    if (message.listening) hub.remoteListening(3 * LISTENING_NOTICE_MS);
    else if (message.event && typeof message.event.kind === 'string') hub.deliver(message.event);
  });

  let warned = false;
  const send = (message: Published): void => {
    bus.publish(channel, JSON.stringify(message)).then(
      () => {
        warned = false;
      },
      (error: unknown) => {
        // Once per outage: a busy stream would otherwise log every event it lost.
        if (!warned) log.warn({ err: error }, 'live events did not reach the other nodes (Redis did not answer)');
        warned = true;
      },
    );
  };
  const sayListening = () => send({ node, listening: true });
  let timer: NodeJS.Timeout | null = null;
  hub.onLocalChange = (listening) => {
    if (timer) clearInterval(timer);
    timer = null;
    if (!listening) return;
    sayListening();
    timer = setInterval(sayListening, LISTENING_NOTICE_MS);
    timer.unref();
  };
  hub.forward = (event) => send({ node, event });

  return {
    async close() {
      if (timer) clearInterval(timer);
      hub.forward = null;
      hub.onLocalChange = null;
      await subscription.close();
    },
  };
}
