// A Server-Sent Events reader for a stream read with fetch (the dashboard keeps its token out of URLs, so
// it cannot use EventSource). It follows the WHATWG event-stream rules the live view needs: lines end in
// LF, CR or CRLF, possibly split across chunks; `:` lines are comments (the server's `: ping`); `data:`
// lines join with LF; a blank line dispatches; a message with no data is not dispatched.

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
  let buffer = '';
  /** A chunk ended on CR: an LF starting the next one belongs to that line end. */
  let afterCr = false;
  let event = '';
  let data: string[] = [];
  let lastId: string | null = null;

  const line = (text: string) => {
    if (text === '') {
      if (data.length > 0) onMessage({ event: event || 'message', data: data.join('\n'), id: lastId });
      event = '';
      data = [];
      return;
    }
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
    else if (field === 'id' && !value.includes('\0')) lastId = value;
  };

  return {
    push(chunk) {
      let text = chunk;
      if (afterCr && text.startsWith('\n')) text = text.slice(1);
      afterCr = false;
      buffer += text;
      let start = 0;
      for (let index = 0; index < buffer.length; index += 1) {
        const char = buffer[index];
        if (char !== '\n' && char !== '\r') continue;
        line(buffer.slice(start, index));
        if (char === '\r') {
          if (index + 1 === buffer.length) afterCr = true;
          else if (buffer[index + 1] === '\n') index += 1;
        }
        start = index + 1;
      }
      buffer = buffer.slice(start);
    },
  };
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
