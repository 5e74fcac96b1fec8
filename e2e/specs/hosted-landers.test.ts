import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeZip } from '../../apps/server/test/fixtures/zip.js';
import { apiLogin, apiRequest, postbackPath } from '../support/api.js';
import { admin, baseURL, logIn, useBrowser } from '../support/browser.js';

// A lander uploaded as a ZIP with an {offer} link, a visitor's click sent
// to it, the offer link followed with the same click id, then the network's postback. The lander's own
// script runs in the sandbox its CSP asks for: on the dashboard's host, with the operator logged in, it
// can read neither the dashboard's cookie nor its storage, and its call to /api is not the operator's.

const LANDER_HTML = `<!doctype html><html><head><title>Hosted lander</title></head><body>
<a id="go" href="{offer}">Get the offer</a>
<pre id="cookie">pending</pre><pre id="storage">pending</pre><pre id="api">pending</pre>
<script>
  const show = (id, text) => { document.getElementById(id).textContent = text; };
  try { show('cookie', 'read: ' + document.cookie); } catch (error) { show('cookie', 'blocked: ' + error.name); }
  try { show('storage', 'read: ' + JSON.stringify(Object.entries(localStorage))); } catch (error) { show('storage', 'blocked: ' + error.name); }
  fetch('/api/me', { credentials: 'include' })
    .then((answer) => show('api', 'status ' + answer.status))
    .catch((error) => show('api', 'failed: ' + error.name));
</script></body></html>`;

