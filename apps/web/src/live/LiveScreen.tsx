// The regions' names and codes, which this screen checks or shows (see vite.config.ts).
import '@switchyard/domain/region-data';
import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconPlayerPause, IconPlayerPlay } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ScreenBreadcrumbs } from '../components/breadcrumbs/ScreenBreadcrumbs';
import { LiveConnectionBadge } from './LiveConnectionBadge';
import { LiveEventTable } from './LiveEventTable';
import { LiveFilters } from './LiveFilters';
import { LiveNotices } from './LiveNotices';
import { useLiveParams } from './useLiveParams';
import { LIVE_KEEP, useLiveStream } from './useLiveStream';

/**
 * The live view: the workspace's clicks, leads, conversions and outbound postbacks as they
 * happen, newest first, of one campaign or all, with a pause that holds what arrives until resumed.
 */
export function LiveScreen() {
  const { t } = useTranslation('events');
  const [params, setParams] = useLiveParams();
  const stream = useLiveStream(params.campaign);
  const shown = stream.events.filter((event) => params.kinds.includes(event.kind));

  return (
    <Stack gap="md">
      <ScreenBreadcrumbs title={t('live.title')} parent={{ to: '/tracker/reports', label: t('common:menu.reports') }} />
      <Group justify="space-between" align="flex-start" gap="sm">
        <div>
          <Title order={1} size="h2">
            {t('live.title')}
          </Title>
          <Text c="dimmed">{t('live.intro', { keep: LIVE_KEEP })}</Text>
        </div>
        <Group gap="sm">
          <LiveConnectionBadge connection={stream.connection} />
          <Button
            variant={stream.paused ? 'filled' : 'default'}
            leftSection={
              stream.paused ? <IconPlayerPlay size={16} aria-hidden /> : <IconPlayerPause size={16} aria-hidden />
            }
            onClick={stream.paused ? stream.resume : stream.pause}
          >
            {stream.paused ? t('live.resume') : t('live.pause')}
          </Button>
        </Group>
      </Group>
      <LiveFilters params={params} seen={stream.events.map((event) => event.campaign)} onChange={setParams} />
      <LiveNotices stream={stream} />
      <Paper withBorder radius="md" p="xs">
        {shown.length > 0 ? (
          <LiveEventTable events={shown} />
        ) : (
          <Text c="dimmed" ta="center" py="lg">
            {stream.events.length > 0 ? t('live.noneOfKinds') : t('live.empty')}
          </Text>
        )}
      </Paper>
    </Stack>
  );
}
