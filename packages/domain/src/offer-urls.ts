// An affiliate network's offer URL parameters (`aff_sub={clickid}&aff_sub2={var1}`) are
// appended to the URL of every offer of that network; macros in them are filled like the offer's own.

/** The `name=value` pairs of a parameter text, as written (a leading `?` or `&` and empty pairs dropped). */
function pairs(text: string): string[] {
  return text
    .trim()
    .replace(/^[?&]+/, '')
    .split('&')
    .map((pair) => pair.trim())
    .filter((pair) => pair !== '' && !pair.startsWith('='));
}

function nameOf(pair: string): string {
  const at = pair.indexOf('=');
  return (at < 0 ? pair : pair.slice(0, at)).toLowerCase();
}

/**
 * `url` with the network's `parameters` added to its query, before any `#fragment`. A parameter the offer
 * URL already names is left as the offer has it: the offer is the more specific of the two.
 */
export function withNetworkParameters(url: string, parameters: string | null | undefined): string {
  const added = pairs(parameters ?? '');
  if (added.length === 0) return url;
  const hash = url.indexOf('#');
  const base = hash < 0 ? url : url.slice(0, hash);
  const fragment = hash < 0 ? '' : url.slice(hash);
  const query = base.indexOf('?');
  const present = new Set(query < 0 ? [] : pairs(base.slice(query + 1)).map(nameOf));
  const missing = added.filter((pair) => !present.has(nameOf(pair)));
  if (missing.length === 0) return url;
  const joiner = query < 0 ? '?' : base.endsWith('?') || base.endsWith('&') ? '' : '&';
  return `${base}${joiner}${missing.join('&')}${fragment}`;
}
