import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import type { Profile } from '@switchyard/domain';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { errorText } from '../../shared/errors/errorText';
import { notify } from '../../shared/notify';
import { PROFILE_KEY } from './useProfile';

/** How many sessions the user has, and a way to end all but this one. */
export function SessionsCard({ profile }: { profile: Profile }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);

  async function signOutOthers() {
    setBusy(true);
    try {
      const fresh = await api<Profile>('profile/sign-out-others', { method: 'POST' });
      queryClient.setQueryData(PROFILE_KEY, fresh);
      notify({ type: 'success', message: t('account.profile.signedOutOthers') });
    } catch (error) {
      notify({ type: 'danger', message: errorText(t, error) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card withBorder radius="md" padding="lg">
      <Stack gap="md">
        <Title order={2} size="h4">
          {t('account.profile.sessionsTitle')}
        </Title>
        <Text size="sm">{t('account.profile.sessionsText', { count: profile.sessions })}</Text>
        <Group justify="flex-end">
          <Button variant="light" color="red" onClick={signOutOthers} loading={busy} disabled={profile.sessions <= 1}>
            {t('account.profile.signOutOthers')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
