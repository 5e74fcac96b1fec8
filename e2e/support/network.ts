import type { Page, Request } from 'playwright-core';

// Playwright's `networkidle` waits for every request to finish, and the live stream (on the
// dashboard and the live view) never does. A page is quiet here when nothing but such a stream has been
// in flight for half a second: what `networkidle` means, for pages that stream.

const STREAMS = ['/api/live'];
const QUIET_MS = 500;
const inFlight = new WeakMap<Page, Set<Request>>();

const isStream = (request: Request) => STREAMS.includes(new URL(request.url()).pathname);

/** Counts the page's requests from now on; `useBrowser` calls it for every page it opens. */
export function watchRequests(page: Page): void {
  const open = new Set<Request>();
  inFlight.set(page, open);
  page.on('request', (request) => {
    if (!isStream(request)) open.add(request);
  });
  page.on('requestfinished', (request) => open.delete(request));
  page.on('requestfailed', (request) => open.delete(request));
}

/** Resolves once no request but a stream has been open for QUIET_MS; throws after `timeout`. */
export async function waitForQuiet(page: Page, timeout = 30_000): Promise<void> {
  const open = inFlight.get(page);
  if (!open) throw new Error('waitForQuiet: the page was not opened through useBrowser');
  const start = Date.now();
  let quietSince = Date.now();
  for (;;) {
    const now = Date.now();
    if (open.size > 0) quietSince = now;
    else if (now - quietSince >= QUIET_MS) return;
    if (now - start > timeout) {
      throw new Error(`still loading after ${timeout} ms: ${[...open].map((request) => request.url()).join(', ')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
