import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { REDIRECT_MODES, type RedirectMode } from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResolveHost } from '../src/http/outbound-targets.js';
import { campaignOnFlow, createRecord, type StoredRecord } from './fixtures/config-records.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, forEachDatabase, login } from './harness.js';

// Every redirect mode's answer (status, headers, page), the second step of double_meta and remote, the
// target URL escaped whatever a macro fills in, and remote's fallback when the target is slow, huge,
// private or redirects to a private address. Targets are local servers. On SQLite and PostgreSQL.

/** A resolver that knows a few names, as DNS would answer them. */
const fakeDns =
  (names: Record<string, string[]>): ResolveHost =>
  async (hostname) => {
    const addresses = names[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: 4 }));
  };

/** `127.0.0.2` stands in for a public host here; `127.0.0.1` stays what it is, private. */
const STAND_IN_PUBLIC = '127.0.0.2';

const HOSTILE = `"><script>alert(1)</script><img src=x onerror=alert(2)>'\`</title>`;

/** The target: a page that says what it received, a slow one, a huge one, a redirect to a private address. */
class Target {
  readonly seen: { path: string; headers: IncomingHttpHeaders }[] = [];
  private readonly server: Server;
  port = 0;
  privatePort = 0;
  private readonly privateServer: Server;

  constructor() {
    this.server = createServer((request, response) => {
      const url = new URL(request.url ?? '/', 'http://target');
      this.seen.push({ path: url.pathname + url.search, headers: request.headers });
      if (url.pathname === '/slow') return; // never answers
      if (url.pathname === '/huge') {
        response.writeHead(200, { 'content-type': 'text/html' });
        response.end(`<html><body>${'x'.repeat(50_000)}</body></html>`);
        return;
      }
      if (url.pathname === '/to-private') {
        response.writeHead(302, { location: `http://127.0.0.1:${this.privatePort}/page` });
        response.end();
        return;
      }
      if (url.pathname === '/image') {
        response.writeHead(200, { 'content-type': 'image/png' });
        response.end(Buffer.from([137, 80, 78, 71]));
        return;
      }
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'set-cookie': 'target=1' });
      response.end('<html><head><title>Target</title></head><body>target page</body></html>');
    });
    this.privateServer = createServer((_request, response) => response.end('private'));
  }

  async start(): Promise<void> {
    await new Promise<void>((done) => this.server.listen(0, STAND_IN_PUBLIC, done));
    this.port = (this.server.address() as AddressInfo).port;
    await new Promise<void>((done) => this.privateServer.listen(0, '127.0.0.1', done));
    this.privatePort = (this.privateServer.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((done) => this.server.close(done));
    await new Promise((done) => this.privateServer.close(done));
  }
}

/** The value of `name="…"` / `content="…"` attributes as a browser decodes them. */
function decodeEntities(text: string): string {
  return text
    .replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code)))
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');
}

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

