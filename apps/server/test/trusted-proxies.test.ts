import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientAddressReader, parseTrustProxy } from '../src/http/trusted-proxies.js';
import { campaignOnFlow, createRecord, type StoredRecord } from './fixtures/config-records.js';
import { countryIn, GB_IP, US_IP } from './fixtures/traffic.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, forEachDatabase, login } from './harness.js';

// Behind a proxy, geo targeting failed silently — every visitor was the proxy.
// SWITCHYARD_TRUST_PROXY trusts every proxy (`true`) or only listed addresses and CIDRs; a click whose
// X-Forwarded-For came from an untrusted peer makes the reports screen name the setting.

describe('SWITCHYARD_TRUST_PROXY', () => {
  it('reads true, false, and lists of addresses and CIDRs; refuses anything else by name', () => {
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy('true')).toBe(true);
    expect(parseTrustProxy(' 10.0.0.0/8, 127.0.0.1 ,::1,fd00::/8 ')).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      '::1',
      'fd00::/8',
    ]);
    for (const bad of ['yes', '10.0.0.0/33', '10.0.0.1/8/1', 'proxy.local', '::1/129']) {
      expect(() => parseTrustProxy(bad), bad).toThrow(/^SWITCHYARD_TRUST_PROXY: ".+" is not an IP address or CIDR/);
    }
  });

  it('takes the right-most address that is not a trusted proxy, and tells of untrusted peers', () => {
    const untrusted: string[] = [];
    const note = (peer: string) => untrusted.push(peer);
    const listed = clientAddressReader(['10.0.0.0/8', '::1'], note);
    expect(listed(undefined, '10.1.2.3')).toBe('10.1.2.3');
    expect(listed(GB_IP, '10.1.2.3')).toBe(GB_IP);
    // A client cannot forge its way past the proxy: the left-most entry it sent is not believed.
    expect(listed(`1.1.1.1, ${GB_IP}`, '10.1.2.3')).toBe(GB_IP);
    expect(listed(`${GB_IP}, 10.9.9.9`, '::ffff:10.1.2.3')).toBe(GB_IP);
    expect(listed(GB_IP, '::1')).toBe(GB_IP);
    expect(untrusted).toEqual([]);
    expect(listed(GB_IP, '192.0.2.1')).toBe('192.0.2.1');
    expect(untrusted).toEqual(['192.0.2.1']);
    // A /0 trusts every address of its family (proxy-addr itself refuses a prefix of 0).
    const everyV4 = clientAddressReader(['0.0.0.0/0'], note);
    expect(everyV4(`${US_IP}, 10.0.0.1`, '192.0.2.1')).toBe(US_IP);
    expect(everyV4(`${US_IP}, 2001:db8::1`, '192.0.2.1')).toBe('2001:db8::1');

    const all = clientAddressReader(true, note);
    expect(all(`${US_IP}, 10.0.0.1`, '192.0.2.1')).toBe(US_IP);
    const none = clientAddressReader(false, note);
    expect(none(US_IP, '192.0.2.9')).toBe('192.0.2.9');
    expect(none(undefined, '192.0.2.8')).toBe('192.0.2.8');
    expect(untrusted).toEqual(['192.0.2.1', '192.0.2.9']);
  });
});

forEachDatabase('clicks behind a proxy', (db) => {
  for (const [title, trustProxy, country] of [
    ['trusting 127.0.0.0/8', ['127.0.0.0/8'], 'GB'],
    ['trusting no proxy', false, null],
  ] as const) {
    describe(title, () => {
      let app: FastifyInstance;
      let base: string;
      let token: string;
      let campaign: StoredRecord;

      beforeAll(async () => {
        app = await db.buildApp({
          env: { SWITCHYARD_ADMIN_EMAIL: ADMIN_EMAIL, SWITCHYARD_ADMIN_PASSWORD: ADMIN_PASSWORD },
          trustProxy,
        });
        token = await login(app, ADMIN_EMAIL, ADMIN_PASSWORD);
        const source = await createRecord(app, token, 'traffic-sources');
        const offer = await createRecord(app, token, 'tracker-offers', { url: 'https://offer.example/?cc={country}' });
        campaign = await campaignOnFlow(app, token, source, [
          {
            id: 'g-gb',
            name: 'Britain',
            condition: countryIn('GB'),
            paths: [{ id: 'p-gb', offers: [{ id: 'o1', offer_external_id: offer.external_id }] }],
          },
          {
            id: 'g-rest',
            name: 'Rest',
            paths: [{ id: 'p-rest', offers: [{ id: 'o2', offer_external_id: offer.external_id }] }],
          },
        ]);
        base = await app.listen({ port: 0, host: '127.0.0.1' });
      });

      afterAll(async () => {
        await app?.close();
      });

      const notices = async () => {
        const response = await app.inject({ method: 'GET', url: '/api/reports/notices', headers: bearer(token) });
        expect(response.statusCode, response.body).toBe(200);
        return response.json<{ notices: { code: string; peer: string; setting: string }[] }>().notices;
      };

      it(
        country ? "routes by the visitor's country from X-Forwarded-For" : 'routes as the proxy, and says so',
        async () => {
          expect(await notices()).toEqual([]);
          const response = await fetch(`${base}/c/${campaign.external_id}`, {
            headers: { 'x-forwarded-for': GB_IP },
            redirect: 'manual',
          });
          expect(response.status).toBe(302);
          const location = new URL(response.headers.get('location') ?? '');
          expect(location.searchParams.get('cc')).toBe(country ?? '');
          await app.engine.flush();
          const rows = await app.store.db.selectFrom('tracker_clicks').select(['path_group_id', 'ip']).execute();
          expect(rows).toEqual([
            country ? { path_group_id: 'g-gb', ip: GB_IP } : { path_group_id: 'g-rest', ip: '127.0.0.1' },
          ]);
          expect(await notices()).toEqual(
            country
              ? []
              : [
                  expect.objectContaining({
                    code: 'untrusted_proxy',
                    peer: '127.0.0.1',
                    setting: 'SWITCHYARD_TRUST_PROXY',
                  }),
                ],
          );
        },
      );
    });
  }
});
