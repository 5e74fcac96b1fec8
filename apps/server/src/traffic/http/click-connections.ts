// Connections that carry clicks, served without Node's HTTP machinery (app.ts hands this every new
// connection first). Node's HTTP server costs the event loop more per request than routing a click does
// (a request and a response object, their streams and events, the header objects, the timers;
// bench/README.md), and a click is the one request that arrives at ad-network rates. Kept because the
// differential fuzz test (test/click-connections-fuzz.test.ts) finds it answers byte for byte as Node does.
//
// A connection is read here for as long as it brings plain clicks: `GET /c/{campaign}?…` over HTTP/1.1,
// whole in what has arrived, on a live campaign, with nothing that asks for more than a click needs (no
// body, no Expect, no Upgrade, no Connection but keep-alive, no repeated header that matters). The first
// request that is anything else — another path, another method, a request cut in two by the network,
// an unusual header, a malformed line, a server shutting down — and the connection goes to Node's HTTP
// server for good, from that request's first byte on (and so to Fastify and fast-click.ts). Node then
// frames it, answers it or refuses it exactly as if it had had the connection from the start; nothing
// here ever decides where a request ends that Node might see otherwise, so the two cannot disagree about
// what a request is (request smuggling).
//
// The answers are the bytes Node writes for the same click (fast-click.ts, `answerOf`): the same status
// line, headers in the same order, Date, Connection and Keep-Alive. Answers go out in order, one request
// at a time per connection, in the event loop's batches (AnswerBatch).
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { parse as parseQuery } from 'fast-querystring';
import type { TrackerLog, TrafficEngine } from '../engine.js';
import {
  AnswerBatch,
  type AnswerHead,
  answerOf,
  type ClickOutcome,
  clientAddress,
  INVALID_HEADER_CHARACTER,
  internalErrorAnswer,
} from './answers.js';
import { EXTERNAL_ID } from './routes.js';

/** The most a request's head may take here (Node's own limit, `maxHeaderSize`, is 16 KiB). */
const MAX_HEAD_CHARACTERS = 16 * 1024;
/** Bytes a client may send ahead of its answers (pipelined clicks) before the connection is closed. */
const MAX_WAITING_CHARACTERS = 64 * 1024;

/** A click read from a connection: what Tracker.click needs, and where the next request starts. */
export interface ClickHead {
  campaignExternalId: string;
  /** The query string, after `?` ('' for none). */
  query: string;
  userAgent: string | undefined;
  referrer: string | undefined;
  cookieHeader: string | undefined;
  forwardedFor: string | undefined;
  /** Where the request after this one starts in the text. */
  end: number;
}

