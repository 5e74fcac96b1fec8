import { PasswordInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { Profile } from '@switchyard/domain';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { confirmationError, newPasswordError } from '../../shared/account/formErrors';
import { notify } from '../../shared/notify';
import { AccountFormCard, useAccountSave } from './AccountFormCard';
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
  const form = useForm<PasswordValues>({
    initialValues: { current_password: '', password: '', confirmation: '' },
    validate: {
      current_password: (value) => (value ? null : t('validation.required')),
      password: (value) => newPasswordError(t, value),
      confirmation: (value, values) => confirmationError(t, value, values.password),
    },
  });

  const { failure, saving, save } = useAccountSave(form.setErrors);

  function submit(values: PasswordValues) {
    return save(async () => {
      const profile = await api<Profile>('profile/password', {
        method: 'POST',
        body: { current_password: values.current_password, password: values.password },
      });
      queryClient.setQueryData(PROFILE_KEY, profile);
      form.reset();
      notify({ type: 'success', message: t('account.profile.passwordChanged') });
    });
  }

  return (
    <AccountFormCard
      title={t('account.profile.passwordTitle')}
      submitLabel={t('account.profile.passwordSubmit')}
      onSubmit={form.onSubmit(submit)}
      failure={failure}
      saving={saving}
    >
      <PasswordInput
        label={t('account.fields.currentPassword')}
        autoComplete="current-password"
        withAsterisk
        {...form.getInputProps('current_password')}
      />
      <NewPasswordFields form={form} label="newPassword" />
    </AccountFormCard>
  );
}
