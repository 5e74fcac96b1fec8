import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { VALIDATION_MESSAGES } from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendOutbound } from '../src/http/outbound-request.js';
import { addressRefusal, type ResolveHost, targetRefusal } from '../src/http/outbound-targets.js';
import { createRecord, minimalBody } from './fixtures/config-records.js';
import { Receiver } from './fixtures/traffic.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, createUserWithPermissions, forEachDatabase, login } from './harness.js';

// Outbound URLs: no macro in the host of an offer, lander or postback URL, and no outbound
// postback (saved, queued or tested) to a loopback, private, link-local or multicast address unless
// SWITCHYARD_ALLOW_PRIVATE_TARGETS=true.

/** A resolver that knows a few names, as DNS would answer them. */
const fakeDns =
  (names: Record<string, string[]>): ResolveHost =>
  async (hostname) => {
    const addresses = names[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

/** Answers every request with a redirect to `next(n)` (n counts from 1), or `ok` once `next` says null. */
async function redirector(next: (count: number) => string | null): Promise<{ server: Server; port: number }> {
  let count = 0;
  const server = createServer((_request, response) => {
    count += 1;
    const location = next(count);
    if (location) {
      response.writeHead(302, { location });
      response.end();
    } else {
      response.end('landed');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

const PRIVATE_URLS = [
  'http://127.0.0.1/pb?c={clickid}',
  'http://10.1.2.3/pb',
  'http://169.254.169.254/latest/meta-data/',
  'http://[::1]:8080/pb',
  'http://localhost/pb',
  'http://2130706433/pb',
  'http://0x7f.1/pb',
  'http://[::ffff:127.0.0.1]/pb',
  'http://app.localhost./pb',
];

describe('outbound targets', () => {
  it('names why an address is refused', () => {
    expect(addressRefusal('10.0.0.5')).toBe('Refused: 10.0.0.5 is a private address');
    expect(addressRefusal('127.0.0.1')).toBe('Refused: 127.0.0.1 is a loopback address');
    expect(addressRefusal('169.254.169.254')).toBe('Refused: 169.254.169.254 is a link-local address');
    expect(addressRefusal('ff02::1')).toBe('Refused: ff02::1 is a multicast address');
    expect(addressRefusal('8.8.8.8')).toBeNull();
  });

  it('refuses on save literal addresses, localhost, and names resolving only to private addresses', async () => {
    const resolve = fakeDns({
      'internal.test': ['10.0.0.5', 'fd00::5'],
      'mixed.test': ['10.0.0.5', '93.184.215.14'],
      'public.test': ['93.184.215.14'],
    });
    for (const url of PRIVATE_URLS) expect(await targetRefusal(url, { resolve }), url).toMatch(/^Refused: /);
    expect(await targetRefusal('https://internal.test/pb?c={clickid}', { resolve })).toBe(
      'Refused: 10.0.0.5 is a private address',
    );
    expect(await targetRefusal('https://mixed.test/pb', { resolve })).toBeNull();
    expect(await targetRefusal('https://public.test/pb', { resolve })).toBeNull();
    expect(await targetRefusal('https://8.8.8.8/pb', { resolve })).toBeNull();
    // Offline, or a name DNS does not know: accepted now, checked again when sent.
    expect(await targetRefusal('https://unknown.test/pb', { resolve })).toBeNull();
    const never: ResolveHost = () => new Promise(() => undefined);
    expect(await targetRefusal('https://slow.test/pb', { resolve: never, timeoutMs: 20 })).toBeNull();
  });

  describe('when sending', () => {
    const receiver = new Receiver();
    let port = 0;
    beforeAll(async () => {
      port = await receiver.listen();
    });
    afterAll(() => receiver.close());

    it('refuses a name that resolves to a private address at send time, without connecting', async () => {
      receiver.requests.length = 0;
      const resolve = fakeDns({ 'rebind.test': ['127.0.0.1'] });
      const options = { allowPrivateTargets: false, timeoutMs: 5000, resolve };
      expect(await sendOutbound(`http://rebind.test:${port}/pb`, options)).toEqual({
        kind: 'refused',
        reason: 'Refused: 127.0.0.1 is a loopback address',
      });
      expect(await sendOutbound(`http://localhost:${port}/pb`, options)).toMatchObject({ kind: 'refused' });
      expect(await sendOutbound(`http://127.0.0.1:${port}/pb`, options)).toMatchObject({ kind: 'refused' });
      expect(receiver.requests).toHaveLength(0);
    });

    it('reaches a private address when private targets are allowed', async () => {
      receiver.requests.length = 0;
      const result = await sendOutbound(`http://127.0.0.1:${port}/pb?c=1`, {
        allowPrivateTargets: true,
        timeoutMs: 5000,
        bodyLimit: 100,
      });
      expect(result).toMatchObject({ kind: 'answered', answer: { status: 200, body: 'ok' } });
      expect(receiver.requests.map((url) => url.search)).toEqual(['?c=1']);
    });

    it('follows at most 3 redirects', async () => {
      const { server, port: hops } = await redirector((count) => `/hop${count}`);
      try {
        const result = await sendOutbound(`http://127.0.0.1:${hops}/start`, {
          allowPrivateTargets: true,
          timeoutMs: 5000,
        });
        expect(result).toMatchObject({
          kind: 'answered',
          answer: { status: 302, url: `http://127.0.0.1:${hops}/hop3` },
        });
      } finally {
        server.close();
      }
    });

    it('reports a network error instead of throwing', async () => {
      const { server, port: closed } = await redirector(() => null);
      await new Promise((resolve) => server.close(resolve));
      const result = await sendOutbound(`http://127.0.0.1:${closed}/pb`, {
        allowPrivateTargets: true,
        timeoutMs: 5000,
      });
      expect(result).toMatchObject({ kind: 'failed', error: expect.stringContaining('ECONNREFUSED') });
    });
  });
});

const postbackUrlError = (url: string) => ({
  'postback_events.0.postback_url': [url],
});

forEachDatabase('outbound URLs', (db) => {
  const receiver = new Receiver();
  let port = 0;
  /** Private targets refused (the default). */
  let app: FastifyInstance;
  let token: string;
  /** SWITCHYARD_ALLOW_PRIVATE_TARGETS=true. */
  let open: FastifyInstance;
  let openToken: string;
  let eventId: string;
  let openEventId: string;

  const env = { SWITCHYARD_ADMIN_EMAIL: ADMIN_EMAIL, SWITCHYARD_ADMIN_PASSWORD: ADMIN_PASSWORD };

  beforeAll(async () => {
    port = await receiver.listen();
    app = await db.buildApp({
      env,
      engine: {
        outbound: { intervalMs: 0, timeoutMs: 5000, resolveHost: fakeDns({ 'rebind.test': ['127.0.0.1'] }) },
      },
    });
    token = await login(app, ADMIN_EMAIL, ADMIN_PASSWORD);
    open = await db.buildApp({
      env: { ...env, SWITCHYARD_ALLOW_PRIVATE_TARGETS: 'true' },
      engine: { outbound: { intervalMs: 0, timeoutMs: 5000 } },
    });
    openToken = await login(open, ADMIN_EMAIL, ADMIN_PASSWORD);
    eventId = String((await createRecord(app, token, 'postback-events')).external_id);
    openEventId = String((await createRecord(open, openToken, 'postback-events')).external_id);
  });
  afterAll(() => receiver.close());

  const post = async (target: FastifyInstance, auth: string, path: string, payload: object) =>
    target.inject({ method: 'POST', url: `/api/${path}`, headers: bearer(auth), payload });

  const source = (event: string, url: string) => ({
    name: `Source ${Math.random().toString(36).slice(2, 8)}`,
    postback_events: [{ postback_event_external_id: event, postback_url: url }],
  });

  describe('a macro in the host', () => {
    it.each([
      ['offers', 'offers'],
      ['tracker-offers', 'tracker/offers'],
      ['tracker-landers', 'tracker/landers'],
    ] as const)('is refused in the URL of %s', async (kind, path) => {
      for (const url of ['https://{var1}/x', 'https://{offer_id}.example.com/', 'https://example.com:{var2}/']) {
        const body = { ...(await minimalBody(app, token, kind)), url };
        const response = await post(app, token, path, body);
        expect(response.statusCode, url).toBe(400);
        expect(response.json().errors).toEqual({ url: [VALIDATION_MESSAGES.macroInHost] });
      }
      const body = { ...(await minimalBody(app, token, kind)), url: 'https://example.com/{var1}?c={clickid}' };
      expect((await post(app, token, path, body)).statusCode).toBe(201);
    });

    it('is refused in a traffic source postback URL, even with private targets allowed', async () => {
      for (const [target, auth, event] of [
        [app, token, eventId],
        [open, openToken, openEventId],
      ] as const) {
        const response = await post(target, auth, 'traffic-sources', source(event, 'https://{var1}/pb?c={clickid}'));
        expect(response.statusCode).toBe(400);
        expect(response.json()).toMatchObject({ errors: postbackUrlError(VALIDATION_MESSAGES.macroInHost) });
      }
    });
  });

  describe('a private target on save', () => {
    it.each(PRIVATE_URLS)('refuses %s', async (url) => {
      const response = await post(app, token, 'traffic-sources', source(eventId, url));
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        message: 'The data you sent is not valid',
        errors: postbackUrlError(VALIDATION_MESSAGES.privateTarget),
      });
    });

    it('refuses it on update too, on the row that holds it', async () => {
      const second = String((await createRecord(app, token, 'postback-events')).external_id);
      const created = await createRecord(app, token, 'traffic-sources', source(eventId, 'https://ts.example/pb'));
      const response = await app.inject({
        method: 'PUT',
        url: `/api/traffic-sources/${created.external_id}`,
        headers: bearer(token),
        payload: {
          name: created.name,
          postback_events: [
            { postback_event_external_id: eventId, postback_url: 'https://ts.example/pb?c={clickid}' },
            { postback_event_external_id: second, postback_url: 'http://169.254.169.254/x' },
          ],
        },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toEqual({
        'postback_events.1.postback_url': [VALIDATION_MESSAGES.privateTarget],
      });
    });

    it('accepts every one with SWITCHYARD_ALLOW_PRIVATE_TARGETS=true', async () => {
      for (const url of PRIVATE_URLS) {
        const response = await post(open, openToken, 'traffic-sources', source(openEventId, url));
        expect(response.statusCode, `${url}: ${response.body}`).toBe(201);
      }
    });
  });

  describe('a private target when sent', () => {
    const queue = async (target: FastifyInstance, url: string) => {
      const row = await target.store.db
        .insertInto('outbound_postbacks')
        .values({
          conversion_id: `conv-${Math.random().toString(36).slice(2, 10)}`,
          created_at: new Date().toISOString(),
          url,
          state: 'pending',
          attempts: 0,
          last_status: null,
          last_error: null,
          last_attempt_at: null,
          next_attempt_at: new Date(Date.now() - 1000).toISOString(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    };
    const stored = (target: FastifyInstance, id: number) =>
      target.store.db.selectFrom('outbound_postbacks').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

    it('fails at once, without retries and without a request, naming why', async () => {
      receiver.requests.length = 0;
      const ids = {
        literal: await queue(app, `http://127.0.0.1:${port}/pb?c=1`),
        localhost: await queue(app, `http://localhost:${port}/pb?c=2`),
        rebound: await queue(app, `http://rebind.test:${port}/pb?c=3`),
        mapped: await queue(app, `http://[::ffff:127.0.0.1]:${port}/pb?c=4`),
      };
      expect(await app.engine.outbound.processDue()).toBe(4);
      for (const [name, id] of Object.entries(ids)) {
        const row = await stored(app, id);
        expect(row, name).toMatchObject({ state: 'failed', attempts: 1, last_status: 0 });
        expect(row.last_error, name).toMatch(/^Refused: /);
      }
      expect((await stored(app, ids.literal)).last_error).toBe('Refused: 127.0.0.1 is a loopback address');
      expect((await stored(app, ids.rebound)).last_error).toBe('Refused: 127.0.0.1 is a loopback address');
      expect(await app.engine.outbound.processDue()).toBe(0);
      expect(receiver.requests).toHaveLength(0);
    });

    it('is sent with SWITCHYARD_ALLOW_PRIVATE_TARGETS=true', async () => {
      receiver.requests.length = 0;
      const id = await queue(open, `http://127.0.0.1:${port}/pb?c=open`);
      expect(await open.engine.outbound.processDue()).toBe(1);
      expect(await stored(open, id)).toMatchObject({ state: 'sent', attempts: 1, last_status: 200, last_error: null });
      expect(receiver.requests.map((url) => url.search)).toEqual(['?c=open']);
    });
  });

  describe('the test postback', () => {
    const testPostback = (target: FastifyInstance, auth: string, url: unknown) =>
      post(target, auth, 'traffic-sources/test-postback', { url });

    it('sends the URL with sample values and shows the request and the answer', async () => {
      receiver.requests.length = 0;
      const response = await testPostback(
        open,
        openToken,
        `http://127.0.0.1:${port}/pb?c={clickid}&p={payout}&s={status}&t={txid}&z={var1}&u={utm_source}`,
      );
      expect(response.statusCode, response.body).toBe(200);
      const answer = response.json();
      expect(answer).toMatchObject({
        request: { method: 'GET' },
        response: { status: 200, body: 'ok' },
        error: null,
      });
      expect(answer.request.url).toMatch(
        new RegExp(`^http://127\\.0\\.0\\.1:${port}/pb\\?c=test-click&p=1\\.00&s=approved&t=test-\\d+&z=test-var1&u=$`),
      );
      expect(answer.response.headers['content-length']).toBe('2');
      expect(typeof answer.duration_ms).toBe('number');
      expect(receiver.requests).toHaveLength(1);
      expect(receiver.requests[0]?.searchParams.get('c')).toBe('test-click');
    });

    it('shows an error status as it came', async () => {
      receiver.statuses.push(503);
      const response = await testPostback(open, openToken, `http://127.0.0.1:${port}/pb`);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ response: { status: 503, body: 'ok' }, error: null });
    });

    it('reports no answer as an error, not a 500', async () => {
      const { server, port: closed } = await redirector(() => null);
      await new Promise((resolve) => server.close(resolve));
      const response = await testPostback(open, openToken, `http://127.0.0.1:${closed}/pb`);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ response: null, error: expect.stringContaining('ECONNREFUSED') });
    });

    it('refuses a private target on the url field without SWITCHYARD_ALLOW_PRIVATE_TARGETS', async () => {
      receiver.requests.length = 0;
      for (const url of [`http://127.0.0.1:${port}/pb?c={clickid}`, `http://localhost:${port}/pb`]) {
        const response = await testPostback(app, token, url);
        expect(response.statusCode, url).toBe(400);
        expect(response.json().errors).toEqual({ url: [VALIDATION_MESSAGES.privateTarget] });
      }
      expect(receiver.requests).toHaveLength(0);
    });

    it('checks the URL like the form', async () => {
      const macro = await testPostback(app, token, 'https://{var1}/pb');
      expect(macro.statusCode).toBe(400);
      expect(macro.json().errors).toEqual({ url: [VALIDATION_MESSAGES.macroInHost] });
      const missing = await testPostback(app, token, undefined);
      expect(missing.statusCode).toBe(400);
      expect(Object.keys(missing.json().errors)).toEqual(['url']);
    });

    it('needs the permission to update traffic sources', async () => {
      const viewer = await createUserWithPermissions(open, openToken, ['/general/traffic-source/get']);
      const refused = await testPostback(open, viewer.token, `http://127.0.0.1:${port}/pb`);
      expect(refused.statusCode).toBe(403);
      const editor = await createUserWithPermissions(open, openToken, ['/general/traffic-source/update']);
      expect((await testPostback(open, editor.token, `http://127.0.0.1:${port}/pb`)).statusCode).toBe(200);
      const anonymous = await open.inject({
        method: 'POST',
        url: '/api/traffic-sources/test-postback',
        payload: { url: 'https://ts.example/' },
      });
      expect(anonymous.statusCode).toBe(401);
    });
  });
});
