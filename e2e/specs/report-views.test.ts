import type { ReportView } from '@switchyard/domain';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiLogin, apiRequest } from '../support/api.js';
import { admin, logIn, useBrowser } from '../support/browser.js';

// The reports screen's date presets answer to their digit keys, and a view saved from the Views
// menu opens by its link, for a colleague of the same workspace, with the same grouping and period.

const browser = useBrowser();
const run = Date.now().toString(36);
let adminToken = '';
let colleague = { email: '', password: '' };

beforeAll(async () => {
  adminToken = await apiLogin(admin().email, admin().password);
  const { list } = await apiRequest<{ list: { id: number }[] }>('GET', 'workspaces', adminToken);
  const first = Math.min(...list.map((workspace) => workspace.id));
  colleague = { email: `views-${run}@e2e.test`, password: 'e2e-user-password' };
  await apiRequest('POST', 'users', adminToken, {
    name: `Views colleague ${run}`,
    ...colleague,
    permissions: ['/tracker/reports/get'],
    roles: [],
    workspaces: [first],
  });
});

const period = (page: Page) => page.getByRole('combobox', { name: /^Period/ });

async function query(page: Page): Promise<URLSearchParams> {
  return new URL(page.url()).searchParams;
}

describe('report views', () => {
  it('changes the period with a preset key', async () => {
    const page = await browser.newPage();
    await logIn(page, admin().email, admin().password);
    await page.goto('/tracker/reports');
    await expect.poll(() => period(page).inputValue()).toBe('Last 7 days');
    // Outside any field: the page's heading has the focus.
    await page.getByRole('heading', { name: 'Reports', level: 1 }).click();
    await page.keyboard.press('6');
    await expect.poll(() => period(page).inputValue()).toBe('Last month');
    expect((await query(page)).get('range')).toBe('lastMonth');
    await page.keyboard.press('2');
    await expect.poll(() => period(page).inputValue()).toBe('Yesterday');
    // A digit typed in a field stays in the field.
    await page.getByLabel(/^Search the rows/).press('4');
    expect(await period(page).inputValue()).toBe('Yesterday');
  });

  it('saves a view whose link opens the same grouping and period for a colleague', async () => {
    const page = await browser.newPage();
    await logIn(page, admin().email, admin().password);
    await page.goto('/tracker/reports');
    await page.getByRole('combobox', { name: /^Group by/ }).click();
    await page.getByRole('option', { name: 'Offer', exact: true }).click();
    await page.getByRole('heading', { name: 'Reports', level: 1 }).click();
    await page.keyboard.press('4');
    await expect.poll(() => period(page).inputValue()).toBe('Last 30 days');
    await page.getByRole('combobox', { name: /^Attribute conversions by/ }).click();
    await page.getByRole('option', { name: 'Postback time', exact: true }).click();
    await expect.poll(async () => (await query(page)).get('attribution')).toBe('postback');

    const name = `Offers by postback ${run}`;
    await page.getByRole('button', { name: 'Views', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Save current view as…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Save the current view' });
    await dialog.getByRole('textbox', { name: /^Name/ }).fill(name);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    // The menu now names the view on screen, and offers its link.
    await page.getByRole('button', { name: `View: ${name}` }).click();
    await page.getByRole('menuitem', { name: 'Copy link to this view' }).waitFor();
    await page.getByRole('menuitem', { name }).waitFor();
    await page.keyboard.press('Escape');

    const { list } = await apiRequest<{ list: ReportView[] }>('GET', 'report-views', adminToken);
    const saved = list.find((view) => view.name === name);
    expect(saved).toBeDefined();

    // A fresh page, another user of the workspace: the link opens the view.
    const other = await browser.newPage();
    await logIn(other, colleague.email, colleague.password);
    await other.goto(`/tracker/reports?view=${saved?.id}`);
    await expect.poll(async () => (await query(other)).get('group_by')).toBe('campaign,offer');
    const opened = await query(other);
    expect(opened.get('view')).toBeNull();
    expect(opened.get('range')).toBe('last30');
    expect(opened.get('attribution')).toBe('postback');
    expect(await period(other).inputValue()).toBe('Last 30 days');
    expect(await other.getByRole('combobox', { name: /^Attribute conversions by/ }).inputValue()).toBe('Postback time');
    const groupBy = other.locator('.mantine-MultiSelect-pill');
    expect(await groupBy.allInnerTexts()).toEqual(['Campaign', 'Offer']);
    // Not theirs: their own Views menu does not list it.
    await other.getByRole('button', { name: 'Views', exact: true }).click();
    await other.getByRole('menuitem', { name: 'No saved views yet.' }).waitFor();
  });
});
