// The values of the visitor fields as rules write them and as the engine reports them, read
// the same way on both sides so that a rule and a click meet.
import { isTimeZone } from '../reports.js';

/** ISO 639-1: the languages a `language` rule can name (a visitor's is Accept-Language's first choice). */
export const LANGUAGE_CODES: readonly string[] = (
  'aa ab ae af ak am an ar as av ay az ba be bg bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv dz ' +
  'ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ' +
  'ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi ' +
  'mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw ' +
  'sa sc sd se sg si sk sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ' +
  'ur uz ve vi vo wa wo xh yi yo za zh zu'
).split(' ');

/** The days a `weekday` rule can name, Monday first. */
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** The referrer field's value for a visitor who brought none. */
export const NO_REFERRER = '(none)';

const weekdayFormatters = new Map<string, Intl.DateTimeFormat>();

/**
 * The day of the week at `now` in `timeZone` (`mon` … `sun`); UTC when the zone is empty or unknown.
 * Intl applies the zone's offset at that instant, so a DST change moves midnight with it.
 */
export function weekdayOf(now: Date, timeZone: string | undefined): Weekday {
  const zone = timeZone || 'UTC';
  let formatter = weekdayFormatters.get(zone);
  if (!formatter) {
    if (!isTimeZone(zone)) return WEEKDAYS[(now.getUTCDay() + 6) % 7]!;
    formatter = new Intl.DateTimeFormat('en-US', { timeZone: zone, weekday: 'short' });
    weekdayFormatters.set(zone, formatter);
  }
  return formatter.format(now).slice(0, 3).toLowerCase() as Weekday;
}

/**
 * A referrer as the field carries it: the host, lower-cased, without a leading `www.` (scheme, user
 * info, port, path, query and fragment dropped); `(none)` for an empty one.
 */
export function referrerDomain(referrer: string | undefined): string {
  const text = (referrer ?? '').trim().toLowerCase();
  if (text === '' || text === NO_REFERRER) return NO_REFERRER;
  const host = text
    .replace(/^[a-z][a-z0-9+.-]*:\/\//, '')
    .replace(/^\/\//, '')
    .split(/[/?#\\]/, 1)[0]!
    .replace(/^[^@]*@/, '')
    .replace(/:\d*$/, '')
    .replace(/\.$/, '');
  return host.startsWith('www.') ? host.slice(4) : host || NO_REFERRER;
}

const ASN = /^(?:as)?\s*(\d{1,10})$/i;
const MAX_ASN_NUMBER = 4_294_967_295;

/** An ASN as the field carries it (decimal, no `AS`), or null when `value` is not one. */
export function normalizeAsn(value: string): string | null {
  const match = ASN.exec(value.trim());
  if (!match) return null;
  const number = Number(match[1]);
  return number <= MAX_ASN_NUMBER ? String(number) : null;
}

/** A major version as rules and fields compare it: a whole number, 0 or more. */
export const isVersionNumber = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0;
