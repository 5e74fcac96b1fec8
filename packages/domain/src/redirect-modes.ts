// How a tracker campaign sends its visitor on (a path may choose its own), and tracking without a
// redirect: a `direct` campaign's landing page records its click itself, through the tracking script
// (`/{campaign}/t.js`, from the origins the campaign allows) or a lander server's `POST /v1/clicks`.
import { z } from 'zod';
import { VALIDATION_MESSAGES as M } from './messages.js';

/**
 * `302` … `307`: an HTTP redirect. `meta`: a meta refresh. `double_meta`: a meta refresh to a tracker page
 * that refreshes again, both with no referrer. `js`: `location.replace`. `blank_referrer`: a meta refresh
 * under `Referrer-Policy: no-referrer`. `iframe`: the target in a full-window frame. `form_post`: a form
 * posting the target's query, submitted at once. `remote`: the tracker fetches the target and serves it.
 */
export const REDIRECT_MODES = [
  '302',
  '301',
  '303',
  '307',
  'meta',
  'double_meta',
  'js',
  'blank_referrer',
  'iframe',
  'form_post',
  'remote',
] as const;
export type RedirectMode = (typeof REDIRECT_MODES)[number];
export const ZRedirectMode = z.enum(REDIRECT_MODES, { error: M.invalidValue });
/** The modes answered with an HTTP redirect and no body. */
export const HTTP_REDIRECT_MODES: ReadonlySet<RedirectMode> = new Set(['302', '301', '303', '307']);
/** The modes whose target never sees where the visitor came from. */
export const REFERRER_HIDING_MODES: ReadonlySet<RedirectMode> = new Set(['double_meta', 'blank_referrer', 'remote']);

/** `redirect`: clicks come to `/c/{campaign}`. `direct`: the landing page records them (t.js, /v1/clicks). */
export const CAMPAIGN_TYPES = ['redirect', 'direct'] as const;
export type CampaignType = (typeof CAMPAIGN_TYPES)[number];

/**
 * A web origin as a browser sends it in `Origin`: `https://host[:port]`, nothing after it. Stored in the
 * form `new URL().origin` gives (lowercase host, punycode, default port dropped), so a request's
 * `Origin` header is compared as it is.
 */
export function normalOrigin(text: string): string | null {
  const trimmed = text.trim().replace(/\/$/, '');
  if (!/^https?:\/\/[^/?#@\s]+$/i.test(trimmed)) return null;
  try {
    const url = new URL(trimmed);
    if (url.username || url.password || url.hostname === '' || url.hostname.includes('*')) return null;
    return url.origin;
  } catch {
    return null;
  }
}

export const ZOrigin = z
  .string({ error: M.invalidValue })
  .max(300, { error: M.tooLong })
  .transform((value, context) => {
    const origin = normalOrigin(value);
    if (origin === null) {
      context.addIssue({ code: 'custom', message: M.invalidOrigin });
      return z.NEVER;
    }
    return origin;
  });

/** The page origins a direct campaign's tracking script records clicks from (at most 100, no repeats). */
export const ZAllowedOrigins = z
  .array(ZOrigin)
  .max(100, { error: M.tooMany })
  .default([])
  .transform((origins) => [...new Set(origins)]);

/** The tracking script's tag for a campaign reached at `origin` (the snippet a landing page carries). */
export function trackingScriptTag(origin: string, campaignExternalId: string): string {
  return `<script src="${origin}/${encodeURIComponent(campaignExternalId)}/t.js" async></script>`;
}

/** The link through which a landing page's offer link goes, for a click of the campaign. */
export function offerLinkPath(campaignExternalId: string, clickId: string): string {
  return `/c/${encodeURIComponent(campaignExternalId)}/offer?clickid=${encodeURIComponent(clickId)}`;
}
