import { Button } from '@mantine/core';
import { COPY_FEEDBACK_MS } from '@switchyard/domain';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showNotice } from '../feedback/showNotice';
import { copyText } from './copyText';

/** The width a text input gives this button as its right section. */
export const COPY_BUTTON_WIDTH = 110;

/**
 * §2.6 copy-text: the Copy button at the end of a read-only value; it copies `value` and turns the
 * success colour, saying Copied, for 1000 ms. Every Copy button is this one, so each copies on a
 * plain-HTTP address too (`copyText`), and says so in a danger notice, with the value to copy by
 * hand, when the browser allows no copying at all.
 */
export function CopyValueButton({ value }: { value: string }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const copy = async () => {
    if (!(await copyText(value))) {
      showNotice({
        kind: 'danger',
        title: t('controls:controls.copy.failedTitle'),
        message: t('controls:controls.copy.failed', { value }),
      });
      return;
    }
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPY_FEEDBACK_MS);
  };

  return (
    <Button
      size="compact-sm"
      color={copied ? 'teal' : undefined}
      variant={copied ? 'filled' : 'light'}
      leftSection={copied ? <IconCheck size={14} aria-hidden /> : <IconCopy size={14} aria-hidden />}
      onClick={copy}
      data-copied={copied || undefined}
    >
      {copied ? t('resources:form.copied') : t('resources:form.copy')}
    </Button>
  );
}
