// Server-Sent Events read from a fetch body (the dashboard keeps its token out of URLs, so it cannot use
// EventSource). The event-stream rules themselves (line ends, comments, multi-line data) are
// eventsource-parser's; this names a message `message` when the server named none, as EventSource does.
import { createParser } from 'eventsource-parser';

export interface SseMessage {
  /** `message` when the server named none. */
  event: string;
  data: string;
  id: string | null;
}

export interface SseParser {
  /** Text as it arrives, in chunks cut anywhere. */
  push(chunk: string): void;
}

export function createSseParser(onMessage: (message: SseMessage) => void): SseParser {
  const parser = createParser({
    onEvent: ({ event, data, id }) => onMessage({ event: event || 'message', data, id: id ?? null }),
  });
  return { push: (chunk) => parser.feed(chunk) };
}

/** Reads a byte stream to its end, handing each message to `onMessage`; UTF-8 split across chunks is kept whole. */
export async function readSse(body: ReadableStream<Uint8Array>, onMessage: (message: SseMessage) => void) {
  const parser = createSseParser(onMessage);
  const decoder = new TextDecoder();
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.push(decoder.decode(value, { stream: true }));
    }
  } finally {
    reader.releaseLock();
  }
}
