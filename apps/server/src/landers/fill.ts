// A hosted lander's HTML as its visitor gets it. `{offer}` (and `{offer:N}`) becomes the
// offer-click link of the visitor's click, `/c/{campaign}/offer?clickid={clickid}`, and the tracker's
// macros are filled with the click's values as in a lander URL (traffic/rules/macros.ts): URL-encoded,
// empty when the click has none. Without a known click (a preview, a visit without `clickid`) `{offer}`
// is `#` and the macros are empty. `{offer:N}` with N > 1 is the link to the Nth offer of the click's path
// (`&offer=N`); `{offer:1}` is `{offer}`, the offer chosen at the click.
import { isKnownMacro } from '@switchyard/domain';

const PLACEHOLDER = /\{([A-Za-z0-9_]+)(?::([1-9][0-9]?))?\}/g;

export interface LanderVisit {
  campaignExternalId: string;
  clickId: string;
  macros: Readonly<Record<string, unknown>>;
  vars: Readonly<Record<string, string>>;
}

/** URL-encoded, and `'` too (encodeURIComponent keeps it), so a value cannot end an HTML attribute. */
function encoded(value: unknown): string {
  return encodeURIComponent(String(value)).replaceAll("'", '%27');
}

export function fillLanderHtml(html: string, visit: LanderVisit | null): string {
  return html.replace(PLACEHOLDER, (whole, name: string, position: string | undefined) => {
    if (name === 'offer') {
      if (!visit) return '#';
      const link = `/c/${encoded(visit.campaignExternalId)}/offer?clickid=${encoded(visit.clickId)}`;
      return position !== undefined && Number(position) > 1 ? `${link}&offer=${Number(position)}` : link;
    }
    if (position !== undefined || !isKnownMacro(name)) return whole;
    const value = visit ? (name in visit.macros ? visit.macros[name] : visit.vars[name]) : undefined;
    return value === undefined || value === null ? '' : encoded(value);
  });
}
