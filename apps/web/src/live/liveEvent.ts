// What one message of `GET /api/live` says (apps/server/src/live/messages.ts), read defensively: a field
// the server leaves out (money without the money permission) or a kind it adds later reads as absent.

export const LIVE_KINDS = ['click', 'lead', 'conversion', 'postback'] as const;
export type LiveKind = (typeof LIVE_KINDS)[number];

export interface LiveEvent {
  /** The order it arrived in on its connection: a key for lists, as a conversion's id repeats on a change. */
  seq: number;
  kind: LiveKind;
  /** Unique per kind; a postback's is its attempt's number. */
  id: string;
  time: string;
  campaign: string | null;
  offer: string | null;
  pathGroup: string | null;
  country: string | null;
  device: string | null;
  /** Clicks and leads only; null for the others. */
  bot: boolean | null;
  botReason: string | null;
  /** Conversions only, and only for whoever may see money. */
  payout: number | null;
  currency: string | null;
  /** A conversion's or an outbound postback's state. */
  state: string | null;
  /** Whether the stream was thinned when this was sent, and to about one of every `rate`. */
  sampled: boolean;
  rate: number;
}

const text = (value: unknown): string | null =>
  typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : null;

export function isLiveKind(value: string): value is LiveKind {
  return (LIVE_KINDS as readonly string[]).includes(value);
}

/** One SSE message as a live event; null when it is of no kind this screen knows or is not JSON. */
export function liveEventOf(kind: string, json: string, seq = 0): LiveEvent | null {
  if (!isLiveKind(kind)) return null;
  let data: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(json);
    if (!parsed || typeof parsed !== 'object') return null;
    data = parsed as Record<string, unknown>;
  } catch {
    return null;
  }
  const routed = kind === 'click' || kind === 'lead';
  const rate = typeof data.rate === 'number' && data.rate >= 1 ? data.rate : 1;
  return {
    seq,
    kind,
    id: text(data.id) ?? '',
    time: text(data.time) ?? new Date().toISOString(),
    campaign: text(data.campaign),
    offer: text(data.offer),
    pathGroup: text(data.path_group),
    country: text(data.country),
    device: text(data.device),
    bot: routed ? data.bot === true : null,
    botReason: routed ? text(data.bot_reason) : null,
    payout: typeof data.payout === 'number' ? data.payout : null,
    currency: text(data.currency),
    state: text(data.state),
    sampled: data.sampled === true,
    rate,
  };
}
