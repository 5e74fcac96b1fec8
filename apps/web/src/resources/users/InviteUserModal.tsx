import { Alert, Button, Group, Modal, MultiSelect, Select, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { getResource, type InvitationResult, LANGUAGES, type Language, type TInvitationForm } from '@switchyard/domain';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { useLookup } from '../../api/useLookup';
import { trimAsTyped } from '../../components/form/trimAsTyped';
import { PermissionChecklist } from '../../components/permissions/PermissionChecklist';
import { isLanguage, LANGUAGE_NAMES } from '../../i18n';
import { emailError, showServerErrors } from '../../shared/account/formErrors';
import { notify } from '../../shared/notify';
import { INVITATIONS_KEY } from './invitationKeys';
import { LinkCopyField } from './LinkCopyField';

const roles = getResource('roles');
const workspaces = getResource('workspaces');
const LANGUAGE_OPTIONS = LANGUAGES.map((language) => ({ value: language, label: LANGUAGE_NAMES[language] }));
interface InviteValues {
  email: string;
  name: string;
  roles: string[];
  workspaces: string[];
  permissions: string[];
  language: Language;
}

export interface InviteUserModalProps {
  opened: boolean;
  onClose(): void;
  /** When given, the modal shows this result (a re-sent invitation) instead of the form. */
  result?: InvitationResult | null;
}

/** Invites an email with roles, workspaces and permissions; without SMTP the link is shown to copy. */
export function InviteUserModal({ opened, onClose, result: given }: InviteUserModalProps) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const roleOptions = useLookup(roles).map((option) => ({ value: String(option.value), label: option.label }));
  const workspaceOptions = useLookup(workspaces).map((option) => ({
    value: String(option.value),
    label: option.label,
  }));
  const [created, setCreated] = useState<InvitationResult | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const form = useForm<InviteValues>({
    initialValues: {
      email: '',
      name: '',
      roles: [],
      workspaces: [],
      permissions: [],
      language: isLanguage(i18n.language) ? i18n.language : 'en',
    },
    validate: {
      email: (value) => emailError(t, value),
    },
  });
  const shown = given ?? created;

  function close() {
    setCreated(null);
    setFailure(null);
    form.reset();
    onClose();
  }

  async function submit(values: InviteValues) {
    setFailure(null);
    setSending(true);
    const body: TInvitationForm = {
      ...values,
      email: values.email.trim(),
      name: values.name.trim(),
      roles: values.roles.map(Number),
      workspaces: values.workspaces.map(Number),
    };
    try {
      const result = await api<InvitationResult>('invitations', { method: 'POST', body });
      await queryClient.invalidateQueries({ queryKey: INVITATIONS_KEY });
      if (result.delivery.sent) {
        notify({ type: 'success', message: t('account.invitations.sentTo', { email: result.invitation.email }) });
        close();
      } else {
        setCreated(result);
      }
    } catch (error) {
      setFailure(showServerErrors(t, error, form.setErrors));
    } finally {
      setSending(false);
    }
  }

  return (
    <Modal opened={opened} onClose={close} title={t('account.invitations.inviteTitle')} size="lg">
      {shown ? (
        <Stack gap="md">
          {shown.delivery.link ? (
            <>
              <Alert color="yellow" title={t('account.invitations.linkTitle')}>
                {t('account.invitations.linkText', { email: shown.invitation.email })}
              </Alert>
              <LinkCopyField label={t('account.invitations.link')} link={shown.delivery.link} />
            </>
          ) : (
            <Alert color="teal">{t('account.invitations.sentTo', { email: shown.invitation.email })}</Alert>
          )}
          <Group justify="flex-end">
            <Button onClick={close}>{t('account.invitations.done')}</Button>
          </Group>
        </Stack>
      ) : (
        <form onSubmit={form.onSubmit(submit)} noValidate>
          <Stack gap="md">
            {failure && (
              <Alert color="red" role="alert">
                {failure}
              </Alert>
            )}
            <TextInput
              label={t('account.fields.email')}
              type="email"
              withAsterisk
              autoComplete="off"
              {...trimAsTyped(form.getInputProps('email'))}
            />
            <TextInput
              label={t('account.fields.name')}
              description={t('account.invitations.nameHint')}
              autoComplete="off"
              {...trimAsTyped(form.getInputProps('name'))}
            />
            <MultiSelect
              label={t('account.invitations.roles')}
              data={roleOptions}
              searchable
              clearable
              {...form.getInputProps('roles')}
            />
            <MultiSelect
              label={t('account.invitations.workspaces')}
              data={workspaceOptions}
              searchable
              clearable
              {...form.getInputProps('workspaces')}
            />
            <PermissionChecklist
              label={t('account.invitations.permissions')}
              value={form.values.permissions}
              onChange={(permissions) => form.setFieldValue('permissions', permissions)}
              error={form.errors.permissions}
            />
            <Select
              label={t('account.invitations.language')}
              data={LANGUAGE_OPTIONS}
              allowDeselect={false}
              {...form.getInputProps('language')}
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                {t('account.invitations.cancel')}
              </Button>
              <Button type="submit" loading={sending}>
                {t('account.invitations.send')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
