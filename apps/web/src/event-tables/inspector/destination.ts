import type { ClickReplay, LeadReplay, LoggedRecord, SimulationAnswer } from '@switchyard/domain';

// The click inspector: where a stored click or lead was sent when it was routed, and where its
// replay would send it today, in one shape so the two can be told apart and compared.

export type InspectedEvent = ClickReplay['click'] | LeadReplay['lead'];

export interface Destination {
  pathGroup: { id: string; name: string } | null;
  lander: { id: string; name: string } | null;
  offer: { id: string; name: string } | null;
  /** The routing reason (matched, backup_offer, no_matching_path_group, capped, no_offer…). */
  reason: string;
}

const shown = (record: LoggedRecord | null, id: string | null) =>
  id === null ? null : { id, name: record?.external_id === id && record.name ? record.name : id };

/** A stored path group's or path's name as today's flow names it (the event keeps ids only), else its id. */
export function partName(id: string | null, today: SimulationAnswer | null, part: 'groups' | 'paths'): string | null {
  if (id === null) return null;
  const list = part === 'groups' ? today?.groups : today?.probabilities.paths;
  return list?.find((entry) => entry.id === id)?.name ?? id;
}

/** Where the event was sent then; a record since deleted shows as its id. */
export function destinationThen(event: InspectedEvent, today: SimulationAnswer | null): Destination {
  const groupId = event.path_group_id;
  return {
    pathGroup: groupId === null ? null : { id: groupId, name: partName(groupId, today, 'groups') ?? groupId },
    lander: 'lander_external_id' in event ? shown(event.lander, event.lander_external_id) : null,
    offer: shown(event.offer, event.offer_external_id),
    reason: event.reason,
  };
}

/** Where the replay would send it today; null when its campaign is no longer active. */
export function destinationToday(today: SimulationAnswer | null): Destination | null {
  if (!today) return null;
  const named = (record: { external_id: string; name: string } | null) =>
    record ? { id: record.external_id, name: record.name } : null;
  return {
    pathGroup: today.path_group,
    lander: named(today.lander),
    offer: named(today.offer),
    reason: today.reason,
  };
}

/** Whether today's routing sends it where it went then: the same path group, lander and offer. */
export function sameDestination(then: Destination, today: Destination): boolean {
  return (
    then.pathGroup?.id === today.pathGroup?.id &&
    then.lander?.id === today.lander?.id &&
    then.offer?.id === today.offer?.id
  );
}
