import { describe, expect, it } from 'vitest';
import { createSseParser, readSse, type SseMessage } from './sseParser';

function parse(chunks: string[]): SseMessage[] {
  const messages: SseMessage[] = [];
  const parser = createSseParser((message) => messages.push(message));
  for (const chunk of chunks) parser.push(chunk);
  return messages;
}

const click = { event: 'click', data: '{"id":"a"}', id: null };

describe('createSseParser', () => {
  it.each([
    ['one chunk', ['event: click\ndata: {"id":"a"}\n\n']],
    ['split mid-line', ['event: cl', 'ick\ndata: {"id"', ':"a"}\n', '\n']],
    ['one character at a time', [...'event: click\ndata: {"id":"a"}\n\n']],
    ['CRLF line ends', ['event: click\r\ndata: {"id":"a"}\r\n\r\n']],
    ['CRLF split between CR and LF', ['event: click\r', '\ndata: {"id":"a"}\r', '\n\r', '\n']],
    // A CR ending a chunk may be the first half of a CRLF, so the message waits for the next byte.
    ['CR line ends', ['event: click\rdata: {"id":"a"}\r\r', ': ping\r']],
    ['comments before and between', [': live\n\n: ping\nevent: click\n: ping\ndata: {"id":"a"}\n\n']],
    ['no space after the colon', ['event:click\ndata:{"id":"a"}\n\n']],
  ])('reads a message sent in %s', (_name, chunks) => {
    expect(parse(chunks)).toEqual([click]);
  });

  it('joins multi-line data with line feeds, keeping spaces after the first', () => {
    expect(parse(['data: first\ndata:  second\ndata\n\n'])).toEqual([
      { event: 'message', data: 'first\n second\n', id: null },
    ]);
  });

  it('dispatches nothing for comments alone, an event without data, or a message not yet ended', () => {
    expect(parse([': ping\n\n', 'event: click\n\n', 'event: lead\ndata: {}\n'])).toEqual([]);
  });

  it('keeps messages apart and forgets the event name after each', () => {
    expect(parse(['event: click\ndata: 1\n\ndata: 2\n\nevent: lead\nid: 7\ndata: 3\n\n'])).toEqual([
      { event: 'click', data: '1', id: null },
      { event: 'message', data: '2', id: null },
      { event: 'lead', data: '3', id: '7' },
    ]);
  });

  it('ignores fields it does not know', () => {
    expect(parse(['retry: 1000\nfoo: bar\nevent: click\ndata: {"id":"a"}\n\n'])).toEqual([click]);
  });
});

describe('readSse', () => {
  it('reads a byte stream whose chunks cut a UTF-8 character in two', async () => {
    const bytes = new TextEncoder().encode('event: click\ndata: {"country":"Côte"}\n\n');
    const cut = bytes.indexOf(0xc3) + 1;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, cut));
        controller.enqueue(bytes.slice(cut));
        controller.close();
      },
    });
    const messages: SseMessage[] = [];
    await readSse(body, (message) => messages.push(message));
    expect(messages).toEqual([{ event: 'click', data: '{"country":"Côte"}', id: null }]);
  });
});
