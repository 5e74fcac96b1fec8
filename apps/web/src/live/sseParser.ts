// A Server-Sent Events reader for a stream read with fetch (the dashboard keeps its token out of URLs, so
// it cannot use EventSource). eventsource-parser follows the WHATWG event-stream rules: lines end in LF, CR
// or CRLF, possibly split across chunks; `:` lines are comments (the server's `: ping`); `data:` lines join
// with LF; a blank line dispatches; a message with no data is not dispatched.
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
  // The last event ID lasts past its message, as EventSource keeps it; the library gives each message its own.
  let lastId: string | null = null;
  const parser = createParser({
    onId: (id) => {
      lastId = id;
    },
    onEvent: (message) => onMessage({ event: message.event || 'message', data: message.data, id: lastId }),
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
