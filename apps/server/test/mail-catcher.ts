import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { eventually } from './eventually.js';

// A real SMTP server on 127.0.0.1 for the tests: it accepts every message and keeps it, parsed just
// enough to read the subject, the plain and HTML bodies and the links in them.

export interface CaughtMail {
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
  raw: string;
}

function decodeEncodedWords(value: string): string {
  return value.replace(
    /=\?([^?]+)\?([BbQq])\?([^?]*)\?=\s*/g,
    (_match, _charset: string, encoding: string, text: string) =>
      encoding.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : Buffer.from(
            text
              .replace(/_/g, ' ')
              .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
            'latin1',
          ).toString('utf8'),
  );
}

function splitHeaders(part: string): { headers: Map<string, string>; body: string } {
  const index = part.search(/\r?\n\r?\n/);
  const head = index === -1 ? part : part.slice(0, index);
  const body = index === -1 ? '' : part.slice(index).replace(/^\r?\n\r?\n/, '');
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function decodeBody(body: string, encoding: string | undefined): string {
  switch ((encoding ?? '7bit').toLowerCase()) {
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    case 'quoted-printable':
      return Buffer.from(
        body
          .replace(/=\r?\n/g, '')
          .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
        'latin1',
      ).toString('utf8');
    default:
      return body;
  }
}

/** The text/plain and text/html parts of a message, nested multiparts included. */
function collectParts(part: string, into: { text: string; html: string }): void {
  const { headers, body } = splitHeaders(part);
  const type = headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (/^multipart\//i.test(type) && boundary) {
    const sections = body.split(`--${boundary}`).slice(1);
    for (const section of sections) {
      if (section.startsWith('--')) break;
      collectParts(section.replace(/^\r?\n/, ''), into);
    }
    return;
  }
  const decoded = decodeBody(body, headers.get('content-transfer-encoding'));
  if (/^text\/html/i.test(type)) into.html += decoded;
  else if (/^text\/plain/i.test(type)) into.text += decoded;
}

export function parseMail(raw: string, to: string[], from: string): CaughtMail {
  const { headers } = splitHeaders(raw);
  const parts = { text: '', html: '' };
  collectParts(raw, parts);
  return { to, from, subject: decodeEncodedWords(headers.get('subject') ?? ''), raw, ...parts };
}

export class MailCatcher {
  readonly messages: CaughtMail[] = [];
  private server: SMTPServer | undefined;
  private port = 0;

  async start(): Promise<void> {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const to = session.envelope.rcptTo.map((address) => address.address.toLowerCase());
          const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
          this.messages.push(parseMail(Buffer.concat(chunks).toString('utf8'), to, from));
          callback();
        });
      },
    });
    const server = this.server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    this.port = (server.server.address() as AddressInfo).port;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Waits for the next message to `to` matching `subject` (sending happens off the request path). */
  async next(to: string, subject: RegExp, timeoutMs = 10_000): Promise<CaughtMail> {
    const index = await eventually(
      () => {
        const found = this.messages.findIndex(
          (mail) => mail.to.includes(to.toLowerCase()) && subject.test(mail.subject),
        );
        return found !== -1 && found;
      },
      () => `no email to ${to} matching ${subject}`,
      { withinMs: timeoutMs, everyMs: 50 },
    );
    return this.messages.splice(index, 1)[0] as CaughtMail;
  }

  /** Messages to `to` so far, without waiting. */
  to(address: string): CaughtMail[] {
    return this.messages.filter((mail) => mail.to.includes(address.toLowerCase()));
  }
}

/** The first link in a plain-text body that starts with `base`. */
export function linkIn(mail: CaughtMail, base: string): string {
  const escaped = base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`${escaped}\\S*`).exec(mail.text);
  if (!match) throw new Error(`no link starting with ${base} in:\n${mail.text}`);
  return match[0];
}

/** The token: the last path segment of a link. */
export function tokenOf(link: string): string {
  return new URL(link, 'http://placeholder').pathname.split('/').pop() ?? '';
}
