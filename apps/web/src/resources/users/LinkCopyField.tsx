import { Button, CopyButton, TextInput } from '@mantine/core';
import { COPY_FEEDBACK_MS } from '@switchyard/domain';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** §2.6 copy-text: a read-only link with a Copy button that turns the success colour for 1000 ms. */
export function LinkCopyField({ label, link }: { label: string; link: string }) {
  const { t } = useTranslation();
  // The server gives a path when it does not know its public address; this browser does.
  const absolute = new URL(link, window.location.origin).toString();
  return (
    <TextInput
      label={label}
      value={absolute}
      readOnly
      onFocus={(event) => event.currentTarget.select()}
      rightSectionWidth={110}
      rightSection={
        <CopyButton value={absolute} timeout={COPY_FEEDBACK_MS}>
          {({ copied, copy }) => (
            <Button
              size="compact-sm"
              color={copied ? 'teal' : undefined}
              variant={copied ? 'filled' : 'light'}
              leftSection={copied ? <IconCheck size={14} aria-hidden /> : <IconCopy size={14} aria-hidden />}
              onClick={copy}
            >
              {copied ? t('account.invitations.copied') : t('account.invitations.copy')}
            </Button>
          )}
        </CopyButton>
      }
    />
  );
}
