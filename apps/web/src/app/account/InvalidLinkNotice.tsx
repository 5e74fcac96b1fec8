import { Alert, Anchor, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { BackToLoginLink } from './BackToLoginLink';

/** A link that did not work: wrong, used, revoked or expired, all told alike. */
export function InvalidLinkNotice({ message, offerReset = false }: { message: string; offerReset?: boolean }) {
  const { t } = useTranslation();
  return (
    <Stack gap="md">
      <Alert color="red" role="alert">
        {message}
      </Alert>
      {offerReset && (
        <Anchor component={Link} to="/forgot-password" size="sm">
          {t('account.reset.again')}
        </Anchor>
      )}
      <BackToLoginLink />
    </Stack>
  );
}
