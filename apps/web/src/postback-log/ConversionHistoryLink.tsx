import { Anchor } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { usePostbackLogContext } from './PostbackLogContext';

/**
 * A conversion's id; following it lists every postback of that conversion (the log's search matches a
 * conversion id exactly), so its history reads from lead to sale to chargeback.
 */
export function ConversionHistoryLink({ conversionId }: { conversionId: string }) {
  const { t } = useTranslation('postbacks');
  const { params } = usePostbackLogContext();
  return (
    <Anchor
      component="button"
      type="button"
      size="xs"
      ff="monospace"
      dir="ltr"
      title={conversionId}
      aria-label={t('history.show', { id: conversionId })}
      onClick={() => params.showConversion(conversionId)}
      style={{ maxWidth: 180, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
    >
      {conversionId}
    </Anchor>
  );
}
