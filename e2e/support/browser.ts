import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, inject } from 'vitest';
import { watchRequests } from './network.js';

// Debian's Chromium, never a downloaded one; these flags keep it off the (closed) network.
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const root = new URL('../..', import.meta.url).pathname;

export const baseURL = () => inject('baseURL');
export const admin = () => inject('admin');

/**
 * A fresh browser profile per test file and a fresh page per test, on the shared server, or on the one
 * `server` names (read when the browser starts: a spec's own server, started in its `beforeAll`).
 */
export function useBrowser(viewport = { width: 1280, height: 900 }, server: () => string = baseURL) {
  let context: BrowserContext | undefined;
  let profile = '';
  const pages: Page[] = [];

  beforeAll(async () => {
    profile = mkdtempSync(join(tmpdir(), 'switchyard-chromium-'));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      headless: true,
      viewport,
      baseURL: server(),
      args: CHROMIUM_ARGS,
    });
  });

  afterEach(async (test) => {
    // A failed test leaves a picture of what the browser showed, for whoever reads the failure.
    if (test.task.result?.state === 'fail') {
      const folder = join(root, '.test-results', 'screenshots');
      mkdirSync(folder, { recursive: true });
      const name = test.task.name.replace(/[^\w-]+/g, '-').slice(0, 80);
      for (const [index, page] of pages.entries()) {
        await page.screenshot({ path: join(folder, `${name}-${index}.png`), fullPage: true }).catch(() => undefined);
      }
    }
    for (const page of pages.splice(0)) await page.close();
    await context?.clearCookies();
  });

  afterAll(async () => {
    await context?.close();
    rmSync(profile, { recursive: true, force: true });
  });

  return {
    async newPage(): Promise<Page> {
      if (!context) throw new Error('the browser did not start');
      const page = await context.newPage();
      pages.push(page);
      watchRequests(page);
      // Every test starts logged out, in English: storage is cleared on a same-origin page that is not
      // the dashboard, before the dashboard first loads.
      await page.goto('/favicon.svg');
      await page.evaluate(() => {
        localStorage.clear();
        sessionStorage.clear();
      });
      await page.goto('/login');
      return page;
    },
  };
}

export async function logIn(page: Page, email: string, password: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByRole('textbox', { name: 'Password' }).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  // Logged in once the dashboard has taken over from the login page.
  await page.waitForURL((url) => url.pathname !== '/login');
}
