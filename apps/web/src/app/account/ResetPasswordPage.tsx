import { Alert, Button, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { ACCOUNT_MESSAGES } from '@switchyard/domain';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { ApiError, api } from '../../api/client';
import { confirmationError, newPasswordError, showServerErrors } from '../../shared/account/formErrors';
import { notify } from '../../shared/notify';
import { AccountPageHeader } from './AccountPageHeader';
import { InvalidLinkNotice } from './InvalidLinkNotice';
import { NewPasswordFields } from './NewPasswordFields';

interface ResetValues {
  password: string;
  confirmation: string;
}

function isInvalidLink(error: unknown): boolean {
  return error instanceof ApiError && error.message === ACCOUNT_MESSAGES.invalidLink;
}

/** /reset-password/:token — the emailed link; it sets a new password once and ends every session. */
export function ResetPasswordPage() {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const [failure, setFailure] = useState<string | null>(null);
  const [linkFailed, setLinkFailed] = useState(!token);
  const [submitting, setSubmitting] = useState(false);
  const form = useForm<ResetValues>({
    initialValues: { password: '', confirmation: '' },
    validate: {
      password: (value) => newPasswordError(t, value),
      confirmation: (value, values) => confirmationError(t, value, values.password),
    },
  });

  async function submit(values: ResetValues) {
    setFailure(null);
    setSubmitting(true);
    try {
      await api('reset-password', { method: 'POST', body: { token, password: values.password } });
      notify({ type: 'success', message: t('account.reset.done') });
      navigate('/login', { replace: true });
    } catch (error) {
      setSubmitting(false);
      setLinkFailed(isInvalidLink(error));
      setFailure(showServerErrors(t, error, form.setErrors));
    }
  }

  return (
    <Stack gap="lg">
      <AccountPageHeader title={t('account.reset.title')} subtitle={t('account.reset.subtitle')} />
      {linkFailed ? (
        <InvalidLinkNotice message={failure ?? t('account.messages.invalidLink')} offerReset />
      ) : (
        <>
          {failure && (
            <Alert color="red" role="alert">
              {failure}
            </Alert>
          )}
          <form onSubmit={form.onSubmit(submit)} noValidate>
            <Stack gap="md">
              <NewPasswordFields form={form} label="newPassword" />
              <Button type="submit" fullWidth loading={submitting}>
                {t('account.reset.submit')}
              </Button>
            </Stack>
          </form>
        </>
      )}
    </Stack>
  );
}
