import { Button, Group, Switch } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useIsFetching, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { usePostbackLogContext } from './PostbackLogContext';
import { postbackLogKeys } from './postbackLogKeys';
import { POSTBACK_LOG_REFRESH_MS } from './refresh';

/** The auto-refresh switch (pause it to read a page that keeps moving) and a Refresh button. */
export function RefreshControls() {
  const { t } = useTranslation('postbacks');
  const { autoRefresh, setAutoRefresh } = usePostbackLogContext();
  const queryClient = useQueryClient();
  const fetching = useIsFetching({ queryKey: postbackLogKeys.all }) > 0;
  return (
    <Group gap="md" wrap="nowrap">
      <Switch
        label={t('refresh.auto', { seconds: POSTBACK_LOG_REFRESH_MS / 1000 })}
        checked={autoRefresh}
        onChange={(event) => setAutoRefresh(event.currentTarget.checked)}
      />
      <Button
        variant="default"
        leftSection={<IconRefresh size={16} aria-hidden />}
        loading={fetching}
        onClick={() => void queryClient.invalidateQueries({ queryKey: postbackLogKeys.all })}
      >
        {t('refresh.button')}
      </Button>
    </Group>
  );
}
