import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiLogin, apiRequest } from '../support/api.js';
import { admin, baseURL, logIn, useBrowser } from '../support/browser.js';

// The live view: a real click on a campaign shows on the live screen as it happens; while
// paused it is only counted, and shows on resume; the dashboard's tile shows it too.

const browser = useBrowser();
const run = Date.now().toString(36);
let campaign = { external_id: '', name: '' };

type Created = { external_id: string; name: string };

/** Names as long as buyers write them: the live table cuts them short to keep every column in sight. */
const LONG = 'PropellerAds push, tier 1, mobile Android, weekdays';

beforeAll(async () => {
  const token = await apiLogin(admin().email, admin().password);
  const offer = await apiRequest<Created>('POST', 'tracker/offers', token, {
    name: `Live offer ${run} ${LONG}`,
    url: 'https://offer.example/?c={clickid}',
  });
  const flow = await apiRequest<Created>('POST', 'tracker/flows', token, {
    name: `Live flow ${run}`,
    path_groups: [
      {
        id: `${run}-g`,
        name: `Live group ${run} ${LONG}`,
        paths: [{ id: `${run}-p`, offers: [{ id: `${run}-o`, offer_external_id: offer.external_id }] }],
      },
    ],
  });
  const source = await apiRequest<Created>('POST', 'traffic-sources', token, { name: `Live source ${run}` });
  campaign = await apiRequest<Created>('POST', 'tracker/campaigns', token, {
    name: `Live campaign ${run} ${LONG}`,
    traffic_source_external_id: source.external_id,
    flow_external_id: flow.external_id,
  });
});

async function sendClick(subaff: string): Promise<void> {
  const response = await fetch(`${baseURL()}/c/${campaign.external_id}?subaff=${subaff}`, {
    redirect: 'manual',
    headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/120.0 Safari/537.36' },
  });
  expect(response.status).toBe(302);
}

/** The live table's rows (its header left out); none while the table is not shown. */
function liveRows(page: Page) {
  return page
    .getByRole('table', { name: 'Live events' })
    .getByRole('row')
    .filter({ hasNot: page.getByRole('columnheader') });
}

describe('live view', () => {
  it('shows a click as it happens, holds it while paused, and shows it on resume', async () => {
    const page = await browser.newPage();
    await logIn(page, admin().email, admin().password);
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Live View' }).click();
    await page.getByRole('heading', { name: 'Live view', level: 1 }).waitFor();
    await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();

    await sendClick('first');
    await expect.poll(() => liveRows(page).count(), { timeout: 10_000 }).toBe(1);
    const row = liveRows(page).first();
    await expect.poll(() => row.getByText(campaign.name).count(), { timeout: 10_000 }).toBe(1);
    await expect.poll(() => row.getByText(`Live offer ${run}`).count(), { timeout: 10_000 }).toBe(1);
    await expect.poll(() => row.getByText(`Live group ${run}`).count(), { timeout: 10_000 }).toBe(1);
    expect(await row.getByText('Click', { exact: true }).count()).toBe(1);

    await page.getByRole('button', { name: 'Pause' }).click();
    await sendClick('second');
    await page.getByText('Paused. New events while paused: 1. They show when you resume.').waitFor({ timeout: 10_000 });
    expect(await liveRows(page).count()).toBe(1);

    await page.getByRole('button', { name: 'Resume' }).click();
    await expect.poll(() => liveRows(page).count(), { timeout: 10_000 }).toBe(2);
    expect(await page.getByText(/New events while paused/).count()).toBe(0);
    await page.close();
  });

  it('streams one campaign when it is chosen, and shows the newest events on the dashboard', async () => {
    const page = await browser.newPage();
    await logIn(page, admin().email, admin().password);
    await page.goto(`/tracker/live?campaign=${campaign.external_id}`);
    await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
    // The campaign's name once the list of campaigns has loaded (its id until then).
    await expect
      .poll(() => page.getByRole('combobox', { name: 'Campaign' }).inputValue(), { timeout: 10_000 })
      .toBe(campaign.name);
    await sendClick('chosen');
    await expect.poll(() => liveRows(page).count(), { timeout: 10_000 }).toBe(1);

    await page.goto('/admin');
    const tile = page.getByRole('region', { name: 'Live events' });
    await tile.getByRole('status').filter({ hasText: 'Live' }).waitFor();
    await sendClick('tile');
    await expect.poll(() => liveRows(page).count(), { timeout: 10_000 }).toBe(1);
    // Named once the campaigns' lookup has loaded (an id shows as itself until then).
    await expect.poll(() => tile.getByText(campaign.name).count(), { timeout: 10_000 }).toBe(1);
    await tile.getByRole('link', { name: 'Open live view' }).click();
    await page.waitForURL('**/tracker/live');
    await page.close();
  });

  it('shows every column, Payout and Status too, without scrolling at 1,400 px', async () => {
    const page = await browser.newPage();
    await page.setViewportSize({ width: 1400, height: 900 });
    await logIn(page, admin().email, admin().password);
    for (const [language, live, payout, status] of [
      ['en', 'Live', 'Payout', 'Status'],
      ['ar', 'مباشر', 'الدفعة', 'الحالة'],
    ] as const) {
      await page.evaluate((chosen) => localStorage.setItem('switchyard.language', chosen), language);
      await page.goto('/tracker/live');
      await page.getByRole('status').filter({ hasText: live }).waitFor();
      await sendClick(`wide-${language}`);
      await expect.poll(() => page.locator('table tbody tr').count(), { timeout: 10_000 }).toBeGreaterThan(0);
      const fit = await page.evaluate(() => {
        const table = document.querySelector('table') as HTMLTableElement;
        const box = table.parentElement as HTMLElement;
        const edges = box.getBoundingClientRect();
        const headers = [...table.querySelectorAll('thead th')].map((th) => {
          const rect = th.getBoundingClientRect();
          return { text: th.textContent, inside: rect.left >= edges.left - 1 && rect.right <= edges.right + 1 };
        });
        return { scrolls: box.scrollWidth > box.clientWidth, headers };
      });
      expect(fit.scrolls).toBe(false);
      expect(fit.headers.filter((header) => !header.inside)).toEqual([]);
      expect(fit.headers.map((header) => header.text)).toEqual(expect.arrayContaining([payout, status]));
    }
    await page.close();
  });
});
