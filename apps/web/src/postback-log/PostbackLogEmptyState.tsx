import { Button, EmptyState, Stack, Text } from '@mantine/core';
import { IconFilterOff, IconInbox, IconSend } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { usePostbackLogContext } from './PostbackLogContext';
import { PostbackUrl } from './PostbackUrl';

/** What an empty tab means: nothing matches the filters, or nothing has happened yet and how it will. */
export function PostbackLogEmptyState() {
  const { t } = useTranslation('postbacks');
  const { params } = usePostbackLogContext();
  if (params.filtered) {
    return (
      <EmptyState icon={<IconFilterOff aria-hidden />} title={t('empty.noMatch')} description={t('empty.noMatchHint')}>
        <Button variant="default" onClick={params.clearFilters}>
          {t('empty.clearFilters')}
        </Button>
      </EmptyState>
    );
  }
  if (params.tab === 'outbound') {
    return (
      <EmptyState
        icon={<IconSend aria-hidden />}
        title={t('empty.outboundTitle')}
        description={t('empty.outboundDescription')}
      />
    );
  }
  return (
    <EmptyState icon={<IconInbox aria-hidden />} title={t('empty.incomingTitle')}>
      <Stack align="center" gap="md" w="100%">
        <Text c="dimmed" ta="center" maw={640}>
          {t('empty.incomingDescription')}
        </Text>
        <PostbackUrl />
        <Text c="dimmed" size="sm" ta="center" maw={640}>
          {t('empty.incomingMacros')}
        </Text>
      </Stack>
    </EmptyState>
  );
}
