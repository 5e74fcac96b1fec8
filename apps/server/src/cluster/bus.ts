import type { Bus } from '../store/bus.js';
import type { PrimaryChannel } from './channel.js';

/** Between the workers of one primary: its IPC channel never drops a message, so there is no resync. */
export function primaryBus(primary: PrimaryChannel): Bus {
  return {
    async publish(channel, text) {
      primary.publish(channel, text);
    },
    async subscribe(channel, onMessage) {
      const unsubscribe = primary.subscribe(channel, onMessage);
      return { close: async () => unsubscribe() };
    },
  };
}
