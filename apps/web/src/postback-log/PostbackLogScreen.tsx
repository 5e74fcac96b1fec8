// The regions' names and codes, which this screen checks or shows (see vite.config.ts).
import '@switchyard/domain/region-data';
import { Group, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconFileImport, IconInbox, IconSend } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan } from '../shared/auth/useCan';
import { ImportPanel } from './ImportPanel';
import { IncomingPanel } from './IncomingPanel';
import { OutboundPanel } from './OutboundPanel';
import { PostbackLogBreadcrumbs } from './PostbackLogBreadcrumbs';
import { PostbackLogContext, type PostbackLogContextValue } from './PostbackLogContext';
import { RefreshControls } from './RefreshControls';
import { POSTBACK_LOG_REFRESH_MS } from './refresh';
import { type PostbackLogTab, usePostbackLogParams } from './usePostbackLogParams';

/**
 * /tracker/reports/postbacks: incoming postbacks, matched or not, the outbound postbacks queue, and for
 * whoever may create conversions, the import of conversions reported elsewhere.
 */
export function PostbackLogScreen() {
  const { t } = useTranslation('postbacks');
  const params = usePostbackLogParams();
  const canImport = useCan('general', 'conversion', 'create');
  // A link to the Import tab opened by someone who may not import shows the incoming postbacks.
  const tab = params.tab === 'import' && !canImport ? 'incoming' : params.tab;
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
            <Title order={1} size="h2">
              {t('title')}
            </Title>
            <Text c="dimmed" size="sm">
              {t('intro')}
            </Text>
          </div>
          <RefreshControls />
        </Group>
        <Tabs value={tab} onChange={(tab) => tab && params.setTab(tab as PostbackLogTab)} keepMounted={false}>
          <Tabs.List mb="md">
            <Tabs.Tab value="incoming" leftSection={<IconInbox size={16} aria-hidden />}>
              {t('tabs.incoming')}
            </Tabs.Tab>
            <Tabs.Tab value="outbound" leftSection={<IconSend size={16} aria-hidden />}>
              {t('tabs.outbound')}
            </Tabs.Tab>
            {canImport && (
              <Tabs.Tab value="import" leftSection={<IconFileImport size={16} aria-hidden />}>
                {t('tabs.import')}
              </Tabs.Tab>
            )}
          </Tabs.List>
          <Tabs.Panel value="incoming">
            <IncomingPanel />
          </Tabs.Panel>
          <Tabs.Panel value="outbound">
            <OutboundPanel />
          </Tabs.Panel>
          {canImport && (
            <Tabs.Panel value="import">
              <ImportPanel />
            </Tabs.Panel>
          )}
        </Tabs>
      </Stack>
    </PostbackLogContext.Provider>
  );
}
