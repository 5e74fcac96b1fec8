// For component tests: `fetch` answered as the server would, `/api/live` with a stream the test writes
// to, lookups with the campaigns and offers given. Each stream opened is kept, to write to or end.
import { vi } from 'vitest';

export interface FakeStream {
  url: URL;
  headers: Record<string, string>;
  send(kind: string, data: Record<string, unknown>): void;
  /** Raw text, for comments and messages cut anywhere. */
  write(text: string): void;
  end(): void;
  aborted: boolean;
}

export interface FakeLiveServer {
  streams: FakeStream[];
  /** The answer to the next `/api/live` requests: a stream (the default), or a refusal. */
  refuseWith: { status: number; message: string } | null;
}

const encoder = new TextEncoder();

export function fakeLiveServer(lookups: Record<string, Record<string, unknown>[]> = {}): FakeLiveServer {
  const server: FakeLiveServer = { streams: [], refuseWith: null };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      if (url.pathname !== '/api/live') {
        const list = lookups[url.pathname.replace(/^\/api\//, '')] ?? [];
        return new Response(JSON.stringify({ list, total: list.length }));
      }
      if (server.refuseWith) {
        return new Response(JSON.stringify({ message: server.refuseWith.message }), {
          status: server.refuseWith.status,
        });
      }
      let controller!: ReadableStreamDefaultController<Uint8Array>;
      const body = new ReadableStream<Uint8Array>({
        start(streamController) {
          controller = streamController;
        },
      });
      const stream: FakeStream = {
        url,
        headers: (init?.headers ?? {}) as Record<string, string>,
        aborted: false,
        write: (text) => controller.enqueue(encoder.encode(text)),
        send: (kind, data) =>
          controller.enqueue(
            encoder.encode(`event: ${kind}\ndata: ${JSON.stringify({ sampled: false, rate: 1, ...data })}\n\n`),
          ),
        end: () => controller.close(),
      };
      init?.signal?.addEventListener('abort', () => {
        stream.aborted = true;
        controller.error(new DOMException('aborted', 'AbortError'));
      });
      server.streams.push(stream);
      stream.write(': live\n\n');
      return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
    }),
  );
  return server;
}
