import type { NotificationList } from '@switchyard/domain';
import { expect, it } from 'vitest';
import { campaignOnFlow, createRecord } from './fixtures/config-records.js';
import { DE_IP } from './fixtures/traffic.js';
import { bearer, forEachDatabase, useSeededApp } from './harness.js';

// The server's own timers (rounds.ts): with no one calling them, the monitors run every
// SWITCHYARD_MONITOR_INTERVAL_MS and a capped offer reaches the bell.

forEachDatabase('timed rounds', (db) => {
  const context = useSeededApp(db, () => ({ SWITCHYARD_MONITOR_INTERVAL_MS: '1000' }));

  it('runs the monitors on their timer: a cap reached reaches the bell unasked', async () => {
    const { app, adminToken: token } = context;
    const source = await createRecord(app, token, 'traffic-sources');
    const offer = await createRecord(app, token, 'tracker-offers', {
      name: 'Capped on a timer',
      url: 'https://offer.example/?c={clickid}',
      daily_cap: 1,
    });
    const campaign = await campaignOnFlow(app, token, source, [
      { id: 'g', name: 'All', paths: [{ id: 'p', offers: [{ id: 'o', offer_external_id: offer.external_id }] }] },
    ]);
    const clicked = await app.inject({ url: `/c/${campaign.external_id}`, remoteAddress: DE_IP });
    expect(clicked.statusCode).toBe(302);

    const titles = async () =>
      (await app.inject({ url: '/api/notifications', headers: bearer(token) }))
        .json<NotificationList>()
        .list.map((notification) => notification.title);
    await expect.poll(titles, { timeout: 15_000, interval: 250 }).toContain('Cap reached: Capped on a timer');
  }, 30_000);
});
