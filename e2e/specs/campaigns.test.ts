import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiLogin, apiRequest } from '../support/api.js';
import { admin, logIn, useBrowser } from '../support/browser.js';

// A segment built with the condition builder routes a flow's path group, and a campaign pays
// 2.50 on its postback event for leads from Germany.

const browser = useBrowser();
let adminToken = '';
const run = Date.now().toString(36);
// The builder's top group is an And group; a rule added to it is stored inside it.
const GERMANY = {
  type: 'AndCondition',
  data: { Conditions: [{ type: 'InCondition', data: { Var: 'countryCode', Operation: 'IN', Values: ['DE'] } }] },
};

beforeAll(async () => {
  adminToken = await apiLogin(admin().email, admin().password);
});

async function saveNew(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.waitForURL(/\/edit\//);
  return decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');
}

/** Adds a countryCode IN (DE) rule to the condition builder inside `scope` (a new rule is a country rule). */
async function addGermanyRule(page: Page, scope: Locator) {
  await scope.getByRole('button', { name: 'Add rule' }).click();
  const values = scope.getByRole('combobox', { name: 'Values' });
  await values.click();
  await values.fill('Germany');
  await page.getByRole('option', { name: 'Germany (DE)' }).click();
  await page.keyboard.press('Escape');
}

async function choose(page: Page, label: string, option: string) {
  // A required select's name carries its asterisk.
  await page.getByRole('combobox', { name: new RegExp(`^${label}`) }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

describe('segments and campaigns', () => {
  it('builds a segment, routes a flow by it, and pays 2.50 for Germany on a campaign', async () => {
    const page = await browser.newPage();
    await logIn(page, admin().email, admin().password);
    await page.getByRole('navigation', { name: 'Main menu' }).waitFor();

    // A segment built with the builder.
    await page.goto('/admin/segments/create');
    await page.getByRole('textbox', { name: 'Name' }).fill(`Germans ${run}`);
    await addGermanyRule(page, page.locator('form'));
    const segmentId = await saveNew(page);
    const segment = await apiRequest<{ condition: string }>('GET', `segments/${segmentId}`, adminToken);
    expect(JSON.parse(segment.condition)).toEqual(GERMANY);

    // The flow's path group uses it (through the API: the flow editor has tests of its own).
    const offer = await apiRequest<{ external_id: string }>('POST', 'offers', adminToken, {
      name: `Offer ${run}`,
      url: 'https://offers.example/',
    });
    // Stored as the builder writes it: the rule inside the top And group.
    const bySegment = {
      type: 'AndCondition',
      data: {
        Conditions: [
          { type: 'SegmentCondition', data: { Var: 'segmentId', Value: { Operation: 'IN', Values: [segmentId] } } },
        ],
      },
    };
    const flow = await apiRequest<{ external_id: string; name: string; path_groups: { condition: string }[] }>(
      'POST',
      'flows',
      adminToken,
      {
        name: `Flow ${run}`,
        path_groups: [
          {
            id: `${Date.now()}`,
            name: 'Germans',
            condition: JSON.stringify(bySegment),
            paths: [{ id: `${Date.now()}1`, offer_external_id: offer.external_id }],
          },
        ],
      },
    );
    expect(JSON.parse(flow.path_groups[0]?.condition ?? '')).toEqual(bySegment);

    // A traffic source and a postback event to choose in the campaign.
    const source = await apiRequest<{ external_id: string; name: string }>('POST', 'traffic-sources', adminToken, {
      name: `Source ${run}`,
      parameters: [
        { name: 'Click', ts_parameter: 'clickid', ts_token: '{clickid}', internal_token: 'var1', enabled: true },
      ],
    });
    const event = await apiRequest<{ id: number }>('POST', 'events', adminToken, {
      name: `lead_${run}`,
      label: `Lead ${run}`,
    });
    const postbackEvent = await apiRequest<{ external_id: string; name: string }>(
      'POST',
      'postback-events',
      adminToken,
      { name: `Lead ${run}`, event_id: event.id },
    );

    // The campaign, from the dashboard.
    await page.goto('/admin/campaigns/create');
    await page.getByRole('textbox', { name: 'Name' }).fill(`Campaign ${run}`);
    await choose(page, 'Traffic source', source.name);
    await choose(page, 'Flow', flow.name);
    await page.getByTestId('postback_events-add').click();
    await choose(page, 'Postback event', postbackEvent.name);

    const rules = page.getByRole('group', { name: `Payout rules of ${postbackEvent.name}` });
    await expect.poll(() => rules.getByRole('textbox', { name: 'Default payout' }).inputValue()).toBe('0');
    await rules.getByRole('button', { name: 'Add Payout' }).click();
    await rules.getByRole('textbox', { name: 'Payout', exact: true }).fill('2.50');
    await addGermanyRule(page, rules);
    await expect.poll(() => rules.getByText('Country is DE').count()).toBe(1);
    await expect.poll(() => rules.getByText('Pays 2.50').count()).toBe(1);
    const campaignId = await saveNew(page);

    const campaign = await apiRequest<{
      traffic_source_external_id: string;
      flow_external_id: string;
      postback_events: { postback_event_external_id: string }[];
      payout_rule_sets: {
        postback_event_external_id: string;
        event_name: string;
        default_payout: number;
        rules: { payout: number; priority: number; condition: string }[];
      }[];
    }>('GET', `campaigns/${campaignId}`, adminToken);
    expect(campaign.traffic_source_external_id).toBe(source.external_id);
    expect(campaign.flow_external_id).toBe(flow.external_id);
    expect(campaign.postback_events.map((entry) => entry.postback_event_external_id)).toEqual([
      postbackEvent.external_id,
    ]);
    expect(campaign.payout_rule_sets).toHaveLength(1);
    const [set] = campaign.payout_rule_sets;
    expect(set).toMatchObject({
      postback_event_external_id: postbackEvent.external_id,
      event_name: postbackEvent.name,
      default_payout: 0,
    });
    expect(set?.rules.map((rule) => [rule.payout, rule.priority, JSON.parse(rule.condition)])).toEqual([
      [2.5, 0, GERMANY],
    ]);

    // After a reload the rule reads the same in its label.
    await page.reload();
    const reloaded = page.getByRole('group', { name: `Payout rules of ${postbackEvent.name}` });
    await expect.poll(() => reloaded.getByText('Country is DE').count()).toBe(1);
    await page.close();
  });
});