forEachDatabase('redirect modes', (db) => {
  let app: FastifyInstance;
  let token: string;
  let source: StoredRecord;
  let offer: StoredRecord;
  const target = new Target();
  const campaigns = new Map<RedirectMode, StoredRecord>();

  async function campaignWith(
    fields: Record<string, unknown>,
    offerRecord = offer,
    path: Record<string, unknown> = {},
  ) {
    const campaign = await campaignOnFlow(app, token, source, [
      {
        id: 'g',
        name: 'Everyone',
        paths: [{ id: 'p', offers: [{ id: 'o', offer_external_id: offerRecord.external_id }], ...path }],
      },
    ]);
    const response = await app.inject({
      method: 'PUT',
      url: `/api/tracker/campaigns/${campaign.external_id}`,
      headers: bearer(token),
      payload: { ...campaign, ...fields },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<StoredRecord>();
  }

  const click = (campaign: StoredRecord, query = 'zone=7') =>
    app.inject({
      method: 'GET',
      url: `/c/${String(campaign.external_id)}?${query}`,
      headers: {
        'user-agent': 'Visitor UA',
        cookie: 'sy_vid=abcdefghijklmnopqrstuv',
        referer: 'https://source.example/',
      },
    });

  beforeAll(async () => {
    await target.start();
    app = await db.buildApp({
      env: { SWITCHYARD_ADMIN_EMAIL: ADMIN_EMAIL, SWITCHYARD_ADMIN_PASSWORD: ADMIN_PASSWORD },
      engine: {
        outbound: {
          intervalMs: 0,
          resolveHost: fakeDns({ 'target.test': [STAND_IN_PUBLIC], 'internal.test': ['127.0.0.1'] }),
        },
        remote: { timeoutMs: 400, maxChars: 10_000, isPublic: (ip) => ip === STAND_IN_PUBLIC },
      },
    });
    token = await login(app, ADMIN_EMAIL, ADMIN_PASSWORD);
    source = await createRecord(app, token, 'traffic-sources', {
      parameters: [{ name: 'Zone', ts_parameter: 'zone', ts_token: '{zone}', internal_token: 'var1', enabled: true }],
    });
    offer = await createRecord(app, token, 'tracker-offers', {
      url: `http://target.test:${target.port}/page?c={clickid}&z={var1}`,
    });
    for (const mode of REDIRECT_MODES) campaigns.set(mode, await campaignWith({ redirect_mode: mode }));
  });

  afterAll(async () => {
    await app?.close();
    await target.stop();
  });

  it('keeps 302 the default, and answers 301, 303 and 307 with their statuses', async () => {
    const plain = await campaignOnFlow(app, token, source, [
      { id: 'g', name: 'All', paths: [{ id: 'p', offers: [{ id: 'o', offer_external_id: offer.external_id }] }] },
    ]);
    expect(plain.redirect_mode).toBe('302');
    for (const mode of ['302', '301', '303', '307'] as const) {
      const response = await click(campaigns.get(mode)!);
      expect(response.statusCode).toBe(Number(mode));
      expect(response.headers.location).toMatch(
        new RegExp(`^http://target\\.test:${target.port}/page\\?c=[\\w-]{22}&z=7$`),
      );
      expect(response.body).toBe('');
    }
  });

  it('answers each page mode with a tiny noindex page under a hash-only CSP, its click recorded first', async () => {
    for (const mode of ['meta', 'double_meta', 'js', 'blank_referrer', 'iframe', 'form_post', 'remote'] as const) {
      const response = await click(campaigns.get(mode)!);
      expect(response.statusCode, mode).toBe(200);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['x-robots-tag']).toBe('noindex, nofollow');
      expect(response.body).toContain('<meta name="robots" content="noindex, nofollow">');
      expect(response.body.length, mode).toBeLessThan(1024);
      const csp = String(response.headers['content-security-policy']);
      expect(csp).toContain("default-src 'none'");
      expect(csp).not.toContain('unsafe-inline');
      // Every inline script and style of the page is allowed by its hash, and nothing else is inline.
      for (const [, text] of response.body.matchAll(/<script[^>]*>([^<]*)<\/script>/g))
        expect(csp).toContain(sha256(text!));
      for (const [, text] of response.body.matchAll(/<style>([^<]*)<\/style>/g)) expect(csp).toContain(sha256(text!));
      expect(response.body).not.toMatch(/ on[a-z]+=|style="/);
      const hides = mode === 'double_meta' || mode === 'blank_referrer' || mode === 'remote';
      expect(response.headers['referrer-policy'], mode).toBe(hides ? 'no-referrer' : 'strict-origin-when-cross-origin');
      expect(response.body.includes('<meta name="referrer" content="no-referrer">'), mode).toBe(hides);
      const cookies = ([] as string[]).concat(response.headers['set-cookie'] ?? []);
      expect(cookies.some((cookie) => cookie.startsWith('sy_seen=1'))).toBe(true);
    }
    await app.engine.flush();
    const rows = await app.store.db
      .selectFrom('tracker_clicks')
      .select(['campaign_external_id', 'var1', 'referrer'])
      .where('campaign_external_id', '=', String(campaigns.get('iframe')!.external_id))
      .execute();
    expect(rows).toEqual([
      { campaign_external_id: campaigns.get('iframe')!.external_id, var1: '7', referrer: 'https://source.example/' },
    ]);
  });

  it('puts the target in each page as its mode needs', async () => {
    const to = (body: string, pattern: RegExp) => decodeEntities(pattern.exec(body)?.[1] ?? '');
    const offerUrl = new RegExp(`^http://target\\.test:${target.port}/page\\?c=[\\w-]{22}&z=7$`);

    const meta = await click(campaigns.get('meta')!);
    expect(to(meta.body, /<meta http-equiv="refresh" content="0; url=([^"]*)">/)).toMatch(offerUrl);
    const blank = await click(campaigns.get('blank_referrer')!);
    expect(to(blank.body, /<meta http-equiv="refresh" content="0; url=([^"]*)">/)).toMatch(offerUrl);
    const js = await click(campaigns.get('js')!);
    expect(
      to(js.body, /<script data-to="([^"]*)">location\.replace\(document\.currentScript\.dataset\.to\)<\/script>/),
    ).toMatch(offerUrl);
    const frame = await click(campaigns.get('iframe')!);
    expect(to(frame.body, /<iframe src="([^"]*)"/)).toMatch(offerUrl);
    expect(String(frame.headers['content-security-policy'])).toContain('frame-src http: https:');

    const form = await click(campaigns.get('form_post')!, 'zone=seven%20%26%20eight');
    expect(to(form.body, /<form method="post" action="([^"]*)">/)).toMatch(/page\?c=[\w-]{22}&z=seven%20%26%20eight$/);
    const inputs = [...form.body.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)].map((match) => [
      decodeEntities(match[1]!),
      decodeEntities(match[2]!),
    ]);
    expect(inputs.map(([name]) => name)).toEqual(['c', 'z']);
    expect(inputs[1]).toEqual(['z', 'seven & eight']);
    expect(form.body).toContain('<script>document.forms[0].submit()</script>');
  });

  it('takes double_meta through a second tracker page that refreshes to the target with no referrer', async () => {
    const first = await click(campaigns.get('double_meta')!);
    const hop = decodeEntities(/content="0; url=([^"]*)"/.exec(first.body)![1]!);
    expect(hop).toMatch(
      new RegExp(`^/c/${String(campaigns.get('double_meta')!.external_id)}/go\\?clickid=[\\w-]{22}$`),
    );
    const second = await app.inject({ method: 'GET', url: hop });
    expect(second.statusCode).toBe(200);
    expect(second.headers['referrer-policy']).toBe('no-referrer');
    expect(second.headers['x-robots-tag']).toBe('noindex, nofollow');
    const clickId = hop.split('=')[1];
    expect(decodeEntities(/content="0; url=([^"]*)"/.exec(second.body)![1]!)).toBe(
      `http://target.test:${target.port}/page?c=${clickId}&z=7`,
    );
    // Another campaign's path, or a click id that does not exist, leads nowhere.
    const wrong = await app.inject({
      method: 'GET',
      url: hop.replace(/clickid=[\w-]+/, 'clickid=AAAAAAAAAAAAAAAAAAAAAA'),
    });
    expect(wrong.statusCode).toBe(404);
    const other = await app.inject({
      method: 'GET',
      url: `/c/${String(campaigns.get('meta')!.external_id)}/go?clickid=${clickId}`,
    });
    expect(other.statusCode).toBe(404);
  });

  it('serves a remote target from the tracker: no referrer, no cookie, sandboxed, with a base for its links', async () => {
    const first = await click(campaigns.get('remote')!);
    const hop = decodeEntities(/content="0; url=([^"]*)"/.exec(first.body)![1]!);
    target.seen.length = 0;
    const served = await app.inject({
      method: 'GET',
      url: hop,
      headers: {
        'user-agent': 'Visitor UA',
        cookie: 'sy_vid=abcdefghijklmnopqrstuv; session=secret',
        referer: 'https://x/',
      },
    });
    expect(served.statusCode).toBe(200);
    expect(served.body).toBe(
      `<html><head><base href="http://target.test:${target.port}/page?c=${hop.split('=')[1]}&#38;z=7"><title>Target</title></head><body>target page</body></html>`,
    );
    expect(served.headers['referrer-policy']).toBe('no-referrer');
    expect(served.headers['content-security-policy']).toMatch(/^sandbox allow-scripts /);
    expect(served.headers['content-security-policy']).not.toContain('allow-same-origin');
    expect(served.headers['set-cookie']).toBeUndefined();
    expect(target.seen).toHaveLength(1);
    expect(target.seen[0]!.headers.referer).toBeUndefined();
    expect(target.seen[0]!.headers.cookie).toBeUndefined();
    expect(target.seen[0]!.headers['user-agent']).toBe('Visitor UA');
  });

  describe('remote targets that cannot be served go to the fallback, never hang', () => {
    const cases: [string, string][] = [
      ['slow', `http://target.test:PORT/slow`],
      ['huge', `http://target.test:PORT/huge`],
      ['private by name', `http://internal.test:PRIVATE/page`],
      ['private literal', `http://127.0.0.1:PRIVATE/page`],
      ['redirecting to a private address', `http://target.test:PORT/to-private`],
      ['not a page', `http://target.test:PORT/image`],
    ];
    for (const [label, url] of cases) {
      it(label, async () => {
        const badOffer = await createRecord(app, token, 'tracker-offers', {
          url: url.replace('PORT', String(target.port)).replace('PRIVATE', String(target.privatePort)),
        });
        const withFallback = await campaignWith(
          { redirect_mode: 'remote', fallback_url: 'https://fallback.example/?c={clickid}' },
          badOffer,
        );
        const first = await click(withFallback);
        const hop = decodeEntities(/content="0; url=([^"]*)"/.exec(first.body)![1]!);
        const answer = await app.inject({ method: 'GET', url: hop });
        expect(answer.statusCode).toBe(302);
        expect(answer.headers.location).toBe(`https://fallback.example/?c=${hop.split('=')[1]}`);
        expect(answer.headers['referrer-policy']).toBe('no-referrer');
        expect(target.seen.some((seen) => seen.path === '/page' && seen.headers.host?.startsWith('127.0.0.1'))).toBe(
          false,
        );
      });
    }

    it('without a fallback URL, sends the visitor to the target itself, with no referrer', async () => {
      const badOffer = await createRecord(app, token, 'tracker-offers', {
        url: `http://127.0.0.1:${target.privatePort}/page?c={clickid}`,
      });
      const campaign = await campaignWith({ redirect_mode: 'remote' }, badOffer);
      const first = await click(campaign);
      const hop = decodeEntities(/content="0; url=([^"]*)"/.exec(first.body)![1]!);
      const answer = await app.inject({ method: 'GET', url: hop });
      expect(answer.statusCode).toBe(302);
      expect(answer.headers.location).toBe(`http://127.0.0.1:${target.privatePort}/page?c=${hop.split('=')[1]}`);
      expect(answer.headers['referrer-policy']).toBe('no-referrer');
    });
  });

  it("lets a path choose its own mode over the campaign's", async () => {
    const campaign = await campaignWith({ redirect_mode: 'meta' }, offer, { redirect_mode: 'js' });
    const response = await click(campaign);
    expect(response.body).toContain('location.replace(document.currentScript.dataset.to)');
    const inherits = await campaignWith({ redirect_mode: 'meta' }, offer, { redirect_mode: null });
    expect((await click(inherits)).body).toContain('http-equiv="refresh"');
  });

  it('escapes hostile macro values and literal text in every page: no markup, no script', async () => {
    const literal = await createRecord(app, token, 'tracker-offers', {
      url: `https://offer.example/p"><b>bold</b>?z={var1}&q='x'`,
    });
    for (const mode of ['meta', 'js', 'blank_referrer', 'iframe', 'form_post'] as const) {
      const campaign = await campaignWith({ redirect_mode: mode }, literal);
      const response = await click(campaign, `zone=${encodeURIComponent(HOSTILE)}`);
      expect(response.statusCode).toBe(200);
      expect(response.body, mode).not.toContain('<script>alert');
      expect(response.body, mode).not.toContain('<img');
      expect(response.body, mode).not.toContain('<b>');
      // Every attribute is whole: with them taken out, no quote is left over (none broke out of one).
      expect(response.body.replace(/ [a-z-]+="[^"<>]*"/g, ''), mode).not.toMatch(/["']/);
      // The only elements are the page's own.
      const tags = [...response.body.matchAll(/<([a-z!/]+)/g)].map((match) => match[1]);
      const allowed = new Set([
        '!doctype',
        'html',
        'head',
        'meta',
        'title',
        '/title',
        '/head',
        'body',
        '/body',
        '/html',
      ]);
      for (const tag of [
        'script',
        '/script',
        'noscript',
        '/noscript',
        'a',
        '/a',
        'style',
        '/style',
        'iframe',
        '/iframe',
      ])
        allowed.add(tag);
      for (const tag of ['form', '/form', 'input', 'button', '/button']) allowed.add(tag);
      for (const tag of tags) expect(allowed.has(tag!), `${mode}: <${tag}`).toBe(true);
      expect(response.body.match(/<script/g)?.length ?? 0, mode).toBe(mode === 'js' || mode === 'form_post' ? 1 : 0);
    }
  });

  it('refuses an unknown mode, a bad fallback URL and bad origins with 400 on the field', async () => {
    const campaign = campaigns.get('302')!;
    const put = (fields: Record<string, unknown>) =>
      app.inject({
        method: 'PUT',
        url: `/api/tracker/campaigns/${String(campaign.external_id)}`,
        headers: bearer(token),
        payload: { ...campaign, ...fields },
      });
    const mode = await put({ redirect_mode: 'teleport' });
    expect(mode.statusCode).toBe(400);
    expect(Object.keys(mode.json().errors)).toEqual(['redirect_mode']);
    const fallback = await put({ fallback_url: 'javascript:alert(1)' });
    expect(fallback.statusCode).toBe(400);
    expect(Object.keys(fallback.json().errors)).toEqual(['fallback_url']);
    const origins = await put({ allowed_origins: ['https://ok.example', 'https://lander.example/path', '*.example'] });
    expect(origins.statusCode).toBe(400);
    expect(Object.keys(origins.json().errors).sort()).toEqual(['allowed_origins.1', 'allowed_origins.2']);
    const kept = await put({ allowed_origins: ['HTTPS://Lander.Example:443/', 'http://127.0.0.1:8080'] });
    expect(kept.statusCode).toBe(200);
    expect(kept.json().allowed_origins).toEqual(['https://lander.example', 'http://127.0.0.1:8080']);
  });
});
