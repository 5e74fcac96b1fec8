import type { Response } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowser } from '../support/browser.js';

// The built dashboard reaches the browser compressed (the build's .br and .gz files),
// its hashed files cached for a year and index.html revalidated at each load.

const browser = useBrowser();
const IMMUTABLE = 'public, max-age=31536000, immutable';

describe('static files of the dashboard', () => {
  it.each(['en', 'ar'])('come compressed and long-cached by their hashed names (%s)', async (language) => {
    const page = await browser.newPage();
    await page.evaluate((lang) => localStorage.setItem('switchyard.language', lang), language);
    const responses = new Map<string, Response>();
    page.on('response', (response) => responses.set(new URL(response.url()).pathname, response));
    await page.goto('/login', { waitUntil: 'load' });
    await expect.poll(() => page.getAttribute('html', 'lang')).toBe(language);

    const script = await page.locator('script[type="module"][src^="/assets/"]').getAttribute('src');
    const style = await page.locator('link[rel="stylesheet"][href^="/assets/"]').first().getAttribute('href');
    for (const file of [script, style]) {
      const headers = await responses.get(file ?? '')?.allHeaders();
      expect(headers, String(file)).toBeDefined();
      expect(['br', 'gzip'], String(file)).toContain(headers?.['content-encoding']);
      expect(headers?.vary, String(file)).toMatch(/accept-encoding/i);
      expect(headers?.['cache-control'], String(file)).toBe(IMMUTABLE);
    }
    // What crossed the network for the main script is a fraction of what the browser ran.
    const sizes = await page.evaluate((name) => {
      const entry = performance.getEntriesByType('resource').find((resource) => resource.name.endsWith(name ?? ''));
      return entry
        ? [(entry as PerformanceResourceTiming).encodedBodySize, (entry as PerformanceResourceTiming).decodedBodySize]
        : [];
    }, script);
    expect(sizes[0]).toBeGreaterThan(0);
    expect(sizes[0]).toBeLessThan((sizes[1] ?? 0) / 3);

    const pageHeaders = await responses.get('/login')?.allHeaders();
    expect(['br', 'gzip']).toContain(pageHeaders?.['content-encoding']);
    expect(pageHeaders?.['cache-control']).toBe('no-cache');
  });
});
