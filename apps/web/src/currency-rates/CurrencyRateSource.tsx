import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { CurrencyRate } from '../api/useCurrencyRates';

/** Where a rate comes from: the snapshot shipped with Switchyard, or an administrator; a new row says New. */
export function CurrencyRateSource({ rate }: { rate: CurrencyRate | null }) {
  const { t } = useTranslation('resources');
  const source = rate?.source ?? 'new';
  const color = source === 'admin' ? 'blue' : source === 'new' ? 'teal' : 'gray';
  return (
    <Badge color={color} variant="light" size="sm" miw="max-content" data-source={source}>
      {t(`currency-rates.sources.${source}`)}
    </Badge>
  );
}
