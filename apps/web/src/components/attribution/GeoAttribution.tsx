import { Anchor, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * DB-IP's IP to City Lite data, which places visitors in regions and cities, is licensed CC BY 4.0:
 * wherever its results are shown, it is credited.
 */
export function GeoAttribution() {
  const { t } = useTranslation('common');
  return (
    <Text size="xs" c="dimmed">
      <Anchor href="https://db-ip.com" target="_blank" rel="noopener noreferrer" size="xs" c="dimmed">
        {t('geoAttribution')}
      </Anchor>
    </Text>
  );
}
