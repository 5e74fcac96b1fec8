// The pages of the redirect modes that answer with HTML (meta, double_meta, js, blank_referrer, iframe,
// form_post, and the first step of remote). Each is a few hundred bytes, kept out of search engines,
// under a Content-Security-Policy that allows only its own constant script and style (by hash): the
// target URL is never part of a script, only of HTML attributes, escaped there, so no value a macro
// fills in can add markup or script.
import { createHash } from 'node:crypto';
import type { RedirectMode } from '@switchyard/domain';

/** Text safe inside a double-quoted HTML attribute (and in element content). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (character) => `&#${character.charCodeAt(0)};`);
}

const hash = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

const REPLACE_SCRIPT = 'location.replace(document.currentScript.dataset.to)';
const SUBMIT_SCRIPT = 'document.forms[0].submit()';
const FRAME_STYLE =
  'html,body{margin:0;height:100%;overflow:hidden}iframe{display:block;border:0;width:100%;height:100%}';

/** One policy for every page: the two scripts and the style above, frames and forms to web targets. */
export const PAGE_CSP = [
  "default-src 'none'",
  `script-src ${hash(REPLACE_SCRIPT)} ${hash(SUBMIT_SCRIPT)}`,
  `style-src ${hash(FRAME_STYLE)}`,
  'frame-src http: https:',
  'form-action http: https:',
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Only web URLs go into a page: never `javascript:` or `data:`, whatever a template held. */
export function isWebUrl(location: string): boolean {
  return /^https?:\/\//i.test(location) || location.startsWith('/c/');
}

function page(head: string, body: string, hideReferrer: boolean): string {
  return (
    '<!doctype html><html><head><meta charset="utf-8"><meta name="robots" content="noindex, nofollow">' +
    (hideReferrer ? '<meta name="referrer" content="no-referrer">' : '') +
    `<title></title>${head}</head><body>${body}</body></html>`
  );
}

const refresh = (to: string) => `<meta http-equiv="refresh" content="0; url=${escapeHtml(to)}">`;

/** The form_post fields: the target's query, each parameter a hidden input. */
function hiddenInputs(location: string): string {
  let url: URL;
  try {
    url = new URL(location);
  } catch {
    return '';
  }
  let inputs = '';
  for (const [name, value] of url.searchParams) {
    inputs += `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`;
  }
  return inputs;
}

export type PageMode = Exclude<RedirectMode, '302' | '301' | '303' | '307'>;

/** Modes whose page is sent under `Referrer-Policy: no-referrer`. */
export const NO_REFERRER_PAGES: ReadonlySet<RedirectMode> = new Set(['double_meta', 'blank_referrer', 'remote']);

/**
 * The page that sends a visitor to `to`: for `double_meta` and `remote`, `to` is the tracker's second
 * step (`/c/{campaign}/go?clickid=…`), which then answers with the target.
 */
export function redirectPage(mode: PageMode, to: string): string {
  const link = escapeHtml(to);
  switch (mode) {
    case 'meta':
      return page(refresh(to), '', false);
    case 'double_meta':
    case 'blank_referrer':
    case 'remote':
      return page(refresh(to), '', true);
    case 'js':
      return page(
        '',
        `<script data-to="${link}">${REPLACE_SCRIPT}</script><noscript><a href="${link}">Continue</a></noscript>`,
        false,
      );
    case 'iframe':
      return page(`<style>${FRAME_STYLE}</style>`, `<iframe src="${link}" title=""></iframe>`, false);
    case 'form_post':
      return page(
        '',
        `<form method="post" action="${link}">${hiddenInputs(to)}<noscript><button type="submit">Continue</button></noscript></form><script>${SUBMIT_SCRIPT}</script>`,
        false,
      );
  }
}
