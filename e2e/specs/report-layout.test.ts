import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { apiLogin, apiRequest, postbackPath } from '../support/api.js';
import { admin, baseURL, logIn, useBrowser } from '../support/browser.js';
import { waitForQuiet } from '../support/network.js';

// At 1,400 px the figures a buyer reads first are on screen without a sideways scroll: on Reports grouped
// by three levels of long names (shown as a tree with subtotals), and on the campaign list (whose actions
// stay in view and whose names do not run down the row).

const browser = useBrowser({ width: 1400, height: 900 });
const run = Date.now().toString(36);
const FIRST_FIGURES = ['Clicks', 'Conversions', 'Revenue', 'Cost', 'Profit', 'ROI'];
const LONG = 'with a very long descriptive name that a media buyer types: geo, device, zone list and creative set';
let campaignName = '';
let offerNames: string[] = [];
let clicks = 0;

type Created = { external_id: string; name: string };

beforeAll(async () => {
  const token = await apiLogin(admin().email, admin().password);
  const source = await apiRequest<Created>('POST', 'traffic-sources', token, { name: `Layout source ${run} ${LONG}` });
  const offers = await Promise.all(
    ['A', 'B'].map((letter) =>
      apiRequest<Created>('POST', 'tracker/offers', token, {
        name: `Layout offer ${letter} ${run} ${LONG}`,
        url: `https://offer.example/${letter}?c={clickid}`,
      }),
    ),
  );
  offerNames = offers.map((offer) => offer.name);
  const flow = await apiRequest<Created>('POST', 'tracker/flows', token, {
    name: `Layout flow ${run} ${LONG}`,
    path_groups: [
      {
        id: `${run}-g`,
        name: 'Everyone',
        paths: [
          {
            id: `${run}-p`,
            offers: offers.map((offer, i) => ({ id: `${run}-o${i}`, offer_external_id: offer.external_id })),
          },
        ],
      },
    ],
  });
  const campaign = await apiRequest<Created>('POST', 'tracker/campaigns', token, {
    name: `Layout campaign ${run} ${LONG}`,
    traffic_source_external_id: source.external_id,
    flow_external_id: flow.external_id,
    cost_model: 'CPC',
    cost_value: 0.05,
  });
  campaignName = campaign.name;
  const agents = [
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  ];
  const path = await postbackPath(token);
  // The path rotates its offers at random: clicks go on past eight until both offers have some, so the
  // campaign always opens to two offer rows.
  const offersSeen = new Set<string>();
  for (; clicks < 8 || (offersSeen.size < 2 && clicks < 100); clicks += 1) {
    const response = await fetch(`${baseURL()}/c/${campaign.external_id}`, {
      redirect: 'manual',
      headers: { 'user-agent': agents[clicks % 2] ?? '' },
    });
    const location = new URL(response.headers.get('location') ?? 'http://none/');
    offersSeen.add(location.pathname);
    const clickId = location.searchParams.get('c');
    if (clickId && clicks % 3 === 0) {
      await fetch(`${baseURL()}${path}?clickid=${clickId}&payout=5&txid=layout-${run}-${clicks}`);
    }
  }
  const query = new URLSearchParams({
    group_by: 'campaign',
    filters: JSON.stringify({ campaign: campaign.external_id }),
  });
  // Clicks are written in batches off the request path; expect.poll is for tests, not hooks.
  await vi.waitFor(
    async () => {
      const report = await apiRequest<{ totals: { clicks: number } }>('GET', `reports?${query}`, token);
      if (report.totals.clicks !== clicks) throw new Error(`${report.totals.clicks} of ${clicks} clicks stored yet`);
    },
    { timeout: 15_000, interval: 250 },
  );
});

/** The page does not scroll sideways, and each element lies wholly inside the window. */
async function expectInView(page: Page, elements: Locator[]) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1400);
  for (const element of elements) {
    const box = await element.boundingBox();
    expect(box, `${await element.innerText()} has a box`).not.toBeNull();
    if (!box) continue;
    expect(box.x, `${await element.innerText()} starts on screen`).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, `${await element.innerText()} ends on screen`).toBeLessThanOrEqual(1400);
  }
}

