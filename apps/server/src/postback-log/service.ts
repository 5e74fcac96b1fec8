// The postback log: incoming postbacks as the tracker logged them, each with the conversion it
// created and its campaign, and the outbound postbacks owed to traffic sources. Both newest first.
//
// A page is read from the log table alone (filters, order, limit), so it stays on the 0007 indexes
// whatever the joins; the conversion, click and lead rows are joined by unique keys, and record names
// are looked up once per page. Every value from the request is a bound parameter.

import type {
  ListResponse,
  OutboundPostbackEntry,
  OutboundState,
  PostbackLogEntry,
  PostbackOutcome,
  TOutboundPostbackQuery,
  TPostbackLogQuery,
} from '@switchyard/domain';
import {
  CONVERSION_STATES,
  type ConversionState,
  PAYOUT_PARAMETERS,
  PAYOUT_SOURCES,
  POSTBACK_OUTCOME_STATUS,
  POSTBACK_OUTCOMES,
} from '@switchyard/domain';
import type { ExpressionBuilder, Kysely } from 'kysely';
import { nextDay, startOfLocalDay } from '../report-plan/time.js';
import type { Database } from '../store/schema.js';
import { scopeCondition } from '../store/scope.js';
import { paramsOf } from '../traffic/rules/postback-rules.js';
import { namesInWorkspace, type RecordRef } from './record-names.js';

/** The config kinds a logged campaign can be: tracker campaigns take clicks, API campaigns leads. */
const TRACKER_CAMPAIGNS = 'tracker-campaigns';
const API_CAMPAIGNS = 'campaigns';
const POSTBACK_EVENTS = 'postback-events';

function parseRaw(text: string): Record<string, string> {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, string>) : {};
  } catch {
    return {};
  }
}

function asOutcome(text: string): PostbackOutcome {
  // Every outcome the tracker writes is listed; an unknown one (a newer node's) reads as unmatched.
  return (POSTBACK_OUTCOMES as readonly string[]).includes(text) ? (text as PostbackOutcome) : 'unknown_click';
}

function asState(text: string | null | undefined): ConversionState | null {
  return (CONVERSION_STATES as readonly string[]).includes(text ?? '') ? (text as ConversionState) : null;
}

function outboundState(state: string, attempts: number): OutboundState {
  if (state === 'sent') return 'sent';
  if (state === 'failed') return 'failed';
  return attempts > 0 ? 'retrying' : 'pending';
}

/**
 * Required: a workspace's rows (with `unkeyed`, also the refusals that named no workspace, which
 * only root sees), or the instance's.
 */
export type LogScope = { workspaceId: number; unkeyed?: boolean } | { instance: true };

