import { z } from 'zod';
import { ZName } from './fields.js';
import { VALIDATION_MESSAGES as M } from './messages.js';

/**
 * Alerts that reach the operator: notifications in the dashboard's bell, and each user's channels
 * (Telegram, Slack, e-mail, a signed webhook) for the kinds of event they choose.
 */
export const CHANNEL_KINDS = ['telegram', 'slack', 'email', 'webhook'] as const;
export type ChannelKind = (typeof CHANNEL_KINDS)[number];

/** What a notification is about: a built-in monitor, a rule, or a channel's test message. */
export const ALERT_KINDS = [
  'cap_reached',
  'url_down',
  'no_clicks',
  'postback_failures',
  'writer_behind',
  'rule',
  'test',
] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/** The secret field of each channel kind: never sent back, kept when a change leaves it empty. */
export const CHANNEL_SECRETS = { telegram: 'bot_token', slack: 'webhook_url', email: null, webhook: 'secret' } as const;

const httpUrl = z
  .string({ error: M.required })
  .trim()
  .max(2000, { error: M.tooLong })
  .refine((value) => /^https?:\/\/[^\s/]+/i.test(value) && URL.canParse(value), { error: M.invalidUrl });

const common = {
  name: ZName,
  enabled: z.boolean().default(true),
  /** The kinds of event this channel carries; empty: every kind. */
  events: z.array(z.enum(ALERT_KINDS)).max(ALERT_KINDS.length).default([]),
};

/** A secret may be left empty on a change, to keep the one stored. */
const secret = (schema: z.ZodString) => z.union([z.literal(''), schema]).default('');

export const ZChannelForm = z.discriminatedUnion('kind', [
  z.object({
    ...common,
    kind: z.literal('telegram'),
    bot_token: secret(
      z
        .string()
        .trim()
        .regex(/^\d{3,20}:[A-Za-z0-9_-]{20,100}$/, { error: M.invalidValue }),
    ),
    chat_id: z
      .string({ error: M.required })
      .trim()
      .regex(/^(-?\d{1,20}|@[A-Za-z0-9_]{5,64})$/, { error: M.invalidValue }),
  }),
  z.object({ ...common, kind: z.literal('slack'), webhook_url: secret(httpUrl as unknown as z.ZodString) }),
  z.object({
    ...common,
    kind: z.literal('email'),
    to: z.string({ error: M.required }).trim().max(254, { error: M.tooLong }).email({ error: M.invalidEmail }),
  }),
  z.object({
    ...common,
    kind: z.literal('webhook'),
    url: httpUrl,
    secret: secret(z.string().min(16, { error: M.invalidValue }).max(200, { error: M.tooLong })),
  }),
]);
export type TChannelForm = z.infer<typeof ZChannelForm>;

/** A channel as the API answers it: without its secret, saying whether one is kept. */
export const ZChannel = z.object({
  id: z.number(),
  kind: z.enum(CHANNEL_KINDS),
  name: z.string(),
  enabled: z.boolean(),
  events: z.array(z.enum(ALERT_KINDS)),
  chat_id: z.string().optional(),
  to: z.string().optional(),
  url: z.string().optional(),
  has_secret: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Channel = z.infer<typeof ZChannel>;

export const ZChannelList = z.object({ list: z.array(ZChannel), total: z.number() });

export const ZDelivery = z.object({
  id: z.number(),
  channel_id: z.number(),
  notification_id: z.number().nullable(),
  status: z.enum(['sent', 'retrying', 'failed']),
  attempts: z.number(),
  error: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Delivery = z.infer<typeof ZDelivery>;
export const ZDeliveryList = z.object({ list: z.array(ZDelivery), total: z.number() });

export const ZNotificationItem = z.object({
  id: z.number(),
  kind: z.enum(ALERT_KINDS),
  title: z.string(),
  body: z.string(),
  link: z.string().nullable(),
  read: z.boolean(),
  created_at: z.string(),
});
export type NotificationItem = z.infer<typeof ZNotificationItem>;

/** `GET /api/notifications`: the newest first, and how many are unread. */
export const ZNotificationList = z.object({
  list: z.array(ZNotificationItem),
  total: z.number(),
  unread: z.number(),
});
export type NotificationList = z.infer<typeof ZNotificationList>;

/** `POST /api/notification-channels/{id}/test`: whether the message went, and why not. */
export const ZChannelTestAnswer = z.object({ delivered: z.boolean(), error: z.string().nullable() });
export type ChannelTestAnswer = z.infer<typeof ZChannelTestAnswer>;

/** The built-in monitors: each notifies without any rule, and each workspace may turn each off. */
export const MONITORS = ['cap_reached', 'url_down', 'no_clicks', 'postback_failures', 'writer_behind'] as const;
export type Monitor = (typeof MONITORS)[number];

/** `GET /api/monitors`, and what `PUT /api/monitors` takes: whether each monitor is on in the workspace. */
export const ZMonitorSettings = z.object(
  Object.fromEntries(MONITORS.map((monitor) => [monitor, z.boolean()])) as Record<Monitor, z.ZodBoolean>,
);
export type MonitorSettings = z.infer<typeof ZMonitorSettings>;
