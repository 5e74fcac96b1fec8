import type { FastifyInstance } from 'fastify';

/**
 * Headers every answer with content carries. Redirects (the tracker's clicks) go without them: they have
 * no content to sniff or frame, and the referrer policy in force stays the visitor's page's (or the
 * browser's default), which is what traffic sources and offers expect of a tracker.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-frame-options': 'DENY',
};

/**
 * The dashboard's Content-Security-Policy: its own scripts only (index.html has no inline script), no
 * foreign origin anywhere. <style> elements may be inline because Mantine writes its CSS variables and
 * responsive style props as <style> elements at run time, and the rich-text editor (Tiptap) adds one;
 * a per-answer nonce would narrow it. Inline style attributes stay refused (style-src): React sets
 * styles through the CSSOM, which CSP does not govern. Images: the dashboard's own and `data:` (rich
 * text keeps only those, api/config-records/rich-text.ts). Everything it fetches is /api on this origin.
 */
export const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "style-src-elem 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** /api answers are JSON, never a page: should one be opened in a browser, it may load and run nothing. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'";

/**
 * Answers other than redirects carry SECURITY_HEADERS; /api answers are never cached (they hold tokens
 * and private data) and carry API_CSP. The dashboard's files get DASHBOARD_CSP from http/dashboard.ts.
 */
export function securityHeaders(app: FastifyInstance): void {
  // A callback hook, not an async one: it runs on every answer, and a promise per answer is measurable.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (reply.statusCode < 300 || reply.statusCode >= 400) {
      // A route may choose its own (a redirect mode's page sends no referrer at all).
      for (const name in SECURITY_HEADERS) if (!reply.hasHeader(name)) reply.header(name, SECURITY_HEADERS[name]!);
    }
    if (request.url.startsWith('/api/') || request.url === '/api' || request.url.startsWith('/api?')) {
      reply.header('cache-control', 'no-store');
      reply.header('content-security-policy', API_CSP);
    }
    done(null, payload);
  });
}
