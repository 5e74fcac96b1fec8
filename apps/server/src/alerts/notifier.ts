// What happens when there is something to tell a workspace: a notification for each of its members (the
// bell), then a message through each of their enabled channels that carries this kind. A channel that
// refuses or times out is tried again with growing delays, then marked failed with its reason; every try
// is in the delivery log. Nothing waits on a channel but the test button.
import type { AlertKind, ChannelKind } from '@switchyard/domain';
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import { scopeCondition } from '../store/scope.js';
import { type AlertMessage, type ChannelSettings, type SendContext, sendThrough } from './channels.js';

export interface NotifierOptions extends SendContext {
  /** Delays before the second, third… tries; their count is the number of retries. */
  retryDelaysMs?: readonly number[];
  log?: { warn(object: object, message: string): void };
}

export interface Alert {
  kind: AlertKind;
  title: string;
  body: string;
  link?: string | null;
  values?: Record<string, unknown>;
  /** Only these users (else every member of the workspace). */
  users?: readonly number[];
}

export interface ChannelRow {
  id: number;
  workspace_id: number;
  kind: string;
  settings: string;
  events: string;
}

const RETRY_DELAYS_MS = [5_000, 30_000, 120_000];

export class Notifier {
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly pending = new Set<Promise<unknown>>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: NotifierOptions,
  ) {}

  /** Notifies the workspace's members (or `alert.users`); answers the notifications' ids. */
  async notify(workspaceId: number, alert: Alert): Promise<number[]> {
    const scope = { workspaceId };
    let members = this.db
      .selectFrom('user_workspaces')
      .innerJoin('users', 'users.id', 'user_workspaces.user_id')
      .select('user_workspaces.user_id')
      .where(scopeCondition(scope, 'user_workspaces.workspace_id'))
      .where('users.active', '=', 1);
    if (alert.users)
      members = members.where('user_workspaces.user_id', 'in', alert.users.length ? [...alert.users] : [0]);
    const users = (await members.execute()).map((row) => Number(row.user_id));
    if (users.length === 0) return [];
    const now = new Date().toISOString();
    const ids: number[] = [];
    for (const user of users) {
      const row = await this.db
        .insertInto('notifications')
        .values({
          workspace_id: workspaceId,
          user_id: user,
          kind: alert.kind,
          title: alert.title.slice(0, 500),
          body: alert.body.slice(0, 4000),
          link: alert.link ?? null,
          read_at: null,
          created_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids.push(Number(row.id));
    }
    const channels = await this.db
      .selectFrom('notification_channels')
      .select(['id', 'workspace_id', 'kind', 'settings', 'events', 'user_id'])
      .where(scopeCondition(scope, 'workspace_id'))
      .where('user_id', 'in', users)
      .where('enabled', '=', 1)
      .execute();
    const message: AlertMessage = {
      kind: alert.kind,
      title: alert.title,
      body: alert.body,
      link: alert.link ?? null,
      ...(alert.values ? { values: alert.values } : {}),
      workspaceId,
    };
    for (const channel of channels) {
      const events = JSON.parse(channel.events) as string[];
      if (events.length > 0 && !events.includes(alert.kind)) continue;
      const notification = ids[users.indexOf(Number(channel.user_id))] ?? null;
      this.track(this.deliver(channel, message, notification));
    }
    return ids;
  }

  /** One try through one channel, answered (the channel screen's test button); logged like any other. */
  async test(channel: ChannelRow, message: AlertMessage): Promise<string | null> {
    const id = await this.logDelivery(channel, null);
    const error = await sendThrough(channel.kind as ChannelKind, settingsOf(channel), message, this.options);
    await this.updateDelivery(id, error ? 'failed' : 'sent', 1, error);
    return error;
  }

  /** Waits for the tries under way (tests), and stops the retries not yet due. */
  async close(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    await Promise.allSettled([...this.pending]);
  }

  /** Settles once every try, retries included, has ended (tests). */
  async settled(): Promise<void> {
    while (this.pending.size > 0 || this.timers.size > 0) {
      if (this.pending.size > 0) await Promise.allSettled([...this.pending]);
      else await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  private async deliver(channel: ChannelRow, message: AlertMessage, notification: number | null): Promise<void> {
    const delivery = await this.logDelivery(channel, notification);
    const delays = this.options.retryDelaysMs ?? RETRY_DELAYS_MS;
    const attempt = async (attempts: number): Promise<void> => {
      const error = await sendThrough(channel.kind as ChannelKind, settingsOf(channel), message, this.options);
      if (!error) return this.updateDelivery(delivery, 'sent', attempts, null);
      const delay = delays[attempts - 1];
      if (delay === undefined) {
        this.options.log?.warn({ channel: channel.id, error }, 'notification not delivered');
        return this.updateDelivery(delivery, 'failed', attempts, error);
      }
      await this.updateDelivery(delivery, 'retrying', attempts, error);
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        this.track(attempt(attempts + 1));
      }, delay);
      timer.unref();
      this.timers.add(timer);
    };
    await attempt(1);
  }

  private track(work: Promise<unknown>): void {
    const tracked = work.catch((error: unknown) => this.options.log?.warn({ err: error }, 'notification failed'));
    this.pending.add(tracked);
    void tracked.finally(() => this.pending.delete(tracked));
  }

  private async logDelivery(channel: ChannelRow, notification: number | null): Promise<number> {
    const now = new Date().toISOString();
    const row = await this.db
      .insertInto('notification_deliveries')
      .values({
        workspace_id: channel.workspace_id,
        channel_id: channel.id,
        notification_id: notification,
        status: 'retrying',
        attempts: 0,
        error: null,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  private async updateDelivery(id: number, status: string, attempts: number, error: string | null): Promise<void> {
    await this.db
      .updateTable('notification_deliveries')
      .set({ status, attempts, error: error?.slice(0, 1000) ?? null, updated_at: new Date().toISOString() })
      .where('id', '=', id)
      .where(scopeCondition({ instance: true }, 'workspace_id'))
      .execute();
  }
}

function settingsOf(channel: ChannelRow): ChannelSettings {
  try {
    return JSON.parse(channel.settings) as ChannelSettings;
  } catch {
    return {};
  }
}
