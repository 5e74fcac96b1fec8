import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MonitorSettings, NotificationList } from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Monitors } from '../src/alerts/monitors.js';
import { campaignOnFlow, createRecord, type StoredRecord } from './fixtures/config-records.js';
import { DE_IP } from './fixtures/traffic.js';
import { bearer, buildProxiedAdminApp, createUserWithPermissions, forEachDatabase } from './harness.js';

// The built-in monitors: each problem notifies once while it lasts, again after it was well, and not at
// all in a workspace that turned its monitor off.

forEachDatabase('built-in monitors', (db) => {
  let app: FastifyInstance;
  let token: string;
  let site: Server;
  let siteUrl: string;
  let siteStatus = 200;
  let monitors: Monitors;
  let clock = Date.now();
  let source: StoredRecord;

  const notifications = async () =>
    (await app.inject({ url: '/api/notifications', headers: bearer(token) })).json<NotificationList>();

  beforeAll(async () => {
    site = createServer((_request, response) => response.writeHead(siteStatus).end('landing'));
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    ({ app, adminToken: token } = await buildProxiedAdminApp(db));
    monitors = new Monitors(app.store.db, app.engine, app.notifier, app.reports, {
      allowPrivateTargets: true,
      now: () => new Date(clock),
    });
    source = await createRecord(app, token, 'traffic-sources');
  });
  afterAll(() => site.close());

  it('tells once that an offer reached its cap, and not in a workspace that turned it off', async () => {
    const backup = await createRecord(app, token, 'tracker-offers', { url: `${siteUrl}/backup?c={clickid}` });
    const capped = await createRecord(app, token, 'tracker-offers', {
      name: 'Capped sweepstakes',
      url: `${siteUrl}/offer?c={clickid}`,
      daily_cap: 2,
      backup_offer_external_id: backup.external_id,
    });
    const campaign = await campaignOnFlow(app, token, source, [
      { id: 'g', name: 'All', paths: [{ id: 'p', offers: [{ id: 'o', offer_external_id: capped.external_id }] }] },
    ]);
    const before = (await notifications()).total;
    expect(await monitors.runOnce()).toEqual([]);
    for (let n = 0; n < 3; n += 1) {
      const clicked = await app.inject({ url: `/c/${campaign.external_id}`, remoteAddress: DE_IP });
      expect(clicked.statusCode).toBe(302);
    }
    const found = await monitors.runOnce();
    expect(found.map((finding) => finding.monitor)).toEqual(['cap_reached']);
    expect(await monitors.runOnce()).toEqual([]);
    const bell = await notifications();
    expect(bell.total - before).toBe(1);
    expect(bell.list[0]).toMatchObject({ kind: 'cap_reached', title: 'Cap reached: Capped sweepstakes', read: false });
    expect(bell.list[0]?.body).toContain('its traffic now goes to its backup offer');

    // Turned off: a second capped offer says nothing.
    const settings = await app.inject({ url: '/api/monitors', headers: bearer(token) });
    expect(settings.json<MonitorSettings>()).toMatchObject({ cap_reached: true, url_down: true });
    const off = await app.inject({
      method: 'PUT',
      url: '/api/monitors',
      headers: bearer(token),
      payload: { ...settings.json<MonitorSettings>(), cap_reached: false },
    });
    expect(off.json<MonitorSettings>().cap_reached).toBe(false);
    const other = await createRecord(app, token, 'tracker-offers', { url: `${siteUrl}/o2?c={clickid}`, daily_cap: 1 });
    const second = await campaignOnFlow(app, token, source, [
      { id: 'g', name: 'All', paths: [{ id: 'p', offers: [{ id: 'o', offer_external_id: other.external_id }] }] },
    ]);
    await app.inject({ url: `/c/${second.external_id}`, remoteAddress: DE_IP });
    expect(await monitors.runOnce()).toEqual([]);
    await app.inject({
      method: 'PUT',
      url: '/api/monitors',
      headers: bearer(token),
      payload: { ...settings.json<MonitorSettings>() },
    });
  });

  it('tells when an offer URL fails, and again after it recovered and failed anew', async () => {
    await createRecord(app, token, 'tracker-landers', { name: 'Quiz lander', url: `${siteUrl}/lander` });
    expect((await monitors.runOnce({ urls: true })).filter((finding) => finding.monitor === 'url_down')).toEqual([]);
    siteStatus = 503;
    const failing = (await monitors.runOnce({ urls: true })).filter((finding) => finding.monitor === 'url_down');
    expect(failing.map((finding) => finding.title)).toContain('Lander URL fails: Quiz lander');
    expect(failing.find((finding) => finding.title.includes('Quiz lander'))?.body).toContain('HTTP 503');
    expect((await monitors.runOnce({ urls: true })).filter((finding) => finding.monitor === 'url_down')).toEqual([]);
    siteStatus = 200;
    expect(await monitors.runOnce({ urls: true })).toEqual([]);
    siteStatus = 503;
    const again = (await monitors.runOnce({ urls: true })).map((finding) => finding.title);
    expect(again).toContain('Lander URL fails: Quiz lander');
    siteStatus = 200;
    await monitors.runOnce({ urls: true });
  });

  it('tells when an active campaign that had clicks has none for an hour', async () => {
    const offer = await createRecord(app, token, 'tracker-offers', { url: `${siteUrl}/x?c={clickid}` });
    const campaign = await campaignOnFlow(app, token, source, [
      { id: 'g', name: 'All', paths: [{ id: 'p', offers: [{ id: 'o', offer_external_id: offer.external_id }] }] },
    ]);
    await app.inject({ url: `/c/${campaign.external_id}`, remoteAddress: DE_IP });
    await app.engine.flush();
    expect((await monitors.runOnce()).filter((finding) => finding.monitor === 'no_clicks')).toEqual([]);
    clock += 2 * 3_600_000;
    const quiet = (await monitors.runOnce()).filter((finding) => finding.subject === campaign.external_id);
    expect(quiet).toHaveLength(1);
    expect(quiet[0]?.title).toBe(`No clicks for an hour: ${campaign.name}`);
  });

  it('reads and changes the monitors by the workspace permissions', async () => {
    const workspace = await app.store.db.selectFrom('workspaces').select('id').orderBy('id').executeTakeFirstOrThrow();
    const reader = await createUserWithPermissions(app, token, ['/general/workspace/get'], {
      workspaces: [workspace.id],
    });
    expect((await app.inject({ url: '/api/monitors', headers: bearer(reader.token) })).statusCode).toBe(200);
    const put = await app.inject({ method: 'PUT', url: '/api/monitors', headers: bearer(reader.token), payload: {} });
    expect(put.statusCode).toBe(403);
    const bad = await app.inject({
      method: 'PUT',
      url: '/api/monitors',
      headers: bearer(token),
      payload: { cap_reached: 'yes' },
    });
    expect(bad.statusCode).toBe(400);
  });
});
