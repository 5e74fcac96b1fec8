// The acting user's notifications (the header's bell and its screen) and channels, in the acting
// workspace. Each is the user's own: another user's answers 404 as an unknown one does. A signed-in user
// needs no permission beyond belonging to the workspace, as for their own account.
import {
  ALERT_KINDS,
  CHANNEL_SECRETS,
  type Channel,
  type ChannelKind,
  type Delivery,
  type NotificationList,
  ZChannelForm,
} from '@switchyard/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { workspaceOf } from '../auth/workspace.js';
import { NotFoundError, ValidationError } from '../errors.js';
import { requireActor } from '../http/guard.js';
import { parseInput } from '../http/parse.js';
import type { Database } from '../store/schema.js';
import { scopeCondition } from '../store/scope.js';
import type { Notifier } from './notifier.js';

type IdParams = { Params: { id: string } };
const NOTIFICATIONS_SHOWN = 100;

function owner(request: FastifyRequest) {
  const actor = requireActor(request);
  return { userId: actor.userId, scope: { workspaceId: workspaceOf(actor) } };
}

function parseId(text: string): number {
  const id = Number(text);
  if (!Number.isSafeInteger(id) || id <= 0) throw new NotFoundError();
  return id;
}

type ChannelRecord = {
  id: number;
  kind: string;
  name: string;
  settings: string;
  events: string;
  enabled: number;
  created_at: string;
  updated_at: string;
};

