import { connect, type Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readClickHead } from '../src/traffic/http/click-connections.js';
import { campaignOnFlow, createRecord, type StoredRecord } from './fixtures/config-records.js';
import { countryIn, GB_IP, IPHONE } from './fixtures/traffic.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, DatabaseUnderTest, login } from './harness.js';

// Connections that bring only clicks are read without Node's HTTP server (src/tracker/click-connections.ts);
// at the first request that is anything else, Node's server takes the connection over. Every request
// below, sent as raw bytes, must be answered exactly as Node's server alone answers it (the same app
// with the click connections turned off): the same status, headers and body, framed the same way.

const CLICK = (campaign: string, extra = '') =>
  `GET /c/${campaign}?zone=z1&utm_source=fb HTTP/1.1\r\nHost: tracker.example\r\nUser-Agent: ${IPHONE}\r\n` +
  `X-Forwarded-For: ${GB_IP}\r\nReferer: https://news.example/a\r\n${extra}\r\n`;

describe('readClickHead', () => {
  const head = (text: string) => readClickHead(text, 0);

  it('reads a plain click and where the next request starts', () => {
    const text = `${CLICK('abc')}GET /c/abc HTTP/1.1\r\n`;
    const click = head(text);
    expect(click).toEqual({
      campaignExternalId: 'abc',
      query: 'zone=z1&utm_source=fb',
      userAgent: IPHONE,
      referrer: 'https://news.example/a',
      cookieHeader: undefined,
      forwardedFor: GB_IP,
      end: CLICK('abc').length,
    });
    expect(readClickHead(CLICK('abc') + CLICK('xyz'), click!.end)?.campaignExternalId).toBe('xyz');
  });

  it('takes spaces and tabs from around a value, not a no-break space', () => {
    const click = head('GET /c/abc HTTP/1.1\r\nhost: h\r\nuser-agent: \t x\xa0 \t\r\nCOOKIE:a=1\r\n\r\n');
    expect(click).toMatchObject({ userAgent: 'x\xa0', cookieHeader: 'a=1', query: '' });
  });

  it.each([
    ['the head not all there', 'GET /c/abc HTTP/1.1\r\nHost: h\r\n'],
    ['HEAD', 'HEAD /c/abc HTTP/1.1\r\nHost: h\r\n\r\n'],
    ['POST', 'POST /c/abc HTTP/1.1\r\nHost: h\r\n\r\n'],
    ['HTTP/1.0', 'GET /c/abc HTTP/1.0\r\nHost: h\r\n\r\n'],
    ['another path', 'GET /api/me HTTP/1.1\r\nHost: h\r\n\r\n'],
    ['the offer link', 'GET /c/abc/offer?clickid=x HTTP/1.1\r\nHost: h\r\n\r\n'],
    ['an absolute target', 'GET http://h/c/abc HTTP/1.1\r\nHost: h\r\n\r\n'],
    ['a fragment', 'GET /c/abc#x HTTP/1.1\r\nHost: h\r\n\r\n'],
    ['a byte beyond ASCII in the target', 'GET /c/abc?x=\xc3\xa9 HTTP/1.1\r\nHost: h\r\n\r\n'],
    ['an encoded campaign id', 'GET /c/%41bc HTTP/1.1\r\nHost: h\r\n\r\n'],
    ['no Host', 'GET /c/abc HTTP/1.1\r\nUser-Agent: x\r\n\r\n'],
    ['two Hosts', 'GET /c/abc HTTP/1.1\r\nHost: h\r\nHost: i\r\n\r\n'],
    ['two cookies headers', 'GET /c/abc HTTP/1.1\r\nHost: h\r\nCookie: a=1\r\ncookie: b=2\r\n\r\n'],
    [
      'two X-Forwarded-For',
      'GET /c/abc HTTP/1.1\r\nHost: h\r\nX-Forwarded-For: 1.1.1.1\r\nx-forwarded-for: 2.2.2.2\r\n\r\n',
    ],
    ['a Content-Length', 'GET /c/abc HTTP/1.1\r\nHost: h\r\nContent-Length: 0\r\n\r\n'],
    ['a Transfer-Encoding', 'GET /c/abc HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n'],
    ['an Expect', 'GET /c/abc HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\n\r\n'],
    ['an Upgrade', 'GET /c/abc HTTP/1.1\r\nHost: h\r\nUpgrade: websocket\r\n\r\n'],
    ['Connection: close', 'GET /c/abc HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n'],
    ['a line ending in a bare LF', 'GET /c/abc HTTP/1.1\r\nHost: h\nX: y\r\n\r\n'],
    ['a folded header', 'GET /c/abc HTTP/1.1\r\nHost: h\r\nUser-Agent: a\r\n b\r\n\r\n'],
    ['a header without a colon', 'GET /c/abc HTTP/1.1\r\nHost: h\r\nnocolon\r\n\r\n'],
    ['a space in a header name', 'GET /c/abc HTTP/1.1\r\nHost: h\r\nUser Agent: a\r\n\r\n'],
    ['a control character in a value', 'GET /c/abc HTTP/1.1\r\nHost: h\r\nUser-Agent: a\x01b\r\n\r\n'],
    ['a head over 16 KiB', `GET /c/abc HTTP/1.1\r\nHost: h\r\nCookie: ${'a'.repeat(17 * 1024)}\r\n\r\n`],
  ])('leaves to Node: %s', (_name, text) => {
    expect(head(text)).toBeNull();
  });
});

