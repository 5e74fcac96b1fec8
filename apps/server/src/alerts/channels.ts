// Sending one message through one channel. Telegram: the Bot API's sendMessage (its base URL a setting,
// so that tests reach a local stand-in); Slack: the incoming webhook's JSON POST; a webhook: the alert as
// JSON, signed with HMAC-SHA256 of the body under the channel's secret; e-mail: the configured SMTP.
// Every HTTP call goes through the checked sender, so no channel reaches an internal address. (Slack's
// own @slack/webhook posts through axios, past that check, for what is one JSON POST.)
import { createHmac } from 'node:crypto';
import type { ChannelKind } from '@switchyard/domain';
import { sendOutbound } from '../http/outbound-request.js';
import type { TargetOptions } from '../http/outbound-targets.js';
import type { Mailer } from '../mail/mailer.js';

export interface AlertMessage {
  kind: string;
  title: string;
  body: string;
  link: string | null;
  /** The figures that decided it (a rule's values), for a webhook's body. */
  values?: Record<string, unknown>;
  workspaceId: number;
}

export interface ChannelSettings {
  bot_token?: string;
  chat_id?: string;
  webhook_url?: string;
  to?: string;
  url?: string;
  secret?: string;
}

export interface SendContext extends TargetOptions {
  mailer: Mailer | null;
  telegramApiUrl: string;
  timeoutMs: number;
  now?: () => Date;
}

export const SIGNATURE_HEADER = 'x-switchyard-signature';
export const TIMESTAMP_HEADER = 'x-switchyard-timestamp';

/** The signature a webhook receiver checks: `sha256=` and the hex HMAC of `timestamp.body`. */
export function webhookSignature(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** Sends once; answers null when delivered, else why not. */
export async function sendThrough(
  kind: ChannelKind,
  settings: ChannelSettings,
  message: AlertMessage,
  context: SendContext,
): Promise<string | null> {
  const text = [message.title, message.body, message.link].filter(Boolean).join('\n');
  if (kind === 'email') {
    if (!context.mailer) return 'No SMTP server is configured (SMTP_URL)';
    try {
      await context.mailer.send({
        to: settings.to ?? '',
        subject: message.title,
        text,
        html: `<pre>${escapeHtml(text)}</pre>`,
      });
      return null;
    } catch (error) {
      return error instanceof Error ? error.message.slice(0, 500) : String(error);
    }
  }
  const { url, body, headers } = request(kind, settings, message, text, context);
  const result = await sendOutbound(url, {
    timeoutMs: context.timeoutMs,
    allowPrivateTargets: context.allowPrivateTargets,
    ...(context.resolve ? { resolve: context.resolve } : {}),
    bodyLimit: 300,
    post: { body, headers: { 'content-type': 'application/json', ...headers } },
  });
  if (result.kind === 'refused') return result.reason;
  if (result.kind === 'failed') return result.error;
  const { status } = result.answer;
  if (status >= 200 && status < 300) return null;
  return `HTTP ${status}${result.answer.body ? `: ${result.answer.body.slice(0, 200)}` : ''}`;
}

function request(
  kind: Exclude<ChannelKind, 'email'>,
  settings: ChannelSettings,
  message: AlertMessage,
  text: string,
  context: SendContext,
): { url: string; body: string; headers: Record<string, string> } {
  if (kind === 'telegram') {
    const base = context.telegramApiUrl.replace(/\/+$/, '');
    return {
      url: `${base}/bot${settings.bot_token ?? ''}/sendMessage`,
      body: JSON.stringify({ chat_id: settings.chat_id, text, disable_web_page_preview: true }),
      headers: {},
    };
  }
  if (kind === 'slack') return { url: settings.webhook_url ?? '', body: JSON.stringify({ text }), headers: {} };
  const timestamp = String(Math.floor((context.now?.() ?? new Date()).getTime() / 1000));
  const body = JSON.stringify({
    kind: message.kind,
    title: message.title,
    body: message.body,
    link: message.link,
    values: message.values ?? {},
    workspace_id: message.workspaceId,
    sent_at: new Date(Number(timestamp) * 1000).toISOString(),
  });
  return {
    url: settings.url ?? '',
    body,
    headers: {
      [TIMESTAMP_HEADER]: timestamp,
      [SIGNATURE_HEADER]: webhookSignature(settings.secret ?? '', timestamp, body),
    },
  };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
