import { beforeAll, describe, expect, it } from 'vitest';
import { apiLogin, apiRequest, postbackPath } from '../support/api.js';
import { admin, baseURL, logIn, useBrowser } from '../support/browser.js';

// Keyed postbacks from the dashboard: a network's keyed postback URL in another tracker's format, the key
// rotated from the workspace screen (the old URL refused from then on), a currency rate added, and a
// conversion import answered line by line.

const browser = useBrowser();
let adminToken = '';
const run = Date.now().toString(36);

beforeAll(async () => {
  adminToken = await apiLogin(admin().email, admin().password);
});

describe('postback keys, rates and imports', () => {
  it('gives a network its keyed URL, and rotating the key refuses the old one', async () => {
    const page = await browser.newPage();
    await logIn(page, admin().email, admin().password);
    const oldPath = await postbackPath(adminToken);

    await page.goto('/admin/affiliate-networks/create');
    await page.getByRole('textbox', { name: 'Name' }).fill(`Keyed network ${run}`);
    await page.getByRole('textbox', { name: 'Click ID parameter' }).fill('aff_sub');
    const url = page.getByRole('textbox', { name: 'Postback URL' });
    await expect.poll(() => url.inputValue()).toContain(`${oldPath}?clickid={aff_sub}`);
    // The radio itself is hidden under its chip's label.
    await page.getByText('Binom', { exact: true }).click();
    await expect
      .poll(() => url.inputValue())
      .toBe(
        `${baseURL()}${oldPath.replace(/\/postback$/, '/click.php')}?cnv_id={aff_sub}&payout={payout}&cnv_status={status}`,
      );
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL(/\/edit\//);
    const networkScreen = page.url();

    // The address answers: a click id it never gave out is 404, not a refused key.
    expect((await fetch(`${baseURL()}${oldPath}?clickid=never-given-${run}`)).status).toBe(404);

    const { list } = await apiRequest<{ list: { id: number }[] }>('GET', 'workspaces', adminToken);
    await page.goto(`/admin/workspaces/edit/${list[0]?.id}`);
    await page.getByRole('button', { name: 'Rotate key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rotate the postback key?' });
    await dialog.getByText(/stops working/).waitFor();
    await dialog.getByRole('button', { name: 'Rotate key' }).click();
    await page.getByText('New postback key made. Give the networks their new postback URLs.').waitFor();

    const newPath = await postbackPath(adminToken);
    expect(newPath).not.toBe(oldPath);
    expect(await page.getByRole('textbox', { name: 'Postback key' }).inputValue()).toBe(newPath.split('/')[1]);
    expect((await fetch(`${baseURL()}${oldPath}?clickid=never-given-${run}`)).status).toBe(403);

    await page.goto(networkScreen);
    await expect.poll(() => page.getByRole('textbox', { name: 'Postback URL' }).inputValue()).toContain(newPath);
  });

  it('adds a currency rate and imports a line, each answered on the screen', async () => {
    const page = await browser.newPage();
    await logIn(page, admin().email, admin().password);

    await page.goto('/admin/currency-rates');
    await page.getByRole('table', { name: 'Currency rates' }).waitFor();
    await page.getByRole('combobox', { name: 'Currency' }).click();
    await page.getByRole('option', { name: /^AFN — / }).click();
    await page.getByRole('textbox', { name: 'Rate', exact: true }).fill('70.5');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByRole('button', { name: 'Save changes (1)' }).click();
    await page.getByText('Rates saved: 1').waitFor();
    const afghani = page.getByRole('row').filter({ hasText: 'AFN' });
    await afghani.getByText('Set by an administrator').waitFor();
    expect(await afghani.getByRole('textbox', { name: 'Rate of AFN' }).inputValue()).toBe('70.5');

    await page.goto('/tracker/reports/postbacks?tab=import');
    await page.getByRole('textbox', { name: 'Lines to import' }).fill(`clickid,status\nnever-given-${run},sale`);
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const results = page.getByRole('table', { name: 'Imported lines' });
    await results.getByText('Unknown click').waitFor();
    expect(await page.getByText('Counted: 0 · Acknowledged without change: 0 · Refused: 1').count()).toBe(1);
  });
});
