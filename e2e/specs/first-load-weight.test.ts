import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { admin, logIn, useBrowser } from '../support/browser.js';
import { waitForQuiet } from '../support/network.js';

// The first load's weight, in compressed bytes of scripts and styles as the browser received them (no
// cache): the login page under 250 KB, the dashboard (a logged-in user opening /admin, every part it
// fetches until the page is quiet: the figures, the live tile, the texts) under 350 KB. Bytes, not time.

const browser = useBrowser({ width: 1400, height: 900 });
const LOGIN_BUDGET = 250_000;
const DASHBOARD_BUDGET = 350_000;

interface Load {
  bytes: number;
  files: string[];
  encodings: Set<string>;
}

/**
 * Opens `path` with the cache off and sums the compressed bodies of the scripts and styles it fetched, as
 * Chromium's network domain reports them. Not Playwright's `request.sizes()`: that one sometimes never
 * resolves in Chromium (microsoft/playwright#9350), which timed this test out on a loaded machine.
 */
async function firstLoad(page: Page, path: string): Promise<Load> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const received = new Map<string, { url: string; encoding: string; headerBytes: number }>();
  const loaded = new Map<string, { url: string; size: number; encoding: string }>();
  cdp.on('Network.responseReceived', ({ requestId, response }) => {
    const url = new URL(response.url);
    if (!/\.(?:js|css)$/.test(url.pathname)) return;
    const encoding = Object.entries(response.headers).find(([name]) => name.toLowerCase() === 'content-encoding');
    received.set(requestId, {
      url: url.pathname,
      encoding: encoding ? String(encoding[1]) : 'identity',
      headerBytes: response.encodedDataLength,
    });
  });
  cdp.on('Network.loadingFinished', ({ requestId, encodedDataLength }) => {
    const file = received.get(requestId);
    // With the cache off, a file both preloaded and imported is fetched twice; a first visit fetches it once.
    if (file)
      loaded.set(file.url, { url: file.url, size: encodedDataLength - file.headerBytes, encoding: file.encoding });
  });
  await page.goto(path);
  await waitForQuiet(page);
  await page.locator('main :is(h1, h2)').first().waitFor();
  await waitForQuiet(page);
  await cdp.detach();
  const files = [...loaded.values()];
  return {
    bytes: files.reduce((sum, file) => sum + file.size, 0),
    files: files.map((file) => file.url),
    encodings: new Set(files.map((file) => file.encoding)),
  };
}

describe('first load weight', () => {
  it('the login page and the dashboard stay within their budgets of compressed scripts and styles', async () => {
    const page = await browser.newPage();
    const login = await firstLoad(page, '/login');
    // Compressed as a browser takes them, never sent whole.
    expect([...login.encodings].filter((encoding) => encoding === 'identity')).toEqual([]);
    // The login page fetches neither the dashboard's frame nor the chart nor the regions' data.
    expect(login.files.filter((file) => /DashboardLayout|DashboardFigures|regions-/.test(file))).toEqual([]);

    await logIn(page, admin().email, admin().password);
    const dashboard = await firstLoad(page, '/admin');
    expect(dashboard.files.some((file) => file.includes('DashboardLayout'))).toBe(true);
    expect(dashboard.files.some((file) => file.includes('DashboardFigures'))).toBe(true);
    console.info(
      `first load: login ${login.bytes} B in ${login.files.length} files, dashboard ${dashboard.bytes} B in ` +
        `${dashboard.files.length} files (${[...dashboard.encodings].join(', ')})`,
    );
    expect(login.bytes).toBeLessThan(LOGIN_BUDGET);
    expect(dashboard.bytes).toBeLessThan(DASHBOARD_BUDGET);
  });
});
