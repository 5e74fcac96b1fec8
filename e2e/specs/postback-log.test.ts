import { beforeAll, describe, expect, it } from 'vitest';
import { apiLogin, apiRequest, postbackPath } from '../support/api.js';
import { admin, baseURL, logIn, useBrowser } from '../support/browser.js';

// A network's postbacks, one for a real click and one for a click id the tracker never gave
// out, both show in the postback log with what became of them.

const browser = useBrowser();
let adminToken = '';
const run = Date.now().toString(36);

beforeAll(async () => {
  adminToken = await apiLogin(admin().email, admin().password);
});

type Created = { external_id: string; id?: number };

/** A tracker campaign paying 3.25 on a "sale" postback, set up through the API. */
async function trackerCampaign(): Promise<Created> {
  const event = await apiRequest<{ id: number }>('POST', 'events', adminToken, {
    name: `Sale ${run}`,
    label: `Sale ${run}`,
  });
  const sale = await apiRequest<Created>('POST', 'postback-events', adminToken, {
    name: `Sale postback ${run}`,
    event_id: event.id,
    status_values: ['sale'],
  });
  const source = await apiRequest<Created>('POST', 'traffic-sources', adminToken, { name: `Source ${run}` });
  const offer = await apiRequest<Created>('POST', 'tracker/offers', adminToken, {
    name: `Offer ${run}`,
    url: 'https://offer.example/?c={clickid}',
  });
  const flow = await apiRequest<Created>('POST', 'tracker/flows', adminToken, {
    name: `Flow ${run}`,
    path_groups: [
      { id: 'g', name: 'All', paths: [{ id: 'p', offers: [{ id: 'o', offer_external_id: offer.external_id }] }] },
    ],
  });
  return apiRequest<Created>('POST', 'tracker/campaigns', adminToken, {
    name: `Postback log ${run}`,
    traffic_source_external_id: source.external_id,
    flow_external_id: flow.external_id,
    postback_events: [{ postback_event_external_id: sale.external_id, is_conversion: true }],
    payout_rule_sets: [{ id: 'rs', postback_event_external_id: sale.external_id, default_payout: 3.25, rules: [] }],
  });
}

describe('postback log', () => {
  it('shows a matched postback and one for an unknown click id, with their outcomes', async () => {
    const campaign = await trackerCampaign();
    const click = await fetch(`${baseURL()}/c/${campaign.external_id}`, { redirect: 'manual' });
    expect(click.status).toBe(302);
    const clickId = new URL(String(click.headers.get('location'))).searchParams.get('c') ?? '';
    expect(clickId).not.toBe('');
    const matched = await fetch(
      `${baseURL()}${await postbackPath(adminToken)}?clickid=${clickId}&status=sale&txid=tx-${run}&sub=zone-9`,
    );
    expect(matched.status).toBe(200);
    const stranger = `stranger-${run}`;
    expect((await fetch(`${baseURL()}${await postbackPath(adminToken)}?clickid=${stranger}&status=sale`)).status).toBe(
      404,
    );

    const page = await browser.newPage();
    await logIn(page, admin().email, admin().password);
    await page.goto('/tracker/reports/postbacks');
    await page.getByRole('heading', { name: 'Postback log' }).waitFor();
    const table = page.getByRole('table', { name: 'Incoming' });

    const matchedRow = table.getByRole('row').filter({ hasText: `tx-${run}` });
    await expect.poll(() => matchedRow.count()).toBe(1);
    await expect.poll(() => matchedRow.textContent()).toContain('Converted');
    const matchedText = (await matchedRow.textContent()) ?? '';
    expect(matchedText).toContain('Conversion recorded.');
    expect(matchedText).toContain(`Postback log ${run}`);
    expect(matchedText).toContain('$3.25');

    const strangerRow = table.getByRole('row').filter({ hasText: stranger });
    expect(await strangerRow.textContent()).toContain('Unknown click');

    // Opening the matched row shows every parameter the network sent.
    await matchedRow.getByRole('button', { name: 'Show parameters' }).click();
    await page.getByRole('cell', { name: 'zone-9', exact: true }).waitFor();

    // The outcome filter keeps the unmatched one only, and the URL remembers it.
    await page.getByRole('combobox', { name: 'Outcome' }).click();
    await page.getByRole('option', { name: 'Unknown click' }).click();
    await page.waitForURL(/outcome=unknown_click/);
    await expect.poll(() => matchedRow.count()).toBe(0);
    expect(await strangerRow.count()).toBe(1);
  });
});
