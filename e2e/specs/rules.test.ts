import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiLogin, apiRequest } from '../support/api.js';
import { admin, baseURL, logIn, useBrowser } from '../support/browser.js';

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';

// A rule made through the form. Its preview shows the campaign's zones that match now, before the
// rule is saved; saved, it is listed with what it watches. Saved switched off, so it never acts on the
// shared server's other specs.

const browser = useBrowser();
const run = Date.now().toString(36);
let token = '';
let campaign = { external_id: '', name: '' };

beforeAll(async () => {
  token = await apiLogin(admin().email, admin().password);
  const source = await apiRequest<{ external_id: string }>('POST', 'traffic-sources', token, {
    name: `Rules source ${run}`,
    parameters: [{ name: 'Zone', ts_parameter: 'zone', ts_token: '{zone}', internal_token: 'var2', enabled: true }],
  });
  const offer = await apiRequest<{ external_id: string }>('POST', 'tracker/offers', token, {
    name: `Rules offer ${run}`,
    url: 'https://offer.example/?c={clickid}',
  });
  const flow = await apiRequest<{ external_id: string }>('POST', 'tracker/flows', token, {
    name: `Rules flow ${run}`,
    path_groups: [
      { id: 'g', name: 'All', paths: [{ id: 'p', offers: [{ id: 'o', offer_external_id: offer.external_id }] }] },
    ],
  });
  campaign = await apiRequest('POST', 'tracker/campaigns', token, {
    name: `Rules campaign ${run}`,
    traffic_source_external_id: source.external_id,
    flow_external_id: flow.external_id,
  });
  // Zone a gets three clicks, zone b one: only a reaches the rule's "at least 3 clicks".
  for (const zone of [`a-${run}`, `a-${run}`, `a-${run}`, `b-${run}`]) {
    const clicked = await fetch(`${baseURL()}/c/${campaign.external_id}?zone=${zone}`, {
      redirect: 'manual',
      // A visitor's browser: reports and rules leave bots' clicks out.
      headers: { 'user-agent': BROWSER },
    });
    expect(clicked.status).toBe(302);
  }
});

afterAll(async () => {
  const { list } = await apiRequest<{ list: { id: number; name: string }[] }>('GET', 'rules', token);
  for (const rule of list.filter((entry) => entry.name.endsWith(run))) {
    await apiRequest('DELETE', `rules/${rule.id}`, token);
  }
});

describe('rules', () => {
  it('creates a rule through the form, previews it, saves it and lists it', async () => {
    const page = await browser.newPage();
    await logIn(page, admin().email, admin().password);
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Rules', exact: true }).click();
    await page.waitForURL('**/tracker/rules');
    await page.getByRole('link', { name: 'Add rule' }).click();
    await page.waitForURL('**/tracker/rules/new');

    const name = `Busy zones ${run}`;
    await page.getByRole('textbox', { name: 'Name' }).fill(name);
    await page.getByRole('switch', { name: 'Enabled' }).uncheck();
    await page.getByRole('combobox', { name: 'Scope' }).click();
    await page.getByRole('option', { name: 'Campaign', exact: true }).click();
    await page.getByRole('combobox', { name: 'Campaign', exact: true }).fill(campaign.name);
    await page.getByRole('option', { name: campaign.name }).click();
    await page.getByRole('combobox', { name: 'One row per' }).fill('Custom var 2');
    await page.getByRole('option', { name: 'Custom var 2', exact: true }).click();
    await page.getByRole('textbox', { name: 'Value' }).fill('3');
    await page.getByRole('textbox', { name: 'At least (clicks)' }).fill('1');

    // The clicks reach the report through the event writer: preview again until they are counted.
    const preview = page.getByRole('table', { name: 'What it would do now' });
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Preview' }).click();
          await page.getByTestId('rule-preview').waitFor();
          return (await preview.count()) > 0 ? preview.getByRole('row').nth(1).innerText() : '';
        },
        { timeout: 20_000, interval: 1_000 },
      )
      .toContain(`a-${run}`);
    expect(await preview.getByRole('row').count()).toBe(2);
    const row = await preview.getByRole('row').nth(1).innerText();
    expect(row).toContain('Clicks: 3');
    expect(row).toMatch(/WOULD RUN\s+Notify/);
    expect(await page.getByRole('status').innerText()).toBe('Matching rows: 1. Nothing has been changed.');

    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL('**/tracker/rules');
    const listed = page.getByRole('row').filter({ has: page.getByRole('link', { name }) });
    await listed.waitFor();
    const cells = await listed.getByRole('cell').allInnerTexts();
    expect(cells.map((cell) => cell.replace(/\s+/g, ' ').trim())).toEqual([
      `${name} Campaign: ${campaign.name}`,
      'Each Custom var 2 over the last 1 day When Clicks ≥ 3',
      'Notify',
      'OFF',
      'Not yet',
    ]);
  });
});
