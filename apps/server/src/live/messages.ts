// What a live message says of each kind of event: ids, time, campaign, offer, path group, visitor and
// bot verdict; cost and payout only to whom may see money (live/routes.ts masks them with withoutMoney).
// Built only while someone listens.
import type { NewConversion } from '../store/conversions.js';
import type { NewTrackerClick, NewTrackerLead } from '../store/tracker-events.js';
import type { LiveEvent } from './hub.js';

/** What a click's and a lead's messages both say: when, where it went, and who the visitor was. */
function routed(row: NewTrackerClick | NewTrackerLead) {
  return {
    time: row.created_at,
    campaign: row.campaign_external_id,
    offer: row.offer_external_id ?? null,
    path_group: row.path_group_id ?? null,
    country: row.country ?? null,
    device: row.device ?? null,
    unique: row.is_unique === 1,
    bot: row.is_bot === 1,
    bot_reason: row.bot_reason ?? null,
  };
}

export function clickEvent(row: NewTrackerClick, workspaceId: number | null): LiveEvent {
  return {
    kind: 'click',
    workspaceId,
    campaign: row.campaign_external_id,
    data: {
      id: row.click_id,
      ...routed(row),
      lander: row.lander_external_id ?? null,
      reason: row.reason ?? null,
      cost: row.cost ?? 0,
    },
  };
}

export function leadEvent(row: NewTrackerLead, workspaceId: number | null): LiveEvent {
  return {
    kind: 'lead',
    workspaceId,
    campaign: row.campaign_external_id,
    data: {
      id: row.lead_id,
      ...routed(row),
      decision: row.decision ?? null,
      reason: row.reason ?? null,
    },
  };
}

/** A new conversion, or one whose state a later postback moved (`change`). */
export function conversionEvent(
  row: NewConversion & { state: string },
  outcome: 'converted' | 'status_changed',
): LiveEvent {
  return {
    kind: 'conversion',
    workspaceId: row.workspace_id ?? null,
    campaign: row.campaign_external_id,
    data: {
      id: row.conversion_id,
      time: row.created_at,
      campaign: row.campaign_external_id,
      offer: row.offer_external_id ?? null,
      path_group: row.path_group_id ?? null,
      click_id: row.click_id ?? null,
      lead_id: row.lead_id ?? null,
      country: row.country ?? null,
      state: row.state,
      change: outcome === 'converted' ? 'new' : 'state',
      status: row.status ?? null,
      payout: row.payout,
      currency: row.currency,
    },
  };
}

export interface OutboundAttempt {
  id: number;
  conversionId: string;
  workspaceId: number | null;
  campaign: string | null;
  state: string;
  httpStatus: number;
  attempts: number;
  time: string;
}

/** An outbound postback's attempt; its URL stays out (it may carry the payout and the source's keys). */
export function postbackEvent(attempt: OutboundAttempt): LiveEvent {
  return {
    kind: 'postback',
    workspaceId: attempt.workspaceId,
    campaign: attempt.campaign,
    data: {
      id: attempt.id,
      time: attempt.time,
      campaign: attempt.campaign,
      conversion_id: attempt.conversionId,
      state: attempt.state,
      http_status: attempt.httpStatus,
      attempts: attempt.attempts,
    },
  };
}
