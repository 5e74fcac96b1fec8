import { beforeAll, describe, expect, it } from 'vitest';
import { apiLogin, apiRequest } from '../support/api.js';
import { admin, logIn, useBrowser } from '../support/browser.js';

// "Where would this visitor go, and why": the campaign's Simulate tab explains, on the screen,
// why a visitor from elsewhere does not match a country group and lands in the catch-all; the flow
// editor marks its own builder with the answer.

const browser = useBrowser();
let adminToken = '';
const run = `sim${Date.now().toString(36)}`;
const US_ONLY = { type: 'InCondition', data: { Var: 'countryCode', Operation: 'IN', Values: ['US'] } };

beforeAll(async () => {
  adminToken = await apiLogin(admin().email, admin().password);
});

describe('the campaign simulator', () => {
  it('shows a British visitor failing the US group and routed by the catch-all', async () => {
    const offer = await apiRequest<{ external_id: string }>('POST', 'tracker/offers', adminToken, {
      name: `Sim offer ${run}`,
      url: 'https://offer.example/?c={clickid}',
    });
    const paths = (group: string) => [
      { id: `${run}-${group}-p`, offers: [{ id: `${run}-${group}-o`, offer_external_id: offer.external_id }] },
    ];
    const flow = await apiRequest<{ external_id: string }>('POST', 'tracker/flows', adminToken, {
      name: `Sim flow ${run}`,
      path_groups: [
        { id: `${run}-us`, name: 'US only', condition: JSON.stringify(US_ONLY), paths: paths('us') },
        { id: `${run}-all`, name: 'Everyone else', paths: paths('all') },
      ],
    });
    const source = await apiRequest<{ external_id: string }>('POST', 'traffic-sources', adminToken, {
      name: `Sim source ${run}`,
    });
    const campaign = await apiRequest<{ external_id: string }>('POST', 'tracker/campaigns', adminToken, {
      name: `Sim campaign ${run}`,
      traffic_source_external_id: source.external_id,
      flow_external_id: flow.external_id,
    });

    const page = await browser.newPage();
    await logIn(page, admin().email, admin().password);
    await page.goto(`/tracker/campaigns/edit/${encodeURIComponent(campaign.external_id)}`);
    await page.getByRole('tab', { name: 'Simulate' }).click();
    await page.getByRole('textbox', { name: 'Address (IP)' }).fill('81.2.69.160');
    await page.getByRole('button', { name: 'Simulate' }).click();

    const usGroup = page.getByRole('region', { name: 'US only' });
    await usGroup.getByText('Not matched').waitFor();
    const leaf = usGroup.locator('[data-verdict]').filter({ hasText: 'countryCode IN (US)' });
    expect(await leaf.getAttribute('data-verdict')).toBe('false');
    expect(await leaf.textContent()).toContain('tested: GB');
    expect(await usGroup.getByText('Chosen').count()).toBe(0);

    const catchAll = page.getByRole('region', { name: 'Everyone else' });
    expect(await catchAll.getByText('Chosen').isVisible()).toBe(true);
    expect(await catchAll.getByText('Matched', { exact: true }).isVisible()).toBe(true);
    expect(await page.getByText('https://offer.example/?c={clickid}').isVisible()).toBe(true);

    // The flow editor's own tab routes through the campaign that uses the flow.
    await page.goto(`/tracker/flows/edit/${encodeURIComponent(flow.external_id)}`);
    await page.getByRole('tab', { name: 'Simulate' }).click();
    expect(await page.getByRole('combobox', { name: 'Campaign' }).inputValue()).toBe(`Sim campaign ${run}`);
    await page.getByRole('textbox', { name: 'Address (IP)' }).fill('81.2.69.160');
    await page.getByRole('button', { name: 'Simulate' }).click();
    await page.getByRole('region', { name: 'US only' }).getByText('Not matched').waitFor();
    expect(await page.getByRole('region', { name: 'Everyone else' }).getByText('Chosen').isVisible()).toBe(true);

    // "Show on the flow": the builder itself marks the rule that said no, and the group taken stands out.
    await page.getByRole('button', { name: 'Show on the flow' }).click();
    await page.getByText('Marked for the last simulated visitor, who goes to “Everyone else”.').waitFor();
    const rule = page.locator('[data-rule="countryCode"]');
    const mark = rule.locator('[data-verdict]');
    expect(await mark.getAttribute('data-verdict')).toBe('false');
    expect(await mark.textContent()).toBe('falsevisitor had: GB');
    const usHeader = page.locator('[data-simulated]').filter({ hasText: 'US only' });
    expect(await usHeader.getAttribute('data-simulated')).toBe('tested');
    expect(await usHeader.getByText('Not matched').isVisible()).toBe(true);
    const chosenHeader = page.locator('[data-simulated="chosen"]');
    expect(await chosenHeader.getByText('Everyone else').isVisible()).toBe(true);
    expect(await chosenHeader.getByText('Matched', { exact: true }).isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Clear marks' }).click();
    expect(await rule.locator('[data-verdict]').count()).toBe(0);
    expect(await page.locator('[data-simulated]').count()).toBe(0);
    await page.close();
  });
});
