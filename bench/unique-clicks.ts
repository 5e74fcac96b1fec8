// `npx tsx bench/unique-clicks.ts [clicks]`: what deciding a click's uniqueness costs on the event loop
// (apps/server/src/traffic/visitor/uniques.ts): the keys hashed from the campaign, address and user
// agent, then looked up and noted in the in-memory store, for each `unique_by`. A million visitors over
// a thousand campaigns, each seen about twice, so the map holds what a busy node's day holds.
import { UNIQUE_BY } from '@switchyard/domain';
import { InMemoryUniqueClicks, uniqueKeys } from '../apps/server/src/traffic/visitor/uniques.js';

const CLICKS = Number(process.argv[2] ?? 2_000_000);
const UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';

for (const by of UNIQUE_BY) {
  const store = new InMemoryUniqueClicks();
  store.retainMs = 24 * 60 * 60 * 1000;
  let unique = 0;
  const start = process.hrtime.bigint();
  for (let index = 0; index < CLICKS; index += 1) {
    const visitor = index % (CLICKS / 2);
    const keys = uniqueKeys(`camp${visitor % 1000}`, by, {
      cookieId: index % 3 === 0 ? undefined : `visitor-${visitor}-cookie-id-00`,
      visitorId: `visitor-${visitor}-cookie-id-00`,
      ip: `10.${(visitor >> 16) & 255}.${(visitor >> 8) & 255}.${visitor & 255}`,
      userAgent: UA,
    });
    if (store.note(keys, 1_700_000_000_000 + index, 24 * 60 * 60 * 1000)) unique += 1;
  }
  const ns = Number(process.hrtime.bigint() - start);
  console.log(
    `${by.padEnd(16)} ${(ns / CLICKS / 1000).toFixed(3)} µs per click  (${unique.toLocaleString('en')} unique of ${CLICKS.toLocaleString('en')}, ${store.size.toLocaleString('en')} keys held)`,
  );
}
