// The connection behind the live view: `GET /api/live` read with fetch, so the token travels in the
// Authorization header as on every other call and never in a URL (or a server's access log). A stream
// that ends or fails is opened again after a growing pause; a refusal (401, 403) is not retried, since
// asking again would be refused again, and its reason is shown instead.
import { actingHeaders, buildUrl, reportUnauthorized } from '../api/client';
import { type LiveEvent, liveEventOf } from './liveEvent';
import { readSse } from './sseParser';

export type LiveConnectionState =
  | { status: 'connecting' }
  | { status: 'live' }
  | { status: 'reconnecting'; inMs: number }
  | { status: 'refused'; httpStatus: number; message: string };

export interface LiveConnectionOptions {
  campaign: string | null;
  /** The workspace chosen in this browser; null: the user's default one. */
  workspace: number | null;
  signal: AbortSignal;
  onEvent: (event: LiveEvent) => void;
  onState: (state: LiveConnectionState) => void;
  /** The pause before the attempt-th reconnection (from 1). */
  backoff?: (attempt: number) => number;
}

/** 1 s, 2 s, 4 s… up to 30 s: a server that restarts is back within a second or two, one that is down is not hammered. */
export function liveBackoff(attempt: number): number {
  return Math.min(30_000, 1000 * 2 ** Math.max(0, attempt - 1));
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done);
  });
}

async function refusalMessage(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { message?: unknown };
    if (typeof body.message === 'string' && body.message) return body.message;
  } catch {
    // No JSON: the status text says it.
  }
  return response.statusText;
}

/** Keeps the stream open until `signal` aborts or the server refuses it; resolves then. */
export async function runLiveConnection(options: LiveConnectionOptions): Promise<void> {
  const { signal, onEvent, onState, backoff = liveBackoff } = options;
  let attempt = 0;
  let seq = 0;
  onState({ status: 'connecting' });
  while (!signal.aborted) {
    try {
      const response = await fetch(buildUrl('live', { campaign: options.campaign }), {
        headers: { Accept: 'text/event-stream', ...actingHeaders(options.workspace) },
        signal,
        cache: 'no-store',
      });
      if (response.status === 401 || response.status === 403) {
        onState({ status: 'refused', httpStatus: response.status, message: await refusalMessage(response) });
        if (response.status === 401) reportUnauthorized();
        return;
      }
      if (response.ok && response.body) {
        onState({ status: 'live' });
        attempt = 0;
        await readSse(response.body, (message) => {
          seq += 1;
          const event = liveEventOf(message.event, message.data, seq);
          if (event) onEvent(event);
        });
      } else {
        // A proxy's 502 while the server restarts, say: its page is not read, and tried again below.
        await response.body?.cancel();
      }
    } catch {
      // A network failure or a cut stream: tried again below, unless it was our own abort.
    }
    if (signal.aborted) return;
    attempt += 1;
    const inMs = backoff(attempt);
    onState({ status: 'reconnecting', inMs });
    await pause(inMs, signal);
  }
}
