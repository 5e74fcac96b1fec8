import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { REDIRECT_MODES } from '@switchyard/domain';
import type { Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logIn, useBrowser } from '../support/browser.js';
import { startServer, type TestServer } from '../support/server.js';

// Every redirect mode in Chromium: a traffic source's page links to the campaign URL, and the visitor
// lands on a page of a local target server, which shows the Referer and query (or form) it received and
// the page's own document.referrer. The referrer is empty for double_meta, blank_referrer and remote.
// Then the tracking script of a direct campaign on a landing page of another origin, under that page's
// own CSP: it records the click and points the offer link at it; from an origin the campaign does not
// allow, it records nothing and says so in the console. Its own server: `remote` fetches a local target,
// which SWITCHYARD_ALLOW_PRIVATE_TARGETS allows.

const ADMIN = { email: 'modes@e2e.test', password: 'redirect-modes-password' };
let tracker: TestServer | undefined;
let token = '';

/** A local HTTP server on 127.0.0.1, its origin. */
async function serve(handler: (request: IncomingMessage, body: string, response: ServerResponse) => void) {
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk;
    });
    request.on('end', () => handler(request, body, response));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const servers: Server[] = [];
let target = '';
let source = '';
let lander = '';
let foreignLander = '';

/** What the target page shows: what its server received, and (filled by its script) document.referrer. */
function targetPage(request: IncomingMessage, body: string): string {
  const url = new URL(request.url ?? '/', 'http://target');
  const seen = {
    method: request.method,
    referer: request.headers.referer ?? '',
    query: Object.fromEntries(url.searchParams),
    form: Object.fromEntries(new URLSearchParams(body)),
  };
  const json = JSON.stringify(seen).replace(/</g, '\\u003c');
  return `<!doctype html><html><head><title>Target</title></head><body><pre id="server">${json}</pre><pre id="client"></pre><script>document.getElementById('client').textContent = JSON.stringify({ referrer: document.referrer });</script></body></html>`;
}

async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${tracker!.baseURL}/api/${path}`, {
    method,
    headers: {
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} → ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

let trafficSource = '';
let offer = '';

async function campaign(fields: Record<string, unknown>): Promise<string> {
  const flow = await api<{ external_id: string }>('POST', 'tracker/flows', {
    name: `Flow ${Math.random()}`,
    path_groups: [{ id: 'g', name: 'All', paths: [{ id: 'p', offers: [{ id: 'o', offer_external_id: offer }] }] }],
  });
  const made = await api<{ external_id: string }>('POST', 'tracker/campaigns', {
    name: `Campaign ${Math.random()}`,
    traffic_source_external_id: trafficSource,
    flow_external_id: flow.external_id,
    ...fields,
  });
  return made.external_id;
}

beforeAll(async () => {
  tracker = await startServer(ADMIN, { SWITCHYARD_ALLOW_PRIVATE_TARGETS: 'true' });
  const t = await serve((request, body, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(targetPage(request, body));
  });
  target = t.origin;
  const s = await serve((request, _body, response) => {
    const to = new URL(request.url ?? '/', 'http://source').searchParams.get('to') ?? '';
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><html><body><a id="go" href="${to.replace(/"/g, '&quot;')}">Go</a></body></html>`);
  });
  source = s.origin;
  const landerPage =
    (campaignId: () => string) => (_request: IncomingMessage, _body: string, response: ServerResponse) => {
      // The landing page's own CSP allows the tracker's script and calls, nothing inline.
      response.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': `default-src 'self'; script-src ${tracker!.baseURL}; connect-src ${tracker!.baseURL}`,
      });
      response.end(
        `<!doctype html><html><body><h1>Lander</h1><a id="offer" data-switchyard="offer" href="#none">Get the offer</a><script src="${tracker!.baseURL}/${campaignId()}/t.js" async></script></body></html>`,
      );
    };
  const l = await serve(landerPage(() => directCampaign));
  lander = l.origin;
  const f = await serve(landerPage(() => directCampaign));
  foreignLander = f.origin;
  servers.push(t.server, s.server, l.server, f.server);

  const login = await api<{ token: string }>('POST', 'login', { email: ADMIN.email, password: ADMIN.password });
  token = login.token;
  trafficSource = (
    await api<{ external_id: string }>('POST', 'traffic-sources', {
      name: 'Source',
      parameters: [{ name: 'Zone', ts_parameter: 'zone', ts_token: '{zone}', internal_token: 'var1', enabled: true }],
    })
  ).external_id;
  offer = (
    await api<{ external_id: string }>('POST', 'tracker/offers', {
      name: 'Offer',
      url: `${target}/offer?c={clickid}&z={var1}`,
    })
  ).external_id;
  directCampaign = await campaign({ type: 'direct', allowed_origins: [lander] });
});

let directCampaign = '';

afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
  }
  await tracker?.stop();
});

// Registered after the server's start, so the browser opens on it.
const browser = useBrowser({ width: 1280, height: 900 }, () => tracker?.baseURL ?? '');

interface Seen {
  method: string;
  referer: string;
  query: Record<string, string>;
  form: Record<string, string>;
  referrer: string;
}

