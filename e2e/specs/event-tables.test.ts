import type { ClickEvent, ListResponse } from '@switchyard/domain';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiLogin, apiRequest, postbackPath } from '../support/api.js';
import { admin, baseURL, logIn, useBrowser } from '../support/browser.js';

// The event tables: clicks and a conversion on a campaign, then from the reports screen the
// row's "Show clicks" opens the event log under that row's filters — each click with its routing reason,
// the converted one with its conversion, which opens in the click inspector with its replay. Screenshots in English and Arabic with SWITCHYARD_E2E_SHOTS.

const browser = useBrowser();
let adminToken = '';
const run = Date.now().toString(36);
const shots = process.env.SWITCHYARD_E2E_SHOTS;

beforeAll(async () => {
  adminToken = await apiLogin(admin().email, admin().password);
});

type Created = { external_id: string; name: string };

describe('event tables', () => {
  it('opens the clicks behind a report row, with their routing reason and conversion', async () => {
    const offer = await apiRequest<Created>('POST', 'tracker/offers', adminToken, {
      name: `Events offer ${run}`,
      url: 'https://offer.example/?c={clickid}',
    });
    const flow = await apiRequest<Created>('POST', 'tracker/flows', adminToken, {
      name: `Events flow ${run}`,
      path_groups: [
        {
          id: `${run}-g`,
          name: 'Everyone',
          paths: [{ id: `${run}-p`, offers: [{ id: `${run}-o`, offer_external_id: offer.external_id }] }],
        },
      ],
    });
    const source = await apiRequest<Created>('POST', 'traffic-sources', adminToken, { name: `Events source ${run}` });
    const campaignName = `Events campaign ${run}`;
    const campaign = await apiRequest<Created>('POST', 'tracker/campaigns', adminToken, {
      name: campaignName,
      traffic_source_external_id: source.external_id,
      flow_external_id: flow.external_id,
    });
    const clickIds: string[] = [];
    for (let index = 0; index < 3; index += 1) {
      const response = await fetch(`${baseURL()}/c/${campaign.external_id}?subaff=events`, { redirect: 'manual' });
      expect(response.status).toBe(302);
      clickIds.push(new URL(response.headers.get('location') ?? '').searchParams.get('c') ?? '');
    }
    const posted = await fetch(
      `${baseURL()}${await postbackPath(adminToken)}?clickid=${clickIds[1]}&payout=6&txid=ev-${run}`,
    );
    expect(posted.status).toBe(200);
    const filters = JSON.stringify({ campaign: campaign.external_id });
    await expect
      .poll(
        async () => {
          const page = await apiRequest<ListResponse<ClickEvent>>(
            'GET',
            `events/clicks?filters=${encodeURIComponent(filters)}`,
            adminToken,
          );
          return [page.total, page.list.flatMap((click) => click.conversions).length];
        },
        { timeout: 15_000, interval: 250 },
      )
      .toEqual([3, 1]);

    const page = await browser.newPage();
    await logIn(page, admin().email, admin().password);
    await page.goto('/tracker/reports');
    await page.getByRole('heading', { name: 'Reports' }).waitFor();
    await page.getByRole('searchbox', { name: 'Search the rows' }).fill(run);
    await page.waitForURL(/search=/);
    await page.getByRole('link', { name: `Show clicks, ${campaignName}` }).click();
    await page.waitForURL(/\/tracker\/reports\/events\/clicks\?/);

    const table = page.getByRole('table', { name: 'Clicks' });
    await expect.poll(() => table.getByRole('row').count(), { timeout: 10_000 }).toBe(4);
    const filterChips = page.getByRole('group', { name: 'Filters' });
    expect(await filterChips.getByText(campaignName).count()).toBe(1);
    for (const clickId of clickIds) {
      const row = table.getByRole('row').filter({ hasText: clickId });
      expect(await row.count()).toBe(1);
      // The routing reason in words, not the server's code.
      expect(await row.getByText('A path group matched.', { exact: true }).count()).toBe(1);
    }
    const converted = table.getByRole('row').filter({ hasText: clickIds[1]! });
    expect(await converted.getByText(/Approved/).count()).toBe(1);
    const others = table.getByRole('row').filter({ hasText: clickIds[0]! });
    expect(await others.getByText(/Approved/).count()).toBe(0);
    if (shots) await page.screenshot({ path: `${shots}/event-tables-en.png`, fullPage: true });

    // The click inspector: the converted click opened from its id, and its replay.
    await table.getByRole('link', { name: clickIds[1]! }).click();
    await page.waitForURL(new RegExp(`/tracker/reports/events/clicks/${clickIds[1]}\\?`));
    const replay = page.getByRole('region', { name: 'Replay' });
    await replay.getByText(`Would go to ${offer.name} today`).waitFor();
    expect(await replay.getByText('The same as when it was routed.').count()).toBe(1);
    const stored = page.getByRole('region', { name: 'As it was stored' });
    expect(await stored.getByText(campaignName).count()).toBe(1);
    const inspected = page.getByRole('table', { name: 'Conversions' });
    expect(await inspected.getByText('Approved').count()).toBe(1);
    expect(await inspected.getByText('6.00').count()).toBe(1);
    const steps = page.getByRole('region', { name: "Today's routing, step by step" });
    expect(await steps.getByRole('region', { name: 'Everyone' }).getByText('Chosen').count()).toBe(1);
    if (shots) await page.screenshot({ path: `${shots}/click-inspector-en.png`, fullPage: true });
    // Back to the event log under the same filters.
    await page.getByRole('link', { name: 'Event log' }).click();
    await page.waitForURL(/\/tracker\/reports\/events\/clicks\?.*filters=/);
    await expect.poll(() => table.getByRole('row').count(), { timeout: 10_000 }).toBe(4);

    await page.getByRole('tab', { name: 'Conversions' }).click();
    const conversions = page.getByRole('table', { name: 'Conversions' });
    await expect.poll(() => conversions.getByRole('row').count(), { timeout: 10_000 }).toBe(2);
    expect(await conversions.getByText(`ev-${run}`).count()).toBe(1);

    await page.evaluate(() => localStorage.setItem('switchyard.language', 'ar'));
    try {
      await page.getByRole('tab', { name: 'Conversions' }).waitFor();
      await page.reload();
      await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl');
      await page.getByRole('tab', { name: 'النقرات' }).click();
      await expect.poll(() => page.getByRole('table', { name: 'النقرات' }).getByRole('row').count()).toBe(4);
      if (shots) await page.screenshot({ path: `${shots}/event-tables-ar.png`, fullPage: true });
    } finally {
      await page.evaluate(() => localStorage.setItem('switchyard.language', 'en'));
    }
    await page.close();
  });
});
