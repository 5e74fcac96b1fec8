import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { admin, logIn, useBrowser } from '../support/browser.js';

// Every combination of §2.4's settings panel keeps the sidebar's and the top bar's
// texts and icons legible. Each text is measured against the background it is painted on (the nearest
// ancestors' backgrounds composited, as the eye sees them): WCAG's contrast ratio of at least 4.5.

const browser = useBrowser();
/** Set to also picture each combination, in English and Arabic, for a person to look at. */
const shotsFolder = process.env.SWITCHYARD_E2E_SHOTS ?? '';

interface Combination {
  layout: 'vertical' | 'horizontal';
  sidebar: 'dark' | 'light' | 'compact' | 'icon' | 'colored';
  topbar: 'dark' | 'light' | 'colored';
  width: 'fluid' | 'boxed';
}

// The sidebar's styles apply to the vertical layout, the top bar's to the horizontal one (§2.4); each is
// taken with the other's default, and each width once.
const COMBINATIONS: Combination[] = [
  ...(['dark', 'light', 'compact', 'icon', 'colored'] as const).map((sidebar, index) => ({
    layout: 'vertical' as const,
    sidebar,
    topbar: 'colored' as const,
    width: index % 2 === 0 ? ('fluid' as const) : ('boxed' as const),
  })),
  ...(['dark', 'light', 'colored'] as const).map((topbar, index) => ({
    layout: 'horizontal' as const,
    sidebar: 'light' as const,
    topbar,
    width: index % 2 === 0 ? ('boxed' as const) : ('fluid' as const),
  })),
];

interface Reading {
  what: string;
  text: string;
  ratio: number;
}

/** Every visible text and icon of the top bar and the (vertical layout's) sidebar, with its contrast ratio. */
function readContrast(page: Page): Promise<Reading[]> {
  return page.evaluate(() => {
    const canvas = document.createElement('canvas');
    canvas.width = 1;
    canvas.height = 1;
    const context = canvas.getContext('2d', { willReadFrequently: true });
    if (!context) throw new Error('no canvas');
    // Any CSS colour (rgb, color(srgb …), oklab from color-mix) as 0–255 channels and an alpha of 0–1.
    const rgba = (css: string): [number, number, number, number] => {
      context.clearRect(0, 0, 1, 1);
      context.fillStyle = '#000';
      context.fillStyle = css;
      context.fillRect(0, 0, 1, 1);
      const [r = 0, g = 0, b = 0, a = 0] = context.getImageData(0, 0, 1, 1).data;
      return [r, g, b, a / 255];
    };
    const over = (top: number[], bottom: number[]) =>
      [0, 1, 2].map((i) => (top[i] ?? 0) * (top[3] ?? 1) + (bottom[i] ?? 0) * (1 - (top[3] ?? 1)));
    const background = (element: Element): number[] => {
      const layers: number[][] = [];
      for (let at: Element | null = element; at; at = at.parentElement) {
        const colour = rgba(getComputedStyle(at).backgroundColor);
        if (colour[3] > 0) layers.push(colour);
        if (colour[3] >= 1) break;
      }
      return layers.reduceRight<number[]>((below, layer) => over(layer, below), [255, 255, 255]);
    };
    const luminance = (rgb: number[]) => {
      const [r = 0, g = 0, b = 0] = rgb.map((channel) => {
        const c = channel / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const visible = (element: Element) => {
      const box = element.getBoundingClientRect();
      const style = getComputedStyle(element);
      // On screen: the horizontal layout's sidebar is collapsed by moving it out of the window.
      const onScreen = box.right > 0 && box.left < window.innerWidth;
      return (
        box.width > 0 &&
        box.height > 0 &&
        onScreen &&
        style.visibility !== 'hidden' &&
        Number.parseFloat(style.fontSize) > 0
      );
    };
    const parts: [string, string][] = [
      ['top bar logo', '.sy-topbar .sy-logo-text'],
      ['top bar button', '.sy-topbar .sy-topbar-action'],
      ['top bar user name', '.sy-topbar .sy-user-name'],
      ['horizontal menu item', '.sy-horizontal-bar .sy-horizontal-item'],
      ['sidebar heading', '.sy-sidebar .sy-menu-heading'],
      ['sidebar link', '.sy-sidebar .sy-navlink'],
    ];
    const readings: { what: string; text: string; ratio: number }[] = [];
    for (const [what, selector] of parts) {
      for (const element of document.querySelectorAll(selector)) {
        if (!visible(element)) continue;
        const behind = background(element);
        const text = over(rgba(getComputedStyle(element).color), behind);
        const [light, dark] = [luminance(text), luminance(behind)].sort((a, b) => b - a);
        readings.push({
          what,
          text: (element.textContent ?? '').trim() || element.getAttribute('aria-label') || '',
          ratio: Math.round((((light ?? 0) + 0.05) / ((dark ?? 0) + 0.05)) * 100) / 100,
        });
      }
    }
    return readings;
  });
}

async function showWith(page: Page, combination: Combination, language: string) {
  await page.evaluate(
    ([settings, lang]) => {
      localStorage.setItem('switchyard.layout', settings);
      localStorage.setItem('switchyard.language', lang);
    },
    [JSON.stringify(combination), language] as const,
  );
  await page.goto('/admin/offers');
  await page.locator('.sy-topbar .sy-user-name').waitFor();
  await expect.poll(() => page.getAttribute('html', 'data-topbar')).toBe(combination.topbar);
  await expect.poll(() => page.getAttribute('html', 'lang')).toBe(language);
}

describe('settings panel combinations (§2.4) stay legible', () => {
  it.each(['en', 'ar'])(
    'in %s, every text of the sidebar and the top bar has a contrast of 4.5 or more',
    async (language) => {
      const page = await browser.newPage();
      await logIn(page, admin().email, admin().password);
      const failures: string[] = [];
      for (const combination of COMBINATIONS) {
        await showWith(page, combination, language);
        const readings = await readContrast(page);
        const name = `${combination.layout}, sidebar ${combination.sidebar}, top bar ${combination.topbar}, ${combination.width}`;
        // Each part the combination shows was measured: the sidebar's in the vertical layout, the
        // horizontal menu's in the horizontal one, the top bar's in both.
        const measured = new Set(readings.map((reading) => reading.what));
        const shown =
          combination.layout === 'vertical'
            ? ['top bar logo', 'top bar button', 'top bar user name', 'sidebar link']
            : ['top bar logo', 'top bar button', 'top bar user name', 'horizontal menu item'];
        for (const part of shown) if (!measured.has(part)) failures.push(`${name}: no ${part} shown`);
        for (const reading of readings) {
          if (reading.ratio < 4.5) failures.push(`${name}: ${reading.what} "${reading.text}" at ${reading.ratio}:1`);
        }
        if (shotsFolder) {
          mkdirSync(shotsFolder, { recursive: true });
          const file = `${language}-${combination.layout}-sidebar-${combination.sidebar}-topbar-${combination.topbar}-${combination.width}.png`;
          await page.screenshot({ path: join(shotsFolder, file) });
        }
      }
      expect(failures).toEqual([]);
    },
  );
});
