import { describe, expect, it } from 'vitest';
import { withoutMoney } from '../src/auth/money.js';
import { type LiveEvent, LiveHub, type Sampling } from '../src/live/hub.js';

// The hub on its own, with a clock the test moves: who gets what, and the sampling of a busy stream.

function event(workspaceId: number | null, campaign: string, id = 0): LiveEvent {
  return { kind: 'click', workspaceId, campaign, data: { id, campaign } };
}

function collect(hub: LiveHub, filter: { workspaceId: number; campaign?: string }) {
  const got: { event: LiveEvent; sampling: Sampling }[] = [];
  const stop = hub.subscribe(filter, (sent, sampling) => got.push({ event: sent, sampling }));
  return { got, stop };
}

describe('live hub', () => {
  it('listens only while a stream is open here or another node says one is', () => {
    let clock = 0;
    const hub = new LiveHub(() => clock);
    expect(hub.listening).toBe(false);
    const { stop } = collect(hub, { workspaceId: 1 });
    expect(hub.listening).toBe(true);
    stop();
    expect(hub.listening).toBe(false);
    hub.remoteListening(15_000);
    expect(hub.listening).toBe(true);
    clock = 20_000;
    hub.close();
    expect(hub.listening).toBe(false);
  });

  it('sends a stream its workspace, of its campaign when it names one', () => {
    const hub = new LiveHub(() => 0);
    const all = collect(hub, { workspaceId: 1 });
    const one = collect(hub, { workspaceId: 1, campaign: 'b' });
    hub.publish(event(1, 'a'));
    hub.publish(event(2, 'a'));
    hub.publish(event(null, 'a'));
    hub.publish(event(1, 'b'));
    expect(all.got.map((entry) => entry.event.campaign)).toEqual(['a', 'b']);
    expect(one.got.map((entry) => entry.event.campaign)).toEqual(['b']);
    expect(all.got.every((entry) => !entry.sampling.sampled && entry.sampling.rate === 1)).toBe(true);
  });

  it('forwards to other nodes only while one of them listens', () => {
    let clock = 0;
    const hub = new LiveHub(() => clock);
    const forwarded: LiveEvent[] = [];
    hub.forward = (sent) => forwarded.push(sent);
    collect(hub, { workspaceId: 1 });
    hub.publish(event(1, 'a', 1));
    hub.remoteListening(15_000);
    hub.publish(event(1, 'a', 2));
    clock = 16_000;
    hub.publish(event(1, 'a', 3));
    expect(forwarded.map((sent) => sent.data.id)).toEqual([2]);
    hub.close();
  });

  it('samples a busy stream and says so in each message, then sends everything again', () => {
    let clock = 0;
    const hub = new LiveHub(() => clock, 50);
    const { got } = collect(hub, { workspaceId: 1 });
    for (let index = 0; index < 500; index += 1) hub.publish(event(1, 'a', index));
    // The first 50 of the second are all sent; then about one of every N, N growing with the burst.
    expect(got.slice(0, 50).every((entry) => !entry.sampling.sampled)).toBe(true);
    const sampled = got.slice(50);
    expect(sampled.length).toBeGreaterThan(0);
    expect(sampled.every((entry) => entry.sampling.sampled && entry.sampling.rate > 1)).toBe(true);
    expect(got.length).toBeLessThan(250);
    expect(Math.max(...got.map((entry) => entry.sampling.rate))).toBe(10);

    // The next second is thinned by what the last one saw: 1 of 10 from its first event.
    clock = 1000;
    got.length = 0;
    for (let index = 0; index < 20; index += 1) hub.publish(event(1, 'a', index));
    expect(got.map((entry) => entry.sampling)).toEqual([
      { sampled: true, rate: 10 },
      { sampled: true, rate: 10 },
    ]);

    // A quiet second later, every event goes out again, unmarked.
    clock = 5000;
    got.length = 0;
    hub.publish(event(1, 'a'));
    expect(got.map((entry) => entry.sampling)).toEqual([{ sampled: false, rate: 1 }]);
  });

  it('leaves money keys out of a message, not zeroed', () => {
    expect(withoutMoney({ id: 'x', cost: 0, payout: 3, currency: 'USD' })).toEqual({ id: 'x', currency: 'USD' });
  });
});
