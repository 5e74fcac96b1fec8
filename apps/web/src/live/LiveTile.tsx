import { Anchor, Card, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LiveConnectionBadge } from './LiveConnectionBadge';
import { LiveEventTable } from './LiveEventTable';
import { useLiveStream } from './useLiveStream';

/** Events the dashboard's tile shows. */
export const TILE_EVENTS = 8;

/** The live tile on the dashboard: the newest events of the live stream, with the way to the live view. */
export function LiveTile() {
  const { t } = useTranslation('events');
  const stream = useLiveStream();
  const latest = stream.events.slice(0, TILE_EVENTS);
  return (
    <Card withBorder padding="md" radius="md" component="section" aria-labelledby="live-tile-title">
      <Group justify="space-between" mb="sm" gap="xs">
        <Text fw={700} size="lg" id="live-tile-title" component="h2">
          {t('live.tile.title')}
        </Text>
        <LiveConnectionBadge connection={stream.connection} />
      </Group>
      {stream.connection.status === 'refused' ? (
        <Text size="sm" c="red.8">
          {stream.connection.httpStatus === 401 ? t('live.refused.signedOut') : t('live.refused.forbidden')}
        </Text>
      ) : latest.length > 0 ? (
        <LiveEventTable events={latest} compact />
      ) : (
        <Text size="sm" c="dimmed">
          {t('live.tile.empty')}
        </Text>
      )}
      <Anchor component={Link} to="/tracker/live" size="sm" mt="sm" display="inline-block">
        {t('live.tile.open')}
      </Anchor>
    </Card>
  );
}
