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

/** Opens `path` with the cache off and sums the compressed bodies of the scripts and styles it fetched. */
async function firstLoad(page: Page, path: string): Promise<Load> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const responses: Promise<{ url: string; size: number; encoding: string }>[] = [];
  const listener = (response: import('playwright-core').Response) => {
    const url = new URL(response.url());
    if (!/\.(?:js|css)$/.test(url.pathname)) return;
    responses.push(
      response.finished().then(async () => ({
        url: url.pathname,
        size: (await response.request().sizes()).responseBodySize,
        encoding: (await response.headerValue('content-encoding')) ?? 'identity',
      })),
    );
  };
  page.on('response', listener);
  await page.goto(path);
  await waitForQuiet(page);
  await page.locator('main :is(h1, h2)').first().waitFor();
  await waitForQuiet(page);
  page.off('response', listener);
  await cdp.detach();
  // With the cache off, a file both preloaded and imported is fetched twice; a first visit fetches it once.
  const loaded = [...new Map((await Promise.all(responses)).map((file) => [file.url, file])).values()];
  return {
    bytes: loaded.reduce((sum, file) => sum + file.size, 0),
    files: loaded.map((file) => file.url),
    encodings: new Set(loaded.map((file) => file.encoding)),
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
