import { beforeAll, describe, expect, it } from 'vitest';
import { apiLogin, createUser } from '../support/api.js';
import { admin, logIn, useBrowser } from '../support/browser.js';

const browser = useBrowser();
let adminToken = '';

beforeAll(async () => {
  adminToken = await apiLogin(admin().email, admin().password);
});

describe('dashboard shell', () => {
  it('sends a logged-out visitor to /login and back to the wanted page after login', async () => {
    const page = await browser.newPage();
    await page.goto('/admin/users?search=admin');
    await page.waitForURL('**/login');
    await logIn(page, admin().email, admin().password);
    await page.waitForURL('**/admin/users?search=admin');
    expect(new URL(page.url()).pathname).toBe('/admin/users');
  });

  it("shows an administrator the side menu's 17 entries, Live View, Rules, Import, Currency Rates, Domains, Bot Protection, Backups and History, with the three headings", async () => {
    const page = await browser.newPage();
    await logIn(page, admin().email, admin().password);
    const menu = page.getByRole('navigation', { name: 'Main menu' });
    await expect.poll(() => menu.getByRole('link').count()).toBe(25);
    const headings = await menu.getByRole('heading', { level: 2 }).allTextContents();
    expect(headings).toEqual(['Lead API', 'Click tracker', 'General']);
    for (const label of [
      'Dashboard',
      'Flows',
      'Segments',
      'Campaigns',
      'Offers',
      'Landers',
      'Reports',
      'Live View',
      'Rules',
      'Import',
    ]) {
      expect(await menu.getByRole('link', { name: label, exact: true }).count()).toBeGreaterThan(0);
    }
    const general = [
      'Traffic Sources',
      'Affiliate Networks',
      'Events',
      'Postback Events',
      'Workspaces',
      'Currency Rates',
    ];
    for (const label of [...general, 'Users', 'Bot Protection', 'Backups', 'History']) {
      await menu.getByRole('link', { name: label, exact: true }).waitFor();
    }
  });

  it('shows a user holding only /api/offer/get just Dashboard, API › Offers and History', async () => {
    const user = await createUser(adminToken, ['/api/offer/get']);
    const page = await browser.newPage();
    await logIn(page, user.email, user.password);
    const menu = page.getByRole('navigation', { name: 'Main menu' });
    await menu.getByRole('link', { name: 'Offers', exact: true }).waitFor();
    // History shows to whoever may read some kind of record: it lists only what they may read.
    expect(await menu.getByRole('link').allTextContents()).toEqual(['Dashboard', 'Offers', 'History']);
    expect(await menu.getByRole('heading', { level: 2 }).allTextContents()).toEqual(['Lead API']);
    expect(await menu.getByText('General', { exact: true }).count()).toBe(0);
  });

  it('switches to Arabic and lays the page out right to left', async () => {
    const page = await browser.newPage();
    await logIn(page, admin().email, admin().password);
    await page.getByRole('navigation', { name: 'Main menu' }).waitFor();
    expect(await page.getAttribute('html', 'dir')).not.toBe('rtl');
    await page.getByRole('button', { name: 'Language' }).click();
    await page.getByRole('menuitem', { name: 'العربية' }).click();
    await expect.poll(() => page.getAttribute('html', 'dir')).toBe('rtl');
    expect(await page.getAttribute('html', 'lang')).toBe('ar');
    // The choice is remembered across a reload.
    await page.reload();
    await expect.poll(() => page.getAttribute('html', 'dir')).toBe('rtl');
  });

  it('shows "Page not found" with a way home for an unknown route', async () => {
    const page = await browser.newPage();
    await logIn(page, admin().email, admin().password);
    await page.getByRole('navigation', { name: 'Main menu' }).waitFor();
    await page.goto('/admin/no-such-page');
    await page.getByText('Page not found').waitFor();
    await page.getByText('This page could not be found').waitFor();
    await page.getByRole('link', { name: 'Back to Home' }).click();
    await page.waitForURL((url) => url.pathname === '/admin');
  });

  it('logs out to /login and keeps the dashboard closed afterwards', async () => {
    const page = await browser.newPage();
    await logIn(page, admin().email, admin().password);
    await page.getByRole('navigation', { name: 'Main menu' }).waitFor();
    await page.getByRole('button', { name: 'Admin' }).first().click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await page.waitForURL('**/login');
    await page.goto('/admin/workspaces');
    await page.waitForURL('**/login');
  });
});
