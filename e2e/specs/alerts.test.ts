import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logIn, useBrowser } from '../support/browser.js';
import { startServer, type TestServer } from '../support/server.js';

// The header's bell: a built-in monitor fires (a capped offer reached its cap) and the count shows; the
// notification opens the offer and is then read. Its own server, whose monitors look every second.

const ADMIN = { email: 'alerts@e2e.test', password: 'alerts-e2e-password' };
let server: TestServer | undefined;
const run = Date.now().toString(36);

beforeAll(async () => {
  // The offer's URL is this server's own page, which the URL monitor may reach here: it stays quiet.
  server = await startServer(ADMIN, {
    SWITCHYARD_MONITOR_INTERVAL_MS: '1000',
    SWITCHYARD_ALLOW_PRIVATE_TARGETS: 'true',
  });
});

afterAll(async () => {
  await server?.stop();
});

const browser = useBrowser({ width: 1280, height: 900 }, () => server?.baseURL ?? '');

async function api<T>(method: string, path: string, token: string, body?: unknown): Promise<T> {
  const response = await fetch(`${server?.baseURL}/api/${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} → ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

describe('the notification bell', () => {
  it('counts a monitor that fired, and opens what it is about', async () => {
    const login = await fetch(`${server?.baseURL}/api/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(ADMIN),
    });
    const { token } = (await login.json()) as { token: string };
    const source = await api<{ external_id: string }>('POST', 'traffic-sources', token, { name: `Source ${run}` });
    const offer = await api<{ external_id: string }>('POST', 'tracker/offers', token, {
      name: `Capped offer ${run}`,
      url: `${server?.baseURL}/?c={clickid}`,
      daily_cap: 1,
    });
    const flow = await api<{ external_id: string }>('POST', 'tracker/flows', token, {
      name: `Flow ${run}`,
      path_groups: [
        { id: 'g', name: 'All', paths: [{ id: 'p', offers: [{ id: 'o', offer_external_id: offer.external_id }] }] },
      ],
    });
    const campaign = await api<{ external_id: string }>('POST', 'tracker/campaigns', token, {
      name: `Campaign ${run}`,
      traffic_source_external_id: source.external_id,
      flow_external_id: flow.external_id,
    });

    const page = await browser.newPage();
    await logIn(page, ADMIN.email, ADMIN.password);
    const bell = page.getByTestId('notifications-bell');
    await expect.poll(() => bell.getAttribute('aria-label')).toBe('Notifications');

    for (let n = 0; n < 2; n += 1) await fetch(`${server?.baseURL}/c/${campaign.external_id}`, { redirect: 'manual' });
    // First the monitor's round (every second, longer on a loaded machine), read where it is stored; then
    // one reload, which asks at once where the bell would ask within 30 s. Reloading inside the poll raced
    // the bell's own request: each reload reset what the previous one had not yet shown.
    await expect
      .poll(async () => (await api<{ unread: number }>('GET', 'notifications', token)).unread, { timeout: 60_000 })
      .toBe(1);
    await page.reload();
    await expect.poll(() => bell.getAttribute('aria-label')).toBe('Notifications: 1');
    expect(await bell.locator('.mantine-Indicator-indicator').innerText()).toBe('1');

    await bell.click();
    const entry = page.getByTestId('notification').filter({ hasText: `Cap reached: Capped offer ${run}` });
    await entry.click();
    await page.waitForURL(new RegExp(`/tracker/offers/edit/${offer.external_id}$`));
    await expect.poll(() => bell.getAttribute('aria-label')).toBe('Notifications');
  });
});
