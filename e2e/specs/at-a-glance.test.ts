import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { apiLogin, apiRequest, postbackPath } from '../support/api.js';
import { admin, baseURL, logIn, useBrowser } from '../support/browser.js';
import { waitForQuiet } from '../support/network.js';

// What a buyer reads first, at 1,400 × 900: Clicks, Conversions, Revenue, Cost, Profit and ROI
// are in view without a sideways scroll — on Reports grouped by three levels of long names, and on the
// campaign list with its figures for the day (and its Actions) — and chosen campaigns pause in bulk.

const VIEWPORT = { width: 1400, height: 900 };
const browser = useBrowser(VIEWPORT);
const run = Date.now().toString(36);
const LONG = 'for the push zones of the autumn sale in six countries, mobile and desktop';
const FIGURES = {
  en: ['Clicks', 'Conversions', 'Revenue', 'Cost', 'Profit', 'ROI'],
  ar: ['النقرات', 'التحويلات', 'الإيرادات', 'التكلفة', 'الربح', 'العائد على الاستثمار'],
};
const CLICKS = 6;

type Created = { external_id: string; name: string; enabled?: boolean };
let token = '';
let campaign: Created;
let offers: Created[] = [];
let flow: Created;
let source: Created;

const AGENTS = [
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
];

beforeAll(async () => {
  token = await apiLogin(admin().email, admin().password);
  source = await apiRequest<Created>('POST', 'traffic-sources', token, { name: `Glance source ${run} ${LONG}` });
  offers = await Promise.all(
    ['A', 'B'].map((letter) =>
      apiRequest<Created>('POST', 'tracker/offers', token, {
        name: `Glance offer ${letter} ${run} ${LONG}`,
        url: 'https://offer.example/?c={clickid}',
      }),
    ),
  );
  flow = await apiRequest<Created>('POST', 'tracker/flows', token, {
    name: `Glance flow ${run} ${LONG}`,
    // Mobile clicks to offer A, the others to B: both offers get clicks whatever a rotation would draw
    // (two offers in one path left one of them without a click once in 32 runs).
    path_groups: offers.map((offer, i) => ({
      id: `${run}-g${i}`,
      name: i === 0 ? 'Mobile' : 'Everyone',
      ...(i === 0
        ? {
            condition: JSON.stringify({
              type: 'InCondition',
              data: { Var: 'device', Operation: 'IN', Values: ['mobile'] },
            }),
          }
        : {}),
      paths: [{ id: `${run}-p${i}`, offers: [{ id: `${run}-o${i}`, offer_external_id: offer.external_id }] }],
    })),
  });
  campaign = await apiRequest<Created>('POST', 'tracker/campaigns', token, {
    name: `Glance campaign ${run} ${LONG}`,
    traffic_source_external_id: source.external_id,
    flow_external_id: flow.external_id,
    cost_model: 'CPC',
    cost: 0.05,
  });
  expect(campaign.name.length).toBeGreaterThan(60);
  const path = await postbackPath(token);
  for (let i = 0; i < CLICKS; i += 1) {
    const response = await fetch(`${baseURL()}/c/${campaign.external_id}`, {
      redirect: 'manual',
      headers: { 'user-agent': AGENTS[i % 2] ?? '' },
    });
    const clickId = new URL(response.headers.get('location') ?? 'http://none/').searchParams.get('c');
    if (clickId && i % 3 === 0) await fetch(`${baseURL()}${path}?clickid=${clickId}&payout=5&txid=glance-${run}-${i}`);
  }
  const query = new URLSearchParams({
    group_by: 'campaign',
    filters: JSON.stringify({ campaign: campaign.external_id }),
  });
  // Clicks are written in batches off the request path; expect.poll is for tests, not hooks.
  await vi.waitFor(
    async () => {
      const report = await apiRequest<{ totals: { clicks: number } }>('GET', `reports?${query}`, token);
      if (report.totals.clicks !== CLICKS) throw new Error(`${report.totals.clicks} of ${CLICKS} clicks stored yet`);
    },
    { timeout: 15_000, interval: 250 },
  );
});

type Box = { x: number; y: number; width: number; height: number };

async function boxOf(element: Locator, what: string): Promise<Box> {
  const box = await element.boundingBox();
  expect(box, `${what} has a box`).not.toBeNull();
  return box as Box;
}

/**
 * Each element lies wholly inside the window and inside the visible part of its table's scroll region
 * (which has not been scrolled), and left of `coverStart` in a left-to-right page (right of it in a
 * right-to-left one): the sticky Actions column covers what passes under it.
 */
async function expectAtAGlance(page: Page, region: Locator, elements: [string, Locator][], cover?: Locator) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(VIEWPORT.width);
  expect(await region.evaluate((element) => element.scrollLeft)).toBe(0);
  const area = await boxOf(region, 'the scroll region');
  const covered = cover ? await boxOf(cover, 'the Actions column') : null;
  const rtl = (await page.evaluate(() => document.documentElement.dir)) === 'rtl';
  for (const [what, element] of elements) {
    const box = await boxOf(element, what);
    expect(box.x, `${what} starts in the window`).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, `${what} ends in the window`).toBeLessThanOrEqual(VIEWPORT.width);
    expect(box.y, `${what} is below the window's top`).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height, `${what} is above the window's bottom`).toBeLessThanOrEqual(VIEWPORT.height);
    expect(box.x, `${what} starts in the table's visible area`).toBeGreaterThanOrEqual(area.x - 0.5);
    expect(box.x + box.width, `${what} ends in the table's visible area`).toBeLessThanOrEqual(
      area.x + area.width + 0.5,
    );
    if (covered) {
      if (rtl) expect(box.x, `${what} is clear of the Actions`).toBeGreaterThanOrEqual(covered.x + covered.width - 0.5);
      else expect(box.x + box.width, `${what} is clear of the Actions`).toBeLessThanOrEqual(covered.x + 0.5);
    }
  }
}

