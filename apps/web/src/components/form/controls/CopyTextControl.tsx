import { Button, CopyButton, TextInput } from '@mantine/core';
import { COPY_FEEDBACK_MS } from '@switchyard/domain';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { FormControlProps } from '../types';

/** A read-only value with a Copy button that turns the success colour for 1000 ms after copying (§2.6). */
export function CopyTextControl({ element, value, label, description, placeholder, error }: FormControlProps) {
  const { t } = useTranslation();
  const text = value == null ? '' : String(value);
  return (
    <TextInput
      name={element.name}
      label={label}
      description={description}
      placeholder={placeholder}
      error={error}
      value={text}
      readOnly
      rightSectionWidth={110}
      rightSection={
        <CopyButton value={text} timeout={COPY_FEEDBACK_MS}>
          {({ copied, copy }) => (
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
          )}
        </CopyButton>
      }
      {...element.input}
    />
  );
}