function channelAnswer(row: ChannelRecord): Channel {
  const settings = JSON.parse(row.settings) as Record<string, string>;
  const kind = row.kind as ChannelKind;
  const secret = CHANNEL_SECRETS[kind];
  return {
    id: Number(row.id),
    kind,
    name: row.name,
    enabled: Number(row.enabled) === 1,
    events: (JSON.parse(row.events) as string[]).filter((event): event is (typeof ALERT_KINDS)[number] =>
      (ALERT_KINDS as readonly string[]).includes(event),
    ),
    ...(settings.chat_id !== undefined ? { chat_id: settings.chat_id } : {}),
    ...(settings.to !== undefined ? { to: settings.to } : {}),
    ...(settings.url !== undefined ? { url: settings.url } : {}),
    has_secret: secret !== null && Boolean(settings[secret]),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function alertRoutes(app: FastifyInstance, db: Kysely<Database>, notifier: Notifier): void {
  app.get('/notifications', async (request): Promise<NotificationList> => {
    const { userId, scope } = owner(request);
    const mine = db
      .selectFrom('notifications')
      .where(scopeCondition(scope, 'workspace_id'))
      .where('user_id', '=', userId);
    const [rows, counts] = await Promise.all([
      mine
        .select(['id', 'kind', 'title', 'body', 'link', 'read_at', 'created_at'])
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(NOTIFICATIONS_SHOWN)
        .execute(),
      mine
        .select((eb) => [
          eb.fn.countAll<number | string>().as('total'),
          eb.fn.count<number | string>('id').filterWhere('read_at', 'is', null).as('unread'),
        ])
        .executeTakeFirstOrThrow(),
    ]);
    return {
      list: rows.map((row) => ({
        id: Number(row.id),
        kind: row.kind as NotificationList['list'][number]['kind'],
        title: row.title,
        body: row.body,
        link: row.link,
        read: row.read_at !== null,
        created_at: row.created_at,
      })),
      total: Number(counts.total),
      unread: Number(counts.unread),
    };
  });

  app.post<IdParams>('/notifications/:id/read', async (request, reply) => {
    const { userId, scope } = owner(request);
    const result = await db
      .updateTable('notifications')
      .set({ read_at: new Date().toISOString() })
      .where('id', '=', parseId(request.params.id))
      .where('user_id', '=', userId)
      .where(scopeCondition(scope, 'workspace_id'))
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) throw new NotFoundError();
    return reply.code(204).send();
  });

  app.post('/notifications/read-all', async (request, reply) => {
    const { userId, scope } = owner(request);
    await db
      .updateTable('notifications')
      .set({ read_at: new Date().toISOString() })
      .where('user_id', '=', userId)
      .where('read_at', 'is', null)
      .where(scopeCondition(scope, 'workspace_id'))
      .execute();
    return reply.code(204).send();
  });

  const channelColumns = ['id', 'kind', 'name', 'settings', 'events', 'enabled', 'created_at', 'updated_at'] as const;
  const ownChannel = async (request: FastifyRequest<IdParams>) => {
    const { userId, scope } = owner(request);
    const row = await db
      .selectFrom('notification_channels')
      .select([...channelColumns, 'workspace_id'])
      .where('id', '=', parseId(request.params.id))
      .where('user_id', '=', userId)
      .where(scopeCondition(scope, 'workspace_id'))
      .executeTakeFirst();
    if (!row) throw new NotFoundError();
    return { row, userId, scope };
  };

  app.get('/notification-channels', async (request) => {
    const { userId, scope } = owner(request);
    const rows = await db
      .selectFrom('notification_channels')
      .select([...channelColumns])
      .where('user_id', '=', userId)
      .where(scopeCondition(scope, 'workspace_id'))
      .orderBy('id')
      .execute();
    return { list: rows.map(channelAnswer), total: rows.length };
  });

  app.get<IdParams>('/notification-channels/:id', async (request) => channelAnswer((await ownChannel(request)).row));

  app.post('/notification-channels', async (request, reply) => {
    const { userId, scope } = owner(request);
    const form = parseInput(ZChannelForm, request.body);
    const secret = CHANNEL_SECRETS[form.kind];
    if (secret && !(form as Record<string, unknown>)[secret]) {
      throw new ValidationError({ [secret]: ['This field is required'] });
    }
    const now = new Date().toISOString();
    const { name, kind, enabled, events, ...settings } = form;
    const row = await db
      .insertInto('notification_channels')
      .values({
        workspace_id: scope.workspaceId,
        user_id: userId,
        kind,
        name,
        settings: JSON.stringify(settings),
        events: JSON.stringify(events),
        enabled: enabled ? 1 : 0,
        created_at: now,
        updated_at: now,
      })
      .returning([...channelColumns])
      .executeTakeFirstOrThrow();
    return reply.code(201).send(channelAnswer(row));
  });

  app.put<IdParams>('/notification-channels/:id', async (request) => {
    const { row, scope } = await ownChannel(request);
    const form = parseInput(ZChannelForm, request.body);
    if (form.kind !== row.kind) throw new ValidationError({ kind: ['A channel keeps its kind'] });
    const { name, kind: _kind, enabled, events, ...settings } = form;
    const stored = JSON.parse(row.settings) as Record<string, string>;
    const secret = CHANNEL_SECRETS[form.kind];
    // An empty secret keeps the one stored: the answer never carries it, so the form cannot send it back.
    const kept = secret && !(settings as Record<string, string>)[secret] ? { [secret]: stored[secret] } : {};
    const updated = await db
      .updateTable('notification_channels')
      .set({
        name,
        enabled: enabled ? 1 : 0,
        events: JSON.stringify(events),
        settings: JSON.stringify({ ...settings, ...kept }),
        updated_at: new Date().toISOString(),
      })
      .where('id', '=', row.id)
      .where(scopeCondition(scope, 'workspace_id'))
      .returning([...channelColumns])
      .executeTakeFirstOrThrow();
    return channelAnswer(updated);
  });

  app.delete<IdParams>('/notification-channels/:id', async (request, reply) => {
    const { row, scope } = await ownChannel(request);
    await db
      .deleteFrom('notification_channels')
      .where('id', '=', row.id)
      .where(scopeCondition(scope, 'workspace_id'))
      .execute();
    return reply.code(204).send();
  });

  app.post<IdParams>('/notification-channels/:id/test', async (request) => {
    const { row } = await ownChannel(request);
    const error = await notifier.test(
      {
        id: Number(row.id),
        workspace_id: Number(row.workspace_id),
        kind: row.kind,
        settings: row.settings,
        events: row.events,
      },
      {
        kind: 'test',
        title: 'Switchyard: test message',
        body: `This is a test of the channel "${row.name}". Alerts you choose will arrive here.`,
        link: null,
        workspaceId: Number(row.workspace_id),
      },
    );
    return { delivered: error === null, error };
  });

  app.get<IdParams>('/notification-channels/:id/deliveries', async (request) => {
    const { row, scope } = await ownChannel(request);
    const rows = await db
      .selectFrom('notification_deliveries')
      .select(['id', 'channel_id', 'notification_id', 'status', 'attempts', 'error', 'created_at', 'updated_at'])
      .where('channel_id', '=', row.id)
      .where(scopeCondition(scope, 'workspace_id'))
      .orderBy('id', 'desc')
      .limit(100)
      .execute();
    const list: Delivery[] = rows.map((delivery) => ({
      ...delivery,
      id: Number(delivery.id),
      channel_id: Number(delivery.channel_id),
      notification_id: delivery.notification_id === null ? null : Number(delivery.notification_id),
      attempts: Number(delivery.attempts),
      status: delivery.status as Delivery['status'],
    }));
    return { list, total: list.length };
  });
}
