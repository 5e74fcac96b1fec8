// A worker's end of the IPC channel to its primary: calls answered by the primary (caps, login limits,
// reports run elsewhere), a bus that reaches every other worker, and the primary's orders (drain, hold
// the reports). One per worker process.
import type { PrimaryCall, ToPrimary, ToWorker } from './messages.js';
import { isToWorker } from './messages.js';

type Order = Exclude<ToWorker, { sy: 'result' } | { sy: 'bus' }>;

export class PrimaryChannel {
  private nextId = 0;
  private readonly waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  private readonly subscribers = new Map<string, Set<(text: string) => void>>();
  private readonly orders = new Set<(order: Order) => void>();

  constructor() {
    process.on('message', (message: unknown) => {
      if (!isToWorker(message)) return;
      if (message.sy === 'result') {
        const waiter = this.waiting.get(message.id);
        if (!waiter) return;
        this.waiting.delete(message.id);
        if (message.error !== undefined) waiter.reject(new Error(message.error));
        else waiter.resolve(message.value);
        return;
      }
      if (message.sy === 'bus') {
        for (const subscriber of this.subscribers.get(message.channel) ?? []) subscriber(message.text);
        return;
      }
      for (const order of this.orders) order(message);
    });
    // The primary is gone: nothing it owed will come.
    process.on('disconnect', () => {
      for (const waiter of this.waiting.values()) waiter.reject(new Error('the primary process is gone'));
      this.waiting.clear();
    });
  }

  /** Asks the primary; rejects when the channel is closed. */
  call<T>(call: PrimaryCall): Promise<T> {
    if (!process.connected || !process.send) return Promise.reject(new Error('the primary process is gone'));
    const id = ++this.nextId;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.send({ sy: 'call', id, call });
    });
  }

  send(message: ToPrimary): void {
    if (!process.connected || !process.send) return;
    process.send(message, undefined, {}, (error: Error | null) => {
      if (!error || message.sy !== 'call') return;
      const waiter = this.waiting.get(message.id);
      this.waiting.delete(message.id);
      waiter?.reject(error);
    });
  }

  publish(channel: string, text: string): void {
    this.send({ sy: 'bus', channel, text });
  }

  subscribe(channel: string, onMessage: (text: string) => void): () => void {
    let set = this.subscribers.get(channel);
    if (!set) {
      set = new Set();
      this.subscribers.set(channel, set);
    }
    set.add(onMessage);
    return () => set.delete(onMessage);
  }

  onOrder(handler: (order: Order) => void): void {
    this.orders.add(handler);
  }
}
