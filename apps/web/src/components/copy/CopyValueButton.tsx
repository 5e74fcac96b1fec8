import { Button, CopyButton } from '@mantine/core';
import { COPY_FEEDBACK_MS } from '@switchyard/domain';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** The width a text input gives this button as its right section. */
export const COPY_BUTTON_WIDTH = 110;

/**
 * §2.6 copy-text: the Copy button at the end of a read-only value; it copies `value` and turns the
 * success colour, saying Copied, for 1000 ms.
 */
export function CopyValueButton({ value }: { value: string }) {
  const { t } = useTranslation('resources');
  return (
    <CopyButton value={value} timeout={COPY_FEEDBACK_MS}>
      {({ copied, copy }) => (
        <Button
          size="compact-sm"
          color={copied ? 'teal' : undefined}
          variant={copied ? 'filled' : 'light'}
          leftSection={copied ? <IconCheck size={14} aria-hidden /> : <IconCopy size={14} aria-hidden />}
          onClick={copy}
          data-copied={copied || undefined}
        >
          {copied ? t('form.copied') : t('form.copy')}
        </Button>
      )}
    </CopyButton>
  );
}
