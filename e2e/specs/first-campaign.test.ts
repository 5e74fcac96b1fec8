import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logIn, useBrowser } from '../support/browser.js';
import { startServer, type TestServer } from '../support/server.js';

// A new operator walks the dashboard's "first campaign" checklist from an empty
// database to a click in the reports, through the dashboard only, starting from templates. An empty
// database: this spec starts its own server rather than the shared one, where other specs leave records.

const ADMIN = { email: 'first@e2e.test', password: 'first-campaign-password' };
let server: TestServer | undefined;

beforeAll(async () => {
  server = await startServer(ADMIN);
});

afterAll(async () => {
  await server?.stop();
});

// Registered after the server's start, so the browser opens on it.
const browser = useBrowser({ width: 1280, height: 900 }, () => server?.baseURL ?? '');

const checklist = (page: Page) => page.getByRole('region', { name: 'Your first campaign' });
const step = (page: Page, key: string) => checklist(page).locator(`[data-step="${key}"]`);

/** Back to the dashboard by its menu, as an operator would, and the checklist once it has counted. */
async function toDashboard(page: Page) {
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Dashboard' }).click();
  await page.waitForURL((url) => url.pathname === '/admin');
  await checklist(page).waitFor();
}

/** Follows the link of a step not done yet. */
async function follow(page: Page, key: string, link: string) {
  await expect.poll(() => step(page, key).getAttribute('data-done')).toBe('false');
  await step(page, key).getByRole('link', { name: link }).click();
}

/** The record's name: the first Name of the form (a source's parameters have names too). */
const recordName = (page: Page) => page.getByRole('textbox', { name: 'Name', exact: true }).first();

async function choose(page: Page, label: string | RegExp, option: string) {
  await page.getByRole('combobox', { name: label }).first().click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

async function save(page: Page) {
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.waitForURL(/\/edit\//);
}

describe('the first-campaign checklist', () => {
  it('leads from an empty database to a click in the reports, from templates', async () => {
    const page = await browser.newPage();
    await logIn(page, ADMIN.email, ADMIN.password);
    await checklist(page).waitFor();
    await expect.poll(() => checklist(page).getByText('0 of 8 done').count()).toBe(1);

    // A traffic source from a template.
    await follow(page, 'trafficSource', 'Add a traffic source');
    await page.waitForURL('**/admin/traffic-sources/create');
    await choose(page, 'Start from a template', 'PropellerAds');
    await expect.poll(() => recordName(page).inputValue()).toBe('PropellerAds');
    await save(page);
    await toDashboard(page);
    await expect.poll(() => step(page, 'trafficSource').getAttribute('data-done')).toBe('true');

    // An affiliate network from a template.
    await follow(page, 'affiliateNetwork', 'Add an affiliate network');
    await page.waitForURL('**/admin/affiliate-networks/create');
    await choose(page, 'Start from a template', 'CrakRevenue');
    await expect.poll(() => recordName(page).inputValue()).toBe('CrakRevenue');
    await save(page);
    await toDashboard(page);

    // An offer of that network, its click id put in with the macro list.
    await follow(page, 'offer', 'Add an offer');
    await page.waitForURL('**/tracker/offers/create');
    await recordName(page).fill('First offer');
    await choose(page, /^Affiliate network/, 'CrakRevenue');
    const url = page.getByRole('textbox', { name: /^URL/ });
    await url.fill('https://offer.example/land?c=');
    await page.getByRole('button', { name: 'Macros' }).click();
    await page.getByRole('button', { name: 'Insert {clickid}' }).click();
    await expect.poll(() => url.inputValue()).toBe('https://offer.example/land?c={clickid}');
    await save(page);
    await toDashboard(page);

    // A flow that sends everyone to the offer.
    await follow(page, 'flow', 'Build a flow');
    await page.waitForURL('**/tracker/flows/create');
    await recordName(page).fill('First flow');
    await page.getByTestId('path_groups-add').click();
    const group = page.getByTestId('path-group').first();
    await group.getByRole('button', { name: 'Add path' }).click();
    const path = group.getByTestId('path').first();
    await path.getByRole('button', { name: 'Add offer' }).click();
    await path.getByTestId('path-offers-row').last().getByRole('combobox', { name: 'Offer' }).click();
    await page.getByRole('option', { name: 'First offer' }).first().click();
    await save(page);
    await toDashboard(page);

    // The campaign, and the URL it shows.
    await follow(page, 'campaign', 'Create a campaign');
    await page.waitForURL('**/tracker/campaigns/create');
    await recordName(page).fill('First campaign');
    await choose(page, /^Traffic source/, 'PropellerAds');
    await choose(page, /^Flow/, 'First flow');
    await save(page);
    const campaignUrl = page.getByRole('textbox', { name: 'Campaign URL' }).first();
    await expect.poll(() => campaignUrl.inputValue()).toMatch(/\/c\/[^/?]+\?/);
    const shownUrl = await campaignUrl.inputValue();
    await toDashboard(page);
    await expect.poll(() => checklist(page).getByText('5 of 8 done').count()).toBe(1);

    // A visitor opens the campaign URL as shown (the source's tokens still in it) and is sent to the offer
    // with their click id.
    const visit = await fetch(shownUrl, {
      redirect: 'manual',
      // A visitor's browser: the checklist counts visitors' clicks, not bots'.
      headers: {
        'user-agent':
          'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
      },
    });
    expect(visit.status).toBe(302);
    expect(visit.headers.get('location')).toMatch(/^https:\/\/offer\.example\/land\?c=[\w-]+/);

    // The checklist counts the click (written in batches off the request path: it may take a moment).
    await expect
      .poll(
        async () => {
          // The dashboard counts again each time it is opened.
          await page.reload();
          await checklist(page).waitFor();
          return step(page, 'firstClick').getAttribute('data-done');
        },
        { timeout: 20_000, interval: 500 },
      )
      .toBe('true');
    expect(await checklist(page).getByText('6 of 8 done').count()).toBe(1);
    await expect
      .poll(() => step(page, 'firstConversion').getByRole('link', { name: 'Get a first conversion' }).count())
      .toBe(1);

    // And the reports screen, opened from the dashboard, shows it.
    await page.getByRole('link', { name: 'Open reports', exact: true }).click();
    await page.waitForURL('**/tracker/reports**');
    const row = page
      .getByRole('row')
      .filter({ has: page.getByRole('button', { name: 'First campaign', exact: true }) });
    await expect
      .poll(async () => ((await row.count()) === 1 ? (await row.getByRole('cell').allInnerTexts())[1]?.trim() : ''), {
        timeout: 15_000,
      })
      .toBe('1');
    await page.close();
  });
});