export class PostbackLogService {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * `scope`: the acting workspace's rows; with `unkeyed`, also the refusals that named no
   * workspace (no key, a wrong key), which only root sees.
   */
  async incoming(query: TPostbackLogQuery, scope: LogScope): Promise<ListResponse<PostbackLogEntry>> {
    const from = query.date_from ? startOfLocalDay(query.date_from, query.timezone).toISOString() : undefined;
    const to = query.date_to ? startOfLocalDay(nextDay(query.date_to), query.timezone).toISOString() : undefined;
    const filter = (eb: ExpressionBuilder<Database, 'postback_log'>) => {
      const conditions = [];
      conditions.push(
        !('workspaceId' in scope)
          ? scopeCondition(scope, 'postback_log.workspace_id')
          : scope.unkeyed
            ? eb.or([
                eb('postback_log.workspace_id', '=', scope.workspaceId),
                eb('postback_log.workspace_id', 'is', null),
              ])
            : eb('postback_log.workspace_id', '=', scope.workspaceId),
      );
      if (query.outcome) conditions.push(eb('postback_log.outcome', '=', query.outcome));
      if (query.search) {
        conditions.push(
          eb.or([
            eb('postback_log.click_id', '=', query.search),
            eb('postback_log.txid', '=', query.search),
            eb('postback_log.conversion_id', '=', query.search),
          ]),
        );
      }
      if (from) conditions.push(eb('postback_log.created_at', '>=', from));
      if (to) conditions.push(eb('postback_log.created_at', '<', to));
      return eb.and(conditions);
    };

    const [rows, count] = await Promise.all([
      this.db
        .selectFrom((eb) =>
          eb
            .selectFrom('postback_log')
            .selectAll('postback_log')
            .where(filter)
            .orderBy('postback_log.created_at', 'desc')
            .orderBy('postback_log.id', 'desc')
            .limit(query.limit)
            .offset((query.page - 1) * query.limit)
            .as('p'),
        )
        .leftJoin('conversions as c', 'c.conversion_id', 'p.conversion_id')
        .leftJoin('tracker_clicks as k', 'k.click_id', 'p.click_id')
        .leftJoin('tracker_leads as l', 'l.lead_id', 'p.click_id')
        .select([
          'p.id',
          'p.created_at',
          'p.outcome',
          'p.click_id',
          'p.txid',
          'p.ip',
          'p.raw',
          'p.state as log_state',
          'p.previous_state',
          'p.reason',
          'p.workspace_id',
          'c.conversion_id',
          'c.state',
          'c.original_currency',
          'c.payout',
          'c.payout_source',
          'c.payout_rule_id',
          'c.revenue',
          'c.currency',
          'c.status',
          'c.postback_event_external_id',
          'c.is_conversion',
          'c.click_id as conversion_click_id',
          'c.campaign_external_id as conversion_campaign',
          'k.campaign_external_id as click_campaign',
          'l.campaign_external_id as lead_campaign',
        ])
        .orderBy('p.created_at', 'desc')
        .orderBy('p.id', 'desc')
        .execute(),
      this.db
        .selectFrom('postback_log')
        .select((eb) => eb.fn.countAll().as('total'))
        .where(filter)
        .executeTakeFirstOrThrow(),
    ]);

    const campaignOf = (row: (typeof rows)[number]): RecordRef | null => {
      if (row.conversion_campaign) {
        const kind = row.conversion_click_id ? TRACKER_CAMPAIGNS : API_CAMPAIGNS;
        return { kind, external_id: row.conversion_campaign };
      }
      if (row.click_campaign) return { kind: TRACKER_CAMPAIGNS, external_id: row.click_campaign };
      if (row.lead_campaign) return { kind: API_CAMPAIGNS, external_id: row.lead_campaign };
      return null;
    };
    const refs = rows.flatMap((row) => {
      const found: RecordRef[] = [];
      const campaign = campaignOf(row);
      if (campaign) found.push(campaign);
      if (row.postback_event_external_id) {
        found.push({ kind: POSTBACK_EVENTS, external_id: row.postback_event_external_id });
      }
      return found;
    });
    const named = await namesInWorkspace(this.db, refs);

    const list = rows.map((row): PostbackLogEntry => {
      const outcome = asOutcome(row.outcome);
      const campaign = campaignOf(row);
      return {
        id: Number(row.id),
        created_at: row.created_at,
        outcome,
        response_status: POSTBACK_OUTCOME_STATUS[outcome],
        click_id: row.click_id,
        txid: row.txid,
        ip: row.ip,
        raw: parseRaw(row.raw),
        sent: networkSaid(parseRaw(row.raw)),
        conversion: row.conversion_id
          ? {
              conversion_id: row.conversion_id,
              payout: Number(row.payout ?? 0),
              revenue: row.revenue === null ? null : Number(row.revenue),
              currency: row.currency ?? 'USD',
              status: row.status,
              event: row.postback_event_external_id
                ? named({ kind: POSTBACK_EVENTS, external_id: row.postback_event_external_id }, row.workspace_id)
                : null,
              is_conversion: Number(row.is_conversion) === 1,
              state: asState(row.state) ?? 'approved',
              payout_source: PAYOUT_SOURCES.find((source) => source === row.payout_source) ?? null,
              payout_rule_id: row.payout_rule_id,
              original_currency: row.original_currency,
            }
          : null,
        state: asState(row.log_state),
        previous_state: asState(row.previous_state),
        reason: row.reason,
        campaign: campaign ? named(campaign, row.workspace_id) : null,
      };
    });
    return { list, total: Number(count.total) };
  }

