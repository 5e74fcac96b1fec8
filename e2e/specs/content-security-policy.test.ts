import { getResource, RESOURCES, type ResourceDefinition, type ResourceName } from '@switchyard/domain';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiLogin, apiRequest } from '../support/api.js';
import { admin, logIn, useBrowser } from '../support/browser.js';
import { waitForQuiet } from '../support/network.js';

// The dashboard is served with a Content-Security-Policy (apps/server/src/http/security-headers.ts).
// Every screen loads under it with no violation reported, in the console or as a securitypolicyviolation
// event; the session cookie is SameSite=Strict; a remote image in rich text is blocked, then dropped on save.

const browser = useBrowser();
let adminToken = '';
const run = Date.now().toString(36);

/** A tiny PNG: the one kind of image besides the dashboard's own that rich text keeps. */
const DATA_IMAGE =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
const OWN_IMAGE = '/favicon.svg';

/**
 * Reports every CSP violation of every document the page loads: the browser's console message, and the
 * securitypolicyviolation event (an init script, run before the dashboard's own, passes it to the console).
 */
async function recordViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  page.on('console', (message) => {
    const text = message.text();
    if (text.startsWith('securitypolicyviolation:') || /Content Security Policy/i.test(text)) {
      violations.push(`${new URL(page.url()).pathname}: ${text}`);
    }
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.warn(`securitypolicyviolation: ${event.effectiveDirective} blocked ${event.blockedURI || 'inline'}`);
    });
  });
  return violations;
}

type Body = Record<string, unknown>;

async function create(resource: ResourceName, body: Body): Promise<Body> {
  return apiRequest<Body>('POST', getResource(resource).apiPath, adminToken, body);
}

/** One record of each kind with screens, made through the API, to open its edit screen. */
async function recordFor(definition: ResourceDefinition): Promise<Body> {
  const name = `CSP ${definition.name} ${run}`;
  switch (definition.name) {
    case 'offers':
    case 'tracker-offers':
      // Rich text with both kinds of image it keeps, so the editor shows them under the policy.
      return create(definition.name, {
        name,
        url: 'https://example.com/go?click={clickid}',
        description: `<p>Offer <img src="${DATA_IMAGE}" alt="dot"><img src="${OWN_IMAGE}" alt="logo"></p>`,
      });
    case 'tracker-landers':
      return create(definition.name, { name, url: 'https://example.com/lander' });
    case 'events':
      return create(definition.name, { name, label: `${name} label` });
    case 'postback-events': {
      const event = await create('events', { name: `${name} event`, label: `${name} label` });
      return create(definition.name, { name, event_id: event.id });
    }
    case 'campaigns':
    case 'tracker-campaigns': {
      const trafficSource = await create('traffic-sources', { name: `${name} source` });
      const flow = await create(definition.name === 'campaigns' ? 'flows' : 'tracker-flows', { name: `${name} flow` });
      return create(definition.name, {
        name,
        traffic_source_external_id: trafficSource.external_id,
        flow_external_id: flow.external_id,
      });
    }
    case 'domains':
      return create(definition.name, { name: `csp-${run}.example` });
    case 'users':
      return create(definition.name, {
        name,
        email: `csp-${run}@e2e.test`,
        password: 'e2e-user-password',
        permissions: [],
        roles: [],
        workspaces: [],
      });
    default:
      return create(definition.name, { name });
  }
}

/** Every screen of the dashboard: the fixed routes of app/routing/routes.tsx and, per resource of the registry with screens, its list, create and edit screens. */
const WITH_SCREENS = RESOURCES.filter((definition) => definition.route !== null);
const FIXED_SCREENS = ['/admin', '/profile', '/tracker/reports', '/tracker/reports/postbacks', '/utility/404'];
const LOGGED_OUT_SCREENS = ['/login', '/forgot-password', '/register', '/reset-password/some-token'];
let resourceScreens: string[] = [];