/** How many lines high an element's text is. */
const linesOf = (element: Locator) =>
  element.evaluate(
    (node) => node.getBoundingClientRect().height / Number.parseFloat(getComputedStyle(node).lineHeight),
  );

describe('at a glance at 1,400 px', () => {
  it('Reports by campaign, offer and device of long names show every first figure in view', async () => {
    const page = await browser.newPage();
    await logIn(page, admin().email, admin().password);
    await page.goto(`/tracker/reports?group_by=campaign,offer,device&search=${run}`);
    await waitForQuiet(page);
    const region = page.getByRole('region', { name: /Campaign › Offer › Device/ });
    const table = region.getByRole('table');
    const opener = page.getByRole('button', { name: `Open ${campaign.name} by Offer` });
    await opener.waitFor();
    // The campaign's own row: its name on one line, its clicks all of them.
    const row = table.getByRole('row').filter({ has: opener });
    expect((await row.getByRole('cell').nth(1).innerText()).trim()).toBe(String(CLICKS));
    expect(await linesOf(row.locator('.sy-report-name').first())).toBeLessThanOrEqual(1.5);
    // All three levels open: the campaign, its offers, an offer's devices.
    await opener.click();
    const offerRows = table.locator('tr[data-depth="1"]');
    await expect.poll(() => offerRows.count(), { timeout: 15_000 }).toBe(2);
    await offerRows
      .first()
      .getByRole('button', { name: /^Open Glance offer .* by Device$/ })
      .click();
    await expect.poll(() => table.locator('tr[data-depth="2"]').count(), { timeout: 15_000 }).toBeGreaterThan(0);
    const headers = FIGURES.en.map(
      (name) => [name, table.getByRole('columnheader', { name, exact: true })] as [string, Locator],
    );
    await expectAtAGlance(page, region, headers);
    await page.close();
  });

  it.each(['en', 'ar'] as const)(
    'the campaign list (%s) shows the figures for today and its Actions',
    async (language) => {
      const page = await browser.newPage();
      await logIn(page, admin().email, admin().password);
      await page.evaluate((chosen) => localStorage.setItem('switchyard.language', chosen), language);
      await page.goto(`/tracker/campaigns?search=${run}`);
      await waitForQuiet(page);
      const link = page.getByRole('link', { name: campaign.name, exact: true });
      await link.waitFor();
      const region = page.locator('main section.sy-list-scroll');
      const table = region.getByRole('table');
      const actions = table.getByRole('columnheader', { name: language === 'en' ? 'Actions' : 'الإجراءات' });
      const headers = FIGURES[language].map(
        (name) => [name, table.getByRole('columnheader', { name, exact: true })] as [string, Locator],
      );
      await expectAtAGlance(page, region, headers, actions);
      const row = table.getByRole('row').filter({ has: link });
      await expectAtAGlance(page, region, [
        ['the Actions header', actions],
        ['the row’s Archive', row.getByRole('button', { name: language === 'en' ? 'Archive' : 'أرشفة' })],
        ['the name', link],
      ]);
      // Today's figures of the campaign: its clicks, one conversion in three at 5, 0.05 a click.
      const cells = await row.getByRole('cell').allInnerTexts();
      const figures = cells.slice(2, 8).map((text) => text.trim());
      const money = await page.evaluate(
        (chosen) => new Intl.NumberFormat(chosen, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(10),
        language,
      );
      expect(figures.slice(0, 3)).toEqual([String(CLICKS), '2', money]);
      // The name is one line, cut; the whole of it shows on hover.
      expect(await linesOf(link)).toBeLessThanOrEqual(1.5);
      await link.hover();
      await expect.poll(() => page.getByRole('tooltip').innerText()).toBe(campaign.name);
      await page.close();
    },
  );

  it('pauses the chosen campaigns in bulk, says so, and they take no more clicks', async () => {
    const twins = await Promise.all(
      ['One', 'Two'].map((which) =>
        apiRequest<Created>('POST', 'tracker/campaigns', token, {
          name: `Bulk ${which} ${run}`,
          traffic_source_external_id: source.external_id,
          flow_external_id: flow.external_id,
        }),
      ),
    );
    const page = await browser.newPage();
    await logIn(page, admin().email, admin().password);
    await page.goto(`/tracker/campaigns?search=${run}&period=yesterday`);
    await page.getByRole('link', { name: `Bulk Two ${run}`, exact: true }).waitFor();
    expect(await page.getByRole('combobox', { name: 'Figures for' }).inputValue()).toBe('yesterday');
    const bar = page.getByRole('region', { name: 'Bulk actions' });
    for (const twin of twins) await page.getByRole('checkbox', { name: `Select ${twin.name}` }).check();
    await bar.getByText('Selected: 2').waitFor();
    await bar.getByRole('button', { name: 'Pause' }).click();
    await page.getByRole('status').filter({ hasText: 'Paused: 2' }).waitFor();
    expect(await page.getByRole('region', { name: 'Bulk actions' }).count()).toBe(0);
    for (const twin of twins) {
      const stored = await apiRequest<Created>('GET', `tracker/campaigns/${twin.external_id}`, token);
      expect(stored.enabled).toBe(false);
      const response = await fetch(`${baseURL()}/c/${twin.external_id}`, { redirect: 'manual' });
      expect(response.status).not.toBe(302);
    }
    // The campaign that was not chosen still routes.
    const other = await apiRequest<Created>('GET', `tracker/campaigns/${campaign.external_id}`, token);
    expect(other.enabled).not.toBe(false);
    await page.close();
  });
});
