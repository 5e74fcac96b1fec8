// A worker's end of the IPC channel to its primary: calls answered by the primary (caps, login limits,
// reports run elsewhere), a bus that reaches every other worker, and the primary's orders (drain, hold
// the reports). One per worker process.
import type { Batch, PrimaryCall, SettleWhat, ToPrimary, ToWorker } from './messages.js';
import { isBatch, isToWorker } from './messages.js';

type Order = Exclude<ToWorker, { sy: 'result' } | { sy: 'bus' } | { sy: 'settle' }>;

export class PrimaryChannel {
  private nextId = 0;
  private readonly waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  private readonly subscribers = new Map<string, Set<(text: string) => void>>();
  private readonly orders = new Set<(order: Order) => void>();
  private settler: (what: SettleWhat) => Promise<void> = async () => undefined;

  constructor() {
    process.on('message', (message: unknown) => {
      if (isBatch(message)) {
        for (const one of message.messages) this.receive(one);
      } else if (isToWorker(message)) this.receive(message);
    });
    // The primary is gone: nothing it owed will come.
    process.on('disconnect', () => {
      for (const waiter of this.waiting.values()) waiter.reject(new Error('the primary process is gone'));
      this.waiting.clear();
    });
  }

  private receive(message: ToWorker): void {
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
    if (message.sy === 'settle') {
      const settled = () => this.send({ sy: 'settled', id: message.id });
      this.settler(message.what).then(settled, settled);
      return;
    }
    for (const order of this.orders) order(message);
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

  /** Sent at the end of this event-loop turn, with the turn's other messages. */
  send(message: ToPrimary): void {
    this.outbox.push(message);
    if (this.outbox.length === 1) setImmediate(this.flush);
  }

  private readonly outbox: ToPrimary[] = [];

  private readonly flush = (): void => {
    const messages = this.outbox.splice(0);
    if (!process.connected || !process.send) {
      this.fail(messages, new Error('the primary process is gone'));
      return;
    }
    const batch: Batch<ToPrimary> | ToPrimary = messages.length === 1 ? messages[0]! : { sy: 'batch', messages };
    process.send(batch, undefined, {}, (error: Error | null) => {
      if (error) this.fail(messages, error);
    });
  };

  private fail(messages: ToPrimary[], error: Error): void {
    for (const message of messages) {
      if (message.sy !== 'call') continue;
      const waiter = this.waiting.get(message.id);
      this.waiting.delete(message.id);
      waiter?.reject(error);
    }
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

  /**
   * Has every other worker settle `what` (settle.ts) and resolves once they have. Never rejects: with
   * the primary gone there is nobody to wait for.
   */
  async settle(what: SettleWhat): Promise<void> {
    await this.call({ op: 'settle', what }).catch(() => undefined);
  }

  /** How this worker settles what another asks of it. */
  onSettle(settler: (what: SettleWhat) => Promise<void>): void {
    this.settler = settler;
  }

  onOrder(handler: (order: Order) => void): void {
    this.orders.add(handler);
  }
}
