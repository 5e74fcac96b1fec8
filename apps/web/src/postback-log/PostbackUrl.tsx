import { Button, CopyButton, TextInput } from '@mantine/core';
import { COPY_FEEDBACK_MS } from '@switchyard/domain';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
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
      rightSectionWidth={110}
      rightSection={
        <CopyButton value={url} timeout={COPY_FEEDBACK_MS}>
          {({ copied, copy }) => (
            <Button
              size="compact-sm"
              color={copied ? 'teal' : undefined}
              variant={copied ? 'filled' : 'light'}
              leftSection={copied ? <IconCheck size={14} aria-hidden /> : <IconCopy size={14} aria-hidden />}
              onClick={copy}
            >
              {copied ? t('resources:form.copied') : t('resources:form.copy')}
            </Button>
          )}
        </CopyButton>
      }
    />
  );
}
