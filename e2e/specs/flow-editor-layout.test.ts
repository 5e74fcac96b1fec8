import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiLogin, apiRequest } from '../support/api.js';
import { admin, logIn, useBrowser } from '../support/browser.js';

// The flow editor uses the screen's width, shows each path's and row's share of traffic,
// and long names wrap instead of pushing the row's buttons off screen, on a desktop and on a phone.

const browser = useBrowser();
const run = Date.now().toString(36);
// 120 characters, one stretch of them with no space to break at.
const LONG_OFFER = `Sweepstakes iPhone 16 Pro Max US CA UK mobile only CPA 4.20 smartlink_${run}_`.padEnd(120, 'x');
let flowId = '';

beforeAll(async () => {
  expect(LONG_OFFER).toHaveLength(120);
  const token = await apiLogin(admin().email, admin().password);
  const create = (path: string, body: unknown) => apiRequest<{ external_id: string }>('POST', path, token, body);
  const long = await create('tracker/offers', { name: LONG_OFFER, url: 'https://a.example/?c={clickid}' });
  const short = await create('tracker/offers', { name: `Dating trial ${run}`, url: 'https://b.example/?c={clickid}' });
  const lander = await create('tracker/landers', { name: `Quiz pre-lander ${run}`, url: 'https://l.example/' });
  const path = (id: string, name: string, weight: number, offers: [string, number][]) => ({
    id,
    name,
    enabled: true,
    weight,
    daily_cap: 0,
    postback_daily_cap: 0,
    subaff: '',
    offers: offers.map(([offer, rowWeight], index) => ({
      id: `${id}${index}`,
      offer_external_id: offer,
      weight: rowWeight,
      enabled: true,
    })),
    landers: [{ id: `${id}9`, lander_external_id: lander.external_id, weight: 100, enabled: true }],
  });
  const flow = await create('tracker/flows', {
    name: `Layout flow ${run}`,
    path_groups: [
      {
        id: '1',
        name: `Group_${'without_any_space_'.repeat(5)}${run}`,
        enabled: true,
        priority: 0,
        condition: JSON.stringify({ type: 'AllCondition' }),
        paths: [
          path('2', `Path ${LONG_OFFER}`, 75, [
            [long.external_id, 30],
            [short.external_id, 10],
          ]),
          path('3', 'Control', 25, [[short.external_id, 100]]),
        ],
      },
    ],
  });
  flowId = flow.external_id;
});

/** Opens every group and path of the editor. */
async function openAll(page: Page) {
  for (let round = 0; round < 3; round += 1) {
    const closed = page.locator('[data-testid="path-group"] button[aria-expanded="false"]');
    const count = await closed.count();
    for (let index = 0; index < count; index += 1) await closed.first().click();
  }
}

/** Everything a row's buttons or fields must stay inside: the page, the viewport and the row's own box. */
async function overflows(page: Page) {
  return page.evaluate(() => {
    const problems: string[] = [];
    const scroller = document.scrollingElement as HTMLElement;
    if (scroller.scrollWidth > scroller.clientWidth) {
      problems.push(`page scrolls sideways: ${scroller.scrollWidth} > ${scroller.clientWidth}`);
    }
    const width = document.documentElement.clientWidth;
    for (const row of document.querySelectorAll<HTMLElement>('[role="listitem"]')) {
      const box = row.getBoundingClientRect();
      if (box.left < -0.5 || box.right > width + 0.5) problems.push(`row outside the viewport: ${row.textContent}`);
      for (const control of row.querySelectorAll<HTMLElement>('button, input')) {
        if (control.closest('[role="listitem"]') !== row) continue;
        const inner = control.getBoundingClientRect();
        if (inner.width === 0) continue;
        const name = control.getAttribute('aria-label') ?? control.getAttribute('name') ?? control.tagName;
        if (inner.left < box.left - 0.5 || inner.right > box.right + 0.5)
          problems.push(`${name} sticks out of its row`);
        if (inner.left < -0.5 || inner.right > width + 0.5) problems.push(`${name} is off screen`);
      }
    }
    return problems;
  });
}

describe('flow editor layout', () => {
  it.each([
    ['en', 1280],
    ['ar', 1280],
    ['en', 390],
    ['ar', 390],
  ] as const)(
    'in %s at %i px: wide, with shares, and nothing sticks out with a 120-character offer name',
    async (language, width) => {
      const page = await browser.newPage();
      await page.setViewportSize({ width, height: 900 });
      await logIn(page, admin().email, admin().password);
      await page.evaluate((chosen) => localStorage.setItem('switchyard.language', chosen), language);
      await page.goto(`/tracker/flows/edit/${encodeURIComponent(flowId)}`);
      await expect
        .poll(() => page.evaluate(() => document.documentElement.dir))
        .toBe(language === 'ar' ? 'rtl' : 'ltr');
      await page.getByTestId('path-group').first().waitFor();
      await openAll(page);
      const longRow = page.getByTestId('path-offers-row').filter({ hasText: LONG_OFFER }).first();
      await longRow.waitFor();

      // Each path and each offer row shows its share: paths 75 : 25, offers 30 : 10.
      const shares = await page.getByTestId('traffic-share').allTextContents();
      const digits = shares.map((text) => text.replace(/[^\d.٫]/g, '').replace('٫', '.'));
      expect(digits.slice(0, 4)).toEqual(['75', '75', '75', '25']);
      expect(await longRow.getByTestId('traffic-share').textContent()).toMatch(/75/);

      // The whole name reads in the row, and the select is as wide as the row.
      await expect.poll(() => longRow.getByText(LONG_OFFER, { exact: true }).first().isVisible()).toBe(true);
      const rowBox = await longRow.boundingBox();
      const selectBox = await longRow.getByRole('combobox').first().boundingBox();
      expect(selectBox && rowBox && selectBox.width / rowBox.width).toBeGreaterThan(0.85);

      expect(await overflows(page)).toEqual([]);

      // The form takes the width of the page's content, not a narrow column.
      const [form, content] = await page
        .locator('form')
        .evaluate((node) => [
          node.parentElement?.getBoundingClientRect().width ?? 0,
          node.parentElement?.parentElement?.getBoundingClientRect().width ?? 0,
        ]);
      expect(form).toBeGreaterThanOrEqual((content ?? 0) - 1);

      // Typing a weight changes the shares at once.
      await longRow.getByRole('textbox').last().fill('90');
      await expect.poll(() => longRow.getByTestId('traffic-share').textContent()).toMatch(/90/);
      await page.close();
    },
  );
});
