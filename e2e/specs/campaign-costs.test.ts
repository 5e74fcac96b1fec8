import type { ReportResponse } from '@switchyard/domain';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiLogin, apiRequest, postbackPath } from '../support/api.js';
import { admin, baseURL, logIn, useBrowser } from '../support/browser.js';

// An operator sets a campaign's cost from its edit screen ("Update cost"); the reports screen
// then shows that cost and the ROI it makes, and the clicks behind the row show each click's share.

const browser = useBrowser();
let adminToken = '';
const run = `cost${Date.now().toString(36)}`;

beforeAll(async () => {
  adminToken = await apiLogin(admin().email, admin().password);
});

async function click(campaignId: string): Promise<string> {
  const response = await fetch(`${baseURL()}/c/${campaignId}`, {
    redirect: 'manual',
    headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/124.0.0.0 Safari/537.36' },
  });
  expect(response.status).toBe(302);
  return new URL(response.headers.get('location') ?? '').searchParams.get('c') ?? '';
}

async function campaignFigures(campaignId: string) {
  const query = new URLSearchParams({ group_by: 'campaign', filters: JSON.stringify({ campaign: campaignId }) });
  return (await apiRequest<ReportResponse>('GET', `reports?${query}`, adminToken)).totals;
}

/** The campaign's row on the reports screen, each cell under its column's header. */
async function reportRow(page: Page, name: string): Promise<Record<string, string>> {
  const row = page.getByRole('row').filter({ has: page.getByRole('button', { name, exact: true }) });
  if ((await row.count()) !== 1) return {};
  const headers = (await page.getByRole('columnheader').allInnerTexts()).map((text) => text.trim());
  const cells = (await row.getByRole('cell').allInnerTexts()).map((text) => text.trim());
  return Object.fromEntries(headers.map((header, index) => [header, cells[index] ?? '']));
}

describe('campaign costs', () => {
  it("updates a campaign's cost in the dialog; the report shows the new cost and ROI", async () => {
    const offer = await apiRequest<{ external_id: string }>('POST', 'tracker/offers', adminToken, {
      name: `Cost offer ${run}`,
      url: 'https://offer.example/?c={clickid}',
    });
    const flow = await apiRequest<{ external_id: string }>('POST', 'tracker/flows', adminToken, {
      name: `Cost flow ${run}`,
      path_groups: [
        {
          id: `${run}-g`,
          name: 'Everyone',
          paths: [{ id: `${run}-p`, offers: [{ id: `${run}-o`, offer_external_id: offer.external_id }] }],
        },
      ],
    });
    const source = await apiRequest<{ external_id: string }>('POST', 'traffic-sources', adminToken, {
      name: `Cost source ${run}`,
    });
    const campaignName = `Cost campaign ${run}`;
    const campaign = await apiRequest<{ external_id: string }>('POST', 'tracker/campaigns', adminToken, {
      name: campaignName,
      traffic_source_external_id: source.external_id,
      flow_external_id: flow.external_id,
      cost_model: 'CPC',
      cost: 0.1,
    });
    const campaignId = campaign.external_id;
    const clickIds = [await click(campaignId), await click(campaignId)];
    const postback = await fetch(
      `${baseURL()}${await postbackPath(adminToken)}?clickid=${clickIds[0]}&payout=4.50&txid=e2e-${run}`,
    );
    expect(postback.status).toBe(200);
    await expect
      .poll(() => campaignFigures(campaignId), { timeout: 15_000, interval: 250 })
      .toMatchObject({ clicks: 2, conversions: 1, revenue: 4.5, cost: 0.2, roi: 2150 });

    // The dialog, from the campaign's edit screen: today (UTC), the whole campaign, 1.50.
    const page = await browser.newPage();
    await logIn(page, admin().email, admin().password);
    await page.goto(`/tracker/campaigns/edit/${encodeURIComponent(campaignId)}`);
    await page.getByRole('button', { name: 'Update cost' }).click();
    const dialog = page.getByRole('dialog', { name: 'Update campaign cost' });
    await dialog.getByRole('textbox', { name: 'Amount' }).fill('1.50');
    await dialog.getByRole('button', { name: 'Update cost' }).click();
    await dialog.getByText('2 clicks updated').waitFor();
    expect(await campaignFigures(campaignId)).toMatchObject({ cost: 1.5, profit: 3, roi: 200 });
    await page.keyboard.press('Escape');

    // The reports screen shows the new cost and ROI.
    await page.goto('/tracker/reports');
    await page.getByRole('heading', { name: 'Reports' }).waitFor();
    await page.getByRole('searchbox', { name: 'Search the rows' }).fill(run);
    await page.waitForURL(/search=/);
    await expect
      .poll(() => reportRow(page, campaignName), { timeout: 10_000 })
      .toMatchObject({ Cost: '1.50', Profit: '3.00' });
    const roi = (await reportRow(page, campaignName)).ROI ?? '';
    expect(roi.replace(/[^\d.]/g, '')).toMatch(/^200(\.0+)?$/);

    // "Show the clicks behind this row": the two clicks, each at its share of the amount set.
    await page.getByRole('link', { name: `Show clicks, ${campaignName}` }).click();
    await page.waitForURL(/\/tracker\/reports\/events\/clicks\?/);
    const table = page.getByRole('table', { name: 'Clicks' });
    await expect.poll(() => table.getByRole('row').count(), { timeout: 10_000 }).toBe(3);
    const costColumn = await table
      .getByRole('columnheader')
      .evaluateAll((headers) => headers.findIndex((header) => header.textContent?.trim() === 'Cost'));
    expect(costColumn).toBeGreaterThanOrEqual(0);
    for (const clickId of clickIds) {
      const row = table.getByRole('row').filter({ hasText: clickId });
      expect(await row.count()).toBe(1);
      expect((await row.getByRole('cell').nth(costColumn).textContent())?.trim()).toBe('0.75');
    }
    await page.close();
  });
});