describe('the figures a buyer reads first at 1,400 px', () => {
  it('Reports grouped by three levels of long names show them as a tree, every first figure on screen', async () => {
    const page = await browser.newPage();
    await logIn(page, admin().email, admin().password);
    await page.goto(`/tracker/reports?group_by=campaign,offer,device&search=${run}`);
    await waitForQuiet(page);
    const table = page.getByRole('table', { name: /Campaign › Offer › Device/ });
    const headers = FIRST_FIGURES.map((name) => table.getByRole('columnheader', { name, exact: true }));
    await headers[0]?.waitFor();
    await expectInView(page, headers);

    // The campaign's row: its name on one line, cut, whole on hover; its figures are the campaign's.
    const row = table
      .getByRole('row')
      .filter({ has: page.getByRole('button', { name: `Open ${campaignName} by Offer` }) });
    await expect.poll(() => row.count()).toBe(1);
    const nameHeight = await row
      .locator('.sy-report-name')
      .first()
      .evaluate((element) => element.clientHeight);
    const lineHeight = await row
      .locator('.sy-report-name')
      .first()
      .evaluate((element) => Number.parseFloat(getComputedStyle(element).lineHeight));
    expect(nameHeight).toBeLessThanOrEqual(lineHeight * 1.5);
    const cells = row.getByRole('cell');
    await expectInView(page, [cells.nth(1), cells.nth(3), cells.nth(4), cells.nth(5), cells.nth(6), cells.nth(7)]);
    expect((await cells.nth(1).innerText()).trim()).toBe(String(clicks));

    // Opening it shows its offers, then an offer's devices: each level's figures add up to its parent's.
    await page.getByRole('button', { name: `Open ${campaignName} by Offer` }).click();
    const offerRows = table.locator('tr[data-depth="1"]');
    await expect.poll(() => offerRows.count()).toBe(2);
    const offerClicks = await Promise.all(
      [0, 1].map(async (i) => Number(await offerRows.nth(i).getByRole('cell').nth(1).innerText())),
    );
    expect(offerClicks.reduce((sum, offer) => sum + offer, 0)).toBe(clicks);
    await offerRows
      .first()
      .getByRole('button', { name: /^Open .* by Device$/ })
      .click();
    const deviceRows = table.locator('tr[data-depth="2"]');
    await expect.poll(() => deviceRows.count()).toBeGreaterThan(0);
    expect(offerNames.some((name) => name.includes(run))).toBe(true);
    await expectInView(page, headers);
    await page.close();
  });

  it('the column chooser hides and shows figures, and the flat table stays an option', async () => {
    const page = await browser.newPage();
    await logIn(page, admin().email, admin().password);
    await page.goto(`/tracker/reports?group_by=campaign,offer&search=${run}`);
    await page.getByRole('button', { name: /^Columns/ }).click();
    // Clicked, not check(): the box follows the URL, a moment after the click.
    await page.getByRole('checkbox', { name: 'Leads' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('columns')).toContain('leads');
    await page.getByRole('checkbox', { name: 'Unique clicks' }).click();
    await page.keyboard.press('Escape');
    await expect
      .poll(() => new URL(page.url()).searchParams.get('columns'))
      .toBe('clicks,leads,conversions,revenue,cost,profit,roi,cr,epc');
    const table = page.getByRole('table', { name: /Campaign › Offer/ });
    await table.getByRole('columnheader', { name: 'Leads', exact: true }).waitFor();
    await expect.poll(() => table.getByRole('columnheader', { name: 'Unique clicks', exact: true }).count()).toBe(0);
    await page.locator('label', { hasText: /^Flat$/ }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('layout')).toBe('flat');
    await table.getByRole('columnheader', { name: 'Offer', exact: true }).waitFor();
    await page.close();
  });

  it('the campaign list shows its actions and keeps long names to two lines', async () => {
    const page = await browser.newPage();
    await logIn(page, admin().email, admin().password);
    await page.goto(`/tracker/campaigns?search=${run}`);
    const link = page.getByRole('link', { name: campaignName, exact: true });
    await link.waitFor();
    const row = page.getByRole('row').filter({ has: link });
    await expectInView(page, [
      page.getByRole('columnheader', { name: 'Actions' }),
      row.getByRole('button', { name: /Archive/ }),
      link,
    ]);
    const lines = await link.evaluate(
      (element) => element.getBoundingClientRect().height / Number.parseFloat(getComputedStyle(element).lineHeight),
    );
    expect(lines).toBeLessThanOrEqual(2.1);
    await page.close();
  });
});
