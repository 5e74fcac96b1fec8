import type { ReportResponse } from '@switchyard/domain';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiLogin, apiRequest } from '../support/api.js';
import { admin, baseURL, logIn, useBrowser } from '../support/browser.js';

// A network's postback URL copied from its screen, sent as a network would (curl
// style) as pending, then approved, then rejected; the reports screen shows each state. Screenshots of
// the last state are written in English and Arabic for a person to look at (SWITCHYARD_E2E_SHOTS).

const browser = useBrowser();
let adminToken = '';
const run = Date.now().toString(36);
const shots = process.env.SWITCHYARD_E2E_SHOTS;

beforeAll(async () => {
  adminToken = await apiLogin(admin().email, admin().password);
});

type Created = { external_id: string; name: string };

/** The row's name, clicks, unique clicks, leads, conversions, approved, pending, rejected and revenue. */
async function rowTexts(page: Page, name: string): Promise<string[]> {
  const row = page.getByRole('row').filter({ has: page.getByRole('button', { name, exact: true }) });
  if ((await row.count()) !== 1) return [];
  return (await row.getByRole('cell').allInnerTexts()).slice(0, 9).map((text) => text.trim());
}

function latinDigits(text: string): string {
  return text
    .replace(/[\u0660-\u0669]/g, (digit) => String(digit.charCodeAt(0) - 0x0660))
    .replace(/\u066B/g, '.')
    .replace(/[\u200e\u200f\u061c]/g, '');
}

async function campaignTotals(campaignId: string) {
  const query = new URLSearchParams({ group_by: 'campaign', filters: JSON.stringify({ campaign: campaignId }) });
  return (await apiRequest<ReportResponse>('GET', `reports?${query}`, adminToken)).totals;
}

describe('conversion states', () => {
  it('takes a network’s copied URL as pending, approved, then rejected, and the reports show each', async () => {
    const network = await apiRequest<Created>('POST', 'affiliate-networks', adminToken, {
      name: `States network ${run}`,
      postback_params: { click_id: 'aff_sub', payout: 'amount', status: 'conv_status', txid: 'tx' },
    });
    const offer = await apiRequest<Created>('POST', 'tracker/offers', adminToken, {
      name: `States offer ${run}`,
      url: 'https://offer.example/?c={clickid}',
      affiliate_network_external_id: network.external_id,
    });
    const flow = await apiRequest<Created>('POST', 'tracker/flows', adminToken, {
      name: `States flow ${run}`,
      path_groups: [
        {
          id: `${run}-g`,
          name: 'Everyone',
          paths: [{ id: `${run}-p`, offers: [{ id: `${run}-o`, offer_external_id: offer.external_id }] }],
        },
      ],
    });
    const campaignName = `States campaign ${run}`;
    const source = await apiRequest<Created>('POST', 'traffic-sources', adminToken, { name: `States source ${run}` });
    const campaign = await apiRequest<Created>('POST', 'tracker/campaigns', adminToken, {
      name: campaignName,
      traffic_source_external_id: source.external_id,
      flow_external_id: flow.external_id,
    });

    // The URL as the operator copies it from the network's screen, in Keitaro's names.
    const page = await browser.newPage();
    await logIn(page, admin().email, admin().password);
    await page.goto(`/admin/affiliate-networks/edit/${network.external_id}`);
    await page.getByText('Keitaro', { exact: true }).click();
    const copied = page.getByRole('textbox', { name: 'Postback URL' });
    await expect.poll(() => copied.inputValue()).toMatch(/\/postback\?subid=\{aff_sub\}/);
    const template = await copied.inputValue();
    expect(template).toMatch(
      new RegExp(
        `^${baseURL()}/[A-Za-z0-9_-]{22,}/postback\\?subid=\\{aff_sub\\}&status=\\{conv_status\\}&payout=\\{amount\\}&tid=\\{tx\\}$`,
      ),
    );

    // A browser's user agent: fetch's own ("node") is a bot's, left out of Clicks.
    const response = await fetch(`${baseURL()}/c/${campaign.external_id}`, {
      redirect: 'manual',
      headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/124.0.0.0 Safari/537.36' },
    });
    expect(response.status).toBe(302);
    const clickId = new URL(response.headers.get('location') ?? '').searchParams.get('c') ?? '';

    // What the network fills in for its own macros, and what it calls.
    const send = async (status: string) => {
      const values: Record<string, string> = { aff_sub: clickId, conv_status: status, amount: '20', tx: `T-${run}` };
      const url = template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? ''));
      const answer = await fetch(url);
      expect(answer.status).toBe(200);
      expect(await answer.text()).toBe('OK');
    };

    // The state columns, chosen (the default columns leave them out).
    await page.goto(
      '/tracker/reports?columns=clicks,unique_clicks,leads,conversions,approved,pending,rejected,revenue',
    );
    await page.getByRole('heading', { name: 'Reports' }).waitFor();
    await page.getByRole('searchbox', { name: 'Search the rows' }).fill(run);
    await page.waitForURL(/search=/);
    const steps: [status: string, texts: string[]][] = [
      // Clicks, unique clicks, leads, conversions, approved, pending, rejected, revenue.
      ['lead', [campaignName, '1', '1', '0', '1', '0', '1', '0', '20.00']],
      ['sale', [campaignName, '1', '1', '0', '1', '1', '0', '0', '20.00']],
      ['rejected', [campaignName, '1', '1', '0', '0', '0', '0', '1', '0.00']],
    ];
    for (const [status, texts] of steps) {
      await send(status);
      await expect
        .poll(() => campaignTotals(campaign.external_id), { timeout: 15_000, interval: 250 })
        .toMatchObject({
          clicks: 1,
          approved: Number(texts[5]),
          pending: Number(texts[6]),
          rejected: Number(texts[7]),
        });
      await page.reload();
      await expect.poll(() => rowTexts(page, campaignName), { timeout: 10_000 }).toEqual(texts);
    }
    if (shots) await page.screenshot({ path: `${shots}/conversion-states-en.png`, fullPage: true });

    // The same figures in Arabic, right to left (digits read as Latin ones, whichever the locale writes).
    await page.evaluate(() => localStorage.setItem('switchyard.language', 'ar'));
    try {
      await page.reload();
      await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl');
      await expect
        .poll(async () => (await rowTexts(page, campaignName)).map(latinDigits), { timeout: 10_000 })
        .toEqual([campaignName, '1', '1', '0', '0', '0', '0', '1', '0.00']);
      if (shots) await page.screenshot({ path: `${shots}/conversion-states-ar.png`, fullPage: true });
    } finally {
      await page.evaluate(() => localStorage.setItem('switchyard.language', 'en'));
    }
    await page.close();
  });
});
