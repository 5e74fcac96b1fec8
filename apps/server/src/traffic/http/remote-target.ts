// The `remote` redirect mode's second step: the tracker fetches the target itself and serves its body, so
// the target sees the tracker, never the visitor's referrer or cookies. The fetch goes through the same
// guard as outbound postbacks (http/outbound-request.ts: no loopback, private or link-local address,
// each redirect checked), with a size limit and a time limit; whatever fails sends the visitor to the
// campaign's fallback instead.
import { sendOutbound } from '../../http/outbound-request.js';
import type { ResolveHost } from '../../http/outbound-targets.js';
import type { AnswerHead } from './answers.js';
import { escapeHtml } from './pages.js';

export interface RemoteOptions {
  /** SWITCHYARD_ALLOW_PRIVATE_TARGETS, as for postbacks. */
  allowPrivateTargets: boolean;
  /** Milliseconds for the whole fetch, redirects included. */
  timeoutMs: number;
  /** Characters of body served at most; a larger body is not served at all. */
  maxChars: number;
  resolve?: ResolveHost;
  /** Tests only (outbound-request.ts). */
  isPublic?: (ip: string) => boolean;
}

export const REMOTE_DEFAULTS = { timeoutMs: 5000, maxChars: 2_000_000 } as const;

/**
 * The served page runs in a sandbox without `allow-same-origin`: its scripts run, but in an origin of
 * their own, so a target's page can neither read the tracker's cookies nor call the tracker as the
 * visitor.
 */
const REMOTE_CSP =
  'sandbox allow-scripts allow-forms allow-popups allow-popups-to-escape-sandbox allow-top-navigation-by-user-activation';

export type RemoteResult = { kind: 'served'; head: AnswerHead } | { kind: 'fallback'; reason: string };

/** `<base href>` so that the target's relative links and assets resolve against the target. */
function withBase(html: string, url: string): string {
  const base = `<base href="${escapeHtml(url)}">`;
  const head = /<head(\s[^>]*)?>/i.exec(html);
  if (!head) return base + html;
  const end = head.index + head[0].length;
  return html.slice(0, end) + base + html.slice(end);
}

export async function fetchRemote(
  url: string,
  visitor: { userAgent: string | undefined; acceptLanguage: string | undefined },
  options: RemoteOptions,
): Promise<RemoteResult> {
  const headers: Record<string, string> = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };
  if (visitor.userAgent) headers['user-agent'] = visitor.userAgent.slice(0, 2048);
  if (visitor.acceptLanguage) headers['accept-language'] = visitor.acceptLanguage.slice(0, 256);
  const result = await sendOutbound(url, {
    allowPrivateTargets: options.allowPrivateTargets,
    timeoutMs: options.timeoutMs,
    bodyLimit: options.maxChars + 1,
    headers,
    ...(options.resolve ? { resolve: options.resolve } : {}),
    ...(options.isPublic ? { isPublic: options.isPublic } : {}),
  });
  if (result.kind === 'refused') return { kind: 'fallback', reason: result.reason };
  if (result.kind === 'failed') return { kind: 'fallback', reason: result.error };
  const { answer } = result;
  if (answer.status < 200 || answer.status >= 300) return { kind: 'fallback', reason: `HTTP ${answer.status}` };
  if (answer.body.length > options.maxChars) {
    return { kind: 'fallback', reason: `More than ${options.maxChars} characters` };
  }
  const type = answer.headers['content-type'] ?? 'text/html; charset=utf-8';
  const isHtml = /^\s*text\/html/i.test(type);
  // A page is served; anything else (an image, a download) would be read as text and spoiled.
  if (!isHtml && !/^\s*text\/plain/i.test(type))
    return { kind: 'fallback', reason: `Not a page: ${type.slice(0, 100)}` };
  const body = isHtml ? withBase(answer.body, answer.url) : answer.body;
  return {
    kind: 'served',
    head: {
      status: 200,
      headers: [
        'cache-control',
        'no-store',
        // The body was read as UTF-8 text: say so, whatever charset the target named.
        'content-type',
        isHtml ? 'text/html; charset=utf-8' : 'text/plain; charset=utf-8',
        'x-robots-tag',
        'noindex, nofollow',
        'x-content-type-options',
        'nosniff',
        'referrer-policy',
        'no-referrer',
        'content-security-policy',
        REMOTE_CSP,
      ],
      body,
    },
  };
}

/** Where a `remote` visitor goes when the target cannot be served: a redirect that carries no referrer. */
export function fallbackAnswer(location: string): AnswerHead {
  return {
    status: 302,
    headers: ['cache-control', 'no-store', 'location', location, 'referrer-policy', 'no-referrer'],
    body: '',
  };
}
