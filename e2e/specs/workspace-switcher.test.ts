import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiLogin, apiRequest } from '../support/api.js';
import { admin, logIn, useBrowser } from '../support/browser.js';

// An administrator (root reaches every workspace) switches workspaces in the top bar and sees
// only the records of the one chosen.

const browser = useBrowser();
const run = Date.now().toString(36);
const second = `Second ${run}`;
const homeOffer = `Home offer ${run}`;
const secondOffer = `Second offer ${run}`;
/** Set to also picture the switcher open, in English and Arabic, wide and narrow, for a person to look at. */
const shotsFolder = process.env.SWITCHYARD_E2E_SHOTS ? '/tmp/switcher-shots' : '';

beforeAll(async () => {
  const adminToken = await apiLogin(admin().email, admin().password);
  const workspace = await apiRequest<{ id: number }>('POST', 'workspaces', adminToken, { name: second });
  await apiRequest('POST', 'offers', adminToken, { name: homeOffer, url: 'https://offers.example/home' });
  await apiRequest(
    'POST',
    'offers',
    adminToken,
    { name: secondOffer, url: 'https://offers.example/second' },
    { 'X-Workspace': String(workspace.id) },
  );
});

function offerRow(page: Page, name: string) {
  return page.getByRole('row').filter({ hasText: name });
}

/** The switcher's button: named after the workspace shown, in any interface language. */
function switcher(page: Page, workspace: RegExp) {
  return page.locator('header').getByRole('button', { name: workspace });
}

async function openOffersAsAdmin(page: Page) {
  await logIn(page, admin().email, admin().password);
  await page.goto(`/admin/offers?search=${encodeURIComponent(run)}`);
  await offerRow(page, homeOffer).waitFor();
}

describe('the workspace switcher', () => {
  it("shows the default workspace's offers, then only the second's once switched to it", async () => {
    const page = await browser.newPage();
    await openOffersAsAdmin(page);
    expect(await offerRow(page, secondOffer).count()).toBe(0);

    await page.getByRole('button', { name: /^Workspace: / }).click();
    await page.getByRole('menuitem', { name: second }).click();
    await offerRow(page, secondOffer).waitFor();
    expect(await offerRow(page, homeOffer).count()).toBe(0);
    await page.getByRole('button', { name: `Workspace: ${second}` }).waitFor();
    // The same list screen, with its search, in the other workspace.
    expect(new URL(page.url()).search).toBe(`?search=${encodeURIComponent(run)}`);

    // The choice is this browser's: kept across a reload.
    await page.reload();
    await offerRow(page, secondOffer).waitFor();
    expect(await offerRow(page, homeOffer).count()).toBe(0);
  });

  it.skipIf(!shotsFolder)('pictures the switcher open in English and Arabic, at 1280 and 390 px', async () => {
    mkdirSync(shotsFolder, { recursive: true });
    const page = await browser.newPage();
    await openOffersAsAdmin(page);
    const shoot = async (name: string) => {
      await switcher(page, /Workspace|مساحة العمل/).click();
      await page.getByRole('menuitem', { name: second }).waitFor();
      // Pictured once its fade-in is over.
      await expect.poll(() => page.getByRole('menu').evaluate((menu) => getComputedStyle(menu).opacity)).toBe('1');
      await page.screenshot({ path: join(shotsFolder, `${name}.png`) });
      await page.keyboard.press('Escape');
      await page.getByRole('menuitem', { name: second }).waitFor({ state: 'hidden' });
    };
    await shoot('en-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await shoot('en-390');

    await page.evaluate(() => localStorage.setItem('switchyard.language', 'ar'));
    await page.reload();
    await expect.poll(() => page.getAttribute('html', 'dir')).toBe('rtl');
    await offerRow(page, homeOffer).waitFor();
    await shoot('ar-390');
    await page.setViewportSize({ width: 1280, height: 900 });
    await shoot('ar-1280');
  });
});
