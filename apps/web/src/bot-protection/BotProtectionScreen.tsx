import { Badge, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconRestore, IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useBotProtection } from '../api/useBotProtection';
import { ScreenHeader } from '../components/breadcrumbs/ScreenHeader';
import { ErrorAlert, QueryStatus } from '../components/feedback/QueryStatus';
import { useCan } from '../shared/auth/useCan';
import { AddNetwork } from './AddNetwork';
import { BotReasonsExplained } from './BotReasonsExplained';
import { NetworksTable } from './NetworksTable';
import { PasteNetworks } from './PasteNetworks';
import { useBotProtectionEditor } from './useBotProtectionEditor';

/**
 * /admin/bot-protection: what makes a click a bot, and the datacenter networks whose visitors
 * are bots. Server-wide like the registration settings: read and edited under the
 * instance's settings permission.
 */
export function BotProtectionScreen() {
  const { t } = useTranslation('resources');
  const canEdit = useCan('instance', 'settings', 'update');
  const settings = useBotProtection();
  const editor = useBotProtectionEditor(settings.data);
  const [search, setSearch] = useState('');

  const confirmRestore = () =>
    modals.openConfirmModal({
      title: t('bot-protection.restore.title'),
      children: <Text size="sm">{t('bot-protection.restore.text')}</Text>,
      labels: { confirm: t('bot-protection.restore.confirm'), cancel: t('confirm.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: editor.restore,
    });

  return (
    <Stack gap="md">
      <ScreenHeader title={t('bot-protection.title')} intro={t('bot-protection.intro')} />
      <BotReasonsExplained />
      {editor.formError && <ErrorAlert>{editor.formError}</ErrorAlert>}
      <QueryStatus query={settings} loadingLabel={t('list.loading')}>
        {() => (
          <>
            {canEdit && (
              <Paper withBorder p="md" radius="md">
                <Stack gap="md">
                  <Title order={2} size="h5">
                    {t('bot-protection.add.title')}
                  </Title>
                  <AddNetwork editor={editor} />
                  <PasteNetworks editor={editor} />
                </Stack>
              </Paper>
            )}
            <Paper withBorder radius="md">
              <Group justify="space-between" gap="xs" p="md" pb={0}>
                <Group gap="xs">
                  <Title order={2} size="h5">
                    {t('bot-protection.listTitle')} ({editor.rows.length})
                  </Title>
                  <Badge variant="light" color={settings.data?.is_default && !editor.changed ? 'gray' : 'blue'}>
                    {editor.changed
                      ? t('bot-protection.state.unsaved')
                      : settings.data?.is_default
                        ? t('bot-protection.state.shipped')
                        : t('bot-protection.state.edited')}
                  </Badge>
                </Group>
                <Group gap="xs" w={{ base: '100%', xs: 'auto' }}>
                  {canEdit && (
                    // Rarely wanted, so beside the list rather than in the save bar that follows the window.
                    <Button
                      variant="subtle"
                      color="red"
                      size="compact-sm"
                      leftSection={<IconRestore size={16} aria-hidden />}
                      onClick={confirmRestore}
                      disabled={editor.isSaving || (settings.data?.is_default && !editor.changed)}
                    >
                      {t('bot-protection.restore.button')}
                    </Button>
                  )}
                  <TextInput
                    aria-label={t('bot-protection.search')}
                    placeholder={t('bot-protection.search')}
                    leftSection={<IconSearch size={16} aria-hidden />}
                    value={search}
                    onChange={(event) => setSearch(event.currentTarget.value)}
                    type="search"
                    w={{ base: '100%', xs: 240 }}
                  />
                </Group>
              </Group>
              <NetworksTable editor={editor} canEdit={canEdit} search={search} />
            </Paper>
            {canEdit && (
              // Stays in sight at the bottom of the window while the operator works far down the list.
              <Paper withBorder p="sm" radius="md" shadow="sm" pos="sticky" bottom={8} style={{ zIndex: 2 }}>
                <Group justify="flex-end" gap="sm">
                  <Button variant="default" onClick={editor.discard} disabled={!editor.changed || editor.isSaving}>
                    {t('bot-protection.discard')}
                  </Button>
                  <Button onClick={editor.submit} loading={editor.isSaving} disabled={!editor.changed}>
                    {t('form.save')}
                  </Button>
                </Group>
              </Paper>
            )}
          </>
        )}
      </QueryStatus>
    </Stack>
  );
}
