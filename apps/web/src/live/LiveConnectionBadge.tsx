import { Badge, type MantineColor } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { LiveConnectionState } from './liveConnection';

const COLORS: Record<LiveConnectionState['status'], MantineColor> = {
  connecting: 'gray',
  live: 'teal',
  reconnecting: 'orange',
  refused: 'red',
};

/** Whether the stream is open: connecting, live, reconnecting, or refused (an error). */
export function LiveConnectionBadge({ connection }: { connection: LiveConnectionState }) {
  const { t } = useTranslation('events');
  return (
    <Badge
      color={COLORS[connection.status]}
      variant="dot"
      size="lg"
      tt="none"
      role="status"
      data-status={connection.status}
      miw="max-content"
    >
      {t(`live.connection.${connection.status}`)}
    </Badge>
  );
}
