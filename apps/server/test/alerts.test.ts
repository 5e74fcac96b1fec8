import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Channel, NotificationList } from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SIGNATURE_HEADER, TIMESTAMP_HEADER, webhookSignature } from '../src/alerts/channels.js';
import { Notifier } from '../src/alerts/notifier.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  bearer,
  createUserWithPermissions,
  expectError,
  forEachDatabase,
  login,
} from './harness.js';
import { MailCatcher } from './mail-catcher.js';

// Alerts that reach the operator: the bell's notifications, and channels sent to local stand-ins for
// Telegram's Bot API, a Slack incoming webhook and a webhook receiver, and mail through a local SMTP server.

const BOT_TOKEN = '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw';
const SECRET = 'a-webhook-secret-of-some-length';

interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A local HTTP server that keeps what it is sent and answers `status()`. */
async function receiver(
  status: () => number = () => 200,
): Promise<{ server: Server; url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString() });
      response.writeHead(status(), { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}

forEachDatabase('alerts that reach you', (db) => {
  const mail = new MailCatcher();
  let app: FastifyInstance;
  let token: string;
  let telegram: Awaited<ReturnType<typeof receiver>>;
  let slack: Awaited<ReturnType<typeof receiver>>;
  let hook: Awaited<ReturnType<typeof receiver>>;
  let refusing: Awaited<ReturnType<typeof receiver>>;
  const channels: Record<string, Channel> = {};
  let workspaceId: number;

  const send = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, as = token) =>
    app.inject({ method, url: `/api${url}`, headers: bearer(as), ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    await mail.start();
    [telegram, slack, hook, refusing] = await Promise.all([receiver(), receiver(), receiver(), receiver(() => 500)]);
    app = await db.buildApp({
      env: {
        SWITCHYARD_ADMIN_EMAIL: ADMIN_EMAIL,
        SWITCHYARD_ADMIN_PASSWORD: ADMIN_PASSWORD,
        SMTP_URL: mail.url,
        SMTP_FROM: 'Switchyard <switchyard@example.test>',
        SWITCHYARD_PUBLIC_URL: 'https://switchyard.example.test/',
        SWITCHYARD_TELEGRAM_API_URL: telegram.url,
        // The stand-ins listen on loopback, which the checked sender refuses otherwise.
        SWITCHYARD_ALLOW_PRIVATE_TARGETS: 'true',
      },
    });
    token = await login(app, ADMIN_EMAIL, ADMIN_PASSWORD);
    workspaceId = Number(
      (await app.store.db.selectFrom('workspaces').select('id').orderBy('id').executeTakeFirstOrThrow()).id,
    );
    const bodies = {
      telegram: { kind: 'telegram', name: 'My phone', bot_token: BOT_TOKEN, chat_id: '-1001234567890' },
      slack: {
        kind: 'slack',
        name: 'Team room',
        webhook_url: `${slack.url}/services/T000/B000/XXXX`,
        events: ['cap_reached'],
      },
      email: { kind: 'email', name: 'Inbox', to: 'buyer@example.test' },
      webhook: { kind: 'webhook', name: 'Our system', url: `${hook.url}/hooks/switchyard`, secret: SECRET },
    };
    for (const [name, body] of Object.entries(bodies)) {
      const made = await send('POST', '/notification-channels', body);
      expect(made.statusCode, made.body).toBe(201);
      channels[name] = made.json<Channel>();
    }
  });
  afterAll(async () => {
    await mail.stop();
    for (const local of [telegram, slack, hook, refusing]) local.server.close();
  });

  it('keeps secrets out of every answer', async () => {
    const list = await send('GET', '/notification-channels');
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(BOT_TOKEN);
    expect(list.body).not.toContain(SECRET);
    expect(list.body).not.toContain('/services/T000');
    expect(channels.telegram?.has_secret).toBe(true);
    expect(channels.telegram?.chat_id).toBe('-1001234567890');
  });

  it('refuses a bad channel on its field, and an empty secret on a new one', async () => {
    const bad = expectError(
      await send('POST', '/notification-channels', { kind: 'telegram', name: 'x', bot_token: 'nope', chat_id: 'x y' }),
      400,
    );
    expect(Object.keys(bad.errors ?? {}).sort()).toEqual(['bot_token', 'chat_id']);
    const noSecret = expectError(
      await send('POST', '/notification-channels', { kind: 'webhook', name: 'x', url: 'https://example.test/' }),
      400,
    );
    expect(Object.keys(noSecret.errors ?? {})).toEqual(['secret']);
    const long = expectError(
      await send('POST', '/notification-channels', { kind: 'email', name: 'x'.repeat(1_000_000), to: 'a@b.test' }),
      400,
    );
    expect(Object.keys(long.errors ?? {})).toEqual(['name']);
  });

  it('sends a test message through each channel', async () => {
    for (const name of ['telegram', 'slack', 'email', 'webhook']) {
      const tested = await send('POST', `/notification-channels/${channels[name]?.id}/test`);
      expect(tested.statusCode, tested.body).toBe(200);
      expect(tested.json(), name).toEqual({ delivered: true, error: null });
    }
    const sent = telegram.received.at(-1);
    expect(sent?.path).toBe(`/bot${BOT_TOKEN}/sendMessage`);
    expect(JSON.parse(sent?.body ?? '{}')).toMatchObject({
      chat_id: '-1001234567890',
      text: expect.stringContaining('test of the channel "My phone"'),
    });
    expect(JSON.parse(slack.received.at(-1)?.body ?? '{}').text).toContain('Team room');
    expect((await mail.next('buyer@example.test', /test message/)).text).toContain('Inbox');
  });

  it('notifies the workspace: the bell counts it, and the chosen channels carry it with its values', async () => {
    const before = { telegram: telegram.received.length, slack: slack.received.length, hook: hook.received.length };
    await app.notifier.notify(workspaceId, {
      kind: 'cap_reached',
      title: 'Cap reached: Dating smartlink',
      body: 'Offer "Dating smartlink" reached its daily cap of 500; traffic goes to its backup.',
      values: { offer: 'Dating smartlink', cap: 500 },
    });
    await app.notifier.notify(workspaceId, {
      kind: 'no_clicks',
      title: 'No clicks for an hour',
      body: 'Campaign "Push US" had no clicks.',
    });
    await app.notifier.settled();
    const bell = (await send('GET', '/notifications')).json<NotificationList>();
    expect(bell.unread).toBe(2);
    expect(bell.list.map((item) => item.title)).toEqual(['No clicks for an hour', 'Cap reached: Dating smartlink']);
    // Slack carries cap alerts only; the others every kind.
    expect(slack.received.length - before.slack).toBe(1);
    expect(telegram.received.length - before.telegram).toBe(2);
    const signed = hook.received.slice(before.hook).find((entry) => entry.body.includes('cap_reached'));
    const timestamp = String(signed?.headers[TIMESTAMP_HEADER]);
    expect(signed?.headers[SIGNATURE_HEADER]).toBe(webhookSignature(SECRET, timestamp, signed?.body ?? ''));
    expect(webhookSignature('another-secret-of-some-length', timestamp, signed?.body ?? '')).not.toBe(
      signed?.headers[SIGNATURE_HEADER],
    );
    expect(JSON.parse(signed?.body ?? '{}')).toMatchObject({
      kind: 'cap_reached',
      values: { offer: 'Dating smartlink', cap: 500 },
    });
    expect((await mail.next('buyer@example.test', /Cap reached/)).text).toContain('daily cap of 500');

    const first = bell.list[0]?.id;
    expect((await send('POST', `/notifications/${first}/read`)).statusCode).toBe(204);
    expect((await send('GET', '/notifications')).json<NotificationList>().unread).toBe(1);
    expect((await send('POST', '/notifications/read-all')).statusCode).toBe(204);
    expect((await send('GET', '/notifications')).json<NotificationList>().unread).toBe(0);
  });

  it('retries a channel that refuses, then marks it failed with the reason', async () => {
    const made = await send('POST', '/notification-channels', {
      kind: 'webhook',
      name: 'Down',
      url: `${refusing.url}/x`,
      secret: SECRET,
    });
    const down = made.json<Channel>();
    const notifier = new Notifier(app.store.db, {
      mailer: null,
      telegramApiUrl: telegram.url,
      allowPrivateTargets: true,
      timeoutMs: 2_000,
      retryDelaysMs: [10, 10],
    });
    await notifier.notify(workspaceId, { kind: 'url_down', title: 'Offer URL fails', body: 'HTTP 500' });
    await notifier.settled();
    expect(refusing.received).toHaveLength(3);
    const log = (await send('GET', `/notification-channels/${down.id}/deliveries`)).json<{
      list: { status: string; attempts: number; error: string }[];
    }>();
    expect(log.list[0]).toMatchObject({ status: 'failed', attempts: 3, error: expect.stringContaining('HTTP 500') });
    // The other channels delivered all the same.
    expect(hook.received.at(-1)?.body).toContain('url_down');
    await notifier.close();
  });

  it('never sends to an internal address unless the instance allows it', async () => {
    const notifier = new Notifier(app.store.db, {
      mailer: null,
      telegramApiUrl: telegram.url,
      allowPrivateTargets: false,
      timeoutMs: 2_000,
    });
    const row = await app.store.db
      .selectFrom('notification_channels')
      .selectAll()
      .where('id', '=', channels.webhook?.id ?? 0)
      .executeTakeFirstOrThrow();
    const error = await notifier.test(row, { kind: 'test', title: 't', body: 'b', link: null, workspaceId });
    expect(error).toMatch(/Refused/);
  });

  it("keeps each user's channels and notifications their own", async () => {
    const other = await createUserWithPermissions(app, token, ['/tracker/reports/get'], { workspaces: [workspaceId] });
    expect(
      (await send('GET', `/notification-channels/${channels.telegram?.id}`, undefined, other.token)).statusCode,
    ).toBe(404);
    expect(
      (await send('POST', `/notification-channels/${channels.telegram?.id}/test`, undefined, other.token)).statusCode,
    ).toBe(404);
    const mine = (await send('GET', '/notifications', undefined, other.token)).json<NotificationList>();
    expect(mine.list.every((item) => !item.title.startsWith('Cap reached'))).toBe(true);
    // Kept secret when a change leaves it empty.
    const renamed = await send('PUT', `/notification-channels/${channels.telegram?.id}`, {
      kind: 'telegram',
      name: 'Phone',
      chat_id: '@my_channel',
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json<Channel>().has_secret).toBe(true);
    const tested = await send('POST', `/notification-channels/${channels.telegram?.id}/test`);
    expect(tested.json()).toEqual({ delivered: true, error: null });
    expect(telegram.received.at(-1)?.path).toBe(`/bot${BOT_TOKEN}/sendMessage`);
  });
});
