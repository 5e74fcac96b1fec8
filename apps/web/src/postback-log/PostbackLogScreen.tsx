import { Group, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconInbox, IconSend } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { IncomingPanel } from './IncomingPanel';
import { OutboundPanel } from './OutboundPanel';
import { PostbackLogBreadcrumbs } from './PostbackLogBreadcrumbs';
import { PostbackLogContext, type PostbackLogContextValue } from './PostbackLogContext';
import { RefreshControls } from './RefreshControls';
import { POSTBACK_LOG_REFRESH_MS } from './refresh';
import { type PostbackLogTab, usePostbackLogParams } from './usePostbackLogParams';

/** /tracker/reports/postbacks: incoming postbacks, matched or not, and the outbound postbacks queue. */
export function PostbackLogScreen() {
  const { t } = useTranslation('postbacks');
  const params = usePostbackLogParams();
  const [autoRefresh, setAutoRefresh] = useState(true);
  const context = useMemo<PostbackLogContextValue>(
    () => ({ params, refreshMs: autoRefresh ? POSTBACK_LOG_REFRESH_MS : false, autoRefresh, setAutoRefresh }),
    [params, autoRefresh],
  );

  return (
    <PostbackLogContext.Provider value={context}>
      <Stack gap="md">
        <PostbackLogBreadcrumbs />
        <Group justify="space-between" align="flex-start" wrap="wrap">
          <div>
            <Title order={2}>{t('title')}</Title>
            <Text c="dimmed" size="sm">
              {t('intro')}
            </Text>
          </div>
          <RefreshControls />
        </Group>
        <Tabs value={params.tab} onChange={(tab) => tab && params.setTab(tab as PostbackLogTab)} keepMounted={false}>
          <Tabs.List mb="md">
            <Tabs.Tab value="incoming" leftSection={<IconInbox size={16} aria-hidden />}>
              {t('tabs.incoming')}
            </Tabs.Tab>
            <Tabs.Tab value="outbound" leftSection={<IconSend size={16} aria-hidden />}>
              {t('tabs.outbound')}
            </Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="incoming">
            <IncomingPanel />
          </Tabs.Panel>
          <Tabs.Panel value="outbound">
            <OutboundPanel />
          </Tabs.Panel>
        </Tabs>
      </Stack>
    </PostbackLogContext.Provider>
  );
}
