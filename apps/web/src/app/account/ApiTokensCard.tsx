import { Alert, Badge, Button, Card, Group, Modal, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import type { ApiToken, CreatedApiToken } from '@switchyard/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, api } from '../../api/client';
import { CopyValueButton } from '../../components/copy/CopyValueButton';
import { PermissionChecklist } from '../../components/permissions/PermissionChecklist';
import { permissionLabel } from '../../components/permissions/permissionLabel';
import { useCurrentUser } from '../../shared/auth/useCurrentUser';
import { errorText } from '../../shared/errors/errorText';
import { notify } from '../../shared/notify';

// The user's API tokens for the acting workspace — made with a name, a lifetime and some of
// the user's own permissions; the secret is shown once; each can be revoked.

const TOKENS_KEY = ['api-tokens'] as const;
const LIFETIMES = [7, 30, 90, 365] as const;

export function ApiTokensCard() {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const [creating, setCreating] = useState(false);
  const tokens = useQuery({
    queryKey: TOKENS_KEY,
    queryFn: ({ signal }) => api<{ list: ApiToken[] }>('tokens', { signal }).then((answer) => answer.list),
  });
  const revoke = useMutation({
    mutationFn: (id: number) => api<unknown>(`tokens/${id}`, { method: 'DELETE' }),
    onSuccess: () => {
      notify({ type: 'success', message: t('account.tokens.revoked') });
      return queryClient.invalidateQueries({ queryKey: TOKENS_KEY });
    },
    onError: (error) => notify({ type: 'danger', message: errorText(t, error) }),
  });
  const when = (iso: string | null) =>
    iso
      ? new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso))
      : '';

  return (
    <Card withBorder radius="md" padding="lg">
      <Stack gap="md">
        <Group justify="space-between" wrap="wrap">
          <Title order={2} size="h4">
            {t('account.tokens.title')}
          </Title>
          <Button variant="light" onClick={() => setCreating(true)}>
            {t('account.tokens.create')}
          </Button>
        </Group>
        <Text size="sm">{t('account.tokens.intro')}</Text>
        {tokens.isError ? (
          <Text c="red">{errorText(t, tokens.error)}</Text>
        ) : (tokens.data ?? []).length === 0 ? (
          <Text size="sm">{t('account.tokens.empty')}</Text>
        ) : (
          <Table.ScrollContainer minWidth={520}>
            <Table aria-label={t('account.tokens.title')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('account.tokens.name')}</Table.Th>
                  <Table.Th>{t('account.tokens.permissions')}</Table.Th>
                  <Table.Th>{t('account.tokens.expires')}</Table.Th>
                  <Table.Th>{t('account.tokens.lastUsed')}</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {(tokens.data ?? []).map((token) => (
                  <Table.Tr key={token.id}>
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>{token.name}</Table.Td>
                    <Table.Td>
                      <Group gap={4}>
                        {token.permissions.map((permission) => (
                          <Badge key={permission} variant="outline" tt="none" title={permission}>
                            {permissionLabel(t, permission)}
                          </Badge>
                        ))}
                      </Group>
                    </Table.Td>
                    <Table.Td>{when(token.expires_at)}</Table.Td>
                    <Table.Td>
                      {token.last_used_at
                        ? t('account.tokens.usedFrom', { when: when(token.last_used_at), ip: token.last_used_ip ?? '' })
                        : t('account.tokens.neverUsed')}
                    </Table.Td>
                    <Table.Td>
                      <Button
                        size="xs"
                        variant="light"
                        color="red"
                        loading={revoke.isPending && revoke.variables === token.id}
                        aria-label={t('account.tokens.revokeNamed', { name: token.name })}
                        onClick={() => revoke.mutate(token.id)}
                      >
                        {t('account.tokens.revoke')}
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
      <CreateTokenModal opened={creating} onClose={() => setCreating(false)} />
    </Card>
  );
}

function CreateTokenModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const user = useCurrentUser();
  const [name, setName] = useState('');
  const [days, setDays] = useState<string>('30');
  const [permissions, setPermissions] = useState<string[]>([]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [made, setMade] = useState<CreatedApiToken | null>(null);
  const create = useMutation({
    mutationFn: () =>
      api<CreatedApiToken>('tokens', {
        method: 'POST',
        body: {
          name: name.trim(),
          expires_at: new Date(Date.now() + Number(days) * 24 * 60 * 60 * 1000).toISOString(),
          permissions,
        },
      }),
    onSuccess: (token) => {
      setMade(token);
      setErrors({});
      return queryClient.invalidateQueries({ queryKey: TOKENS_KEY });
    },
    onError: (error) => {
      const fields = error instanceof ApiError ? error.fieldErrors() : {};
      setErrors(fields);
      if (Object.keys(fields).length === 0) notify({ type: 'danger', message: errorText(t, error) });
    },
  });
  const close = () => {
    setName('');
    setPermissions([]);
    setErrors({});
    setMade(null);
    onClose();
  };

  return (
    <Modal opened={opened} onClose={close} title={t('account.tokens.createTitle')} size="xl">
      {made ? (
        <Stack gap="md">
          <Alert color="green" title={t('account.tokens.madeTitle', { name: made.name })}>
            {t('account.tokens.madeText')}
          </Alert>
          <Group gap="xs" wrap="nowrap">
            <TextInput
              readOnly
              value={made.token}
              dir="ltr"
              style={{ flex: 1 }}
              aria-label={t('account.tokens.secret')}
              ff="monospace"
            />
            <CopyValueButton value={made.token} />
          </Group>
          <Group justify="flex-end">
            <Button onClick={close}>{t('account.tokens.done')}</Button>
          </Group>
        </Stack>
      ) : (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            create.mutate();
          }}
        >
          <Stack gap="md">
            <TextInput
              label={t('account.tokens.name')}
              required
              value={name}
              onChange={(event) => setName(event.currentTarget.value)}
              error={errors.name}
            />
            <Select
              label={t('account.tokens.lifetime')}
              data={LIFETIMES.map((value) => ({
                value: String(value),
                label: t('account.tokens.days', { count: value }),
              }))}
              value={days}
              onChange={(value) => setDays(value ?? '30')}
              allowDeselect={false}
              error={errors.expires_at}
            />
            <PermissionChecklist
              label={t('account.tokens.permissions')}
              description={t('account.tokens.permissionsHint')}
              value={permissions}
              onChange={setPermissions}
              grantable={user?.permissions ?? []}
              error={errors.permissions}
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                {t('account.tokens.cancel')}
              </Button>
              <Button type="submit" loading={create.isPending}>
                {t('account.tokens.createSubmit')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
