import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** §2.4: the year and a theme credit. */
export function Footer() {
  const { t } = useTranslation();
  return (
    <footer className="sy-footer">
      <Text size="sm" c="dimmed">
        © {new Date().getFullYear()} {t('app.footerCredit')}
      </Text>
    </footer>
  );
}
