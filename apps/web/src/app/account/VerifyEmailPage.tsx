import { Alert, Center, Loader, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { api } from '../../api/client';
import { errorText } from '../../shared/errors/errorText';
import { AccountPageHeader } from './AccountPageHeader';
import { BackToLoginLink } from './BackToLoginLink';
import { InvalidLinkNotice } from './InvalidLinkNotice';

/** /verify-email/:token — confirms the address of a self-registered account, once. */
export function VerifyEmailPage() {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  // A query, not an effect: one request per token even when the page renders twice.
  const verification = useQuery({
    queryKey: ['account', 'verify-email', token],
    queryFn: () => api('verify-email', { method: 'POST', body: { token } }),
    enabled: token !== '',
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
  });

  return (
    <Stack gap="lg">
      <AccountPageHeader title={t('account.verify.title')} />
      {!token || verification.isError ? (
        <InvalidLinkNotice
          message={verification.isError ? errorText(t, verification.error) : t('account.messages.invalidLink')}
        />
      ) : verification.isSuccess ? (
        <>
          <Alert color="teal" role="status">
            {t('account.verify.done')}
          </Alert>
          <BackToLoginLink />
        </>
      ) : (
        <Center py="md">
          <Loader aria-label={t('account.verify.checking')} />
        </Center>
      )}
    </Stack>
  );
}
