import { Alert, Text } from '@mantine/core';
import { IconAlertTriangle, IconPlayerPause, IconFilter as IconSampled } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { LIVE_KEEP, type LiveStream } from './useLiveStream';

/**
 * What a person must know to read the stream right: why it was refused, that it is thinned (the server
 * sends about one of every `rate` events past 50 a second), and how many events wait behind a pause.
 */
export function LiveNotices({ stream }: { stream: LiveStream }) {
  const { t } = useTranslation('events');
  const { connection, sampling, paused, held } = stream;
  return (
    <>
      {connection.status === 'refused' && (
        <Alert color="red" icon={<IconAlertTriangle size={18} aria-hidden />} title={t('live.refused.title')}>
          {connection.httpStatus === 401 ? t('live.refused.signedOut') : t('live.refused.forbidden')}
          {connection.message && (
            <Text size="sm" mt={4}>
              {connection.message}
            </Text>
          )}
        </Alert>
      )}
      {sampling?.sampled && (
        <Alert color="yellow" icon={<IconSampled size={18} aria-hidden />} role="status">
          {t('live.sampled', { rate: sampling.rate })}
        </Alert>
      )}
      {paused && (
        <Alert color="blue" icon={<IconPlayerPause size={18} aria-hidden />} role="status">
          {held > LIVE_KEEP ? t('live.heldDropped', { count: held, keep: LIVE_KEEP }) : t('live.held', { count: held })}
        </Alert>
      )}
    </>
  );
}
