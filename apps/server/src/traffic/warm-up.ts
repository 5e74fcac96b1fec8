// What today's stored events already spent of the daily caps, counted into the cap counters at start
// (after the journal's replay, so every answered event is among them) and after a resync.
import type { EngineParts } from './parts.js';
import { dayIn, offerCapKey, pathPostbacksCapKey, pathRegsCapKey } from './rules/caps.js';
import { PATH_CAP_TIMEZONE } from './rules/routing.js';
import { uniqueKeys } from './visitor/uniques.js';

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

/** Stored clicks read per query while warming uniqueness. */
const UNIQUE_PAGE = 10_000;

/**
 * What the stored clicks within each campaign's window say about uniqueness, noted into the store at
 * start (after the journal's replay) and, with Redis, again whenever Redis has lost what it held. A click
 * without a stored cookie id matches by its visitor id, which is what its cookie carried.
 */
export async function warmUpUniques(parts: EngineParts): Promise<number> {
  const { store, uniques } = parts;
  if (!(await uniques.needsWarming())) return 0;
  const now = parts.now().getTime();
  let warmed = 0;
  for (const campaign of parts.snapshot.tracker.campaigns.values()) {
    const since = new Date(now - campaign.uniqueWindowMs).toISOString();
    let after: { createdAt: string; clickId: string } | undefined;
    for (;;) {
      const rows = await store.clicksForUniqueness(campaign.externalId, since, after, UNIQUE_PAGE);
      await uniques.warm(
        rows.map((row) => ({
          keys: uniqueKeys(campaign.externalId, campaign.uniqueBy, {
            cookieId: row.visitor_id,
            visitorId: row.visitor_id,
            ip: row.ip ?? '',
            userAgent: row.user_agent ?? '',
          }),
          at: Date.parse(row.created_at),
          windowMs: campaign.uniqueWindowMs,
        })),
        now,
      );
      warmed += rows.length;
      const last = rows.at(-1);
      if (!last || rows.length < UNIQUE_PAGE) break;
      after = { createdAt: last.created_at, clickId: last.click_id };
    }
  }
  await uniques.warmed();
  return warmed;
}
