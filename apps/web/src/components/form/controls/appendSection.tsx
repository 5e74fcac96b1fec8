import { Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { FormElement } from '../types';

/** The `appendIcon` / `appendText` of an element, for an input's right section. */
export function useAppendSection(element: FormElement): ReactNode {
  const { t } = useTranslation();
  if (element.appendIcon) return element.appendIcon;
  if (element.appendText)
    return (
      <Text size="sm" c="dimmed">
        {t(element.appendText)}
      </Text>
    );
  return null;
}