  async outbound(query: TOutboundPostbackQuery, scope: LogScope): Promise<ListResponse<OutboundPostbackEntry>> {
    const filter = (eb: ExpressionBuilder<Database, 'outbound_postbacks'>) => {
      const conditions = [];
      // An outbound postback belongs to its conversion's workspace.
      conditions.push(
        eb(
          'outbound_postbacks.conversion_id',
          'in',
          eb
            .selectFrom('conversions')
            .select('conversions.conversion_id')
            .where(scopeCondition(scope, 'conversions.workspace_id')),
        ),
      );
      switch (query.state) {
        case 'pending':
          conditions.push(eb('outbound_postbacks.state', '=', 'pending'), eb('outbound_postbacks.attempts', '=', 0));
          break;
        case 'retrying':
          conditions.push(eb('outbound_postbacks.state', '=', 'pending'), eb('outbound_postbacks.attempts', '>', 0));
          break;
        case 'sent':
        case 'failed':
          conditions.push(eb('outbound_postbacks.state', '=', query.state));
          break;
        case undefined:
          break;
      }
      if (query.search) {
        const search = query.search;
        conditions.push(
          eb.or([
            eb('outbound_postbacks.conversion_id', '=', search),
            eb(
              'outbound_postbacks.conversion_id',
              'in',
              eb
                .selectFrom('conversions')
                .select('conversions.conversion_id')
                .where((inner) => inner.or([inner('click_id', '=', search), inner('lead_id', '=', search)])),
            ),
          ]),
        );
      }
      return eb.and(conditions);
    };

    const [rows, count] = await Promise.all([
      this.db
        .selectFrom((eb) =>
          eb
            .selectFrom('outbound_postbacks')
            .selectAll('outbound_postbacks')
            .where(filter)
            .orderBy('outbound_postbacks.created_at', 'desc')
            .orderBy('outbound_postbacks.id', 'desc')
            .limit(query.limit)
            .offset((query.page - 1) * query.limit)
            .as('o'),
        )
        .leftJoin('conversions as c', 'c.conversion_id', 'o.conversion_id')
        .select([
          'o.id',
          'o.created_at',
          'o.url',
          'o.state',
          'o.attempts',
          'o.last_status',
          'o.last_error',
          'o.last_attempt_at',
          'o.next_attempt_at',
          'o.conversion_id',
          'c.click_id',
          'c.lead_id',
          'c.txid',
          'c.campaign_external_id',
          'c.workspace_id',
        ])
        .orderBy('o.created_at', 'desc')
        .orderBy('o.id', 'desc')
        .execute(),
      this.db
        .selectFrom('outbound_postbacks')
        .select((eb) => eb.fn.countAll().as('total'))
        .where(filter)
        .executeTakeFirstOrThrow(),
    ]);

    const campaignOf = (row: (typeof rows)[number]): RecordRef | null =>
      row.campaign_external_id
        ? { kind: row.click_id ? TRACKER_CAMPAIGNS : API_CAMPAIGNS, external_id: row.campaign_external_id }
        : null;
    const named = await namesInWorkspace(
      this.db,
      rows.map(campaignOf).filter((ref) => ref !== null),
    );

    const list = rows.map((row): OutboundPostbackEntry => {
      const attempts = Number(row.attempts);
      const state = outboundState(row.state, attempts);
      const campaign = campaignOf(row);
      return {
        id: Number(row.id),
        created_at: row.created_at,
        url: row.url,
        state,
        attempts,
        last_status: row.last_status === null ? null : Number(row.last_status),
        last_error: row.last_error,
        last_attempt_at: row.last_attempt_at,
        next_attempt_at: state === 'pending' || state === 'retrying' ? row.next_attempt_at : null,
        conversion_id: row.conversion_id,
        click_id: row.click_id,
        lead_id: row.lead_id,
        txid: row.txid,
        campaign: campaign ? named(campaign, row.workspace_id) : null,
      };
    });
    return { list, total: Number(count.total) };
  }
}

/** The status, payout and currency a logged postback carried, read with the postback's own aliases. */
function networkSaid(raw: Record<string, string>): {
  status: string | null;
  payout: string | null;
  currency: string | null;
} {
  const params = paramsOf(raw);
  const payoutName = PAYOUT_PARAMETERS.find((name) => raw[name] !== undefined && raw[name] !== '');
  return {
    status: params.status ?? null,
    payout: payoutName === undefined ? null : (raw[payoutName] ?? null),
    currency: params.currency ?? null,
  };
}
