// What today's stored events already spent of the daily caps, counted into the cap counters at start
// (after the journal's replay, so every answered event is among them) and after a resync.
import type { EngineParts } from './parts.js';
import { dayIn, offerCapKey, pathPostbacksCapKey, pathRegsCapKey } from './rules/caps.js';
import { PATH_CAP_TIMEZONE } from './rules/routing.js';

/** Every timezone's "today" began less than 38 hours ago (UTC−12 … UTC+14). */
const LONGEST_DAY_MS = 38 * 60 * 60 * 1000;

export async function warmUpCaps(parts: EngineParts): Promise<void> {
  const { store, caps, snapshot } = parts;
  const now = parts.now();
  const since = new Date(now.getTime() - LONGEST_DAY_MS).toISOString();
  for (const side of ['tracker', 'api'] as const) {
    const offers = snapshot[side].offers;
    const capped = [...offers.values()].filter((offer) => offer.dailyCap > 0).map((offer) => offer.externalId);
    const table = side === 'tracker' ? 'tracker_clicks' : 'tracker_leads';
    // Rows are per minute; a counter is warmed once, with its whole day (warm sets, it does not add).
    const spent = new Map<string, { day: string; count: number }>();
    for (const row of await store.offerCountsByMinute(table, since, capped)) {
      const offer = offers.get(row.offer);
      if (!offer) continue;
      const today = dayIn(now, offer.capTimezone);
      if (dayIn(new Date(`${row.minute}:00.000Z`), offer.capTimezone) !== today) continue;
      const key = offerCapKey(`${side}:${offer.externalId}`);
      spent.set(key, { day: today, count: (spent.get(key)?.count ?? 0) + row.count });
    }
    for (const [key, { day, count }] of spent) await caps.warm(key, day, count);
  }
  const pathDay = dayIn(now, PATH_CAP_TIMEZONE);
  const dayStart = `${pathDay}T00:00:00.000Z`;
  for (const row of await store.routedLeadsByPath(dayStart)) {
    await caps.warm(pathRegsCapKey(row.flow, row.path), pathDay, row.count);
  }
  for (const row of await store.conversionsByPath(dayStart)) {
    await caps.warm(pathPostbacksCapKey(row.flow, row.path), pathDay, row.count);
  }
  parts.registrations = await store.registrations();
}
