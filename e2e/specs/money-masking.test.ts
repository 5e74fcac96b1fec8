import type { ReportResponse } from '@switchyard/domain';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../apps/server/test/eventually.js';
import { apiLogin, apiRequest, postbackPath } from '../support/api.js';
import { admin, baseURL, logIn, useBrowser } from '../support/browser.js';

// Money masking: a user who may read reports but not see money opens the reports screen and
// finds clicks and conversions, but no Revenue, Cost, Profit, ROI or EPC column; a user holding
// `/tracker/reports/money` sees them.

const browser = useBrowser();
let adminToken = '';
let workspaceId = 0;
const run = `money${Date.now().toString(36)}`;
const campaignName = `Masked campaign ${run}`;
let userCounter = 0;

const MONEY_HEADERS = [/^Revenue/, /^Cost/, /^Profit/, /^ROI/, /^EPC/];

/** A user of the first workspace holding exactly `permissions`. */
async function createMember(permissions: string[]) {
  userCounter += 1;
  const user = {
    name: `Money user ${userCounter}`,
    email: `money${userCounter}-${Date.now()}@e2e.test`,
    password: 'e2e-user-password',
  };
  await apiRequest('POST', 'users', adminToken, { ...user, permissions, roles: [], workspaces: [workspaceId] });
  return user;
}

async function campaignFigures(campaignId: string) {
  const query = new URLSearchParams({ group_by: 'campaign', filters: JSON.stringify({ campaign: campaignId }) });
  return (await apiRequest<ReportResponse>('GET', `reports?${query}`, adminToken)).totals;
}

beforeAll(async () => {
  adminToken = await apiLogin(admin().email, admin().password);
  const workspaces = await apiRequest<{ list: { id: number }[] }>('GET', 'workspaces', adminToken);
  workspaceId = workspaces.list[0]?.id ?? 0;

  const source = await apiRequest<{ external_id: string }>('POST', 'traffic-sources', adminToken, {
    name: `Money source ${run}`,
  });
  const offer = await apiRequest<{ external_id: string }>('POST', 'tracker/offers', adminToken, {
    name: `Money offer ${run}`,
    url: 'https://offer.example/?c={clickid}',
  });
  const flow = await apiRequest<{ external_id: string }>('POST', 'tracker/flows', adminToken, {
    name: `Money flow ${run}`,
    path_groups: [
      {
        id: `${run}-g`,
        name: 'Everyone',
        paths: [{ id: `${run}-p`, offers: [{ id: `${run}-o`, offer_external_id: offer.external_id }] }],
      },
    ],
  });
  const campaign = await apiRequest<{ external_id: string }>('POST', 'tracker/campaigns', adminToken, {
    name: campaignName,
    traffic_source_external_id: source.external_id,
    flow_external_id: flow.external_id,
  });

  // Two visitors, one of whom converts for 7.25.
  const clickIds: string[] = [];
  for (let visitor = 0; visitor < 2; visitor += 1) {
    const response = await fetch(`${baseURL()}/c/${campaign.external_id}`, {
      redirect: 'manual',
      headers: { 'user-agent': `Mozilla/5.0 (X11; Linux x86_64) money-e2e/${visitor}` },
    });
    expect(response.status).toBe(302);
    clickIds.push(new URL(response.headers.get('location') ?? '').searchParams.get('c') ?? '');
  }
  const postback = await fetch(
    `${baseURL()}${await postbackPath(adminToken)}?clickid=${clickIds[0]}&payout=7.25&txid=e2e-${run}`,
  );
  expect(postback.status).toBe(200);
  // Clicks are written in batches off the request path: wait until the report has them.
  let figures: Awaited<ReturnType<typeof campaignFigures>> | undefined;
  await eventually(
    async () => {
      figures = await campaignFigures(campaign.external_id);
      return figures.clicks === 2 && figures.conversions === 1 && figures.revenue === 7.25;
    },
    () => `the report shows ${JSON.stringify(figures)}, not 2 clicks and 1 conversion of 7.25`,
    { withinMs: 15_000, everyMs: 250 },
  );
});

/** Opens the reports screen searched down to this run's campaign, once its row shows. */
async function openReports(page: Page) {
  await page.goto('/tracker/reports');
  await page.getByRole('heading', { name: 'Reports' }).waitFor();
  await page.getByRole('searchbox', { name: 'Search the rows' }).fill(run);
  await page.waitForURL(/search=/);
  await page.getByRole('row').filter({ hasText: campaignName }).first().waitFor();
}

async function headers(page: Page): Promise<string[]> {
  return (await page.getByRole('columnheader').allInnerTexts()).map((text) => text.trim());
}

describe('money masking', () => {
  it('shows a user without the money permission clicks and conversions, and no money column', async () => {
    const user = await createMember(['/tracker/reports/get']);
    const page = await browser.newPage();
    await logIn(page, user.email, user.password);
    await openReports(page);

    const shown = await headers(page);
    for (const name of ['Clicks', 'Conversions']) expect(shown).toContain(name);
    for (const name of MONEY_HEADERS) expect(shown.filter((text) => name.test(text))).toEqual([]);
    const row = page.getByRole('row').filter({ hasText: campaignName });
    // Campaign, clicks, unique clicks, conversions, CR (the default columns without money), then the row's
    // event links.
    expect((await row.getByRole('cell').allInnerTexts()).slice(0, 5).map((text) => text.trim())).toEqual([
      campaignName,
      '2',
      '2',
      '1',
      '50%',
    ]);
    expect(await page.getByText('7.25').count()).toBe(0);
    // The API leaves the money out too.
    const token = await apiLogin(user.email, user.password);
    const report = await apiRequest<ReportResponse>('GET', `reports?group_by=campaign&search_text=${run}`, token);
    expect(report.totals).not.toHaveProperty('revenue');
    expect(report.totals).toMatchObject({ clicks: 2, conversions: 1 });

    // The dashboard's figures: counts, no money card.
    await page.goto('/admin');
    await page.getByText('Clicks', { exact: true }).first().waitFor();
    for (const name of ['Revenue', 'Profit', 'ROI', 'EPC']) {
      expect(await page.getByText(name, { exact: true }).count()).toBe(0);
    }
  });

  it('shows the money columns to a user holding /tracker/reports/money', async () => {
    const user = await createMember(['/tracker/reports/get', '/tracker/reports/money']);
    const page = await browser.newPage();
    await logIn(page, user.email, user.password);
    await openReports(page);

    const shown = await headers(page);
    for (const name of ['Clicks', 'Conversions']) expect(shown).toContain(name);
    for (const name of MONEY_HEADERS) expect(shown.some((text) => name.test(text))).toBe(true);
    const row = page.getByRole('row').filter({ hasText: campaignName });
    expect(await row.getByText('7.25').count()).toBeGreaterThan(0);
  });
});
