import type { ClickReplay, LeadReplay, SimulationAnswer } from '@switchyard/domain';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { InspectedEvent } from './destination';

/** The event kinds the inspector opens: a click of a tracker campaign, a lead of an API campaign. */
export const INSPECTED_KINDS = ['clicks', 'leads'] as const;
export type InspectedKind = (typeof INSPECTED_KINDS)[number];

export function isInspectedKind(kind: string | undefined): kind is InspectedKind {
  return (INSPECTED_KINDS as readonly string[]).includes(kind ?? '');
}

export interface Inspection {
  event: InspectedEvent;
  replay: SimulationAnswer | null;
}

/**
 * `GET /api/events/{clicks|leads}/{id}/replay` — the stored event with its records and
 * conversions, and its context routed against today's configuration. Asked again on each visit: today's
 * routing is the point.
 */
export function useEventReplay(kind: InspectedKind, eventId: string) {
  return useQuery({
    queryKey: ['events', kind, 'replay', eventId],
    queryFn: async ({ signal }): Promise<Inspection> => {
      const path = `events/${kind}/${encodeURIComponent(eventId)}/replay`;
      if (kind === 'clicks') {
        const answer = await api<ClickReplay>(path, { signal });
        return { event: answer.click, replay: answer.replay };
      }
      const answer = await api<LeadReplay>(path, { signal });
      return { event: answer.lead, replay: answer.replay };
    },
    staleTime: 0,
    retry: false,
  });
}

/** The inspector of one event, keeping the event log's filters (`search`) for the way back. */
export function inspectorPath(kind: InspectedKind, eventId: string, search = ''): string {
  return `/tracker/reports/events/${kind}/${encodeURIComponent(eventId)}${search}`;
}
