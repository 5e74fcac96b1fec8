import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiLogin, apiRequest, createUser } from '../support/api.js';
import { admin, logIn, useBrowser } from '../support/browser.js';
import { waitForQuiet } from '../support/network.js';

// An operator sets up a network, a source and an offer from the dashboard alone, then archives
// and restores the offer from its list.

const browser = useBrowser();
let adminToken = '';
const run = Date.now().toString(36);

beforeAll(async () => {
  adminToken = await apiLogin(admin().email, admin().password);
});

async function save(page: Page) {
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  // A created record opens its edit screen.
  await page.waitForURL(/\/edit\//);
}

describe('resources from the dashboard', () => {
  it('creates a network, a source with renumbered parameters and an offer, then archives and restores the offer', async () => {
    const page = await browser.newPage();
    await logIn(page, admin().email, admin().password);
    await page.getByRole('navigation', { name: 'Main menu' }).waitFor();

    // Affiliate network.
    const network = `Network ${run}`;
    await page.goto('/admin/affiliate-networks/create');
    await page.getByRole('textbox', { name: 'Name' }).fill(network);
    await save(page);

    // Traffic source with three parameters; deleting the middle one renumbers the internal tokens.
    await page.goto('/admin/traffic-sources/create');
    await page.getByRole('textbox', { name: 'Name' }).fill(`Source ${run}`);
    const addParameter = page.getByTestId('parameters-add');
    for (const name of ['zone', 'site', 'creative']) {
      await addParameter.click();
      await page.getByRole('textbox', { name: 'Name', exact: true }).last().fill(name);
      await page.getByRole('textbox', { name: 'Parameter', exact: true }).last().fill(`${name}_id`);
    }
    const tokens = page.getByTestId('parameters-internal-token');
    await expect
      .poll(() => tokens.evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value)))
      .toEqual(['var1', 'var2', 'var3']);
    await page.getByRole('button', { name: 'Delete row 2' }).click();
    await expect
      .poll(() => tokens.evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value)))
      .toEqual(['var1', 'var2']);
    await save(page);
    const sources = await apiRequest<{
      list: { name: string; parameters: { name: string; internal_token: string }[] }[];
    }>('GET', `traffic-sources?search=${encodeURIComponent(`Source ${run}`)}`, adminToken);
    expect(sources.list[0]?.parameters.map((parameter) => [parameter.name, parameter.internal_token])).toEqual([
      ['zone', 'var1'],
      ['creative', 'var2'],
    ]);

    // Offer of that network.
    const offer = `Offer ${run}`;
    await page.goto('/admin/offers/create');
    // The form is still filling its lists as it first shows; an open select closed under it (CI, loaded).
    await waitForQuiet(page);
    await page.getByRole('textbox', { name: 'Name' }).fill(offer);
    await page.getByRole('combobox', { name: 'Affiliate network' }).click();
    await page.getByRole('option', { name: network }).click();
    await page.getByRole('textbox', { name: 'URL' }).fill('https://offers.example/landing?click={clickid}');
    await save(page);
    const offers = await apiRequest<{ list: { external_id: string; affiliate_network_external_id: string }[] }>(
      'GET',
      `offers?search=${encodeURIComponent(offer)}`,
      adminToken,
    );
    const created = offers.list[0];
    expect(created?.affiliate_network_external_id).toBeTruthy();

    // Archive it from the list, with the texts of §8, naming the offer.
    await page.goto(`/admin/offers?search=${encodeURIComponent(offer)}`);
    const row = page.getByRole('row').filter({ hasText: offer });
    await row.getByRole('button', { name: 'Archive' }).click();
    const confirm = page.getByRole('dialog');
    await confirm.getByText(`Are you sure you want to archive offer "${offer}" (#${created?.external_id})?`).waitFor();
    await confirm.getByText('You can reactivate it later').waitFor();
    await confirm.getByRole('button', { name: 'Yes, archive it!' }).click();
    await page.getByText('Archived!').first().waitFor();
    await expect.poll(() => page.getByRole('row').filter({ hasText: offer }).count()).toBe(0);

    // Under the archived filter, and restored from there.
    await page.goto(`/admin/offers?status=archived&search=${encodeURIComponent(offer)}`);
    const archivedRow = page.getByRole('row').filter({ hasText: offer });
    await archivedRow.getByRole('button', { name: 'Restore' }).click();
    await page
      .getByRole('dialog')
      .getByText(`Are you sure you want to restore offer "${offer}" (#${created?.external_id})?`)
      .waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Yes, restore it!' }).click();
    await page.getByText('Restored!').first().waitFor();
    const restored = await apiRequest<{ status: string }>('GET', `offers/${created?.external_id}`, adminToken);
    expect(restored.status).toBe('active');
  });

  it('shows no archive action to a user who may read offers but not archive them', async () => {
    await apiRequest('POST', 'offers', adminToken, { name: `Readable ${run}`, url: 'https://offers.example/' });
    const user = await createUser(adminToken, ['/api/offer/get']);
    const page = await browser.newPage();
    await logIn(page, user.email, user.password);
    await page.goto(`/admin/offers?search=${encodeURIComponent(`Readable ${run}`)}`);
    await page
      .getByRole('row')
      .filter({ hasText: `Readable ${run}` })
      .waitFor();
    expect(await page.getByRole('button', { name: 'Archive' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Create' }).count()).toBe(0);
  });

  it('names the flow and campaign still using an offer before archiving it, in English and Arabic', async () => {
    const name = `Used offer ${run}`;
    const offer = await apiRequest<{ external_id: string }>('POST', 'tracker/offers', adminToken, {
      name,
      url: 'https://offers.example/used',
    });
    const flow = await apiRequest<{ external_id: string; name: string }>('POST', 'tracker/flows', adminToken, {
      name: `Using flow ${run}`,
      path_groups: [
        {
          id: `${run}-g`,
          name: 'All',
          paths: [{ id: `${run}-p`, offers: [{ id: `${run}-o`, offer_external_id: offer.external_id }] }],
        },
      ],
    });
    const source = await apiRequest<{ external_id: string }>('POST', 'traffic-sources', adminToken, {
      name: `Using source ${run}`,
    });
    await apiRequest('POST', 'tracker/campaigns', adminToken, {
      name: `Using campaign ${run}`,
      traffic_source_external_id: source.external_id,
      flow_external_id: flow.external_id,
    });

    const page = await browser.newPage();
    await logIn(page, admin().email, admin().password);
    await page.goto(`/tracker/offers?search=${encodeURIComponent(name)}`);
    await page.getByRole('row').filter({ hasText: name }).getByRole('button', { name: 'Archive' }).click();
    const confirm = page.getByRole('dialog');
    const usedBy = confirm.getByRole('alert');
    await usedBy.getByText('Still used by').waitFor();
    expect(await usedBy.getByRole('link', { name: `Using flow ${run}` }).getAttribute('href')).toBe(
      `/tracker/flows/edit/${flow.external_id}`,
    );
    expect(await usedBy.getByRole('link', { name: `Using campaign ${run}` }).count()).toBe(1);
    // Cancelled: nothing changes.
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    expect(
      (await apiRequest<{ status: string }>('GET', `tracker/offers/${offer.external_id}`, adminToken)).status,
    ).toBe('active');

    await page.evaluate(() => localStorage.setItem('switchyard.language', 'ar'));
    try {
      await page.reload();
      await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl');
      await page.getByRole('row').filter({ hasText: name }).getByRole('button').last().waitFor();
      await page.getByRole('row').filter({ hasText: name }).getByRole('button', { name: 'أرشفة' }).click();
      const arabic = page.getByRole('dialog');
      await arabic.getByText('ما زال مستخدمًا في').waitFor();
      await arabic.getByRole('button', { name: 'أرشفه رغم ذلك' }).click();
    } finally {
      await page.evaluate(() => localStorage.setItem('switchyard.language', 'en'));
    }
    await expect
      .poll(
        async () =>
          (await apiRequest<{ status: string }>('GET', `tracker/offers/${offer.external_id}`, adminToken)).status,
      )
      .toBe('archived');
    await page.close();
  });
});
