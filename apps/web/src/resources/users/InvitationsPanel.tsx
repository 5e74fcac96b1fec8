import { ActionIcon, Badge, Button, Card, Group, Stack, Table, Text, Title, Tooltip } from '@mantine/core';
import type { Invitation, InvitationResult } from '@switchyard/domain';
import { IconMailForward, IconSend, IconSettings, IconTrash } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, apiList } from '../../api/client';
import { formatDateTime } from '../../components/list/formatDateTime';
import { useCan } from '../../shared/auth/useCan';
import { errorText } from '../../shared/errors/errorText';
import { notify } from '../../shared/notify';
import { InviteUserModal } from './InviteUserModal';
import { INVITATIONS_KEY } from './invitationKeys';
import { RegistrationSettingsModal } from './RegistrationSettingsModal';

/** Under the user list: pending invitations (re-send, revoke), inviting, and the registration settings. */
export function InvitationsPanel() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const canInvite = useCan('general', 'user', 'create');
  // Registration is the instance's setting, not the user managers'.
  const canSetUp = useCan('instance', 'settings', 'update');
  const invitations = useQuery({
    queryKey: INVITATIONS_KEY,
    queryFn: ({ signal }) => apiList<Invitation>('invitations', { signal }),
  });
  const [inviting, setInviting] = useState(false);
  const [resent, setResent] = useState<InvitationResult | null>(null);
  const [settingsOpen, setSettingsOpen] = useState(false);

  async function act(invitation: Invitation, action: 'resend' | 'revoke') {
    try {
      const result = await api<InvitationResult | Invitation>(`invitations/${invitation.id}/${action}`, {
        method: 'POST',
      });
      await queryClient.invalidateQueries({ queryKey: INVITATIONS_KEY });
      if (action === 'revoke') {
        notify({ type: 'success', message: t('account.invitations.revoked') });
      } else {
        const sent = result as InvitationResult;
        if (sent.delivery.sent)
          notify({ type: 'success', message: t('account.invitations.sentTo', { email: invitation.email }) });
        else setResent(sent);
      }
    } catch (error) {
      notify({ type: 'danger', message: errorText(t, error) });
    }
  }

  const list = invitations.data?.list ?? [];
  return (
    <Card withBorder radius="md" padding="lg">
      <Stack gap="md">
        <Group justify="space-between">
          <Title order={2} size="h4">
            {t('account.invitations.title')}
          </Title>
          <Group gap="xs">
            {canSetUp && (
              <Button
                variant="default"
                leftSection={<IconSettings size={16} aria-hidden />}
                onClick={() => setSettingsOpen(true)}
              >
                {t('account.settings.button')}
              </Button>
            )}
            {canInvite && (
              <Button leftSection={<IconSend size={16} aria-hidden />} onClick={() => setInviting(true)}>
                {t('account.invitations.invite')}
              </Button>
            )}
          </Group>
        </Group>
        {list.length === 0 ? (
          <Text c="dimmed" size="sm">
            {t('account.invitations.empty')}
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={560}>
            <Table verticalSpacing="xs" aria-label={t('account.invitations.title')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('account.fields.email')}</Table.Th>
                  <Table.Th>{t('account.invitations.status')}</Table.Th>
                  <Table.Th>{t('account.invitations.expires')}</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.map((invitation) => (
                  <Table.Tr key={invitation.id}>
                    <Table.Td>{invitation.email}</Table.Td>
                    <Table.Td>
                      <Badge variant="light" color={invitation.status === 'pending' ? 'blue' : 'gray'}>
                        {t(`account.invitations.statuses.${invitation.status}`)}
                      </Badge>
                    </Table.Td>
                    <Table.Td>{formatDateTime(invitation.expires_at)}</Table.Td>
                    <Table.Td>
                      {canInvite && (
                        <Group gap={4} justify="flex-end" wrap="nowrap">
                          <Tooltip label={t('account.invitations.resend')}>
                            <ActionIcon
                              variant="subtle"
                              aria-label={t('account.invitations.resendTo', { email: invitation.email })}
                              onClick={() => act(invitation, 'resend')}
                            >
                              <IconMailForward size={18} />
                            </ActionIcon>
                          </Tooltip>
                          <Tooltip label={t('account.invitations.revoke')}>
                            <ActionIcon
                              variant="subtle"
                              color="red"
                              aria-label={t('account.invitations.revokeFor', { email: invitation.email })}
                              onClick={() => act(invitation, 'revoke')}
                            >
                              <IconTrash size={18} />
                            </ActionIcon>
                          </Tooltip>
                        </Group>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
      <InviteUserModal opened={inviting} onClose={() => setInviting(false)} />
      <InviteUserModal opened={resent !== null} onClose={() => setResent(null)} result={resent} />
      <RegistrationSettingsModal opened={settingsOpen} onClose={() => setSettingsOpen(false)} />
    </Card>
  );
}