/** The target page's report, from the page itself or the frame it is in. */
async function report(where: Page | Frame): Promise<Seen> {
  await where.locator('#client').filter({ hasText: 'referrer' }).waitFor();
  const server = JSON.parse((await where.locator('#server').textContent()) ?? '{}');
  const client = JSON.parse((await where.locator('#client').textContent()) ?? '{}');
  return { ...server, ...client };
}

const HIDDEN = new Set(['double_meta', 'blank_referrer', 'remote']);

describe('every redirect mode in Chromium', () => {
  for (const mode of REDIRECT_MODES) {
    it(`${mode}: lands on the target with the query${HIDDEN.has(mode) ? ' and no referrer' : ''}`, async () => {
      const id = await campaign({ redirect_mode: mode });
      const page = await browser.newPage();
      await page.goto(`${source}/?to=${encodeURIComponent(`${tracker!.baseURL}/c/${id}?zone=7`)}`);
      await page.locator('#go').click();
      let where: Page | Frame = page;
      if (mode === 'iframe') {
        await page.waitForURL((url) => url.pathname === `/c/${id}`);
        const frame = page.frameLocator('iframe');
        await frame.locator('#client').waitFor();
        where = page.frames().find((candidate) => candidate.url().startsWith(target))!;
      } else if (mode === 'remote') {
        // Served by the tracker, at its own address.
        await page.waitForURL((url) => url.pathname === `/c/${id}/go`);
      } else {
        await page.waitForURL((url) => url.origin === target);
      }
      const seen = await report(where);
      const values = mode === 'form_post' ? seen.form : seen.query;
      expect(values.z).toBe('7');
      expect(values.c).toMatch(/^[\w-]{22}$/);
      if (mode === 'form_post') expect(seen.method).toBe('POST');
      if (HIDDEN.has(mode)) {
        expect(seen.referrer).toBe('');
        expect(seen.referer).toBe('');
      } else if (['302', '301', '303', '307'].includes(mode)) {
        // A redirect keeps the page the visitor came from.
        expect(seen.referrer).toBe(`${source}/`);
      } else {
        // A page of the tracker sent the visitor on: the target sees the tracker, not the source.
        expect(seen.referrer).toBe(`${tracker!.baseURL}/`);
      }
    });
  }
});

describe('the tracking script of a direct campaign', () => {
  it('records the click from an allowed origin and points the offer link at it', async () => {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
    });
    await page.goto(`${lander}/page?zone=5`);
    const link = page.locator('#offer');
    await expect.poll(async () => link.getAttribute('href'), { timeout: 15_000 }).toMatch(/clickid=/);
    const href = (await link.getAttribute('href')) ?? '';
    const clickId = new URL(href).searchParams.get('clickid') ?? '';
    expect(href).toBe(`${tracker!.baseURL}/c/${directCampaign}/offer?clickid=${clickId}`);
    expect(problems).toEqual([]);
    // The click is recorded: its offer link sends the visitor to the offer chosen for it.
    await link.click();
    await page.waitForURL((url) => url.origin === target);
    const seen = await report(page);
    expect(seen.query).toEqual({ c: clickId, z: '5' });
    // In the event table like any click, the landing page as its referrer.
    const referrerOf = async () => {
      const clicks = await api<{ list: { click_id: string; referrer: string | null }[] }>(
        'GET',
        'events/clicks?limit=100',
      );
      return clicks.list.find((row) => row.click_id === clickId)?.referrer;
    };
    await expect.poll(referrerOf, { timeout: 15_000 }).toBe(`${lander}/page?zone=5`);
  });

  it('records nothing from an origin the campaign does not allow, and says so in the console', async () => {
    const page = await browser.newPage();
    const warnings: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'warning') warnings.push(message.text());
    });
    await page.goto(`${foreignLander}/page?zone=9`);
    await expect.poll(() => warnings.join('\n'), { timeout: 15_000 }).toContain('not allowed');
    expect(warnings.join('\n')).toContain(foreignLander);
    expect(await page.locator('#offer').getAttribute('href')).toBe('#none');
  });

  it("shows both snippets on the campaign screen; its new click token records a lander server's click", async () => {
    const page = await browser.newPage();
    await logIn(page, ADMIN.email, ADMIN.password);
    await page.goto(`/tracker/campaigns/edit/${directCampaign}`);
    const tag = `<script src="${tracker!.baseURL}/${directCampaign}/t.js" async></script>`;
    await page.getByText(tag, { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Make a new click token' }).click();
    await page.getByText('Copy this token now').waitFor();
    const snippet = (await page.locator('pre', { hasText: 'Authorization: Bearer' }).textContent()) ?? '';
    const clickToken = /Bearer (syc_[\w-]+)/.exec(snippet)?.[1] ?? '';
    expect(clickToken).toMatch(/^syc_[\w-]{43}$/);
    const response = await fetch(`${tracker!.baseURL}/v1/clicks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${clickToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        campaign: directCampaign,
        ip: '81.2.69.160',
        user_agent: 'Lander server test',
        query: { zone: '4' },
      }),
    });
    expect(response.status).toBe(200);
    const answer = (await response.json()) as { click_id: string; offer_url: string };
    expect(answer.offer_url).toBe(`${target}/offer?c=${answer.click_id}&z=4`);
  });
});