/** Everything the server sends on one connection until it closes it or `settleMs` pass without a byte. */
async function exchange(
  port: number,
  chunks: string[],
  options: { gapMs?: number; settleMs?: number; end?: boolean } = {},
) {
  const socket: Socket = connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  let received = '';
  let closed = false;
  let lastByte = Date.now();
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString('latin1');
    lastByte = Date.now();
  });
  socket.on('error', () => undefined);
  const done = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('close', () => {
    closed = true;
  });
  for (const [index, chunk] of chunks.entries()) {
    if (index > 0) await new Promise((resolve) => setTimeout(resolve, options.gapMs ?? 60));
    socket.write(Buffer.from(chunk, 'latin1'));
  }
  if (options.end) socket.end();
  const settleMs = options.settleMs ?? 250;
  lastByte = Date.now();
  while (!closed && Date.now() - lastByte < settleMs) await new Promise((resolve) => setTimeout(resolve, 20));
  socket.destroy();
  await done;
  return { received, closedByServer: closed };
}

/** An answer with what differs between two answers to the same request taken out: ids and the date. */
const normalized = (text: string) => text.replace(/^Date: .*\r\n/gim, '').replace(/[A-Za-z0-9_-]{22}/g, '<id>');

describe('click connections over real HTTP [sqlite]', () => {
  const db = new DatabaseUnderTest('sqlite');
  let app: FastifyInstance;
  let nodeOnly: FastifyInstance;
  let port: number;
  let nodePort: number;
  let campaign: StoredRecord;
  let nowhere: StoredRecord;

  beforeAll(async () => {
    app = await db.buildApp({
      env: { SWITCHYARD_ADMIN_EMAIL: ADMIN_EMAIL, SWITCHYARD_ADMIN_PASSWORD: ADMIN_PASSWORD },
      trustProxy: true,
    });
    const token = await login(app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const source = await createRecord(app, token, 'traffic-sources', {
      parameters: [{ name: 'Zone', ts_parameter: 'zone', ts_token: '{zone}', internal_token: 'var1', enabled: true }],
    });
    const offer = await createRecord(app, token, 'tracker-offers', {
      url: 'https://offer.example/go?c={clickid}&z={var1}&u={utm_source}',
    });
    campaign = await campaignOnFlow(app, token, source, [
      {
        id: 'g-all',
        name: 'Everyone',
        paths: [{ id: 'p', offers: [{ id: 'o', offer_external_id: offer.external_id }] }],
      },
    ]);
    nowhere = await campaignOnFlow(app, token, source, [
      {
        id: 'g-zz',
        name: 'Nobody',
        condition: countryIn('ZZ'),
        paths: [{ id: 'p-zz', offers: [{ id: 'o-zz', offer_external_id: offer.external_id }] }],
      },
    ]);
    // The same database, the same records, with Node's HTTP server reading every connection.
    nodeOnly = await db.buildAppOnSameDatabase(app, { trustProxy: true, clickConnections: false });
    port = Number(new URL(await app.listen({ port: 0, host: '127.0.0.1' })).port);
    nodePort = Number(new URL(await nodeOnly.listen({ port: 0, host: '127.0.0.1' })).port);
  });

  afterAll(() => db.cleanup());

  const requests = (): [string, string[]][] => {
    const id = String(campaign.external_id);
    return [
      ['a click', [CLICK(id)]],
      ['a returning visitor', [CLICK(id, 'Cookie: sy_vid=abcdefghijklmnop1234; sy_seen=1\r\n')]],
      ['a click with nowhere to go', [CLICK(String(nowhere.external_id))]],
      ['an unknown campaign', [CLICK('noSuchCampaign1')]],
      ['Connection: close', [CLICK(id, 'Connection: close\r\n')]],
      ['HTTP/1.0', [CLICK(id).replace('HTTP/1.1', 'HTTP/1.0')]],
      ['HEAD', [CLICK(id).replace('GET', 'HEAD')]],
      ['POST with a body', [`POST /c/${id} HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n\r\nabc`]],
      // A body that reads as a second click: one request (and one click recorded), not two.
      ['a click with a Content-Length body', [CLICK(id, `Content-Length: ${CLICK(id).length}\r\n`) + CLICK(id)]],
      ['a chunked click', [`${CLICK(id, 'Transfer-Encoding: chunked\r\n')}0\r\n\r\n`]],
      ['bare LF line endings', [CLICK(id).replaceAll('\r\n', '\n')]],
      ['a control character in a header', [CLICK(id, 'X-Thing: a\x01b\r\n')]],
      ['a folded header', [CLICK(id, 'X-Thing: a\r\n b\r\n')]],
      ['no Host', [CLICK(id).replace('Host: tracker.example\r\n', '')]],
      ['a header over 16 KiB', [CLICK(id, `Cookie: ${'a'.repeat(17 * 1024)}\r\n`)]],
      ['a fragment', [CLICK(id).replace('?zone', '#zone')]],
      ['a byte beyond ASCII in the query', [CLICK(id).replace('zone=z1', 'zone=\xc3\xa9')]],
      [
        'a no-break space in the user agent',
        [CLICK(id, 'User-Agent: a\xa0b\r\n').replace(`User-Agent: ${IPHONE}\r\n`, '')],
      ],
      ['an Expect', [CLICK(id, 'Expect: 100-continue\r\n')]],
      ['the offer link', [`GET /c/${id}/offer?clickid=none HTTP/1.1\r\nHost: h\r\n\r\n`]],
      ['two clicks in one write', [CLICK(id) + CLICK(id)]],
      ['a click then an API request in one write', [`${CLICK(id)}GET /api/me HTTP/1.1\r\nHost: h\r\n\r\n${CLICK(id)}`]],
      ['an API request then a click', [`GET /api/me HTTP/1.1\r\nHost: h\r\n\r\n${CLICK(id)}`]],
      ['a click cut in two', [CLICK(id).slice(0, 40), CLICK(id).slice(40)]],
      ['a click, then another cut in two', [CLICK(id) + CLICK(id).slice(0, 30), CLICK(id).slice(30)]],
      ['a click and the client closing its side', [CLICK(id)]],
    ];
  };

  it('answers every request as Node’s HTTP server alone does', async () => {
    for (const [name, chunks] of requests()) {
      const end = name.includes('closing its side');
      const [ours, node] = await Promise.all([exchange(port, chunks, { end }), exchange(nodePort, chunks, { end })]);
      expect(ours.received.length, name).toBeGreaterThan(0);
      expect(normalized(ours.received), name).toBe(normalized(node.received));
      expect(ours.closedByServer, name).toBe(node.closedByServer);
    }
  });

  it('answers a click with the same bytes as Node’s server, and records it', async () => {
    const { received } = await exchange(port, [CLICK(String(campaign.external_id)).replace('zone=z1', 'zone=once')]);
    expect(normalized(received)).toMatch(
      /^HTTP\/1\.1 302 Found\r\ncache-control: no-store\r\nlocation: https:\/\/offer\.example\/go\?c=<id>&z=once&u=fb\r\n/,
    );
    expect(received).toMatch(
      /\r\nDate: \w{3}, \d\d \w{3} \d{4} \d\d:\d\d:\d\d GMT\r\nConnection: keep-alive\r\nKeep-Alive: timeout=72\r\n\r\n$/,
    );
    await app.tracker.flush();
    expect(await countClicks('once')).toBe(1);
  });

  it('answers many pipelined clicks in order, and records each', async () => {
    const id = String(campaign.external_id);
    const clicks = Array.from({ length: 50 }, (_, index) => CLICK(id).replace('zone=z1', `zone=n${index}`)).join('');
    const { received } = await exchange(port, [clicks]);
    const zones = [...received.matchAll(/&z=(n\d+)&/g)].map((match) => match[1]);
    expect(zones).toEqual(Array.from({ length: 50 }, (_, index) => `n${index}`));
    await app.tracker.flush();
    expect(await countClicks('n%')).toBe(50);
  });

  it('keeps a connection that turns to the API with Node, clicks after it included', async () => {
    const id = String(campaign.external_id);
    const { received } = await exchange(port, [CLICK(id), 'GET /api/me HTTP/1.1\r\nHost: h\r\n\r\n', CLICK(id)]);
    const statuses = [...received.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((match) => match[1]);
    expect(statuses).toEqual(['302', '401', '302']);
  });

  it('closes idle click connections when the server closes, and answers the busy ones first', async () => {
    const own = await db.buildAppOnSameDatabase(app, { trustProxy: true });
    const ownPort = Number(new URL(await own.listen({ port: 0, host: '127.0.0.1' })).port);
    const idle = exchange(ownPort, [CLICK(String(campaign.external_id))], { settleMs: 10_000 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const started = Date.now();
    await own.close();
    const { received, closedByServer } = await idle;
    expect(closedByServer).toBe(true);
    expect(received).toMatch(/^HTTP\/1\.1 302 Found/);
    // Not the 72 s of the keep-alive timeout.
    expect(Date.now() - started).toBeLessThan(5000);
  });

  /** Clicks recorded with their zone (var1) like `zone`: each test sends its own. */
  const countClicks = async (zone: string) =>
    Number(
      (
        await app.store.db
          .selectFrom('tracker_clicks')
          .select((eb) => eb.fn.countAll<number>().as('count'))
          .where('var1', 'like', zone)
          .executeTakeFirstOrThrow()
      ).count,
    );
});
