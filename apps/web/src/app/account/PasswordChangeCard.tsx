import { Alert, Button, Card, Group, PasswordInput, Stack, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { Profile } from '@switchyard/domain';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { confirmationError, newPasswordError, showServerErrors } from '../../shared/account/formErrors';
import { notify } from '../../shared/notify';
import { NewPasswordFields } from './NewPasswordFields';
import { PROFILE_KEY } from './useProfile';

interface PasswordValues {
  current_password: string;
  password: string;
  confirmation: string;
}

/** A new password needs the current one; the other sessions end, this one stays. */
export function PasswordChangeCard() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const form = useForm<PasswordValues>({
    initialValues: { current_password: '', password: '', confirmation: '' },
    validate: {
      current_password: (value) => (value ? null : t('validation.required')),
      password: (value) => newPasswordError(t, value),
      confirmation: (value, values) => confirmationError(t, value, values.password),
    },
  });

  async function submit(values: PasswordValues) {
    setFailure(null);
    setSaving(true);
    try {
      const profile = await api<Profile>('profile/password', {
        method: 'POST',
        body: { current_password: values.current_password, password: values.password },
      });
      queryClient.setQueryData(PROFILE_KEY, profile);
      form.reset();
      notify({ type: 'success', message: t('account.profile.passwordChanged') });
    } catch (error) {
      setFailure(showServerErrors(t, error, form.setErrors));
    } finally {
      setSaving(false);
    }
  }

  return (
    <Card withBorder radius="md" padding="lg">
      <form onSubmit={form.onSubmit(submit)} noValidate>
        <Stack gap="md">
          <Title order={2} size="h4">
            {t('account.profile.passwordTitle')}
          </Title>
          {failure && (
            <Alert color="red" role="alert">
              {failure}
            </Alert>
          )}
          <PasswordInput
            label={t('account.fields.currentPassword')}
            autoComplete="current-password"
            withAsterisk
            {...form.getInputProps('current_password')}
          />
          <NewPasswordFields form={form} label="newPassword" />
          <Group justify="flex-end">
            <Button type="submit" loading={saving}>
              {t('account.profile.passwordSubmit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
