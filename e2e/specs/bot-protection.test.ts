import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiLogin, apiRequest, createUser } from '../support/api.js';
import { admin, logIn, useBrowser } from '../support/browser.js';

// An administrator opens Bot protection from the menu, adds a datacenter network, saves, and
// finds it there after a reload; whoever may only read the instance's settings sees the list
// without the controls.

const browser = useBrowser();
let adminToken = '';
// An ASN no shipped list holds (private-use range), different on every run.
const asn = 4_200_000_000 + (Date.now() % 90_000_000);

beforeAll(async () => {
  adminToken = await apiLogin(admin().email, admin().password);
});

afterAll(async () => {
  // Other specs find the shipped list as the server ships it.
  await apiRequest('DELETE', 'bot-protection', adminToken);
});

describe('bot protection', () => {
  it('adds a datacenter network from the screen, saves it and still lists it after a reload', async () => {
    const page = await browser.newPage();
    await logIn(page, admin().email, admin().password);
    await page
      .getByRole('navigation', { name: 'Main menu' })
      .getByRole('link', { name: 'Bot Protection', exact: true })
      .click();
    await page.waitForURL('**/admin/bot-protection');
    await page.getByRole('heading', { name: 'What makes a click a bot' }).waitFor();
    const table = page.getByRole('table', { name: 'Datacenter networks' });
    await table.waitFor();

    await page.getByRole('textbox', { name: 'AS number' }).fill(String(asn));
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('E2E Hosting');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await table.getByText(`AS${asn}`, { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Bot protection saved.').waitFor();

    await page.reload();
    const row = page
      .getByRole('table', { name: 'Datacenter networks' })
      .getByRole('row')
      .filter({ hasText: `AS${asn}` });
    await row.waitFor();
    expect(await row.textContent()).toContain('E2E Hosting');
    const saved = await apiRequest<{ datacenter_asns: { asn: number; name: string }[]; is_default: boolean }>(
      'GET',
      'bot-protection',
      adminToken,
    );
    expect(saved.is_default).toBe(false);
    expect(saved.datacenter_asns).toContainEqual({ asn, name: 'E2E Hosting' });
  });

  it("shows the list without the controls to a user who may only read the instance's settings", async () => {
    const reader = await createUser(adminToken, ['/instance/settings/get']);
    const page = await browser.newPage();
    await logIn(page, reader.email, reader.password);
    await page.goto('/admin/bot-protection');
    await page.getByRole('table', { name: 'Datacenter networks' }).waitFor();
    expect(await page.getByRole('textbox', { name: 'AS number' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Save', exact: true }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Restore the shipped list' }).count()).toBe(0);
  });
});
