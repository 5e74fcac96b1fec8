// What a browser reads as a URL's scheme, userinfo and host (WHATWG URL, as `new URL`
// parses it) must be the operator's, never a macro's. A brace test on the text is not enough: browsers
// read `https://\{var1}/x` as `https://{var1}/x`, and an empty macro can turn `https://{var1}/x` into
// `https:///x`, whose host is `x`. So the URL is parsed as a browser would, with its macros filled.

const MACRO_TOKEN = /\{[A-Za-z0-9_]+\}/g;
/** A macro's stand-in: host, userinfo and scheme can all hold it, so any place a macro reaches shows it. */
const MARK = 'zmacroz';

/** A URL's scheme, userinfo and host (with its port) as a browser reads them; null when it reads none. */
export function urlOrigin(url: string): string | null {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.username}:${parsed.password}@${parsed.host}`;
  } catch {
    return null;
  }
}

/**
 * Whether any macro of `url` can change its scheme, userinfo or host: filled with a stand-in and left
 * empty, a browser must read the same ones in both, without the stand-in. A value filled in is
 * URL-encoded, so it reaches only where the stand-in does.
 */
export function macroReachesOrigin(url: string): boolean {
  if (!url.match(MACRO_TOKEN)) return false;
  const marked = urlOrigin(url.replace(MACRO_TOKEN, MARK));
  const emptied = urlOrigin(url.replace(MACRO_TOKEN, ''));
  return marked === null || marked !== emptied || marked.toLowerCase().includes(MARK);
}

/**
 * Whether `prefix`, the literal text before a URL's first macro, already ends its scheme, userinfo and
 * host, so no macro after it can touch them. As in WHATWG's parsing of http(s): any slashes and
 * backslashes after the scheme, then the authority, ended by `/`, `\`, `?` or `#`.
 */
export function originEndsBefore(prefix: string): boolean {
  return /^https?:[/\\]*[^/\\?#]+[/\\?#]/i.test(prefix);
}
