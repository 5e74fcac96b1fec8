// Macros in offer, lander and postback URLs: `{clickid}`, `{lead_id}`,
// `{campaign_id}`, `{offer_id}`, `{lander_id}`, `{country}`, `{payout}`, `{status}`, `{txid}`,
// `{external_id}`, `{subaff}`, `{var1}`…`{var10}`, `{utm_*}`. Values are URL-encoded; a known macro
// without a value becomes empty; any other `{name}` is left as written (it may be the network's own).
// The names are the domain's (`URL_MACROS`), which the dashboard lists beside each URL field.
import { isKnownMacro, originEndsBefore, urlOrigin } from '@switchyard/domain';

export type MacroValues = Readonly<Record<string, string | number | null | undefined>>;

/** A URL split once into literal text and macro names, so filling it is a join. */
export interface UrlTemplate {
  readonly source: string;
  /**
   * The URL with its macros filled from `values`, and from `vars` for a name `values` does not hold
   * (two objects rather than one merged: filling runs on every click); null when the filled URL's
   * scheme, userinfo or host is not the template's: nobody is sent there.
   */
  fill(values: MacroValues, vars?: MacroValues): string | null;
}

const MACRO = /\{([A-Za-z0-9_]+)\}/g;

/** What a Location header cannot carry as written: controls, space, and anything beyond ASCII. */
const NOT_URL_TEXT = /[^\x21-\x7e]/gu;

/**
 * Literal text of a URL with the characters a header cannot carry percent-encoded (UTF-8), as a browser
 * encodes them when it follows the link: an operator may paste `https://example.com/bonus €/`, and a
 * Location header holding it is refused by Node's HTTP server.
 */
export function urlText(text: string): string {
  return text.replace(NOT_URL_TEXT, (character) => {
    try {
      return encodeURIComponent(character);
    } catch {
      return '%EF%BF%BD'; // a lone surrogate: the replacement character
    }
  });
}

export function compileUrlTemplate(source: string): UrlTemplate {
  const literals: string[] = [];
  const names: string[] = [];
  let last = 0;
  for (const match of source.matchAll(MACRO)) {
    const name = match[1]!;
    if (!isKnownMacro(name)) continue;
    literals.push(urlText(source.slice(last, match.index)));
    names.push(name);
    last = match.index + match[0].length;
  }
  literals.push(urlText(source.slice(last)));
  if (names.length === 0) {
    const url = literals[0]!;
    return { source, fill: () => url };
  }
  // Saving refuses a macro that reaches the origin, but a URL stored before that check may hold one.
  // Parsed again only then: the text before the first macro fixes the origin of nearly every URL.
  const pinned = originEndsBefore(literals[0]!) ? undefined : urlOrigin(source);
  return {
    source,
    fill(values, vars) {
      let url = literals[0]!;
      for (let index = 0; index < names.length; index += 1) {
        const name = names[index]!;
        const value = vars === undefined || name in values ? values[name] : vars[name];
        if (value !== undefined && value !== null) url += encodeURIComponent(String(value));
        url += literals[index + 1]!;
      }
      if (pinned === undefined) return url;
      return pinned !== null && urlOrigin(url) === pinned ? url : null;
    },
  };
}
