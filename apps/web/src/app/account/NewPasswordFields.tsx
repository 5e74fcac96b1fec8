import { PasswordInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useTranslation } from 'react-i18next';

interface NewPasswordValues {
  password: string;
  confirmation: string;
}

/**
 * A new password and its confirmation, as every account form asks for them (register, accept an
 * invitation, reset, change). `label` names the first field: "Password" or "New password".
 */
export function NewPasswordFields<T extends NewPasswordValues>({
  form,
  label = 'password',
}: {
  form: UseFormReturnType<T>;
  label?: 'password' | 'newPassword';
}) {
  const { t } = useTranslation();
  return (
    <>
      <PasswordInput
        label={t(`account.fields.${label}`)}
        description={t('account.passwordHint')}
        autoComplete="new-password"
        withAsterisk
        {...form.getInputProps('password')}
      />
      <PasswordInput
        label={t('account.fields.confirmPassword')}
        autoComplete="new-password"
        withAsterisk
        {...form.getInputProps('confirmation')}
      />
    </>
  );
}
