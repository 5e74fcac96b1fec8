import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiLogin, apiRequest } from '../support/api.js';
import { admin, baseURL, logIn, useBrowser } from '../support/browser.js';

// Change a flow's weights, see the diff in its History tab, restore, and see the old
// weights routing again. Screenshots of the History tab are written in English and Arabic for a person to
// look at (SWITCHYARD_E2E_SHOTS).

const browser = useBrowser();
let adminToken = '';
const run = Date.now().toString(36);
const shots = process.env.SWITCHYARD_E2E_SHOTS;

type Created = { external_id: string; name: string };

beforeAll(async () => {
  adminToken = await apiLogin(admin().email, admin().password);
});

/** Where a click on the campaign goes (the tracker's 302). */
async function clickGoesTo(campaignId: string): Promise<string> {
  const response = await fetch(`${baseURL()}/c/${campaignId}`, { redirect: 'manual' });
  expect(response.status).toBe(302);
  return new URL(response.headers.get('location') ?? '').host;
}

/** The path's own weight field, its group and its details opened first. */
async function pathWeight(page: Page, name: string) {
  for (const row of ['Everyone', name]) {
    const toggle = page.getByRole('button', { name: `Details of ${row}`, exact: true });
    if ((await toggle.getAttribute('aria-expanded')) === 'false') await toggle.click();
  }
  const toggle = page.getByRole('button', { name: `Details of ${name}`, exact: true });
  const body = page.locator(`[id="${await toggle.getAttribute('aria-controls')}"]`);
  return body.getByRole('textbox', { name: 'Weight', exact: true }).first();
}

describe('change history', () => {
  it('shows a weight change in the flow’s History tab and routes by the old weights after Restore', async () => {
    const offer = async (letter: string) =>
      apiRequest<Created>('POST', 'tracker/offers', adminToken, {
        name: `History offer ${letter} ${run}`,
        url: `https://offer-${letter}.example/?c={clickid}`,
      });
    const [offerA, offerB] = [await offer('a'), await offer('b')];
    const path = (id: string, name: string, weight: number, offerId: string) => ({
      id: `${run}-${id}`,
      name,
      weight,
      offers: [{ id: `${run}-${id}-o`, offer_external_id: offerId, weight: 100 }],
    });
    const flow = await apiRequest<Created>('POST', 'tracker/flows', adminToken, {
      name: `History flow ${run}`,
      path_groups: [
        {
          id: `${run}-g`,
          name: 'Everyone',
          paths: [path('a', 'A', 100, offerA?.external_id ?? ''), path('b', 'B', 0, offerB?.external_id ?? '')],
        },
      ],
    });
    const source = await apiRequest<Created>('POST', 'traffic-sources', adminToken, { name: `History source ${run}` });
    const campaign = await apiRequest<Created>('POST', 'tracker/campaigns', adminToken, {
      name: `History campaign ${run}`,
      traffic_source_external_id: source.external_id,
      flow_external_id: flow.external_id,
    });
    expect(await clickGoesTo(campaign.external_id)).toBe('offer-a.example');

    // The operator moves all the traffic to path B in the flow editor.
    const page = await browser.newPage();
    await logIn(page, admin().email, admin().password);
    await page.goto(`/tracker/flows/edit/${flow.external_id}`);
    await (await pathWeight(page, 'A')).fill('0');
    await (await pathWeight(page, 'B')).fill('100');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => clickGoesTo(campaign.external_id), { timeout: 10_000 }).toBe('offer-b.example');

    // Its History tab says who changed which path's weight, from what to what.
    await page.getByRole('tab', { name: 'History' }).click();
    const change = page.getByRole('article').first();
    await change.getByText('Changed', { exact: true }).waitFor();
    const lines = change.getByRole('listitem');
    await expect
      .poll(() => lines.allInnerTexts())
      .toEqual([
        'Path group “Everyone” › Path “A”: Weight 100 → 0',
        'Path group “Everyone” › Path “B”: Weight 0 → 100',
      ]);
    if (shots) await page.screenshot({ path: `${shots}/history-tab-en.png`, fullPage: true });

    // Restore, confirmed: the form shows the old weights, and clicks go to path A's offer again.
    await change.getByRole('button', { name: 'Restore' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Restore' }).click();
    await page.getByText('The earlier version is back.').waitFor();
    await expect.poll(async () => (await pathWeight(page, 'A')).inputValue()).toBe('100');
    expect(await (await pathWeight(page, 'B')).inputValue()).toBe('0');
    await expect.poll(() => clickGoesTo(campaign.external_id), { timeout: 10_000 }).toBe('offer-a.example');
    for (let click = 0; click < 5; click += 1) expect(await clickGoesTo(campaign.external_id)).toBe('offer-a.example');

    // The restore is a change of its own, at the top of the history, naming the change it undid.
    await page.getByRole('tab', { name: 'History' }).click();
    const restored = page.getByRole('article').first();
    await restored.getByText(/^Puts back the version before change #\d+$/).waitFor();
    await expect
      .poll(() => restored.getByRole('listitem').allInnerTexts())
      .toEqual([
        'Path group “Everyone” › Path “A”: Weight 0 → 100',
        'Path group “Everyone” › Path “B”: Weight 100 → 0',
      ]);

    // In Arabic the tab reads right to left, the arrow pointing the way the text runs.
    await page.evaluate(() => localStorage.setItem('switchyard.language', 'ar'));
    await page.goto(`/tracker/flows/edit/${flow.external_id}`);
    await expect.poll(() => page.getAttribute('html', 'dir')).toBe('rtl');
    await page.getByRole('tab', { name: 'السجل' }).click();
    const arabic = page.getByRole('article').nth(1);
    await arabic.getByText('عُدّل', { exact: true }).waitFor();
    await expect
      .poll(() => arabic.getByRole('listitem').first().innerText())
      .toBe('مجموعة المسارات «Everyone» › المسار «A»: الوزن 100 ← 0');
    expect(await arabic.evaluate((node) => getComputedStyle(node).direction)).toBe('rtl');
    if (shots) await page.screenshot({ path: `${shots}/history-tab-ar.png`, fullPage: true });
    await page.evaluate(() => localStorage.removeItem('switchyard.language'));
    await page.close();
  });
});
