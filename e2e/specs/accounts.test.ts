import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { eventually } from '../../apps/server/test/eventually.js';
import { apiLogin, apiRequest, createUser } from '../support/api.js';
import { admin, logIn, useBrowser } from '../support/browser.js';

// The e2e server has no SMTP_URL: the invitation link is shown to the administrator (copy-text) and
// a self-service reset link is only written to the server log, where this test reads it.

const browser = useBrowser();
const NEW_PASSWORD = 'a brand new passphrase';
let adminToken = '';

beforeAll(async () => {
  adminToken = await apiLogin(admin().email, admin().password);
});

/** The last link the server logged for `email` and `kind` (e.g. passwordReset). */
async function loggedLink(kind: string, email: string): Promise<string> {
  const pattern = new RegExp(`a link was made for ${email.replace(/[.+]/g, '\\$&')} \\(${kind}\\): (\\S+?)"`);
  return eventually(
    () =>
      readFileSync(inject('serverLog'), 'utf8')
        .split('\n')
        .map((line) => pattern.exec(line)?.[1])
        .filter((link): link is string => Boolean(link))
        .at(-1),
    () => `no ${kind} link for ${email} in the server log`,
  );
}

describe('accounts', () => {
  it('an administrator invites a user, who sets a password and lands logged in with the invited permissions', async () => {
    const email = `invitee-${Date.now()}@e2e.test`;
    const adminPage = await browser.newPage();
    await logIn(adminPage, admin().email, admin().password);
    await adminPage.getByRole('navigation', { name: 'Main menu' }).waitFor();
    await adminPage.goto('/admin/users');
    await adminPage.getByRole('button', { name: 'Invite a user' }).click();
    const dialog = adminPage.getByRole('dialog', { name: 'Invite a user' });
    await dialog.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
    // Permissions are ticked, by section, resource and action, not typed.
    await dialog.getByRole('checkbox', { name: 'API · Offers: View' }).check();
    await dialog.getByRole('button', { name: 'Send the invitation' }).click();

    // No SMTP: the link is shown to copy.
    const linkField = dialog.getByRole('textbox', { name: 'Invitation link' });
    await linkField.waitFor();
    const link = await linkField.inputValue();
    expect(link).toMatch(/\/accept-invite\/[A-Za-z0-9_-]{43}$/);
    await dialog.getByRole('button', { name: 'Copy' }).waitFor();
    // The dialog's own Close button (the corner ✕ is named Close too, for screen readers).
    await dialog.getByRole('button', { name: 'Close' }).last().click();
    await adminPage.getByRole('table', { name: 'Pending invitations' }).getByText(email).waitFor();

    const invitee = await browser.newPage();
    await invitee.goto(new URL(link).pathname);
    await invitee.getByRole('textbox', { name: 'Email' }).and(invitee.locator('[readonly]')).waitFor();
    expect(await invitee.getByRole('textbox', { name: 'Email' }).inputValue()).toBe(email);
    await invitee.getByRole('textbox', { name: 'Name' }).fill('Ines Invitee');
    // A common password is refused before it is sent.
    await invitee.getByRole('textbox', { name: 'Password', exact: true }).fill('password123');
    await invitee.getByRole('textbox', { name: 'Repeat the password' }).fill('password123');
    await invitee.getByRole('button', { name: 'Create my account' }).click();
    await invitee.getByText('This password is too common; choose another one').waitFor();

    await invitee.getByRole('textbox', { name: 'Password', exact: true }).fill(NEW_PASSWORD);
    await invitee.getByRole('textbox', { name: 'Repeat the password' }).fill(NEW_PASSWORD);
    await invitee.getByRole('button', { name: 'Create my account' }).click();
    await invitee.waitForURL((url) => url.pathname === '/admin');
    const menu = invitee.getByRole('navigation', { name: 'Main menu' });
    await menu.getByRole('link', { name: 'Offers', exact: true }).waitFor();
    // History lists the changes of what they may read: the offers.
    expect(await menu.getByRole('link').allTextContents()).toEqual(['Dashboard', 'Offers', 'History']);
    await invitee.getByText('Welcome, Ines Invitee').waitFor();

    // The link worked once.
    const again = await browser.newPage();
    await again.goto(new URL(link).pathname);
    await again.getByText('This link is invalid or has expired').waitFor();
    const token = await apiLogin(email, NEW_PASSWORD);
    const me = await apiRequest<{ permissions: string[] }>('GET', 'me', token);
    expect(me.permissions).toEqual(['/api/offer/get']);
  });

  it('resets a forgotten password from the login page; the old password and sessions stop working', async () => {
    const user = await createUser(adminToken, ['/api/offer/get']);
    const oldSession = await apiLogin(user.email, user.password);
    const page = await browser.newPage();
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.waitForURL('**/forgot-password');
    await page.getByRole('textbox', { name: 'Email' }).fill(user.email);
    await page.getByRole('button', { name: 'Send the link' }).click();
    await page
      .getByText('If an account exists for this email, we have sent it a link to choose a new password.')
      .waitFor();

    const link = await loggedLink('passwordReset', user.email);
    expect(link).toMatch(/^\/reset-password\/[A-Za-z0-9_-]{43}$/);
    await page.goto(link);
    await page.getByRole('textbox', { name: 'New password' }).fill(NEW_PASSWORD);
    await page.getByRole('textbox', { name: 'Repeat the password' }).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Save the new password' }).click();
    await page.waitForURL('**/login');
    await page.getByText('Your password has been changed. Log in with the new one.').waitFor();

    await expect(apiRequest('GET', 'me', oldSession)).rejects.toThrow(/401/);
    await expect(apiLogin(user.email, user.password)).rejects.toThrow(/401/);
    await logIn(page, user.email, NEW_PASSWORD);
    await page.waitForURL((url) => url.pathname === '/admin');
    await page
      .getByRole('navigation', { name: 'Main menu' })
      .getByRole('link', { name: 'Offers', exact: true })
      .waitFor();
  });

  it('answers the same for an unknown email and offers no registration while it is off', async () => {
    const page = await browser.newPage();
    await page.getByRole('link', { name: 'Forgot your password?' }).waitFor();
    expect(await page.getByRole('link', { name: 'Create an account' }).count()).toBe(0);
    await page.goto('/register');
    await page.getByText('Registration is closed').waitFor();
    await page.goto('/forgot-password');
    await page.getByRole('textbox', { name: 'Email' }).fill(`nobody-${Date.now()}@e2e.test`);
    await page.getByRole('button', { name: 'Send the link' }).click();
    await page
      .getByText('If an account exists for this email, we have sent it a link to choose a new password.')
      .waitFor();
  });

  it('changes name and language on the profile page and signs out of the other sessions', async () => {
    const user = await createUser(adminToken, []);
    const otherSession = await apiLogin(user.email, user.password);
    const page = await browser.newPage();
    await logIn(page, user.email, user.password);
    await page.waitForURL((url) => url.pathname === '/admin');
    await page.getByRole('button', { name: user.name }).click();
    await page.getByRole('menuitem', { name: 'Profile' }).click();
    await page.waitForURL('**/profile');

    await page.getByRole('button', { name: 'Sign out of all other sessions' }).click();
    await page.getByText('Your other sessions have been ended.').waitFor();
    await expect(apiRequest('GET', 'me', otherSession)).rejects.toThrow(/401/);

    await page.getByRole('textbox', { name: 'Name' }).fill('Renamed Person');
    await page.getByRole('combobox', { name: 'Language' }).click();
    await page.getByRole('option', { name: 'Français' }).click();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => page.getAttribute('html', 'lang')).toBe('fr');
    await page.getByRole('heading', { name: 'Votre profil' }).waitFor();
    await page.getByRole('button', { name: 'Renamed Person' }).waitFor();
  });

  it('registers while an administrator has registration on: "Registration successful", then the login page', async () => {
    await apiRequest('PUT', 'account-settings', adminToken, { registration_enabled: true, registration_role_id: null });
    try {
      const email = `registered-${Date.now()}@e2e.test`;
      const page = await browser.newPage();
      await page.getByRole('link', { name: 'Create an account' }).click();
      await page.waitForURL('**/register');
      await page.getByRole('textbox', { name: 'Name' }).fill('Reggie');
      await page.getByRole('textbox', { name: 'Email' }).fill(email);
      await page.getByRole('textbox', { name: 'Password', exact: true }).fill(NEW_PASSWORD);
      await page.getByRole('textbox', { name: 'Repeat the password' }).fill(NEW_PASSWORD);
      await page.getByRole('button', { name: 'Register' }).click();
      await page.waitForURL('**/login');
      await page.getByText('Registration successful').waitFor();
      await logIn(page, email, NEW_PASSWORD);
      // No permissions until an administrator grants them.
      await page.getByText('Your account cannot open any area yet. Ask an administrator for access.').waitFor();
    } finally {
      await apiRequest('PUT', 'account-settings', adminToken, { registration_enabled: false });
    }
  });
});