describe('a hosted lander', () => {
  const browser = useBrowser();
  let token = '';
  let campaign = '';
  let target: Server;
  let targetOrigin = '';

  beforeAll(async () => {
    // The offer: a local page that shows the query it was sent with.
    target = createServer((request, response) => {
      const query = new URL(request.url ?? '/', 'http://offer').searchParams.get('c') ?? '';
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(`<!doctype html><title>Offer</title><p id="clickid">${query.replace(/[^\w-]/g, '')}</p>`);
    });
    await new Promise<void>((done) => target.listen(0, '127.0.0.1', done));
    targetOrigin = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;

    token = await apiLogin(admin().email, admin().password);
    const source = await apiRequest<{ external_id: string }>('POST', 'traffic-sources', token, {
      name: `Source ${Date.now()}`,
    });
    const offer = await apiRequest<{ external_id: string }>('POST', 'tracker/offers', token, {
      name: `Offer ${Date.now()}`,
      url: `${targetOrigin}/offer?c={clickid}`,
    });
    const lander = await apiRequest<{ external_id: string }>('POST', 'tracker/landers', token, {
      name: `Hosted ${Date.now()}`,
      url: 'https://old-lander.example/',
    });
    const upload = await fetch(`${baseURL()}/api/tracker/landers/${lander.external_id}/files`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/zip' },
      body: new Uint8Array(makeZip([{ name: 'index.html', data: LANDER_HTML }])),
    });
    expect(upload.status, await upload.clone().text()).toBe(200);
    const flow = await apiRequest<{ external_id: string }>('POST', 'tracker/flows', token, {
      name: `Flow ${Date.now()}`,
      path_groups: [
        {
          id: 'g',
          name: 'All',
          paths: [
            {
              id: 'p',
              offers: [{ id: 'o', offer_external_id: offer.external_id }],
              landers: [{ id: 'l', lander_external_id: lander.external_id }],
            },
          ],
        },
      ],
    });
    const made = await apiRequest<{ external_id: string }>('POST', 'tracker/campaigns', token, {
      name: `Campaign ${Date.now()}`,
      traffic_source_external_id: source.external_id,
      flow_external_id: flow.external_id,
    });
    campaign = made.external_id;
  });

  afterAll(async () => {
    await new Promise<void>((done) => target?.close(() => done()));
  });

  it('takes the click, the offer click with the same click id, then the postback; its script is not the operator', async () => {
    const page = await browser.newPage();
    await logIn(page, admin().email, admin().password);
    // The dashboard keeps its session token in a cookie and in storage on this very host.
    const cookies = await page.context().cookies();
    const session = cookies.find((cookie) => cookie.value.length >= 40);
    expect(session, JSON.stringify(cookies.map((cookie) => cookie.name))).toBeDefined();

    await page.goto(`/c/${campaign}`);
    await page.waitForURL((url) => url.pathname.startsWith('/l/'));
    const clickId = new URL(page.url()).searchParams.get('clickid') ?? '';
    expect(clickId).not.toBe('');
    await expect.poll(() => page.locator('#api').textContent()).not.toBe('pending');
    expect(await page.locator('#cookie').textContent()).toBe('blocked: SecurityError');
    expect(await page.locator('#storage').textContent()).toBe('blocked: SecurityError');
    const api = (await page.locator('#api').textContent()) ?? '';
    expect(api).not.toBe('status 200');
    expect(api).not.toContain(session!.value);

    await page.locator('#go').click();
    await page.waitForURL((url) => url.origin === targetOrigin);
    expect(await page.locator('#clickid').textContent()).toBe(clickId);

    const postback = await fetch(
      `${baseURL()}${await postbackPath(token)}?clickid=${clickId}&payout=7&status=approved`,
    );
    expect(await postback.text()).toBe('OK');
    const conversions = await apiRequest<{ list: { click_id: string }[] }>(
      'GET',
      `events/conversions?limit=100`,
      token,
    );
    expect(conversions.list.map((conversion) => conversion.click_id)).toContain(clickId);
  });
  it('edits a hosted file in the code editor, fetched only then, left to right in an Arabic dashboard', async () => {
    const lander = await apiRequest<{ external_id: string }>('POST', 'tracker/landers', token, {
      name: `Edited ${Date.now()}`,
      url: 'https://old-lander.example/',
    });
    const upload = await fetch(`${baseURL()}/api/tracker/landers/${lander.external_id}/files`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/zip' },
      body: new Uint8Array(
        makeZip([{ name: 'index.html', data: '<!doctype html><title>Before</title><p id="first">First</p>\n' }]),
      ),
    });
    expect(upload.status, await upload.clone().text()).toBe(200);

    const page = await browser.newPage();
    await logIn(page, admin().email, admin().password);
    await page.evaluate(() => localStorage.setItem('switchyard.language', 'ar'));
    try {
      const scripts: string[] = [];
      page.on('request', (request) => scripts.push(new URL(request.url()).pathname));
      await page.goto(`/tracker/landers/edit/${lander.external_id}`);
      await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl');
      const row = page.getByRole('row').filter({ hasText: 'index.html' });
      await row.waitFor();
      const editorChunks = () => scripts.filter((path) => /\/codeEditor-[\w-]+\.js$/.test(path));
      expect(editorChunks()).toEqual([]);
      await row.getByRole('button', { name: 'تعديل', exact: true }).click();

      // CodeMirror's chunk is fetched when a file is opened, not with the screen.
      const editor = page.getByRole('textbox', { name: 'index.html' });
      await expect.poll(() => editor.textContent()).toContain('<p id="first">First</p>');
      expect(editorChunks()).toHaveLength(1);
      expect(await editor.evaluate((element) => getComputedStyle(element).direction)).toBe('ltr');
      expect(await page.locator('.cm-lineNumbers .cm-gutterElement', { hasText: /^1$/ }).count()).toBe(1);

      // Typed at the end of the file, as a person types.
      await editor.click();
      await page.keyboard.press('Control+End');
      await page.keyboard.insertText('<p id="edited">Edited here</p>');
      await page.getByRole('button', { name: 'حفظ الملف' }).click();
      await page.getByText('تم الحفظ.').waitFor();

      const served = await fetch(`${baseURL()}/l/${lander.external_id}/`);
      expect(await served.text()).toContain('<p id="first">First</p>\n<p id="edited">Edited here</p>');
      // The preview is loaded again after the save, and shows the edit.
      const preview = page.frameLocator('iframe[sandbox]');
      await expect.poll(() => preview.locator('#edited').textContent()).toBe('Edited here');
    } finally {
      await page.evaluate(() => localStorage.setItem('switchyard.language', 'en'));
    }
  });
});
