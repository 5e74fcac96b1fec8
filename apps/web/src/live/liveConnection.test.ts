import { afterEach, describe, expect, it, vi } from 'vitest';
import { type LiveConnectionState, liveBackoff, runLiveConnection } from './liveConnection';
import { type LiveEvent, liveEventOf } from './liveEvent';

afterEach(() => vi.unstubAllGlobals());

function sse(text: string): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(text));
      controller.close();
    },
  });
  return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
}

describe('runLiveConnection', () => {
  it('tries again after a failed answer or an ended stream, and stops on a refusal', async () => {
    const answers = [
      () => new Response('Bad gateway', { status: 502 }),
      () => Promise.reject(new TypeError('network down')),
      () => sse('event: click\ndata: {"id":"a","campaign":"c1"}\n\n'),
      () => new Response(JSON.stringify({ message: 'Access denied.' }), { status: 403 }),
    ];
    const fetchMock = vi.fn(async () => (answers.shift() ?? answers[0]!)());
    vi.stubGlobal('fetch', fetchMock);
    const states: LiveConnectionState[] = [];
    const events: LiveEvent[] = [];
    await runLiveConnection({
      campaign: 'c1',
      workspace: 3,
      signal: new AbortController().signal,
      onEvent: (event) => events.push(event),
      onState: (state) => states.push(state),
      backoff: () => 1,
    });
    expect(states.map((state) => state.status)).toEqual([
      'connecting',
      'reconnecting',
      'reconnecting',
      'live',
      'reconnecting',
      'refused',
    ]);
    expect(states.at(-1)).toEqual({ status: 'refused', httpStatus: 403, message: 'Access denied.' });
    expect(events.map((event) => event.id)).toEqual(['a']);
    expect(fetchMock).toHaveBeenCalledTimes(4);
    expect(fetchMock.mock.calls[0]).toEqual([
      '/api/live?campaign=c1',
      expect.objectContaining({ headers: expect.objectContaining({ 'X-Workspace': '3' }) }),
    ]);
  });

  it('waits longer after each failure, up to 30 seconds', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map(liveBackoff)).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000]);
  });
});

describe('liveEventOf', () => {
  it('reads a conversion without money as having no payout, and skips kinds it does not know', () => {
    const masked = liveEventOf('conversion', '{"id":"v","state":"pending","sampled":true,"rate":3}');
    expect(masked).toMatchObject({ kind: 'conversion', payout: null, bot: null, sampled: true, rate: 3 });
    expect(liveEventOf('heartbeat', '{}')).toBeNull();
    expect(liveEventOf('click', 'not json')).toBeNull();
  });
});
