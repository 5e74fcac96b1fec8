// Messages to the other nodes or workers of one instance, on named channels: through Redis
// (REDIS_URL) between nodes, or through the primary process between the workers of one machine
// (cluster/bus.ts). Config changes (redis-notices.ts) and live events (live/redis-live.ts) travel on it.
import type { Redis } from 'ioredis';

export interface Bus {
  /** Sends `text` to every subscriber of `channel` elsewhere (and maybe here: senders tag their own). */
  publish(channel: string, text: string): Promise<void>;
  /**
   * Calls `onMessage` with what is published on `channel`; `onResync` when messages may have been lost
   * (a connection that came back).
   */
  subscribe(
    channel: string,
    onMessage: (text: string) => void,
    onResync?: () => void,
  ): Promise<{ close(): Promise<void> }>;
}

export function redisBus(redis: Redis): Bus {
  return {
    async publish(channel, text) {
      await redis.publish(channel, text);
    },
    async subscribe(channel, onMessage, onResync) {
      // A connection in subscriber mode can do nothing else: each channel gets its own.
      const subscriber = redis.duplicate();
      subscriber.on('error', () => undefined); // reported by the main connection's outage warning
      subscriber.on('message', (_channel: string, text: string) => onMessage(text));
      await subscriber.connect();
      await subscriber.subscribe(channel);
      let ready = true;
      subscriber.on('close', () => {
        ready = false;
      });
      subscriber.on('ready', () => {
        if (ready) return;
        ready = true;
        onResync?.();
      });
      return {
        async close() {
          try {
            await subscriber.quit();
          } catch {
            subscriber.disconnect();
          }
        },
      };
    },
  };
}
