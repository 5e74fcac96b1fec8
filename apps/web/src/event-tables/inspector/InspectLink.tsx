import { Anchor } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { type InspectedKind, inspectorPath } from './useEventReplay';

/** An event log row's id, opening the event in the inspector with the log's filters kept. */
export function InspectLink({ kind, eventId }: { kind: InspectedKind; eventId: string }) {
  const { t } = useTranslation('events');
  const { search } = useLocation();
  const label = t(kind === 'clicks' ? 'inspector.openClick' : 'inspector.openLead', { id: eventId });
  return (
    <Anchor component={Link} to={inspectorPath(kind, eventId, search)} size="sm" ff="monospace" title={label}>
      {eventId}
    </Anchor>
  );
}
