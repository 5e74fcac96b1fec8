import { Anchor } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

export function BackToLoginLink() {
  const { t } = useTranslation();
  return (
    <Anchor component={Link} to="/login" size="sm">
      {t('account.links.backToLogin')}
    </Anchor>
  );
}
