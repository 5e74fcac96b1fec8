import { Alert, Button, Group, Modal, Select, Stack, Switch, Text } from '@mantine/core';
import { type AccountSettings, getResource } from '@switchyard/domain';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { useLookup } from '../../api/useLookup';
import { REGISTRATION_STATUS_KEY } from '../../shared/account/useRegistrationStatus';
import { errorText } from '../../shared/errors/errorText';
import { notify } from '../../shared/notify';
import { ACCOUNT_SETTINGS_KEY } from './invitationKeys';

const roles = getResource('roles');
const NO_ROLE = '';

/** Registration on or off (off by default), and the role a new account starts with. */
export function RegistrationSettingsModal({ opened, onClose }: { opened: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const settings = useQuery({
    queryKey: ACCOUNT_SETTINGS_KEY,
    queryFn: ({ signal }) => api<AccountSettings>('account-settings', { signal }),
    enabled: opened,
  });
  const roleOptions = [
    { value: NO_ROLE, label: t('account.settings.noRole') },
    ...useLookup(roles).map((option) => ({ value: String(option.value), label: option.label })),
  ];
  const [enabled, setEnabled] = useState(false);
  const [roleId, setRoleId] = useState(NO_ROLE);
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!settings.data) return;
    setEnabled(settings.data.registration_enabled);
    setRoleId(settings.data.registration_role_id === null ? NO_ROLE : String(settings.data.registration_role_id));
  }, [settings.data]);

  async function save() {
    setFailure(null);
    setSaving(true);
    try {
      const saved = await api<AccountSettings>('account-settings', {
        method: 'PUT',
        body: { registration_enabled: enabled, registration_role_id: roleId === NO_ROLE ? null : Number(roleId) },
      });
      queryClient.setQueryData(ACCOUNT_SETTINGS_KEY, saved);
      await queryClient.invalidateQueries({ queryKey: REGISTRATION_STATUS_KEY });
      notify({ type: 'success', message: t('account.settings.saved') });
      onClose();
    } catch (error) {
      setFailure(errorText(t, error));
    } finally {
      setSaving(false);
    }
  }

  return (
    <Modal opened={opened} onClose={onClose} title={t('account.settings.title')}>
      <Stack gap="md">
        {failure && (
          <Alert color="red" role="alert">
            {failure}
          </Alert>
        )}
        <Switch
          label={t('account.settings.enabled')}
          description={t('account.settings.enabledHint')}
          checked={enabled}
          onChange={(event) => setEnabled(event.currentTarget.checked)}
          disabled={!settings.data}
        />
        <Select
          label={t('account.settings.role')}
          data={roleOptions}
          value={roleId}
          onChange={(value) => setRoleId(value ?? NO_ROLE)}
          allowDeselect={false}
          disabled={!settings.data}
        />
        {settings.data && (
          <Text size="sm" c="dimmed">
            {settings.data.email_delivery ? t('account.settings.emailOn') : t('account.settings.emailOff')}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('account.invitations.cancel')}
          </Button>
          <Button onClick={save} loading={saving} disabled={!settings.data}>
            {t('account.settings.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
