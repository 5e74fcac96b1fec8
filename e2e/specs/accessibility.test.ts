import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type ClickEvent, type ListResponse, RESOURCES, type ResourceDefinition } from '@switchyard/domain';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { apiLogin, apiRequest } from '../support/api.js';
import { admin, baseURL, logIn, useBrowser } from '../support/browser.js';
import { waitForQuiet } from '../support/network.js';

// Every screen passes every axe-core rule (WCAG 2 A and AA and axe's best practices: `axe.run` with no
// rule filtering) — every list, create and edit screen of the resource registry, the reports and the
// dashboard, plus a click in the inspector, a confirmation dialog and a notice — in English and Arabic, at a
// desktop width (1,400 px) and a phone's (390 px), in the default settings-panel style; the dashboard and a
// list and an edit screen also in every other style of §2.4. No rule is left out.

const browser = useBrowser();
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const run = Date.now().toString(36);

/** Resources with screens (roles have none), each with one record seeded so its edit screen exists. */
const WITH_SCREENS = RESOURCES.filter(
  (resource): resource is (typeof RESOURCES)[number] & { route: string } => resource.route !== null,
);
const seeded = new Map<string, string>();
let clickId = '';

type Body = Record<string, unknown>;

async function create(token: string, resource: ResourceDefinition, body: Body): Promise<Body> {
  return apiRequest<Body>('POST', resource.apiPath, token, { name: `A11y ${resource.name} ${run}`, ...body });
}

/** The smallest body each kind accepts, creating the records it must name first. */
async function seed(token: string, resource: ResourceDefinition): Promise<Body> {
  const byName = (name: string) => RESOURCES.find((candidate) => candidate.name === name) as ResourceDefinition;
  switch (resource.name) {
    case 'offers':
    case 'tracker-offers':
    case 'tracker-landers':
      return create(token, resource, { url: 'https://example.com/go?click={clickid}' });
    case 'events':
      return create(token, resource, { label: `A11y event ${run}` });
    case 'postback-events': {
      const event = await create(token, byName('events'), { name: `a11y_event_${run}`, label: `A11y ${run}` });
      return create(token, resource, { event_id: event.id });
    }
    case 'campaigns':
    case 'tracker-campaigns': {
      const source = await create(token, byName('traffic-sources'), { name: `A11y source for ${resource.name}` });
      const flow = await create(token, byName(resource.name === 'campaigns' ? 'flows' : 'tracker-flows'), {
        name: `A11y flow for ${resource.name}`,
      });
      return create(token, resource, {
        traffic_source_external_id: source.external_id,
        flow_external_id: flow.external_id,
      });
    }
    case 'domains':
      return create(token, resource, { name: `a11y-${run}.example` });
    case 'users':
      return create(token, resource, {
        email: `a11y-${run}@e2e.test`,
        password: 'e2e-user-password',
        permissions: [],
        roles: [],
        workspaces: [],
      });
    default:
      return create(token, resource, {});
  }
}

beforeAll(async () => {
  const token = await apiLogin(admin().email, admin().password);
  for (const resource of WITH_SCREENS) {
    const record = await seed(token, resource);
    seeded.set(resource.name, String(record[resource.idField]));
  }
  // A click on the seeded campaign (its flow routes nowhere: it is refused, and stored), for the inspector.
  await fetch(`${baseURL()}/c/${seeded.get('tracker-campaigns')}`, { redirect: 'manual' });
  const filters = encodeURIComponent(JSON.stringify({ campaign: seeded.get('tracker-campaigns') }));
  // Written in a batch a moment after its answer; expect.poll is for tests, not hooks.
  await vi.waitFor(
    async () => {
      const page = await apiRequest<ListResponse<ClickEvent>>('GET', `events/clicks?filters=${filters}`, token);
      clickId = page.list[0]?.click_id ?? '';
      if (!clickId) throw new Error('The seeded click is not stored yet');
    },
    { timeout: 60_000, interval: 250 },
  );
});

/** Every list, create and edit screen of the registry, the dashboard and the reports. */
function allScreens(): string[] {
  return [
    '/admin',
    ...WITH_SCREENS.flatMap((resource) => [
      resource.route,
      `${resource.route}/create`,
      `${resource.route}/edit/${seeded.get(resource.name)}`,
    ]),
    '/tracker/reports',
    '/tracker/reports/postbacks',
    '/tracker/reports/events/clicks',
    `/tracker/reports/events/clicks/${clickId}`,
    '/tracker/live',
    '/tracker/rules',
    '/tracker/imports',
  ];
}

interface Settings {
  layout: 'vertical' | 'horizontal';
  sidebar: 'dark' | 'light' | 'compact' | 'icon' | 'colored';
  topbar: 'dark' | 'light' | 'colored';
  width: 'fluid' | 'boxed';
}

const DEFAULT_STYLE: Settings = { layout: 'vertical', sidebar: 'light', topbar: 'colored', width: 'fluid' };

// The sidebar's styles show in the vertical layout, the top bar's in the horizontal one (§2.4).
const OTHER_STYLES: Settings[] = [
  ...(['dark', 'compact', 'icon', 'colored'] as const).map((sidebar) => ({ ...DEFAULT_STYLE, sidebar })),
  ...(['dark', 'light', 'colored'] as const).map((topbar) => ({
    ...DEFAULT_STYLE,
    layout: 'horizontal' as const,
    topbar,
    width: 'boxed' as const,
  })),
];