beforeAll(async () => {
  adminToken = await apiLogin(admin().email, admin().password);
  resourceScreens = [];
  for (const definition of WITH_SCREENS) {
    const record = await recordFor(definition);
    const id = encodeURIComponent(String(record[definition.idField]));
    resourceScreens.push(definition.route!, `${definition.route}/create`, `${definition.route}/edit/${id}`);
  }
});

/** Opens a screen and waits until it has drawn what it loads. */
async function open(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await waitForQuiet(page);
  expect(new URL(page.url()).pathname, `${path} stayed where it was sent`).toBe(path);
  await expect.poll(() => page.locator('body').innerText(), { message: path }).not.toBe('');
}

describe('content security policy', () => {
  it('covers every resource of the registry with screens', () => {
    expect(WITH_SCREENS.map((definition) => definition.name)).toEqual(
      expect.arrayContaining(['offers', 'tracker-offers', 'users', 'workspaces', 'traffic-sources']),
    );
    expect(resourceScreens).toHaveLength(WITH_SCREENS.length * 3);
  });

  it('loads every logged-out screen with no violation', async () => {
    const page = await browser.newPage();
    const violations = await recordViolations(page);
    for (const path of LOGGED_OUT_SCREENS) await open(page, path);
    expect(violations).toEqual([]);
  });

  it('loads every screen of an administrator with no violation, and keeps the token cookie SameSite=Strict', async () => {
    const page = await browser.newPage();
    const violations = await recordViolations(page);
    await page.goto('/login');
    await logIn(page, admin().email, admin().password);
    await page.getByRole('navigation', { name: 'Main menu' }).waitFor();

    const cookie = (await page.context().cookies()).find((entry) => entry.name === 'auth_token');
    // Served over plain HTTP here, so not Secure (client.test.ts checks Secure over HTTPS).
    expect(cookie).toMatchObject({ sameSite: 'Strict', secure: false, path: '/' });
    expect(cookie?.value).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const screens = [...FIXED_SCREENS, ...resourceScreens];
    for (const path of screens) await open(page, path);
    // The offer's rich text drew its data: and same-origin images (and neither was blocked).
    const offer = resourceScreens.find((path) => path.startsWith('/admin/offers/edit/'))!;
    await open(page, offer);
    const images = page.locator('.ProseMirror img');
    await expect
      .poll(() => images.evaluateAll((all) => all.map((image) => image.getAttribute('src'))))
      .toEqual([DATA_IMAGE, OWN_IMAGE]);
    await expect
      .poll(() => images.evaluateAll((all) => all.map((image) => (image as HTMLImageElement).naturalWidth > 0)))
      .toEqual([true, true]);
    expect(violations).toEqual([]);
    // Every screen of the registry and more, each until it is quiet: more than the usual minute on a busy machine.
  }, 180_000);

  it('blocks a remote image typed into rich text, and the save drops it with a notice', async () => {
    const page = await browser.newPage();
    const violations = await recordViolations(page);
    await page.goto('/login');
    await logIn(page, admin().email, admin().password);
    const offer = await create('offers', { name: `CSP pixel ${run}`, url: 'https://example.com/go' });
    await open(page, `/admin/offers/edit/${offer.external_id}`);

    page.once('dialog', (dialog) => dialog.accept('https://tracker.example/p.gif'));
    await page.getByRole('button', { name: 'Image', exact: true }).click();
    await page.getByRole('button', { name: 'Save', exact: true }).click();

    await page.getByText('Images from other sites removed').waitFor();
    await page
      .getByText('They would tell those sites each time this record is opened. Removed: https://tracker.example/p.gif')
      .waitFor();
    await expect.poll(() => page.locator('.ProseMirror img').count()).toBe(0);
    const stored = await apiRequest<Body>('GET', `offers/${offer.external_id}`, adminToken);
    expect(stored.description).toBe('');
    // The policy, not the network, stopped the pixel: it is the only violation, and it names the image.
    await expect
      .poll(() => violations.filter((text) => text.includes('securitypolicyviolation:')))
      .toEqual([
        `/admin/offers/edit/${offer.external_id}: securitypolicyviolation: img-src blocked https://tracker.example/p.gif`,
      ]);
  });
});
