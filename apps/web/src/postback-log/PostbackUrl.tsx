import { TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { COPY_BUTTON_WIDTH, CopyValueButton } from '../components/copy/CopyValueButton';
import { networkPostbackUrl } from '../components/form/controls/networkPostbackUrl';

/**
 * The address affiliate networks call, built as the affiliate network form builds it (this dashboard's
 * origin, which is the tracker's), with the usual macro names: a network's own go where the braces are.
 */
export function PostbackUrl() {
  const { t } = useTranslation('postbacks');
  const url = networkPostbackUrl(window.location.origin, {
    click_id: 'clickid',
    payout: 'payout',
    status: 'status',
    txid: 'txid',
  });
  return (
    <TextInput
      label={t('empty.postbackUrl')}
      value={url}
      readOnly
      dir="ltr"
      w="100%"
      maw={720}
      styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
      rightSectionWidth={COPY_BUTTON_WIDTH}
      rightSection={<CopyValueButton value={url} />}
    />
  );
}
