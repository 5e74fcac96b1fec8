// Live events. Clicks, leads, conversions and outbound postbacks are handed to the hub as they
// happen; each open `GET /api/live` stream is a subscriber that sees its own workspace's events, of one
// campaign when it asked for one. The click path pays one property read while nobody listens
// (`listening`): the event's message is built only when someone, here or on another node, listens.

export type LiveKind = 'click' | 'lead' | 'conversion' | 'postback';

export interface LiveEvent {
  kind: LiveKind;
  /** The workspace of the event's campaign; null (a campaign of no workspace) reaches nobody. */
  workspaceId: number | null;
  campaign: string | null;
  data: Record<string, unknown>;
}

export interface LiveFilter {
  workspaceId: number;
  campaign?: string | undefined;
}

/** How an event reaches a subscriber: `rate` 1 is every event; N is about one of every N. */
export interface Sampling {
  sampled: boolean;
  rate: number;
}

export type LiveSend = (event: LiveEvent, sampling: Sampling) => void;

/** Events a second one subscriber gets before it gets only one of several. */
export const LIVE_EVENTS_PER_SECOND = 50;

const WINDOW_MS = 1000;

interface Subscriber {
  filter: LiveFilter;
  send: LiveSend;
  windowStart: number;
  /** Events that matched in this window, and in the one before. */
  matched: number;
  previous: number;
}

export class LiveHub {
  /** True while a stream is open here or (with Redis) on another node: read on every click. */
  listening = false;
  private readonly subscribers = new Set<Subscriber>();
  private remoteUntil = 0;
  private remoteTimer: NodeJS.Timeout | null = null;
  /** Set when the hub is shared through Redis (redis-live.ts): what this node publishes goes there too. */
  forward: ((event: LiveEvent) => void) | null = null;
  /** Told when this node's first stream opens or its last one closes. */
  onLocalChange: ((listening: boolean) => void) | null = null;

  constructor(
    private readonly now: () => number = Date.now,
    private readonly perSecond = LIVE_EVENTS_PER_SECOND,
  ) {}

  /** Another node has told this one, through Redis, that it has a stream open. */
  get othersListening(): boolean {
    return this.remoteUntil > this.now();
  }

  /** An event of this node. Call only when `listening`, so that nobody builds a message for no one. */
  publish(event: LiveEvent): void {
    if (this.subscribers.size > 0) this.deliver(event);
    // Only another node's stream needs it sent on.
    if (this.forward && this.othersListening) this.forward(event);
  }

  /** An event to this node's streams only (one another node published). */
  deliver(event: LiveEvent): void {
    if (event.workspaceId === null) return;
    const at = this.now();
    for (const subscriber of this.subscribers) {
      const { filter } = subscriber;
      if (filter.workspaceId !== event.workspaceId) continue;
      if (filter.campaign !== undefined && filter.campaign !== event.campaign) continue;
      const sampling = this.sample(subscriber, at);
      if (!sampling) continue;
      try {
        subscriber.send(event, sampling);
      } catch {
        // A stream that cannot take a message is closed by its own route; the others still get theirs.
      }
    }
  }

  subscribe(filter: LiveFilter, send: LiveSend): () => void {
    const subscriber: Subscriber = { filter, send, windowStart: this.now(), matched: 0, previous: 0 };
    this.subscribers.add(subscriber);
    if (this.subscribers.size === 1) this.onLocalChange?.(true);
    this.update();
    return () => {
      if (!this.subscribers.delete(subscriber)) return;
      if (this.subscribers.size === 0) this.onLocalChange?.(false);
      this.update();
    };
  }

  /** Another node has a stream open; its notice is good for `forMs`. */
  remoteListening(forMs: number): void {
    this.remoteUntil = this.now() + forMs;
    if (this.remoteTimer) clearTimeout(this.remoteTimer);
    this.remoteTimer = setTimeout(() => {
      this.remoteTimer = null;
      this.update();
    }, forMs);
    this.remoteTimer.unref();
    this.update();
  }

  close(): void {
    if (this.remoteTimer) clearTimeout(this.remoteTimer);
    this.remoteTimer = null;
    this.subscribers.clear();
    this.remoteUntil = 0;
    this.update();
  }

  private update(): void {
    this.listening = this.subscribers.size > 0 || this.remoteUntil > this.now();
  }

  /**
   * One of every `rate` matching events goes out, `rate` set by how many matched in this second and the
   * last: a burst is thinned as it grows, not only a second later. Null: this one is skipped.
   */
  private sample(subscriber: Subscriber, at: number): Sampling | null {
    if (at - subscriber.windowStart >= WINDOW_MS) {
      subscriber.previous = at - subscriber.windowStart >= 2 * WINDOW_MS ? 0 : subscriber.matched;
      subscriber.matched = 0;
      subscriber.windowStart = at;
    }
    subscriber.matched += 1;
    const busiest = Math.max(subscriber.previous, subscriber.matched);
    const rate = Math.max(1, Math.ceil(busiest / this.perSecond));
    if (rate > 1 && subscriber.matched % rate !== 0) return null;
    return { sampled: rate > 1, rate };
  }
}