async function useSettings(page: Page, settings: Settings, language: string) {
  await page.evaluate(
    ([layout, lang]) => {
      localStorage.setItem('switchyard.layout', layout);
      localStorage.setItem('switchyard.language', lang);
    },
    [JSON.stringify(settings), language] as const,
  );
}

/** Opens a screen and waits until it has settled: its heading shown, its data loaded, nothing moving. */
async function open(page: Page, path: string, language: string) {
  await page.goto(path);
  await waitForQuiet(page);
  await page
    .locator('main :is(h1, h2)')
    .first()
    .waitFor()
    .catch((error: Error) => {
      throw new Error(`${path} showed no heading: ${error.message}`);
    });
  await expect.poll(() => page.getAttribute('html', 'lang')).toBe(language);
  // Reports' first figures can take a while on a server that has just started.
  await expect
    .poll(() => page.locator('.mantine-Skeleton-root, .mantine-Loader-root, [data-loading="true"]').count(), {
      message: `${path} is still loading`,
      timeout: 20_000,
    })
    .toBe(0);
  await settle(page);
}

/**
 * Transitions (menus, dialogs, notices) finished or cancelled, so no colour is read mid-fade. A dialog's
 * fade starts a moment after it is in the page (its first frames and a timer set it going): waiting for
 * the animations running at one instant could find none yet and audit it at a fifth of its opacity.
 */
async function settle(page: Page) {
  await page.evaluate(async () => {
    const pause = () => new Promise((resolve) => setTimeout(resolve, 60));
    const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve(undefined)));
    for (let round = 0; round < 3; round += 1) {
      await frame();
      await pause();
      await Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => undefined)));
    }
  });
}

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary: string }[];
}

/** Every axe-core rule on the page as it is, one readable line per failing element. */
async function audit(page: Page, where: string): Promise<string[]> {
  // Evaluated rather than added as a <script>: the dashboard's Content Security Policy rightly refuses
  // inline scripts, and the test must not weaken it.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (...args: unknown[]) => Promise<{ violations: unknown }> } }).axe;
    const results = await axe.run(document, { resultTypes: ['violations'] });
    return results.violations;
  });
  return (violations as Violation[]).flatMap((violation) =>
    violation.nodes.map(
      (node) =>
        `${where}: ${violation.id} at ${node.target.join(' ')} — ${node.failureSummary.replace(/\s+/g, ' ').trim()}`,
    ),
  );
}

const WIDTHS = [
  { width: 1400, height: 900 },
  { width: 390, height: 844 },
];
const CASES = ['en', 'ar'].flatMap((language) => WIDTHS.map((size) => [language, size] as const));

describe('accessibility: every axe-core rule', () => {
  it.each(CASES)(
    'in %s at %o, every list, create and edit screen, the reports and the dashboard pass',
    async (language, size) => {
      // The login screen first, logged out.
      const page = await browser.newPage();
      await page.setViewportSize(size);
      await useSettings(page, DEFAULT_STYLE, language);
      const failures: string[] = [];
      await open(page, '/login', language);
      failures.push(...(await audit(page, `${language} ${size.width}px /login`)));
      await useSettings(page, DEFAULT_STYLE, 'en');
      await page.reload();
      await logIn(page, admin().email, admin().password);
      await useSettings(page, DEFAULT_STYLE, language);
      for (const path of allScreens()) {
        await open(page, path, language);
        failures.push(...(await audit(page, `${language} ${size.width}px ${path}`)));
      }

      // A dialog and a notice: the archive confirmation (§8) over a list, and the notice after a save.
      await open(page, '/tracker/offers', language);
      await page.locator('tbody tr').first().getByRole('button').last().click();
      await page.getByRole('dialog').waitFor();
      await settle(page);
      failures.push(...(await audit(page, `${language} ${size.width}px archive dialog`)));
      await page.keyboard.press('Escape');
      // The bulk bar over chosen rows, then what a bulk change came to (enabling what is enabled).
      await page.locator('thead input[type="checkbox"]').check();
      await page.locator('.sy-bulk-bar').waitFor();
      await settle(page);
      failures.push(...(await audit(page, `${language} ${size.width}px bulk bar`)));
      await page.locator('.sy-bulk-bar button').first().click();
      await page.locator('.sy-bulk-outcome').waitFor();
      await settle(page);
      failures.push(...(await audit(page, `${language} ${size.width}px bulk outcome`)));
      await open(page, `/admin/events/edit/${seeded.get('events')}`, language);
      await page.locator('main button[type="submit"]').click();
      await page.locator('.sy-notice').first().waitFor();
      await settle(page);
      failures.push(...(await audit(page, `${language} ${size.width}px notice after a save`)));
      expect(failures).toEqual([]);
    },
    480_000,
  );

  it.each(['en', 'ar'])(
    'in %s, the dashboard, a list and an edit screen pass in every settings-panel style',
    async (language) => {
      const page = await browser.newPage();
      await logIn(page, admin().email, admin().password);
      const screens = ['/admin', '/admin/offers', `/tracker/campaigns/edit/${seeded.get('tracker-campaigns')}`];
      const failures: string[] = [];
      for (const settings of OTHER_STYLES) {
        await useSettings(page, settings, language);
        const style = `${settings.layout}, sidebar ${settings.sidebar}, top bar ${settings.topbar}, ${settings.width}`;
        for (const path of screens) {
          await open(page, path, language);
          failures.push(...(await audit(page, `${language} ${style} ${path}`)));
        }
      }
      expect(failures).toEqual([]);
    },
    240_000,
  );
});
