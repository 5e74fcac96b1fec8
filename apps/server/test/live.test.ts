import { MONEY_PERMISSION } from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createRecord, type StoredRecord, uniqueName } from './fixtures/config-records.js';
import { postbackPath } from './fixtures/postbacks.js';
import { type SseMessage, SseStream } from './fixtures/sse.js';
import { DESKTOP, GB_IP, Receiver } from './fixtures/traffic.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  bearer,
  createUserWithPermissions,
  forEachDatabase,
  login,
  type TestUser,
} from './harness.js';

// `GET /api/live`, read over real HTTP as a browser's EventSource would: every kind of event
// arrives, the acting workspace's only, of one campaign when asked, money only to whom may see it.

forEachDatabase('live events', (db) => {
  const receiver = new Receiver();
  const streams: SseStream[] = [];
  let app: FastifyInstance;
  let token: string;
  let campaign: StoredRecord;
  let other: StoredRecord;
  let apiCampaign: StoredRecord;
  let foreign: StoredRecord;
  let masked: TestUser;

  beforeAll(async () => {
    const port = await receiver.listen();
    app = await db.buildApp({
      env: {
        SWITCHYARD_ADMIN_EMAIL: ADMIN_EMAIL,
        SWITCHYARD_ADMIN_PASSWORD: ADMIN_PASSWORD,
        SWITCHYARD_ALLOW_PRIVATE_TARGETS: 'true',
      },
      // The outbound worker runs when a test asks it to.
      engine: { outbound: { intervalMs: 0, timeoutMs: 5000 } },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    token = await login(app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const sale = await createRecord(app, token, 'postback-events', { status_values: ['approved'] });
    const source = await createRecord(app, token, 'traffic-sources', {
      postback_events: [
        { postback_event_external_id: sale.external_id, postback_url: `http://127.0.0.1:${port}/pb?p={payout}` },
      ],
    });
    const offer = await createRecord(app, token, 'tracker-offers', { url: 'https://offer.example/?c={clickid}' });
    const flow = await createRecord(app, token, 'tracker-flows', {
      path_groups: [
        { id: 'g', name: 'All', paths: [{ id: 'p', offers: [{ id: 'o', offer_external_id: offer.external_id }] }] },
      ],
    });
    const tracker = {
      traffic_source_external_id: source.external_id,
      flow_external_id: flow.external_id,
      postback_events: [
        { postback_event_external_id: sale.external_id, is_conversion: true, send_to_traffic_source: true },
      ],
      payout_rule_sets: [{ id: 'rs', postback_event_external_id: sale.external_id, default_payout: 3, rules: [] }],
    };
    campaign = await createRecord(app, token, 'tracker-campaigns', tracker);
    other = await createRecord(app, token, 'tracker-campaigns', tracker);
    const apiOffer = await createRecord(app, token, 'offers', { url: 'https://api-offer.example/?l={lead_id}' });
    const apiFlow = await createRecord(app, token, 'flows', {
      path_groups: [{ id: 'g', name: 'All', paths: [{ id: 'p', offer_external_id: apiOffer.external_id }] }],
    });
    apiCampaign = await createRecord(app, token, 'campaigns', { flow_external_id: apiFlow.external_id });
    foreign = await campaignInNewWorkspace();
    masked = await createUserWithPermissions(app, token, ['/tracker/reports/get']);
  });

  afterAll(async () => {
    for (const stream of streams) stream.close();
    await receiver.close();
  });

  /** A tracker campaign of a second workspace, made by the root administrator acting there. */
  async function campaignInNewWorkspace(): Promise<StoredRecord> {
    const made = await app.inject({
      method: 'POST',
      url: '/api/workspaces',
      headers: bearer(token),
      payload: { name: uniqueName('Elsewhere') },
    });
    expect(made.statusCode, made.body).toBe(201);
    const headers = { ...bearer(token), 'x-workspace': String(made.json<{ id: number }>().id) };
    const create = async (url: string, payload: Record<string, unknown>) => {
      const response = await app.inject({ method: 'POST', url, headers, payload });
      expect(response.statusCode, response.body).toBe(201);
      return response.json<StoredRecord>();
    };
    const offer = await create('/api/tracker/offers', { name: uniqueName('O'), url: 'https://b.example/' });
    const flow = await create('/api/tracker/flows', {
      name: uniqueName('F'),
      path_groups: [
        { id: 'g', name: 'All', paths: [{ id: 'p', offers: [{ id: 'o', offer_external_id: offer.external_id }] }] },
      ],
    });
    const source = await create('/api/traffic-sources', { name: uniqueName('S') });
    return create('/api/tracker/campaigns', {
      name: uniqueName('C'),
      flow_external_id: flow.external_id,
      traffic_source_external_id: source.external_id,
    });
  }

  async function open(path: string, headers: Record<string, string> = bearer(token)): Promise<SseStream> {
    const stream = await SseStream.open(app, path, headers);
    streams.push(stream);
    return stream;
  }

  async function click(of: StoredRecord, ip = '8.8.8.8'): Promise<string> {
    const response = await app.inject({
      method: 'GET',
      url: `/c/${of.external_id}`,
      remoteAddress: ip,
      headers: { 'user-agent': DESKTOP },
    });
    expect(response.statusCode, response.body).toBe(302);
    return new URL(String(response.headers.location)).searchParams.get('c')!;
  }

  const isClick = (id: string) => (message: SseMessage) => message.event === 'click' && message.data.id === id;

  it('a click, a conversion, its outbound postback and a lead arrive as they happen', async () => {
    const stream = await open('/api/live');
    expect(stream.headers['content-type']).toMatch(/^text\/event-stream/);
    const clickId = await click(campaign, GB_IP);
    const { message } = await stream.next(isClick(clickId));
    expect(message.data).toMatchObject({
      campaign: campaign.external_id,
      path_group: 'g',
      country: 'GB',
      bot: false,
      bot_reason: null,
      cost: 0,
      sampled: false,
      rate: 1,
    });

    const postback = await app.inject({
      method: 'GET',
      url: `${await postbackPath(app)}?clickid=${clickId}&status=approved&txid=live-1`,
    });
    expect(postback.statusCode, postback.body).toBe(200);
    const conversion = await stream.next((entry) => entry.event === 'conversion' && entry.data.click_id === clickId);
    expect(conversion.message.data).toMatchObject({ campaign: campaign.external_id, payout: 3, change: 'new' });

    expect(await app.engine.outbound.processDue()).toBe(1);
    const sent = await stream.next((entry) => entry.event === 'postback');
    expect(sent.message.data).toMatchObject({
      conversion_id: conversion.message.data.id,
      campaign: campaign.external_id,
      state: 'sent',
      http_status: 200,
    });

    const lead = await app.inject({
      method: 'POST',
      url: `/v1/campaigns/${apiCampaign.external_id}/leads`,
      headers: { 'x-api-key': String(apiCampaign.ingest_token) },
      payload: { email: 'live@example.org' },
    });
    expect(lead.statusCode, lead.body).toBe(200);
    const leadId = lead.json<{ lead_id: string }>().lead_id;
    const arrived = await stream.next((entry) => entry.event === 'lead' && entry.data.id === leadId);
    expect(arrived.message.data).toMatchObject({ campaign: apiCampaign.external_id, decision: 'routed' });
  });

  it("never sends another workspace's events", async () => {
    const stream = await open('/api/live');
    await click(foreign);
    const mine = await click(campaign);
    const { index } = await stream.next(isClick(mine));
    expect(stream.messages.slice(0, index + 1).map((entry) => entry.data.campaign)).toEqual([campaign.external_id]);
  });

  it('sends one campaign only when `campaign` names it', async () => {
    const stream = await open(`/api/live?campaign=${other.external_id}`);
    await click(campaign);
    const wanted = await click(other);
    const { index } = await stream.next(isClick(wanted));
    expect(stream.messages.slice(0, index + 1).map((entry) => entry.data.campaign)).toEqual([other.external_id]);
  });

  it('leaves money out without the money permission, and takes the token from the query', async () => {
    const stream = await open(`/api/live?token=${masked.token}`, {});
    const clickId = await click(campaign);
    const { message } = await stream.next(isClick(clickId));
    expect(message.data).not.toHaveProperty('cost');
    expect(message.data).toMatchObject({ campaign: campaign.external_id, sampled: false });
    const moneyed = await createUserWithPermissions(app, token, ['/tracker/reports/get', MONEY_PERMISSION]);
    const withMoney = await open('/api/live', bearer(moneyed.token));
    const next = await click(campaign);
    expect((await withMoney.next(isClick(next))).message.data).toHaveProperty('cost', 0);
  });

  it('is 401 without a session and 403 without the reports permission', async () => {
    const anonymous = await SseStream.open(app, '/api/live');
    expect(anonymous.status).toBe(401);
    expect(JSON.parse(anonymous.body)).toHaveProperty('message');
    const stranger = await createUserWithPermissions(app, token, ['/tracker/campaign/get']);
    const refused = await SseStream.open(app, '/api/live', bearer(stranger.token));
    expect(refused.status).toBe(403);
    // The document says what the route answers, and that it takes the token in the query.
    const document = (await app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    const route = document.paths['/api/live'].get;
    expect(Object.keys(route.responses['200'].content)).toEqual(['text/event-stream']);
    expect(route.parameters.map((parameter: { name: string }) => parameter.name).sort()).toEqual(['campaign', 'token']);
    // The query token is taken on this route only.
    const elsewhere = await app.inject({ method: 'GET', url: `/api/me?token=${token}` });
    expect(elsewhere.statusCode).toBe(401);
  });
});
