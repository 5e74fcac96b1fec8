// The click inspector: what the event tables show beside a stored click or lead, added to its
// replay so that one link opens it — the names of the records it was routed to, and its conversions.
import type { ClickReplay, LoggedRecord, ReplayedClick, ReplayedLead } from '@switchyard/domain';
import type { Kysely } from 'kysely';
import { type RecordRef, recordNames } from '../postback-log/record-names.js';
import type { Database } from '../store/schema.js';
import type { Scope } from '../store/scope.js';
import { conversionsOf } from './click-conversions.js';

type Inspected = Pick<ClickReplay['click'], 'campaign' | 'flow' | 'offer' | 'lander' | 'conversions'>;

/** The records a click (tracker kinds) or a lead (API kinds) names, and its conversions. */
async function inspect(
  db: Kysely<Database>,
  event: ReplayedClick['click'] | ReplayedLead['lead'],
  scope: Scope,
): Promise<Inspected> {
  const tracker = 'click_id' in event;
  const campaign: RecordRef = {
    kind: tracker ? 'tracker-campaigns' : 'campaigns',
    external_id: event.campaign_external_id,
  };
  const refs: Record<'flow' | 'offer' | 'lander', RecordRef | null> = {
    flow: event.flow_external_id
      ? { kind: tracker ? 'tracker-flows' : 'flows', external_id: event.flow_external_id }
      : null,
    offer: event.offer_external_id
      ? { kind: tracker ? 'tracker-offers' : 'offers', external_id: event.offer_external_id }
      : null,
    lander:
      tracker && event.lander_external_id ? { kind: 'tracker-landers', external_id: event.lander_external_id } : null,
  };
  const id = tracker ? event.click_id : event.lead_id;
  const [named, conversions] = await Promise.all([
    recordNames(db, [campaign, ...Object.values(refs).filter((ref) => ref !== null)], scope),
    conversionsOf(db, tracker ? 'click_id' : 'lead_id', [id], scope),
  ]);
  const name = (ref: RecordRef | null): LoggedRecord | null => (ref ? named(ref) : null);
  const list = conversions.get(id) ?? [];
  return {
    campaign: named(campaign),
    flow: name(refs.flow),
    offer: name(refs.offer),
    lander: name(refs.lander),
    conversions: list,
  };
}

export async function inspectClick(db: Kysely<Database>, answer: ReplayedClick, scope: Scope) {
  return { ...answer, click: { ...answer.click, ...(await inspect(db, answer.click, scope)) } };
}

export async function inspectLead(db: Kysely<Database>, answer: ReplayedLead, scope: Scope) {
  const { lander: _lander, ...inspected } = await inspect(db, answer.lead, scope);
  return { ...answer, lead: { ...answer.lead, ...inspected } };
}