const HEADER_LINES = /^(?:[!#$%&'*+\-.^_`|~0-9A-Za-z]+:[\t\x20-\x7e\x80-\xff]*\r\n)*$/;
/** The lengths of the header names readClickHead reads or refuses. */
const READ_LENGTHS = (() => {
  const lengths: boolean[] = [];
  for (const name of [
    'host',
    'user-agent',
    'referer',
    'cookie',
    'x-forwarded-for',
    'connection',
    'content-length',
    'transfer-encoding',
    'expect',
    'upgrade',
    'http2-settings',
  ])
    lengths[name.length] = true;
  return lengths;
})();
/** A request target of visible ASCII, no fragment. */
const TARGET = /^\/c\/[\x21-\x22\x24-\x7e]*$/;
const REQUEST_LINE_END = ' HTTP/1.1';

/**
 * The click whose head starts at `start` of `text` (the connection's bytes as latin1, one character a
 * byte, as Node reads request heads), or null when the head is not all there or is not a plain click (see
 * the top of the file). Only the headers a click reads are looked at beyond checking their form.
 */
export function readClickHead(text: string, start: number): ClickHead | null {
  const headEnd = text.indexOf('\r\n\r\n', start);
  if (headEnd < 0 || headEnd - start > MAX_HEAD_CHARACTERS) return null;
  if (!text.startsWith('GET /c/', start)) return null;
  let lineEnd = text.indexOf('\r\n', start);
  const requestLine = text.slice(start, lineEnd);
  if (!requestLine.endsWith(REQUEST_LINE_END)) return null;
  const target = requestLine.slice(4, requestLine.length - REQUEST_LINE_END.length);
  if (!TARGET.test(target)) return null;
  const question = target.indexOf('?');
  const campaignExternalId = question < 0 ? target.slice(3) : target.slice(3, question);
  if (!EXTERNAL_ID.test(campaignExternalId)) return null;
  // Every header line at once: a token, a colon, a value of the characters llhttp takes, CRLF. A folded
  // line, a bare CR or LF, a control character or a name that is not a token is Node's to refuse.
  if (!HEADER_LINES.test(text.slice(lineEnd + 2, headEnd + 2))) return null;
  let hasHost = false;
  let userAgent: string | undefined;
  let referrer: string | undefined;
  let cookieHeader: string | undefined;
  let forwardedFor: string | undefined;
  while (lineEnd < headEnd) {
    const lineStart = lineEnd + 2;
    lineEnd = text.indexOf('\r\n', lineStart);
    const colon = text.indexOf(':', lineStart);
    // Only names of the lengths of those read below are compared (most headers are not).
    if (!READ_LENGTHS[colon - lineStart]) continue;
    const name = text.slice(lineStart, colon).toLowerCase();
    const value = withoutSpaces(text, colon + 1, lineEnd);
    switch (name) {
      case 'host':
        if (hasHost) return null;
        hasHost = true;
        break;
      case 'user-agent':
        if (userAgent !== undefined) return null;
        userAgent = value;
        break;
      case 'referer':
        if (referrer !== undefined) return null;
        referrer = value;
        break;
      case 'cookie':
        if (cookieHeader !== undefined) return null;
        cookieHeader = value;
        break;
      case 'x-forwarded-for':
        if (forwardedFor !== undefined) return null;
        forwardedFor = value;
        break;
      case 'connection':
        if (value.toLowerCase() !== 'keep-alive') return null;
        break;
      case 'content-length':
      case 'transfer-encoding':
      case 'expect':
      case 'upgrade':
      case 'http2-settings':
        return null;
    }
  }
  // HTTP/1.1 asks for a Host header (Node answers 400 without one).
  if (!hasHost) return null;
  return {
    campaignExternalId,
    query: question < 0 ? '' : target.slice(question + 1),
    userAgent,
    referrer,
    cookieHeader,
    forwardedFor,
    end: headEnd + 4,
  };
}

/** `text` from `from` to `to` without the spaces and tabs around it (not `trim`: it also takes away no-break spaces). */
function withoutSpaces(text: string, from: number, to: number): string {
  let start = from;
  let end = to;
  while (start < end && isSpace(text.charCodeAt(start))) start += 1;
  while (end > start && isSpace(text.charCodeAt(end - 1))) end -= 1;
  return text.slice(start, end);
}

const isSpace = (code: number) => code === 32 || code === 9;

/** The bytes Node's ServerResponse writes for `head` with keep-alive (`writeHead` with a flat list, then `end`). */
export function rawAnswer(head: AnswerHead, date: string, keepAliveSeconds: number): string {
  let text = `HTTP/1.1 ${head.status} ${STATUS_CODES[head.status]}\r\n`;
  for (let index = 0; index < head.headers.length; index += 2) {
    text += `${head.headers[index]}: ${head.headers[index + 1]}\r\n`;
  }
  text += `Date: ${date}\r\nConnection: keep-alive\r\n`;
  if (keepAliveSeconds > 0) text += `Keep-Alive: timeout=${keepAliveSeconds}\r\n`;
  return `${text}\r\n${head.body}`;
}

/** Date as Node writes it, made once a second (Node caches its own the same way). */
let date = '';
let dateUntil = 0;
function httpDate(): string {
  const now = Date.now();
  if (now >= dateUntil) {
    date = new Date(now).toUTCString();
    dateUntil = now - (now % 1000) + 1000;
  }
  return date;
}

export interface ClickConnectionOptions {
  trustProxy: boolean;
  log: TrackerLog;
  closing: () => boolean;
  /** Node's HTTP server's keep-alive timeout: an idle connection is closed after it. */
  keepAliveTimeoutMs: number;
  /** Gives the connection to Node's HTTP server (its own 'connection' listener). */
  handOver: (socket: Socket) => void;
}

/** One connection read here: what has arrived and not been answered, and whether an answer is due. */
interface Connection {
  socket: Socket;
  /** Bytes received and not yet read as requests (latin1). */
  text: string;
  /** A click is being routed; the next request waits for its answer. */
  busy: boolean;
  /** The client has closed its side, or the server is closing: end after the answer due. */
  ending: boolean;
  onData: (chunk: Buffer) => void;
  onTimeout: () => void;
  onEnd: () => void;
  onClose: () => void;
}

export class ClickConnections {
  private readonly open = new Set<Connection>();
  private readonly answers: AnswerBatch<Connection>;
  private readonly keepAliveSeconds: number;

  constructor(
    private readonly tracker: TrafficEngine,
    private readonly options: ClickConnectionOptions,
  ) {
    this.keepAliveSeconds = Math.floor(options.keepAliveTimeoutMs / 1000);
    this.answers = new AnswerBatch<Connection>(
      tracker,
      (connection, result) => this.answer(connection, result),
      (connection, error) => this.fail(connection, error),
    );
  }

  /** A new connection: read here while it brings clicks. */
  accept(socket: Socket): void {
    // Accepted while the server closes: Node's server closes it with the others it reads.
    if (this.options.closing()) {
      this.options.handOver(socket);
      return;
    }
    const connection: Connection = {
      socket,
      text: '',
      busy: false,
      ending: false,
      onData: (chunk) => {
        connection.text += chunk.toString('latin1');
        if (connection.busy) {
          // Pipelined requests wait for the answer due; a client sending without reading is cut off.
          if (connection.text.length > MAX_WAITING_CHARACTERS) socket.destroy();
          return;
        }
        this.next(connection);
      },
      onTimeout: () => socket.destroy(),
      onEnd: () => {
        connection.ending = true;
        if (!connection.busy) this.finish(connection);
      },
      onClose: () => {
        this.open.delete(connection);
      },
    };
    this.open.add(connection);
    socket.on('data', connection.onData);
    socket.on('end', connection.onEnd);
    socket.on('close', connection.onClose);
    socket.on('timeout', connection.onTimeout);
    // Errors (a reset connection) close it; nothing else is owed to a client that is gone.
    socket.on('error', noop);
    socket.setTimeout(this.options.keepAliveTimeoutMs);
  }

  /** The server is closing: idle connections close now, the others after their answer. */
  closeIdle(): void {
    for (const connection of this.open) {
      connection.ending = true;
      if (!connection.busy) this.finish(connection);
    }
  }

  /** Reads the next request: a click is routed here; anything else hands the connection to Node. */
  private next(connection: Connection): void {
    const { text } = connection;
    if (text.length === 0) return;
    if (this.options.closing()) {
      this.handOver(connection);
      return;
    }
    const head = readClickHead(text, 0);
    if (!head || !this.tracker.hasClickCampaign(head.campaignExternalId)) {
      this.handOver(connection);
      return;
    }
    connection.text = head.end === text.length ? '' : text.slice(head.end);
    connection.busy = true;
    const peer = connection.socket.remoteAddress ?? '';
    this.tracker
      .click({
        campaignExternalId: head.campaignExternalId,
        query: head.query.length > 0 ? parseQuery(head.query) : {},
        ip: clientAddress(head.forwardedFor, peer, this.options.trustProxy),
        userAgent: head.userAgent,
        referrer: head.referrer,
        cookieHeader: head.cookieHeader,
      })
      .then(
        (result) => this.answers.add(connection, result),
        (error: unknown) => this.fail(connection, error),
      );
  }

  private answer(connection: Connection, result: ClickOutcome): void {
    const head = answerOf(result);
    for (let index = 1; index < head.headers.length; index += 2) {
      // What Node refuses to write (ERR_INVALID_CHAR), refused here too.
      if (INVALID_HEADER_CHARACTER.test(head.headers[index]!)) {
        this.fail(connection, new TypeError(`Invalid character in header content ["${head.headers[index - 1]}"]`));
        return;
      }
    }
    this.written(connection, rawAnswer(head, httpDate(), this.keepAliveSeconds));
  }

  private fail(connection: Connection, error: unknown): void {
    this.options.log.error({ err: error }, 'unexpected error');
    this.written(connection, rawAnswer(internalErrorAnswer(), httpDate(), this.keepAliveSeconds));
  }

  /** Writes an answer and goes on with the requests that arrived meanwhile. */
  private written(connection: Connection, answer: string): void {
    const { socket } = connection;
    connection.busy = false;
    if (socket.destroyed) return;
    const flowing = socket.write(answer, 'latin1');
    if (connection.ending) {
      this.finish(connection);
      return;
    }
    if (flowing) {
      this.next(connection);
      return;
    }
    // A client that does not read its answers gets no more until it has (as Node's server does).
    connection.busy = true;
    socket.once('drain', () => {
      connection.busy = false;
      if (connection.ending) this.finish(connection);
      else this.next(connection);
    });
  }

  /** Closes a connection that owes nothing (its client has gone, or the server is closing). */
  private finish(connection: Connection): void {
    this.release(connection);
    // Still listened to until it closes: an error unlistened to would end the process.
    connection.socket.on('error', noop);
    connection.socket.end();
  }

  /** Node's HTTP server takes the connection from the request that is not a plain click on. */
  private handOver(connection: Connection): void {
    const { socket, text } = connection;
    this.release(connection);
    socket.setTimeout(0);
    this.options.handOver(socket);
    // Node's parser reads what arrives from now on; what has arrived already it reads now.
    if (text.length > 0) socket.emit('data', Buffer.from(text, 'latin1'));
  }

  private release(connection: Connection): void {
    const { socket } = connection;
    this.open.delete(connection);
    socket.removeListener('data', connection.onData);
    socket.removeListener('end', connection.onEnd);
    socket.removeListener('close', connection.onClose);
    socket.removeListener('timeout', connection.onTimeout);
    socket.removeListener('error', noop);
  }
}

function noop(): void {}
