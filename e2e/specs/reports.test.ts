import { readFileSync } from 'node:fs';
import type { ReportResponse } from '@switchyard/domain';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiLogin, apiRequest, postbackPath } from '../support/api.js';
import { admin, baseURL, logIn, useBrowser } from '../support/browser.js';

// Reports: a tracker campaign configured in the dashboard gets clicks and a postback over HTTP, and the
// reports screen shows them — in the table, its totals, a drill-down to the campaign's offers and the CSV.

const browser = useBrowser();
let adminToken = '';
const run = Date.now().toString(36);

const USER_AGENTS = [
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36',
];

beforeAll(async () => {
  adminToken = await apiLogin(admin().email, admin().password);
});

async function choose(page: Page, label: string, option: string) {
  // A required select's name carries its asterisk.
  await page.getByRole('combobox', { name: new RegExp(`^${label}`) }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** A visitor's click on the campaign URL; the offer URL it is sent to carries the click id (`{clickid}`). */
async function click(campaignId: string, userAgent: string): Promise<string> {
  const response = await fetch(`${baseURL()}/c/${campaignId}?subaff=e2e`, {
    redirect: 'manual',
    headers: { 'user-agent': userAgent },
  });
  expect(response.status).toBe(302);
  const clickId = new URL(response.headers.get('location') ?? '').searchParams.get('c');
  expect(clickId).toBeTruthy();
  return clickId ?? '';
}

/** The campaign's figures as the API reports them (today, in any zone: the range is wide enough). */
async function campaignFigures(campaignId: string) {
  const query = new URLSearchParams({
    group_by: 'campaign',
    filters: JSON.stringify({ campaign: campaignId }),
  });
  const report = await apiRequest<ReportResponse>('GET', `reports?${query}`, adminToken);
  return report.totals;
}

/** The texts of a table row's first cells: the name, then the usual columns (clicks, unique clicks, conversions, …). */
async function rowTexts(page: Page, name: string): Promise<string[]> {
  const row = page.getByRole('row').filter({ has: page.getByRole('button', { name, exact: true }) });
  if ((await row.count()) !== 1) return [];
  return (await row.getByRole('cell').allInnerTexts()).slice(0, 9).map((text) => text.trim());
}

describe('reports', () => {
  it('shows the clicks, conversion and revenue of a campaign, drills into its offers and exports CSV', async () => {
    // What the campaign needs, through the API.
    const source = await apiRequest<{ external_id: string; name: string }>('POST', 'traffic-sources', adminToken, {
      name: `Reports source ${run}`,
    });
    const offer = await apiRequest<{ external_id: string; name: string }>('POST', 'tracker/offers', adminToken, {
      name: `Reports offer ${run}`,
      url: 'https://offer.example/?c={clickid}',
    });
    const flow = await apiRequest<{ external_id: string; name: string }>('POST', 'tracker/flows', adminToken, {
      name: `Reports flow ${run}`,
      path_groups: [
        {
          id: `${run}-g`,
          name: 'Everyone',
          paths: [{ id: `${run}-p`, offers: [{ id: `${run}-o`, offer_external_id: offer.external_id }] }],
        },
      ],
    });

    // The campaign itself, from the dashboard.
    const page = await browser.newPage();
    await logIn(page, admin().email, admin().password);
    const campaignName = `Reports campaign ${run}`;
    await page.goto('/tracker/campaigns/create');
    await page.getByRole('textbox', { name: 'Name' }).fill(campaignName);
    await choose(page, 'Traffic source', source.name);
    await choose(page, 'Flow', flow.name);
    await page.getByRole('textbox', { name: /^Cost/ }).fill('0.10');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL(/\/edit\//);
    const campaignId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');

    // Three visitors, one of whom converts for 4.50.
    const clickIds: string[] = [];
    for (const userAgent of USER_AGENTS) clickIds.push(await click(campaignId, userAgent));
    const postback = await fetch(
      `${baseURL()}${await postbackPath(adminToken)}?clickid=${clickIds[1]}&payout=4.50&txid=e2e-${run}`,
    );
    expect(postback.status).toBe(200);
    // Clicks are written in batches off the request path: wait until the report has them.
    await expect
      .poll(() => campaignFigures(campaignId), { timeout: 15_000, interval: 250 })
      .toMatchObject({ clicks: 3, conversions: 1, revenue: 4.5 });

    // The reports screen, searched down to this run's campaign.
    await page.goto('/tracker/reports');
    await page.getByRole('heading', { name: 'Reports' }).waitFor();
    await page.getByRole('searchbox', { name: 'Search the rows' }).fill(run);
    await page.waitForURL(/search=/);
    await expect
      .poll(() => rowTexts(page, campaignName), { timeout: 10_000 })
      .toEqual([campaignName, '3', '3', '1', '4.50', '0.30', '4.20', '1,400%', '33.33%']);
    // The usual columns: clicks, unique clicks, conversions, revenue, cost, profit, ROI, CR (then EPC).
    // Polled: the row shows before the searched answer replaces the totals of every campaign (other specs'
    // clicks too).
    const totals = page.getByRole('row', { name: /^Total/ });
    const totalTexts = async () =>
      (await totals.getByRole('cell').allInnerTexts()).slice(0, 8).map((text) => text.trim());
    await expect
      .poll(totalTexts, { timeout: 10_000 })
      .toEqual(['3', '3', '1', '4.50', '0.30', '4.20', '1,400%', '33.33%']);
    await expect.poll(() => page.getByRole('group', { name: /by day/ }).count()).toBe(1);
    // The states a conversion is in are a click away, in the column chooser.
    await page.getByRole('button', { name: /^Columns/ }).click();
    for (const name of ['Leads', 'Approved', 'Pending', 'Rejected']) {
      await page.getByRole('checkbox', { name, exact: true }).click();
      await expect.poll(() => page.getByRole('columnheader', { name, exact: true }).count()).toBe(1);
    }
    await page.keyboard.press('Escape');
    await expect.poll(totalTexts, { timeout: 10_000 }).toEqual(['3', '3', '0', '1', '1', '0', '0', '4.50']);

    // The CSV has every row, its headers in English and its figures unformatted.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    const csv = readFileSync((await download.path()) ?? '', 'utf8').replace(/^\uFEFF/, '');
    const [header, line] = csv.split('\r\n');
    expect(header).toBe(
      'Campaign,Campaign (ID),Clicks,Unique clicks,Leads,Conversions,Approved,Pending,Rejected,Revenue,' +
        'Revenue (confirmed),Cost,Profit,ROI,ROI (confirmed),CR,EPC,CPC,CPA,Bot clicks,LP clicks,LP CTR',
    );
    // No lander on its path: no LP clicks, and an LP CTR of 0.
    expect(line).toBe(
      `${campaignName},${campaignId},3,3,0,1,1,0,0,4.5,4.5,0.3,4.2,1400,1400,33.333333,1.5,0.1,0.3,0,0,0`,
    );

    // Opening the campaign's row asks which level to show, the offers first.
    await page.getByRole('button', { name: campaignName, exact: true }).click();
    await page.getByRole('menuitem', { name: 'Offer', exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get('group_by') === 'offer');
    expect(JSON.parse(new URL(page.url()).searchParams.get('filters') ?? '{}')).toEqual({ campaign: campaignId });
    await page.getByRole('group', { name: 'Filters' }).getByText(campaignName).waitFor();
    await expect
      .poll(() => rowTexts(page, offer.name), { timeout: 10_000 })
      .toEqual([offer.name, '3', '3', '0', '1', '1', '0', '0', '4.50']);
    // The chosen columns stay chosen after the drill-down (leads and the states, with the usual ones).

    // The dashboard shows today's figures to whoever may get reports.
    await page.goto('/admin');
    await page.getByRole('heading', { name: 'Today at a glance' }).waitFor();
    await expect.poll(() => page.getByRole('group', { name: /last 14 days/ }).count()).toBe(1);
    await page.close();
  });
});
