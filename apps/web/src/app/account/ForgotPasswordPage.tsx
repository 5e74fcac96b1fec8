import { Alert, Button, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { trimAsTyped } from '../../components/form/trimAsTyped';
import { emailError, showServerErrors } from '../../shared/account/formErrors';
import { translateServerMessage } from '../../shared/errors/errorText';
import { AccountPageHeader } from './AccountPageHeader';
import { BackToLoginLink } from './BackToLoginLink';

/** Forgot password: the answer is the same whether or not an account has the email. */
export function ForgotPasswordPage() {
  const { t } = useTranslation();
  const [answer, setAnswer] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const form = useForm({
    initialValues: { email: '' },
    validate: {
      email: (value) => emailError(t, value),
    },
  });

  async function submit(values: { email: string }) {
    setFailure(null);
    setSubmitting(true);
    try {
      const result = await api<{ message: string }>('forgot-password', {
        method: 'POST',
        body: { email: values.email.trim() },
      });
      setAnswer(translateServerMessage(t, result.message));
    } catch (error) {
      setFailure(showServerErrors(t, error, form.setErrors));
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <Stack gap="lg">
      <AccountPageHeader title={t('account.forgot.title')} subtitle={t('account.forgot.subtitle')} />
      {answer ? (
        <Alert color="teal" role="status" title={t('account.forgot.sentTitle')}>
          {answer}
        </Alert>
      ) : (
        <>
          {failure && (
            <Alert color="red" role="alert">
              {failure}
            </Alert>
          )}
          <form onSubmit={form.onSubmit(submit)} noValidate>
            <Stack gap="md">
              <TextInput
                label={t('account.fields.email')}
                type="email"
                autoComplete="email"
                withAsterisk
                {...trimAsTyped(form.getInputProps('email'))}
              />
              <Button type="submit" fullWidth loading={submitting}>
                {t('account.forgot.submit')}
              </Button>
            </Stack>
          </form>
        </>
      )}
      <BackToLoginLink />
    </Stack>
  );
}
